"""Small helpers for the values the browser hands Python (shared by the browser room)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_proxy, to_js
from pyscript import window

try:  # JS null arrives as this object, not as None
    from pyodide.ffi import jsnull
except ImportError:  # pragma: no cover - older Pyodide: JS null is None
    jsnull = None


def missing(value: Any) -> bool:
    """``True`` for a JS ``null``/``undefined`` result (``None`` or Pyodide's ``jsnull``)."""
    return value is None or value is jsnull or type(value).__name__ == "JsNull"


def js_object(value: Any) -> Any:
    """``value`` with its dicts and lists made JS objects and arrays."""
    return to_js(value, dict_converter=window.Object.fromEntries)


def animate(element: Any, frames: list[dict[str, object]], options: dict[str, object]) -> Any:
    """Start ``element.animate(frames, options)``; its Animation."""
    return element.animate(js_object(frames), js_object(options))


def listen(target: Any, kind: str, handler: Callable[..., object], capture: bool = False) -> Any:
    """Call ``handler`` on each ``kind`` event of ``target``; the proxy, which lives as long
    as the page."""
    proxy = create_proxy(handler)
    target.addEventListener(kind, proxy, capture)
    return proxy

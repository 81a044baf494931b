"""Small helpers shared by the browser room: JS values, elements, the clipboard and the links
the page hands out, and solver work run in time slices."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Generator, Mapping
from datetime import date
from typing import Any, TypeVar

from pyodide.ffi import create_proxy, to_js
from pyscript import document, window

from nestor import Game

from ..app.replay import link_query
from ..app.slices import run_sliced

try:  # JS null arrives as this object, not as None
    from pyodide.ffi import jsnull
except ImportError:  # pragma: no cover - older Pyodide: JS null is None
    jsnull = None

T = TypeVar("T")


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
    """Call ``handler`` on each ``kind`` event of ``target``; the proxy (kept by the caller)."""
    proxy = create_proxy(handler)
    target.addEventListener(kind, proxy, capture)
    return proxy


def _assign(element: Any, name: str, value: str | bool) -> bool:
    """Set ``element``'s DOM property ``name`` to ``value`` only when it differs (read as
    ``value``'s type); ``True`` if it wrote."""
    if type(value)(getattr(element, name)) == value:
        return False
    setattr(element, name, value)
    return True


def set_text(element: Any, text: str) -> bool:
    """Write ``element``'s text only when it changes (a write costs a layout); ``True`` if
    it did."""
    return _assign(element, "textContent", text)


def set_hidden(element: Any, hidden: bool) -> bool:
    """Hide or show ``element``, writing only a change; ``True`` if it did."""
    return _assign(element, "hidden", hidden)


def flag(element: Any, name: str, value: str | None) -> bool:
    """Set the attribute ``name`` to ``value``, or remove it for ``None``, writing only a
    change (the same value written again still has the style worked out again); ``True`` if
    it wrote."""
    current = element.getAttribute(name)
    if value is None:
        if missing(current):
            return False
        element.removeAttribute(name)
    elif not missing(current) and str(current) == value:
        return False
    else:
        element.setAttribute(name, value)
    return True


def set_disabled(element: Any, disabled: bool) -> bool:
    """Disable or enable ``element``, writing only a change; ``True`` if it did."""
    return _assign(element, "disabled", disabled)


def fine_pointer() -> bool:
    """Has the screen a mouse or a trackpad (a keyboard likely)?"""
    return bool(window.matchMedia("(any-pointer: fine)").matches)


def focus_quietly(element: Any, ring: bool = False) -> None:
    """Focus ``element``, its focus ring shown only if ``ring``."""
    element.focus(js_object({"focusVisible": ring}))


def show_copy(box: Any, field: Any, text: str, copied: bool) -> None:
    """Show ``text`` in ``field``, ``box``'s ``data-copied``; if not ``copied``, select it."""
    field.value = text
    box.setAttribute("data-copied", "true" if copied else "false")
    if not copied:
        field.focus()
        field.select()


def mode_key(event: Any, keys: Mapping[str, str]) -> str | None:
    """The command ``keys`` (letters in lower case) gives ``event``'s key; ``None`` with a
    modifier, in a field, or for Space on a button (which presses it)."""
    if event.ctrlKey or event.metaKey or event.altKey:
        return None
    target = event.target
    tag = str(target.tagName).lower() if not missing(target.tagName) else ""
    key = str(event.key)
    if tag in ("input", "select", "textarea", "summary") or (key == " " and tag == "button"):
        return None
    return keys.get(key.lower() if len(key) == 1 else key)


def local_today() -> date:
    """The player's local calendar date, from the browser's clock and time zone."""
    now = window.Date.new()
    return date(int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))


def page_link(query: str) -> str:
    """This page's address (origin and path, as loaded) with ``query`` (``"?..."``, or ``""``)."""
    location = window.location
    return f"{location.origin}{location.pathname}{query}"


def game_link(game: Game) -> str:
    """The replay link of ``game``'s moves in effect."""
    return page_link(link_query(game))


async def to_clipboard(text: str) -> bool:
    """Write ``text`` to the clipboard; ``False`` if the browser has none or refuses."""
    clipboard: Any = getattr(window.navigator, "clipboard", None)
    if missing(clipboard):
        return False
    try:
        await clipboard.writeText(text)
    except Exception:  # noqa: BLE001 - any refusal
        return False
    return True


class Tasks:
    """Runs work beside the page, and solver generators in slices with ``<body data-busy>``."""

    def __init__(self) -> None:
        self.running = 0
        self._keep: set[asyncio.Future[Any]] = set()

    def spawn(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Start the coroutine ``make()`` beside the page (its reference is kept until done)."""
        future = asyncio.ensure_future(make())
        self._keep.add(future)
        future.add_done_callback(self._keep.discard)

    async def sliced(self, steps: Generator[None, None, T]) -> T:
        """Run ``steps`` in the page's time slices, yielding to the page between."""
        self.running += 1
        document.body.setAttribute("data-busy", "")
        try:
            return await run_sliced(steps)
        finally:
            self.running -= 1
            if not self.running:
                document.body.removeAttribute("data-busy")

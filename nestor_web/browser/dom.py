"""Small helpers for the values the browser hands Python (shared by the browser room)."""

from __future__ import annotations

from typing import Any

try:  # JS null arrives as this object, not as None
    from pyodide.ffi import jsnull
except ImportError:  # pragma: no cover - older Pyodide: JS null is None
    jsnull = None


def missing(value: Any) -> bool:
    """``True`` for a JS ``null``/``undefined`` result (``None`` or Pyodide's ``jsnull``)."""
    return value is None or value is jsnull or type(value).__name__ == "JsNull"

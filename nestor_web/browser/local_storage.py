"""The browser's localStorage as the storage manager's key-value store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_proxy
from pyscript import window

from ..app.events import Problem
from ..storage.manager import KeyValueStore, MemoryStore

PROBE_KEY = "nestor.probe"
"""Written once at start-up to learn whether the browser lets the game save."""


class LocalStorage:
    """``window.localStorage`` as a :class:`~nestor_web.storage.manager.KeyValueStore`."""

    def get(self, key: str) -> str | None:
        """The text stored under ``key``, or ``None``."""
        value = window.localStorage.getItem(key)
        # JS null arrives as ``None`` or as Pyodide's ``jsnull``; stored values are strings.
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` (raises the browser's error if it refuses)."""
        window.localStorage.setItem(key, value)


def open_store() -> tuple[KeyValueStore, Problem | None]:
    """localStorage if the browser allows it, else memory and the problem to report."""
    try:
        store = LocalStorage()
        store.set(PROBE_KEY, "1")
        return store, None
    except Exception:  # the browser forbids storage (e.g. blocked cookies)
        return MemoryStore(), Problem("storage.forbidden")


def watch_other_tabs(changed: Callable[[str | None], None]) -> Any:
    """Call ``changed(key)`` whenever another tab writes localStorage (``None``: cleared).

    Returns the listener's proxy, which must live as long as the page.
    """

    def on_storage(event: Any) -> None:
        key = event.key
        changed(key if isinstance(key, str) else None)

    proxy = create_proxy(on_storage)
    window.addEventListener("storage", proxy)
    return proxy

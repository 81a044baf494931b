"""The browser's stores for the storage manager: localStorage as its key-value store, and
IndexedDB (through static/js/durable.js) as its durable copy."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pyodide.ffi import create_once_callable
from pyscript import window

from ..app.events import Problem
from ..storage.keys import Done, DurableCopy, KeyValueStore, MemoryStore, Snapshot, StoreRefused
from .dom import js_object

PROBE_KEY = "nestor.probe"  # written at start-up: may the game save?


class LocalStorage:
    """``window.localStorage`` as a :class:`~nestor_web.storage.manager.KeyValueStore`."""

    def get(self, key: str) -> str | None:
        value = window.localStorage.getItem(key)
        # JS null arrives as ``None`` or as Pyodide's ``jsnull``; stored values are strings.
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        try:
            window.localStorage.setItem(key, value)
        except Exception as exc:  # a JS error, as Pyodide hands it over
            raise store_refused(exc) from exc


# Where Pyodide's Error quotes a thrown value that is no Error (a wrapped setItem's DOMException).
THROWN = re.compile(r'String interpolation of the thrown value gives """(.*?)"""', re.DOTALL)

NAMED = re.compile(r"([A-Za-z_$][\w$]*)(?:: (.*))?", re.DOTALL)  # "Name: message", or a name


def store_refused(exc: Exception) -> StoreRefused:
    """The browser's error (its name and message) behind Pyodide's ``exc`` on a refused write."""
    name, message = getattr(exc, "name", None), getattr(exc, "message", None)
    if not isinstance(name, str) or not isinstance(message, str):
        return StoreRefused(type(exc).__name__, str(exc))
    thrown = THROWN.search(message) if name == "Error" else None
    if thrown is not None:
        named = NAMED.fullmatch(thrown.group(1))
        if named is None:
            return StoreRefused("Error", thrown.group(1))
        return StoreRefused(named.group(1), named.group(2) or "")
    return StoreRefused(name, message)


def open_store() -> tuple[KeyValueStore, Problem | None]:
    """localStorage if the browser allows it, else memory and the problem to report."""
    try:
        store = LocalStorage()
        store.set(PROBE_KEY, "1")
        return store, None
    except Exception:  # the browser forbids storage (e.g. blocked cookies)
        return MemoryStore(), Problem("storage.forbidden")


class IndexedDbCopy:
    """``window.nestorDurable`` as a :class:`~nestor_web.storage.keys.DurableCopy`."""

    def __init__(self, api: Any) -> None:
        self._api = api

    def write(self, seq: int, entries: Mapping[str, str], done: Done) -> None:
        """Start one durable write; ``done`` gets ``None`` or the error's name (see there)."""
        self._api.write(seq, js_object(dict(entries))).then(create_once_callable(
            lambda error: done(error if isinstance(error, str) else None)))


async def only_page() -> bool | None:
    """Is this the game's only open page (Web Locks, static/js/durable.js)? ``None``: unknown."""
    api: Any = getattr(window, "nestorDurable", None)
    try:
        answer = await api.alone
    except Exception:  # no durable.js, no Web Locks, or a refusal: not known
        return None
    return answer if isinstance(answer, bool) else None


async def open_durable() -> tuple[DurableCopy | None, Snapshot | None]:
    """The durable copy and what it held at start-up; ``(None, None)`` if IndexedDB fails."""
    api = getattr(window, "nestorDurable", None)
    if api is None:
        return None, None
    try:
        got = (await api.snapshot).to_py()
    except Exception:  # null (no IndexedDB) has no to_py; anything else: the same
        return None, None
    if not isinstance(got, dict):
        return None, None
    seq, entries = got.get("seq"), got.get("entries")
    if not isinstance(seq, int | float) or not isinstance(entries, dict):
        return None, None
    texts = {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, str)}
    return IndexedDbCopy(api), Snapshot(int(seq), texts)

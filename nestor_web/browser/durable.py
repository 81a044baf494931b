"""The browser's IndexedDB as the storage manager's durable copy (static/js/durable.js)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pyodide.ffi import create_once_callable
from pyscript import window

from ..storage.keys import Done, DurableCopy, Snapshot
from .dom import js_object


class IndexedDbCopy:
    """``window.nestorDurable`` as a :class:`~nestor_web.storage.keys.DurableCopy`."""

    def __init__(self, api: Any) -> None:
        self._api = api

    def write(self, seq: int, entries: Mapping[str, str], done: Done) -> None:
        """Start one durable write; ``done`` gets ``None`` or the error's name (see there)."""

        def answered(error: Any) -> None:
            done(error if isinstance(error, str) else None)

        self._api.write(seq, js_object(dict(entries))).then(create_once_callable(answered))


async def only_page() -> bool | None:
    """Whether this page is the only page of the game open (static/js/durable.js holds a
    shared Web Lock per page and counts them); ``None`` when not known."""
    api: Any = getattr(window, "nestorDurable", None)
    try:
        answer = await api.alone
    except Exception:  # no durable.js, no Web Locks, or a refusal: not known
        return None
    return answer if isinstance(answer, bool) else None


async def open_durable() -> tuple[DurableCopy | None, Snapshot | None]:
    """The durable copy and what it held at start-up; ``(None, None)`` without IndexedDB.

    Never raises: a copy that cannot be read is treated as none (localStorage only).
    """
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

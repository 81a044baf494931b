"""The durable copy of what the game keeps: its protocol, its sequence numbers, its memory form.

localStorage is fast and synchronous (the first paint reads it before Python starts), but
Chromium writes it to disk lazily: a browser killed seconds after a move loses it (measured in
Debian Chromium: values written 0.2-2 s before a SIGKILL of the whole browser were gone, even
one written a second before another). An IndexedDB transaction that has completed survived
the same kill 0.2 s later. So every save goes to both: localStorage at once, and the same
values to the durable copy (the browser's IndexedDB, ``nestor_web/browser/durable.py``), in
one transaction per save.

Each save carries a sequence number (:func:`next_seq`), stored in both under
:data:`SEQ_KEY`; at start-up the copy with the higher number wins (:func:`newer`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

Done = Callable[[str | None], None]
"""Called once a durable write ended: with ``None`` when it is durable, else an error name."""

SEQ_KEY = "nestor.seq"
"""Both stores: the sequence number of the save that wrote them last (decimal text)."""


@dataclass(frozen=True)
class Snapshot:
    """What a durable copy held at start-up: its sequence number and its values by key.

    ``seq`` is 0 for an empty copy (or one whose number was unreadable).
    """

    seq: int
    entries: Mapping[str, str] = field(default_factory=dict)


class DurableCopy(Protocol):
    """Storage that survives a crash once a write has been confirmed (IndexedDB)."""

    def write(self, seq: int, entries: Mapping[str, str], done: Done) -> None:
        """Store ``entries`` (key -> text) and ``SEQ_KEY`` = ``seq`` in one atomic write.

        Returns at once; ``done(None)`` is called once the write is durable, or
        ``done(error_name)`` if it failed (nothing of it was stored).
        """


class MemoryCopy:
    """A :class:`DurableCopy` in a dict that confirms each write at once (for tests, and the
    stand-in of a browser without IndexedDB).

    Attributes:
        data: the values stored, :data:`SEQ_KEY` included.
        refuse: when set, each write fails with this error name and stores nothing.
    """

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data: dict[str, str] = dict(data or {})
        self.refuse: str | None = None

    def write(self, seq: int, entries: Mapping[str, str], done: Done) -> None:
        """Store ``entries`` and the sequence number, then call ``done`` (see the protocol)."""
        if self.refuse is not None:
            done(self.refuse)
            return
        self.data.update(entries)
        self.data[SEQ_KEY] = str(seq)
        done(None)

    def snapshot(self) -> Snapshot:
        """What a new page would read from this copy."""
        return Snapshot(seq_of(self.data.get(SEQ_KEY)), {
            k: v for k, v in self.data.items() if k != SEQ_KEY
        })


def seq_of(text: str | None) -> int:
    """The sequence number stored as ``text``; 0 for none or anything unreadable."""
    if text is None or not text.isdigit() or len(text) > 20:
        return 0
    return int(text)


def next_seq(last: int, now_ms: int) -> int:
    """The number of the next save: above ``last`` and at least the clock (ms since 1970).

    The clock keeps numbers growing across tabs and visits without reading the store: the
    save made last, by whichever tab, has the highest number.
    """
    return max(last + 1, now_ms)


def newer(local_seq: int, durable: Snapshot | None) -> bool:
    """Whether the durable copy is newer than the local store (a crash took the latter back)."""
    return durable is not None and durable.seq > local_seq


__all__ = [
    "SEQ_KEY", "Done", "DurableCopy", "MemoryCopy", "Snapshot", "newer", "next_seq", "seq_of",
]

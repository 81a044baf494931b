"""The durable copy of what the game keeps: its protocol, its sequence numbers, its memory form."""

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
    """What a durable copy held at start-up: its sequence number and its values by key."""

    seq: int
    entries: Mapping[str, str] = field(default_factory=dict)


class DurableCopy(Protocol):
    """Storage that survives a crash once a write has been confirmed (IndexedDB)."""

    def write(self, seq: int, entries: Mapping[str, str], done: Done) -> None:
        """Store ``entries`` (key -> text) and ``SEQ_KEY`` = ``seq`` in one atomic write."""


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
    """The number of the next save: above ``last`` and at least the clock (ms since 1970)."""
    return max(last + 1, now_ms)


def newer(local_seq: int, durable: Snapshot | None) -> bool:
    """Whether the durable copy is newer than the local store (a crash took the latter back)."""
    return durable is not None and durable.seq > local_seq

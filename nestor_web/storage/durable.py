"""The durable copy of what the game keeps: its protocol and its sequence numbers."""

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


def seq_of(text: str | None) -> int:
    """The sequence number stored as ``text``; 0 for none or anything unreadable."""
    if text is None or not text.isdigit() or len(text) > 20:
        return 0
    return int(text)


def next_seq(last: int, now_ms: int) -> int:
    """The number of the next save: above ``last`` and at least the clock (ms since 1970)."""
    return max(last + 1, now_ms)

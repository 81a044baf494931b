"""The keys the game keeps, and the stores: localStorage's protocol (:class:`KeyValueStore`), its
memory form and refusal; the durable copy's (:class:`DurableCopy`) and its sequence numbers."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from nestor.errors import clip

# What each key holds, and its shape: docs/formats.md.
SAVE_KEY = "nestor.game"
SETTINGS_KEY = "nestor.settings"
STATS_KEY = "nestor.stats"
ARCHIVE_KEY = "nestor.archive"
BOARD_KEY = "nestor.board"
DIVERGED_KEY = "nestor.diverged"
REPLACED_KEY = "nestor.replaced"
GRADES_KEY = "nestor.grades"
TUTORIAL_KEY = "nestor.tutorial"
PUZZLES_KEY = "nestor.puzzles"
SEQ_KEY = "nestor.seq"  # both stores: the number of the save that wrote them last
UNREADABLE = ".unreadable"  # suffix of the key where an unreadable value is set aside

KEYS = (
    SAVE_KEY, SETTINGS_KEY, STATS_KEY, ARCHIVE_KEY, BOARD_KEY, DIVERGED_KEY, REPLACED_KEY,
    GRADES_KEY, TUTORIAL_KEY, PUZZLES_KEY,
)
"""Every key the game owns (each also with :data:`UNREADABLE`), and :data:`SEQ_KEY`."""

NOT_DURABLE = (BOARD_KEY, GRADES_KEY)  # in localStorage only: the first paint's board, a cache

ARCHIVE_SIZE = 20  # most games kept in the archive; the oldest is dropped first
LOST = ".lost"  # ends an unreadable value's problem code when it could not be set aside


def json_text(data: object) -> str:
    """``data`` as compact JSON (no blanks), the form of every stored value."""
    return json.dumps(data, separators=(",", ":"))


class StoreRefused(Exception):
    """A store refused a write: the browser's error name (``"QuotaExceededError"``) and message."""

    def __init__(self, name: str, message: str = "") -> None:
        super().__init__(f"{name}: {message}" if message else name)
        self.name = name
        self.message = message


class KeyValueStore(Protocol):
    """Text storage by key, such as the browser's localStorage."""

    def get(self, key: str) -> str | None:
        """The text stored under ``key``, or ``None``."""

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``; raises (best :class:`StoreRefused`) if refused."""


class MemoryStore:
    """A :class:`KeyValueStore` in a dict, when the browser refuses storage (and for tests)."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data: dict[str, str] = dict(data or {})

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        self.data[key] = value


def refusal_name(exc: Exception) -> str:
    """A store's refusal as a report names it: its error's name (or message, if just "Error")."""
    if isinstance(exc, StoreRefused):
        name = exc.message if exc.name == "Error" and exc.message else exc.name
    else:
        name = type(exc).__name__
    return clip(name)


Done = Callable[[str | None], None]  # a durable write ended: None if durable, else an error name


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

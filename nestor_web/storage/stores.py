"""localStorage and the durable copy, written as one: numbered saves, refusals held and reported."""

from __future__ import annotations

import time
from collections.abc import Callable

from nestor import NestorError

from ..app.events import Problem
from .codecs import archive_from_text, game_from_text, settings_from_text
from .keys import (
    ARCHIVE_KEY,
    KEYS,
    LOST,
    NOT_DURABLE,
    PUZZLES_KEY,
    SAVE_KEY,
    SEQ_KEY,
    SETTINGS_KEY,
    STATS_KEY,
    UNREADABLE,
    DurableCopy,
    KeyValueStore,
    Snapshot,
    next_seq,
    refusal_name,
    seq_of,
)
from .stats_codec import stats_from_text

REFUSED = "storage.refused"  # a save localStorage refused and no durable copy holds: lost
KEPT = "storage.refused.kept"  # a value localStorage refused and the durable copy holds


def _puzzles_from_text(text: str) -> object:
    from .puzzle_codec import record_from_text  # (not imported at start-up)

    return record_from_text(text)


_DECODERS: dict[str, tuple[Callable[[str], object], str]] = {
    SAVE_KEY: (game_from_text, "save.unreadable"),
    SETTINGS_KEY: (settings_from_text, "settings.unreadable"),
    STATS_KEY: (stats_from_text, "stats.unreadable"),
    ARCHIVE_KEY: (archive_from_text, "archive.unreadable"),
    PUZZLES_KEY: (_puzzles_from_text, "puzzles.unreadable"),
}
"""The reader of each value start-up may take from the durable copy, and its problem's code."""


def _readable(decode: Callable[[str], object], text: str) -> bool:
    """Whether ``decode`` reads ``text`` without any error (a stored text may make it raise any)."""
    try:
        decode(text)
    except Exception:
        return False
    return True


class Stores:
    """localStorage (``store``) and the durable copy (IndexedDB) written as one numbered save; a
    value localStorage refuses is written again at each save, and read from here meanwhile."""

    def __init__(
        self, store: KeyValueStore, durable: DurableCopy | None, snapshot: Snapshot | None
    ) -> None:
        self.store = store
        self.durable = durable
        self.late: Callable[[], None] = lambda: None  # told of a problem after its save
        self.problems: list[Problem] = []  # for the player, until taken
        self.written: dict[str, str] = {}  # what was last written (or read), by key
        self._pending: dict[str, str] = {}  # values for the durable copy's next write
        self._unnumbered = False  # a value was written since the last sequence number
        self._held: list[Problem] = []  # the store refused these; reported if the copy fails too
        self._unsaved: dict[str, str] = {}  # values localStorage refused, to write again
        self._told_partial = False  # the player was told localStorage refused part of a save
        self._overlay: dict[str, str] = {}  # the durable copy's values, when it was newer
        self._seq = seq_of(store.get(SEQ_KEY))
        self._stored_seq = self._seq  # the number localStorage holds
        self.seen = self._seq  # the highest sequence number this tab wrote or took in
        # The durable copy is newer than localStorage (a crash took it back): start-up takes it.
        self.restored = snapshot is not None and snapshot.seq > self._seq
        if snapshot is not None and self.restored:
            self._overlay = self._readable_over(snapshot)
            self._seq = snapshot.seq
            for key, value in self._overlay.items():  # repair localStorage for the first paint
                self.write(key, value, durable=False)
            self._put_seq()
            self.written.clear()  # start-up reads them as if the store had them
        elif snapshot is not None and snapshot.seq < self._seq:
            # The store took a save the copy never got (the page went before the copy's
            # write finished): the page's first save sends the copy what it lacks.
            held = {key: store.get(key) for key in KEYS if key not in NOT_DURABLE}
            self._pending = {
                k: v for k, v in held.items() if v is not None and snapshot.entries.get(k) != v
            }
            self._unnumbered = True
        self.seen = self._seq

    def _readable_over(self, snapshot: Snapshot) -> dict[str, str]:
        """The newer durable copy's values to take: all but bad ones where the store's read."""
        taken: dict[str, str] = {}
        for key, value in snapshot.entries.items():
            held = self.store.get(key)
            decode, code = _DECODERS.get(key, (None, ""))
            if (
                decode is not None and held is not None and held != value
                and not _readable(decode, value) and _readable(decode, held)
            ):
                self.set_aside(key, value, code, quiet=True)
                self._pending[key] = held
                self._unnumbered = True
                continue
            taken[key] = value
        return taken

    def get(self, key: str) -> str | None:
        """``key``'s text: one localStorage refused, the newer durable copy's, or the store's."""
        if key in self._unsaved:
            return self._unsaved[key]
        if key in self._overlay:
            return self._overlay[key]
        return self.store.get(key)

    def forget(self, key: str | None) -> None:
        """Another tab wrote ``key`` (``None``: it cleared the storage): its value is newer."""
        if key is None:
            self.written.clear()
            self._unsaved.clear()
        else:
            self.written.pop(key, None)
            self._unsaved.pop(key, None)
        self._overlay.clear()

    def set_aside(
        self, key: str, text: str, code: str, error: NestorError | None = None,
        quiet: bool = False,
    ) -> None:
        """Copy unreadable ``text`` to ``key`` + :data:`UNREADABLE` and report ``code`` (unless
        ``quiet``), or ``code`` + :data:`LOST` with the refusal if the store refused the copy."""
        try:
            self.store.set(key + UNREADABLE, text)
        except Exception as exc:  # the browser's storage may refuse any write
            self.report(Problem(code + LOST, error, (("refusal", refusal_name(exc)),)))
            return
        self.written[key + UNREADABLE] = text
        if not quiet:
            self.report(Problem(code, error))

    def report(self, problem: Problem) -> None:
        """Add ``problem`` to the problems, unless it is there already."""
        if problem not in self.problems:
            self.problems.append(problem)

    def take_problems(self) -> list[Problem]:
        """The problems reported since the last call (and forget them)."""
        problems, self.problems = self.problems, []
        return problems

    def write(self, key: str, value: str, durable: bool = True) -> bool:
        """Write to localStorage and (unless the copy holds it, ``durable`` false) note it for the
        durable copy; whether localStorage took it."""
        if durable and key not in NOT_DURABLE:
            self._unnumbered = True  # the save gets a number (other tabs catch up by it)
            if self.durable is not None:
                self._pending[key] = value
        try:
            self.store.set(key, value)
        except Exception as exc:  # the browser's storage may refuse any write
            if key in NOT_DURABLE:
                return False  # the board or the grades: nothing of the player's is lost
            self._unsaved[key] = value
            problem = Problem(REFUSED, args=(("error", refusal_name(exc)),))
            if self.durable is None:
                self.report(problem)
            elif not durable:
                self._tell_kept(problem)
            elif problem not in self._held:
                self._held.append(problem)
            return False
        self._unsaved.pop(key, None)
        self.written[key] = value
        return True

    def commit(self) -> None:
        """End a save: write again what localStorage refused, number it, send it to the copy."""
        for key, value in list(self._unsaved.items()):
            try:
                self.store.set(key, value)
            except Exception:  # still full: the durable copy holds it meanwhile
                continue
            del self._unsaved[key]
            self.written[key] = value
        if self._unnumbered or self._pending or self._held:
            self._unnumbered = False
            self._seq = next_seq(max(self._seq, self.seen), time.time_ns() // 1_000_000)
            self.seen = self._seq
            entries, self._pending = self._pending, {}
            held, self._held = self._held, []
            if self.durable is not None:
                self.durable.write(
                    self._seq, entries, lambda error: self._durable_done(error, held)
                )
        self._put_seq()

    def _put_seq(self) -> None:
        """Number localStorage once it holds all of the save, unless another tab saved since."""
        if self._unsaved:
            return
        self._told_partial = False  # a refusal from now on is told again
        if self._stored_seq == self._seq or self._seq < self.seen:
            return
        try:
            self.store.set(SEQ_KEY, str(self._seq))
        except Exception:  # an older number: start-up reads the durable copy, as it should
            return
        self._stored_seq = self._seq

    def _durable_done(self, error: str | None, held: list[Problem]) -> None:
        """The durable copy's reply (``error``: its name) to a save localStorage refused in part."""
        if not held:
            return
        if error is not None:
            for problem in held:
                self.report(problem)
        else:
            self._tell_kept(held[0])
        self.late()

    def _tell_kept(self, refused: Problem) -> None:
        if not self._told_partial:
            self._told_partial = True
            self.report(Problem(KEPT, args=refused.args))

"""The storage manager: every key the game keeps, reading at start-up, saving what changed."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, TypeVar

from nestor import NestorError
from nestor.jsontext import loads

from ..app.events import Event, Problem, Restored
from ..app.session import SavedGame, Session
from ..app.settings import Settings
from ..app.statistics import Stats
from ..app.url import parse_query
from .archive import Archive, archive_from_text
from .codecs import (
    board_to_text,
    game_from_text,
    game_to_text,
    settings_from_text,
    settings_kept_from_text,
    settings_to_text,
)
from .durable import SEQ_KEY, DurableCopy, Snapshot, newer, next_seq, seq_of
from .keys import (
    ARCHIVE_KEY,
    ARCHIVE_SIZE,
    BOARD_KEY,
    DIVERGED_KEY,
    GRADES_KEY,
    KEYS,
    LOST,
    NOT_DURABLE,
    PUZZLES_KEY,
    REPLACED_KEY,
    SAVE_KEY,
    SETTINGS_KEY,
    STATS_KEY,
    TUTORIAL_KEY,
    UNREADABLE,
    KeyValueStore,
    MemoryStore,
    StoreRefused,
    refusal_name,
)
from .stats_codec import stats_from_text, stats_to_text
from .tabs import TabSync

if TYPE_CHECKING:  # read at a restore, not at start-up
    from ..app.backup import Parts
    from ..app.puzzle_record import PuzzleRecord
    from .progress import Progress

T = TypeVar("T")

REFUSED = "storage.refused"
"""The problem of a save localStorage refused and there is no durable copy of (or the durable copy
refused it too): the player's progress is not kept."""
KEPT = "storage.refused.kept"
"""The problem of a value localStorage refused and the durable copy holds: nothing is lost."""


def _clock_ms() -> int:
    return time.time_ns() // 1_000_000


def _puzzles_from_text(text: str) -> PuzzleRecord:
    """The puzzle record of ``text`` (:mod:`.puzzle_codec`, imported when one is read)."""
    from .puzzle_codec import record_from_text

    return record_from_text(text)


_DECODERS: dict[str, tuple[Callable[[str], object], str]] = {
    SAVE_KEY: (game_from_text, "save.unreadable"),
    SETTINGS_KEY: (settings_from_text, "settings.unreadable"),
    STATS_KEY: (stats_from_text, "stats.unreadable"),
    ARCHIVE_KEY: (archive_from_text, "archive.unreadable"),
    PUZZLES_KEY: (_puzzles_from_text, "puzzles.unreadable"),
}
"""How start-up reads each value it may take from the durable copy (to tell a readable one), and the
problem's code for that value when it is unreadable."""


def _or_none(text: str) -> SavedGame | None:
    """The saved game of ``text``, or ``None`` if it cannot be read."""
    try:
        return game_from_text(text)
    except NestorError:
        return None


def _texts(parts: Parts) -> tuple[str, ...]:
    """What ``parts`` would store, as texts (two parts that store the same are the same)."""
    from .progress import values_from_parts

    values = values_from_parts(parts)
    return tuple(values.get(key, "") for key in (
        SAVE_KEY, STATS_KEY, ARCHIVE_KEY, SETTINGS_KEY, PUZZLES_KEY))


def _readable(decode: Callable[[str], object], text: str) -> bool:
    """Whether ``decode`` reads ``text`` without an error (any error: see :meth:`_read`)."""
    try:
        decode(text)
    except Exception:  # whatever a stored text makes a reader raise
        return False
    return True


class StorageManager(Archive, TabSync):
    """Reads and writes everything the game keeps in one :class:`KeyValueStore`, and a durable copy
    of it.

    Attributes:
        store: the key-value store.
        problems: reports for the player since they were last taken (:meth:`take_problems`).
        restored: whether start-up found the durable copy newer than the store and took it.
        notify: called when a problem is reported later than the save that met it (the durable copy
            answers asynchronously); the page draws it then.
    """

    def __init__(
        self,
        store: KeyValueStore,
        durable: DurableCopy | None = None,
        snapshot: Snapshot | None = None,
        clock_ms: Callable[[], int] = _clock_ms,
    ) -> None:
        self.store = store
        self.durable = durable
        self.clock_ms = clock_ms
        self.notify: Callable[[], None] = lambda: None
        self.problems: list[Problem] = []
        self._pending: dict[str, str] = {}  # values for the durable copy's next write
        self._unnumbered = False  # a value was written since the last sequence number
        self._held: list[Problem] = []  # the store refused these; reported if the copy fails too
        self._written: dict[str, str] = {}  # what this manager last wrote (or read), by key
        self._slot: tuple[str, tuple[str, int] | None] | None = None
        # The game slot as last seen: its text and deal (None: not read yet), or None if empty.
        self._stats_saved: int | None = 0  # the session's stats_changes when last saved
        self._own_game: str | None = None  # the game text this tab saved (or adopted) last
        self._stats_stale = False  # another tab wrote the statistics: merge before saving
        self._game_stale = False  # another tab wrote the game slot: follow() looks at it
        self._settings_stale = False  # another tab wrote the settings: follow() takes them
        self._tutorial_stale = False  # another tab wrote the guide's state
        self._board_of: tuple[str, str] | None = None  # (game text, language) of the board kept
        self._bad_archive: str | None = None  # an unreadable archive already reported
        self._grades_kept: set[tuple[str, int]] = set()  # the session's grades written
        self._seq = seq_of(store.get(SEQ_KEY))
        self._stored_seq = self._seq  # the number localStorage holds
        self._seen = self._seq  # the highest sequence number this tab wrote or took in
        self._unsaved: dict[str, str] = {}  # values localStorage refused, to write again
        self._told_partial = False  # the player was told localStorage refused part of a save
        self._overlay: dict[str, str] = {}  # the durable copy's values, when it was newer
        self.first_visit = False  # resume(): nothing at all was stored
        self.restored = newer(self._seq, snapshot)
        if snapshot is not None and self.restored:
            self._overlay = self._readable_over(snapshot)
            self._seq = snapshot.seq
            for key, value in self._overlay.items():  # repair localStorage for the first paint
                self._write(key, value, durable=False)
            self._put_seq()
            self._written.clear()  # resume() reads them as if the store had them
        elif snapshot is not None and snapshot.seq < self._seq:
            # The store took a save the copy never got (the page went before the copy's
            # write finished): the page's first save sends the copy what it lacks.
            for key in KEYS:
                held = store.get(key)
                if key not in NOT_DURABLE and held is not None and (
                    snapshot.entries.get(key) != held
                ):
                    self._pending[key] = held
            self._unnumbered = True
        self._seen = self._seq

    def _readable_over(self, snapshot: Snapshot) -> dict[str, str]:
        """The newer durable copy's values that start-up takes over the store's: each one, except
        where the copy's value is unreadable and the store's is readable."""
        taken: dict[str, str] = {}
        for key, value in snapshot.entries.items():
            held = self.store.get(key)
            decode, code = _DECODERS.get(key, (None, ""))
            if (
                decode is not None and held is not None and held != value
                and not _readable(decode, value) and _readable(decode, held)
            ):
                self._set_aside(key, value, code, quiet=True)
                self._pending[key] = held
                self._unnumbered = True
                continue
            taken[key] = value
        return taken

    def _get(self, key: str) -> str | None:
        """The stored text under ``key``: the one localStorage refused and the durable copy holds,
        or the durable copy's when it was newer at start-up."""
        if key in self._unsaved:
            return self._unsaved[key]
        if key in self._overlay:
            return self._overlay[key]
        return self.store.get(key)

    # ---- start-up ------------------------------------------------------------------------

    def resume(
        self,
        query: str,
        language: str,
        rng: random.Random | None = None,
        clock: Callable[[], int] | None = None,
        timer_clock: Callable[[], int] | None = None,
        alone: bool | None = None,
        today: Callable[[], date] | None = None,
    ) -> Session:
        """Open the session of a page with URL query ``query`` from what is stored."""
        self.first_visit = all(
            self._get(key) is None for key in (SETTINGS_KEY, SAVE_KEY, STATS_KEY, TUTORIAL_KEY)
        )
        settings = self._read_settings()
        if settings.language is None:
            settings.language = language
        request, link_problem = parse_query(query, today() if today is not None else None)
        if link_problem is not None:
            self.problems.append(link_problem)
        saved = self._read(SAVE_KEY, game_from_text, "save.unreadable")
        if saved is not None:
            self._slot = (self._written[SAVE_KEY], saved.key)
            self._own_game = self._written[SAVE_KEY]
        stats = self._read(STATS_KEY, stats_from_text, "stats.unreadable")
        if stats is None:
            if self._get(STATS_KEY) is not None:
                self._stats_saved = None  # unreadable: replaced by empty statistics now
            stats = Stats()
        session = Session.start(
            request, saved, settings=settings, stats=stats, shelf=self, rng=rng, clock=clock,
            timer_clock=timer_clock,
            leave_saved=alone is not False,
            today=today,
        )
        if alone:
            session.settle_left_games()
        seen = self._get(TUTORIAL_KEY)
        session.tutorial_seen = seen if seen in ("started", "done") else None
        self._written[TUTORIAL_KEY] = seen or ""
        self.save(session)
        return session

    def _read_settings(self) -> Settings:
        """The stored settings (the defaults if none)."""
        text = self._get(SETTINGS_KEY)
        if text is None:
            return Settings()
        try:
            settings, bad = settings_kept_from_text(text)
        except NestorError as exc:
            self._set_aside(SETTINGS_KEY, text, "settings.unreadable", exc)
            return Settings()
        if bad:
            self._set_aside(SETTINGS_KEY, text, "settings.partly", bad[0])
        else:
            self._written[SETTINGS_KEY] = text
        return settings

    def _read(self, key: str, decode: Callable[[str], T], code: str) -> T | None:
        """Decode the text under ``key``; set it aside and report ``code`` if unreadable."""
        text = self._get(key)
        if text is None:
            return None
        try:
            value = decode(text)
        except Exception as exc:  # see the docstring
            self._set_aside(key, text, code, exc if isinstance(exc, NestorError) else None)
            return None
        self._written[key] = text
        return value

    def _set_aside(
        self, key: str, text: str, code: str, error: NestorError | None = None,
        quiet: bool = False,
    ) -> None:
        """Copy unreadable ``text`` to ``key`` + :data:`UNREADABLE` and report ``code`` (``code`` +
        :data:`LOST` with the refusal, if the store refused the copy); ``quiet``: report only the
        refusal (nothing else was lost)."""
        try:
            self.store.set(key + UNREADABLE, text)
        except Exception as exc:  # the browser's storage may refuse any write
            self._report(Problem(code + LOST, error, (("refusal", refusal_name(exc)),)))
            return
        self._written[key + UNREADABLE] = text
        if not quiet:
            self._report(Problem(code, error))

    def _report(self, problem: Problem) -> None:
        """Add ``problem`` to :attr:`problems`, unless it is there already."""
        if problem not in self.problems:
            self.problems.append(problem)

    # ---- saving --------------------------------------------------------------------------

    def save(self, session: Session) -> None:
        """Write whatever changed since the last save: the game, settings, statistics."""
        self._follow_stats(session)
        game_text = game_to_text(session.saved())
        if game_text != self._own_game or SAVE_KEY not in self._written and (
            self._slot is None
        ):
            if self._slot is not None and self._slot[1] != session.key:
                self._keep_in_progress(self._slot[0], session)
            if self._write(SAVE_KEY, game_text):
                self._own_game = game_text
            self._slot = (game_text, session.key)
        settings = settings_to_text(session.settings)
        if settings != self._written.get(SETTINGS_KEY):
            self._write(SETTINGS_KEY, settings)
        if session.stats_changes != self._stats_saved:
            self._stats_saved = session.stats_changes
            self._write(STATS_KEY, stats_to_text(session.stats))
        if session.tutorial_seen and session.tutorial_seen != self._written.get(TUTORIAL_KEY):
            self._write(TUTORIAL_KEY, session.tutorial_seen)
        if session.graded.keys() - self._grades_kept:
            self._keep_grades(session)
        self._commit()

    # ---- the grades the page worked out (.grades) ------------------------------------------

    def kept_grades(self) -> dict[tuple[str, int], str]:
        """The grades this page or another worked out for deals beyond the shipped table, oldest
        first (:mod:`.grades`: ``{}`` if none, or none readable)."""
        from nestor.graded_deals import CUTS_FINGERPRINT

        from .grades import grades_from_text

        return grades_from_text(self.store.get(GRADES_KEY), CUTS_FINGERPRINT)

    def _keep_grades(self, session: Session) -> None:
        """Keep the grades ``session`` worked out, united with those kept (another tab's)."""
        from nestor.graded_deals import CUTS_FINGERPRINT

        from .grades import grades_to_text

        grades = self.kept_grades()
        for key, grade in session.graded.items():
            grades.pop(key, None)
            grades[key] = grade
        try:
            self.store.set(GRADES_KEY, grades_to_text(grades, CUTS_FINGERPRINT))
        except Exception:  # a full or refused store: a cache, not worth a notice
            return
        self._grades_kept = set(session.graded)

    def _commit(self) -> None:
        """End a save: write again what localStorage refused before, give the save a new number if
        it wrote anything, send what it wrote to the durable copy in one write with that number, and
        write the number to localStorage if it holds all of it."""
        self._write_unsaved()
        if self._unnumbered or self._pending or self._held:
            self._unnumbered = False
            self._seq = next_seq(max(self._seq, self._seen), self.clock_ms())
            self._seen = self._seq
            entries, self._pending = self._pending, {}
            held, self._held = self._held, []
            if self.durable is not None:
                self.durable.write(
                    self._seq, entries, lambda error: self._durable_done(error, held)
                )
        self._put_seq()

    def _write_unsaved(self) -> None:
        """Write again each value localStorage refused (a refusal again is not told again)."""
        for key, value in list(self._unsaved.items()):
            try:
                self.store.set(key, value)
            except Exception:  # still full: the durable copy holds it meanwhile
                continue
            del self._unsaved[key]
            self._written[key] = value

    def _put_seq(self) -> None:
        """Write the save's number to localStorage once it holds every value of it (a store that
        holds a save in part keeps an older number, so start-up reads the durable copy); not once
        another tab saved since (its number is higher)."""
        if self._unsaved:
            return
        self._told_partial = False  # a refusal from now on is told again
        if self._stored_seq == self._seq or self._seq < self._seen:
            return
        try:
            self.store.set(SEQ_KEY, str(self._seq))
        except Exception:  # an older number: start-up reads the durable copy, as it should
            return
        self._stored_seq = self._seq

    def _durable_done(self, error: str | None, held: list[Problem]) -> None:
        """The durable copy's answer on a save localStorage refused in part (``held``: the
        refusals): with ``error`` (its error name) both refused, and each refusal is reported; else
        the copy holds it all, which the player is told once."""
        if not held:
            return
        if error is not None:
            for problem in held:
                self._report(problem)
        else:
            self._tell_kept(held[0])
        self.notify()

    def _tell_kept(self, refused: Problem) -> None:
        """Tell the player localStorage refused a value the durable copy holds (``refused``: the
        store's refusal), unless told since localStorage last held everything."""
        if not self._told_partial:
            self._told_partial = True
            self._report(Problem(KEPT, args=refused.args))

    def save_board(
        self, language: str, draw: Callable[[], tuple[list[object], dict[str, str]]]
    ) -> None:
        """Keep the board as drawn for the saved game (see :func:`.codecs.board_to_text`)."""
        game = self._written.get(SAVE_KEY)
        if game is None or self._board_of == (game, language):
            return
        nodes, counters = draw()
        if self._write(BOARD_KEY, board_to_text(game, language, nodes, counters)):
            self._board_of = (game, language)

    # ---- the puzzle record (.puzzle_codec) ---------------------------------------------

    def puzzles(self, quiet: bool = False) -> PuzzleRecord:
        """The player's puzzle record as stored (this tab's and every other's saves): empty if none.
        """
        from ..app.puzzle_record import PuzzleRecord
        from .puzzle_codec import record_from_text

        text = self._get(PUZZLES_KEY)
        if text is None:
            return PuzzleRecord()
        try:
            return record_from_text(text)
        except NestorError as exc:
            if not quiet:
                self._set_aside(PUZZLES_KEY, text, "puzzles.unreadable", exc)
                self._write(PUZZLES_KEY, self._empty_puzzles())
                self._commit()
            return PuzzleRecord()

    @staticmethod
    def _empty_puzzles() -> str:
        from ..app.puzzle_record import PuzzleRecord
        from .puzzle_codec import record_to_text

        return record_to_text(PuzzleRecord())

    def save_puzzles(self, record: PuzzleRecord) -> PuzzleRecord:
        """Keep ``record`` united with the one stored (another tab's tries are kept too), as one
        save (a sequence number, the durable copy); returns the united record, which ``record``
        becomes too."""
        from .puzzle_codec import record_to_text

        record.unite(self.puzzles(quiet=True))
        text = record_to_text(record)
        if text != self._get(PUZZLES_KEY):
            self._write(PUZZLES_KEY, text)
            self._commit()
        return record

    # ---- backups of the player's progress ---------------------------------------------

    def held_parts(self, session: Session) -> Parts:
        """The player's progress held here (what a backup of this page holds): the session's
        statistics (with what another tab saved merged in first), its game in play and settings, and
        the games left in progress: the archive's that can be read, a game of another deal that
        another tab left in the game slot (the next save would archive it) and the game left for
        Undo, if in progress."""
        from ..app.backup import Parts, copy_settings, in_progress, unite

        self._follow_stats(session)
        played = session.saved()
        left = session.left
        if left is not None and left.key == played.key and in_progress(left):
            played = unite(played, left)[0]  # restarted: the moves Undo brings back count
        games: dict[tuple[str, int], SavedGame] = {}
        found: list[SavedGame] = []
        for text in self._archive().values():
            saved = _or_none(text)
            if saved is not None:
                found.append(saved)
        slot = self._slot[0] if self._slot is not None else None
        for extra in (_or_none(slot) if slot is not None else None, session.left):
            if extra is not None:
                found.append(extra)
        for saved in found:
            if saved.key == played.key or not in_progress(saved):
                continue
            known = games.pop(saved.key, None)
            games[saved.key] = saved if known is None else unite(known, saved)[0]
        archive = tuple(games.values())[-ARCHIVE_SIZE:]
        return Parts(session.stats.copy(), played, archive, copy_settings(session.settings),
                     self.puzzles(quiet=True))

    def export_progress(self, session: Session) -> str:
        """The backup file of the progress held here (:meth:`held_parts`), dated the session's today
        (:func:`.progress.progress_text`; its name: :func:`.progress.backup_name`, its code:
        :func:`.progress.progress_to_code`)."""
        from .progress import progress_text

        return progress_text(self.held_parts(session), session.today())

    def _diverged_texts(self) -> list[str]:
        """The saved-game texts kept under ``nestor.diverged`` (none if it cannot be read)."""
        raw = self._get(DIVERGED_KEY)
        try:
            data = loads(raw) if raw is not None else []
        except ValueError:
            return []
        return [v for v in data if isinstance(v, str)] if isinstance(data, list) else []

    def replaced_progress(self) -> Progress | None:
        """The progress the last restore that replaced (``nestor.replaced``) took the place of, to
        restore again (:meth:`restore`), or ``None`` if there is none (or it cannot be read)."""
        from .progress import ProgressError, read_progress

        text = self._get(REPLACED_KEY)
        if text is None:
            return None
        try:
            return read_progress(text)
        except ProgressError:
            return None

    def restore(self, session: Session, progress: Progress, mode: str) -> tuple[Event, ...]:
        """Bring a backup in (read by :func:`.progress.read_progress`): ``mode`` ``"merge"`` unites
        it with the progress held here, ``"replace"`` takes it instead, keeping what it replaced
        under ``nestor.replaced`` (a backup file: :meth:`replaced_progress` restores it again).

        Raises:
            ValueError: ``mode`` is neither ``"merge"`` nor ``"replace"`` (nothing changes).
        """
        from ..app.backup import copy_game, copy_settings, merge_parts, replace_parts
        from .progress import archive_text, progress_text
        from .puzzle_codec import record_to_text

        if mode not in ("merge", "replace"):
            raise ValueError(f"no restore mode {mode!r}: 'merge' or 'replace'")
        here = self.held_parts(session)
        before = _texts(here)
        diverged: tuple[SavedGame, ...] = ()
        if mode == "merge":
            merged = merge_parts(here, progress.parts, ARCHIVE_SIZE)
            result, diverged = merged.parts, merged.diverged
        else:
            result = replace_parts(here, progress.parts, session.clock())
        after = _texts(result)
        kept = set(self._diverged_texts())
        diverged = tuple(d for d in diverged if game_to_text(d) not in kept)  # (kept already)
        changed = after != before or bool(diverged)
        events: tuple[Event, ...] = ()
        if changed:
            game = result.game if after[0] != before[0] else None  # (None: the same game)
            events = session.take_progress(
                result.stats.copy(), copy_settings(result.settings),
                None if game is None else copy_game(game), replacing=mode == "replace",
            )
            if mode == "replace":
                self._write(REPLACED_KEY, progress_text(here, session.today()))
            game_text = game_to_text(session.saved())
            values = [
                (SAVE_KEY, game_text), (ARCHIVE_KEY, archive_text(result.archive)),
                (SETTINGS_KEY, settings_to_text(session.settings)),
                (STATS_KEY, stats_to_text(session.stats)),
            ]
            if result.puzzles.tries or result.puzzles.daily or self._get(PUZZLES_KEY):
                values.append((PUZZLES_KEY, record_to_text(result.puzzles)))
            for key, text in values:
                if self._get(key) != text:  # (a key that other tabs hear only if it changed)
                    self._write(key, text)
                else:
                    self._written[key] = text
            self._own_game = game_text
            self._slot = (game_text, session.key)
            self._stats_saved = session.stats_changes
            for line in diverged:
                self._keep_diverged(game_to_text(line))
            self._commit()
        summary = self.held_parts(session).summary()
        return (*events, Restored(mode, summary, changed))

    def take_problems(self) -> list[Problem]:
        """The problems reported since the last call (and forget them)."""
        problems, self.problems = self.problems, []
        return problems

    def _write(self, key: str, value: str, durable: bool = True) -> bool:
        """Write to the store, and (``durable``, and not :data:`NOT_DURABLE`) note it for the
        durable copy (``durable`` false: the copy holds it already)."""
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
                self._report(problem)
            elif not durable:
                self._tell_kept(problem)
            elif problem not in self._held:
                self._held.append(problem)
            return False
        self._unsaved.pop(key, None)
        self._written[key] = value
        return True


__all__ = [
    "ARCHIVE_KEY", "BOARD_KEY", "ARCHIVE_SIZE", "DIVERGED_KEY", "KEYS", "LOST", "NOT_DURABLE",
    "SAVE_KEY",
    "SETTINGS_KEY", "STATS_KEY", "UNREADABLE", "KeyValueStore", "MemoryStore", "StorageManager",
    "StoreRefused", "refusal_name",
]

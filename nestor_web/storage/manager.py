"""The storage manager: every key the game keeps, reading at start-up, saving what changed, and
following what other tabs save."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from nestor import NestorError
from nestor.jsontext import loads

from ..app.events import Event, Restored
from ..app.saved import SavedGame, descends, join
from ..app.session import Session
from ..app.settings import Settings
from ..app.statistics.record import Stats
from ..app.tutorial import TUTORIAL_STEPS
from .archive import Archive
from .codecs import (
    archive_text,
    board_to_text,
    game_from_text,
    game_to_text,
    settings_from_text,
    settings_kept_from_text,
    settings_to_text,
)
from .keys import (
    ARCHIVE_KEY,
    ARCHIVE_SIZE,
    BOARD_KEY,
    DIVERGED_KEY,
    GRADES_KEY,
    PUZZLES_KEY,
    REPLACED_KEY,
    SAVE_KEY,
    SEQ_KEY,
    SETTINGS_KEY,
    STATS_KEY,
    TUTORIAL_KEY,
    UNREADABLE,
    DurableCopy,
    KeyValueStore,
    Snapshot,
    json_text,
    seq_of,
)
from .stats_codec import stats_from_text, stats_to_text
from .stores import Stores

if TYPE_CHECKING:  # read at a restore, not at start-up
    from ..app.backup import Parts
    from ..app.puzzle_record import PuzzleRecord
    from .progress import Progress

T = TypeVar("T")


def _or_none(text: str) -> SavedGame | None:
    try:
        return game_from_text(text)
    except NestorError:
        return None


@dataclass(frozen=True)
class Stored:
    """What start-up found (defaults if missing or unreadable); ``tutorial_seen`` and
    ``tutorial_resume`` as Session's."""

    settings: Settings
    game: SavedGame | None
    stats: Stats
    tutorial_seen: str | None
    first_visit: bool
    tutorial_resume: str = TUTORIAL_STEPS[0]


def tutorial_to_text(seen: str | None, resume: str) -> str:
    """``nestor.tutorial``'s text: ``"done"``, ``"started"`` (on its first step) or
    ``"started:STEP"`` (a later step shown last), ``""`` for a guide never started."""
    if seen != "started" or resume == TUTORIAL_STEPS[0]:
        return seen or ""
    return f"started:{resume}"


def tutorial_from_text(text: str) -> tuple[str | None, str]:
    """``tutorial_seen`` and ``tutorial_resume`` from :func:`tutorial_to_text`'s text (anything
    else: a guide never started)."""
    seen, _, step = text.partition(":")
    if seen == "done" and not step:
        return "done", TUTORIAL_STEPS[0]
    if seen == "started" and (not step or step in TUTORIAL_STEPS):
        return "started", step or TUTORIAL_STEPS[0]
    return None, TUTORIAL_STEPS[0]


class StorageManager:
    """Reads and writes everything the game keeps, in both stores (:class:`.stores.Stores`), and
    follows what other tabs save; ``archive`` is the session's shelf of games left in progress."""

    def __init__(
        self, store: KeyValueStore, durable: DurableCopy | None = None,
        snapshot: Snapshot | None = None,
    ) -> None:
        self.stores = Stores(store, durable, snapshot)
        self.archive = Archive(self.stores)
        # The game slot as last seen: its text and deal (None: not read yet), or None if empty.
        self._slot: tuple[str, tuple[str, int] | None] | None = None
        self._stats_saved: int | None = 0  # the session's stats_changes when last saved
        self._own_game: str | None = None  # the game text this tab saved (or adopted) last
        self._stale: set[str] = set()  # the keys another tab wrote, for follow() to take in
        self._board_of: tuple[str, str] | None = None  # (game text, language) of the board kept
        self._grades_kept: set[tuple[str, int]] = set()  # the session's grades written

    def stored(self, language: str) -> Stored:
        """What is stored, for start-up (``language`` if none is); unreadable values set aside."""
        first_visit = all(self.stores.get(key) is None for key in (
            SETTINGS_KEY, SAVE_KEY, STATS_KEY, TUTORIAL_KEY))
        kept = self._read(SETTINGS_KEY, settings_kept_from_text, "settings.unreadable")
        settings, bad = kept or (Settings(), ())
        if bad:  # the values a setting cannot take read as its defaults
            text = self.stores.written.pop(SETTINGS_KEY)
            self.stores.set_aside(SETTINGS_KEY, text, "settings.partly", bad[0])
        if settings.language is None:
            settings.language = language
        saved = self._read(SAVE_KEY, game_from_text, "save.unreadable")
        if saved is not None:
            self._slot = (self.stores.written[SAVE_KEY], saved.key)
            self._own_game = self.stores.written[SAVE_KEY]
        stats = self._read(STATS_KEY, stats_from_text, "stats.unreadable")
        if stats is None:
            if self.stores.get(STATS_KEY) is not None:
                self._stats_saved = None  # unreadable: replaced by empty statistics now
            stats = Stats()
        seen = self.stores.get(TUTORIAL_KEY)
        self.stores.written[TUTORIAL_KEY] = seen or ""
        tutorial, resume = tutorial_from_text(seen or "")
        return Stored(settings, saved, stats, tutorial, first_visit, resume)

    def _read(self, key: str, decode: Callable[[str], T], code: str) -> T | None:
        """Decode the text under ``key``; set it aside and report ``code`` if unreadable."""
        text = self.stores.get(key)
        if text is None:
            return None
        try:
            value = decode(text)
        except Exception as exc:  # a stored text may make a reader raise any error
            self.stores.set_aside(key, text, code, exc if isinstance(exc, NestorError) else None)
            return None
        self.stores.written[key] = text
        return value

    def save(self, session: Session) -> None:
        """Write what changed since the last save: the game, settings, statistics, guide, grades."""
        self._follow_stats(session)
        game_text = game_to_text(session.saved())
        if game_text != self._own_game or SAVE_KEY not in self.stores.written and (
            self._slot is None
        ):
            if self._slot is not None and self._slot[1] != session.key:
                self.archive.keep(self._slot[0], session.key)
            if self.stores.write(SAVE_KEY, game_text):
                self._own_game = game_text
            self._slot = (game_text, session.key)
        settings = settings_to_text(session.settings)
        if settings != self.stores.written.get(SETTINGS_KEY):
            self.stores.write(SETTINGS_KEY, settings)
        if session.stats_changes != self._stats_saved:
            self._stats_saved = session.stats_changes
            self.stores.write(STATS_KEY, stats_to_text(session.stats))
        tutorial = tutorial_to_text(session.tutorial_seen, session.tutorial_resume)
        if tutorial and tutorial != self.stores.written.get(TUTORIAL_KEY):
            self.stores.write(TUTORIAL_KEY, tutorial)
        if session.graded.keys() - self._grades_kept:  # united with those kept (another tab's)
            from .grades import grades_to_text

            kept = self.kept_grades()
            grades = {k: v for k, v in kept.items() if k not in session.graded} | session.graded
            with suppress(Exception):  # a full or refused store: a cache, not worth a notice
                self.stores.store.set(GRADES_KEY, grades_to_text(grades))
                self._grades_kept = set(session.graded)
        self.stores.commit()

    def kept_grades(self) -> dict[tuple[str, int], str]:
        """The grades pages worked out for deals beyond the shipped table, oldest first."""
        from .grades import grades_from_text

        return grades_from_text(self.stores.store.get(GRADES_KEY))

    def save_board(
        self, language: str, draw: Callable[[], tuple[list[object], dict[str, str]]]
    ) -> None:
        """Keep the board as drawn for the saved game, for the next visit's first paint."""
        game = self.stores.written.get(SAVE_KEY)
        if game is None or self._board_of == (game, language):
            return
        nodes, counters = draw()
        if self.stores.write(BOARD_KEY, board_to_text(game, language, nodes, counters)):
            self._board_of = (game, language)

    def puzzles(self, quiet: bool = False) -> PuzzleRecord:
        """The stored puzzle record (empty if none); unreadable: set aside unless ``quiet``."""
        from ..app.puzzle_record import PuzzleRecord
        from .puzzle_codec import record_from_text, record_to_text

        text = self.stores.get(PUZZLES_KEY)
        if text is None:
            return PuzzleRecord()
        try:
            return record_from_text(text)
        except NestorError as exc:
            if not quiet:
                self.stores.set_aside(PUZZLES_KEY, text, "puzzles.unreadable", exc)
                self.stores.write(PUZZLES_KEY, record_to_text(PuzzleRecord()))
                self.stores.commit()
            return PuzzleRecord()

    def save_puzzles(self, record: PuzzleRecord) -> PuzzleRecord:
        """Unite ``record`` with the one stored (another tab's tries) and keep it; returns it."""
        from .puzzle_codec import record_to_text

        record.unite(self.puzzles(quiet=True))
        text = record_to_text(record)
        if text != self.stores.get(PUZZLES_KEY):
            self.stores.write(PUZZLES_KEY, text)
            self.stores.commit()
        return record

    def held_parts(self, session: Session) -> Parts:
        """The progress held here, as a backup holds it: the session's statistics (another tab's
        merged in), game, settings, puzzles, the games left in progress (archive, slot, Undo)."""
        from ..app.backup import Parts, in_progress, unite

        self._follow_stats(session)
        played = session.saved()
        left = session.left
        if left is not None and left.key == played.key and in_progress(left):
            played = unite(played, left)[0]  # restarted: the moves Undo brings back count
        games: dict[tuple[str, int], SavedGame] = {}
        texts = [*self.archive.texts().values(), *(self._slot[:1] if self._slot else ())]
        for saved in [*map(_or_none, texts), session.left]:
            if saved is None or saved.key == played.key or not in_progress(saved):
                continue
            known = games.pop(saved.key, None)
            games[saved.key] = saved if known is None else unite(known, saved)[0]
        archive = tuple(games.values())[-ARCHIVE_SIZE:]
        return Parts(session.stats.copy(), played, archive, replace(session.settings),
                     self.puzzles(quiet=True))

    def export_progress(self, session: Session) -> str:
        """The backup file of the progress held here, dated the session's today."""
        from .progress import progress_text

        return progress_text(self.held_parts(session), session.today())

    def replaced_progress(self) -> Progress | None:
        """The progress the last replacing restore replaced (``None``: none, or unreadable)."""
        from .progress import ProgressError, read_progress

        text = self.stores.get(REPLACED_KEY)
        try:
            return None if text is None else read_progress(text)
        except ProgressError:
            return None

    def restore(self, session: Session, progress: Progress, mode: str) -> tuple[Event, ...]:
        """Bring a backup in, ``mode`` ``"merge"`` (united with the progress here) or ``"replace"``
        (kept: :meth:`replaced_progress`); ValueError for another ``mode``, nothing changed."""
        from ..app.backup import copy_game, merge_parts, replace_parts
        from .progress import progress_text
        from .puzzle_codec import record_to_text

        if mode not in ("merge", "replace"):
            raise ValueError(f"no restore mode {mode!r}: 'merge' or 'replace'")
        here = self.held_parts(session)
        before = progress_text(here, session.today())  # (the same text: the same progress)
        diverged: tuple[SavedGame, ...] = ()
        if mode == "merge":
            result, diverged = merge_parts(here, progress.parts, ARCHIVE_SIZE)
        else:
            result = replace_parts(here, progress.parts, session.clock())
        kept = self._diverged() or []
        diverged = tuple(d for d in diverged if game_to_text(d) not in kept)  # (kept already)
        changed = progress_text(result, session.today()) != before or bool(diverged)
        events: tuple[Event, ...] = ()
        if changed:
            games = {"" if p.game is None else game_to_text(p.game) for p in (here, result)}
            game = result.game if len(games) > 1 else None  # (None: the same game)
            events = session.take_progress(
                result.stats.copy(), replace(result.settings),
                None if game is None else copy_game(game), replacing=mode == "replace",
            )
            if mode == "replace":
                self.stores.write(REPLACED_KEY, before)
            game_text = game_to_text(session.saved())
            values = [
                (SAVE_KEY, game_text), (ARCHIVE_KEY, archive_text(result.archive)),
                (SETTINGS_KEY, settings_to_text(session.settings)),
                (STATS_KEY, stats_to_text(session.stats)),
            ]
            if result.puzzles.tries or result.puzzles.daily or self.stores.get(PUZZLES_KEY):
                values.append((PUZZLES_KEY, record_to_text(result.puzzles)))
            for key, text in values:
                if self.stores.get(key) != text:  # (a key that other tabs hear only if it changed)
                    self.stores.write(key, text)
                else:
                    self.stores.written[key] = text
            self._own_game = game_text
            self._slot = (game_text, session.key)
            self._stats_saved = session.stats_changes
            for line in diverged:
                self._keep_diverged(game_to_text(line))
            self.stores.commit()
        summary = self.held_parts(session).summary()
        return (*events, Restored(mode, summary, changed))

    # ---- other tabs ----------------------------------------------------------------------

    def changed_elsewhere(self, key: str | None) -> None:
        """Another tab wrote ``key`` (``None``: it cleared the storage)."""
        self.stores.forget(key)
        followed = {SAVE_KEY, STATS_KEY, SETTINGS_KEY, TUTORIAL_KEY}
        self._stale |= followed if key is None else followed & {key}
        if key in (None, SAVE_KEY):
            text = self.stores.store.get(SAVE_KEY)
            self._slot = None if text is None else (text, None)  # its deal: read when needed
        if key in (None, STATS_KEY):
            self._stats_saved = None

    def catch_up(self, session: Session) -> tuple[Event, ...]:
        """Before a command: follow now a save another tab made since this tab last saved or heard
        (a higher ``nestor.seq``: its storage event is not here yet, or this tab was frozen)."""
        if seq_of(self.stores.store.get(SEQ_KEY)) <= self.stores.seen:
            return ()
        for key in (STATS_KEY, SAVE_KEY, SETTINGS_KEY):
            self.changed_elsewhere(key)
        return self.follow(session)

    def follow(self, session: Session) -> tuple[Event, ...]:
        """Take in what another tab wrote since :meth:`changed_elsewhere` said so: statistics,
        settings, the guide's end, and the game of the deal in play here."""
        self.stores.seen = max(self.stores.seen, seq_of(self.stores.store.get(SEQ_KEY)))
        return (self._follow_stats(session) + self._follow_settings(session)
                + self._follow_tutorial(session) + self._follow_game(session))

    def _stale_text(self, key: str) -> str | None:
        """What another tab wrote under ``key`` since it was last taken in (now), or ``None``."""
        if key not in self._stale:
            return None
        self._stale.discard(key)
        return self.stores.store.get(key)

    def _follow_settings(self, session: Session) -> tuple[Event, ...]:
        """Take the settings another tab wrote, so the next save does not write older ones back."""
        text = self._stale_text(SETTINGS_KEY)
        if text is None:
            return ()
        try:
            theirs = settings_from_text(text)
        except NestorError:
            return ()
        events: list[Event] = []
        for name in type(theirs).names():
            value = getattr(theirs, name)
            if value != getattr(session.settings, name):
                try:
                    events += session.set_setting(name, value)
                except NestorError:
                    continue  # (not a value a setting can take: this tab keeps its own)
        self.stores.written[SETTINGS_KEY] = text
        return tuple(events)

    def _follow_tutorial(self, session: Session) -> tuple[Event, ...]:
        """The guided first game ended in another tab: it ends here too; moved on to another
        step there, it shows that step here."""
        text = self._stale_text(TUTORIAL_KEY)
        seen, resume = tutorial_from_text(text or "")
        if seen is None:
            return ()
        self.stores.written[TUTORIAL_KEY] = text or ""
        if seen == "done":
            return session.end_tutorial()
        return session.take_up_tutorial(resume)

    def _follow_game(self, session: Session) -> tuple[Event, ...]:
        """The game slot another tab wrote: adopt it, keep this tab's, or join the two."""
        text = self._stale_text(SAVE_KEY)
        mine_text = game_to_text(session.saved())
        if text is None or text in (mine_text, self._own_game):
            return ()  # cleared, the same, or what this tab wrote (its game is as new)
        try:
            theirs = game_from_text(text)
        except NestorError:
            return ()  # the next save replaces it (nothing readable to lose)
        if theirs.key != session.key:
            return ()  # another deal: the next save archives it
        mine = session.saved()
        self._slot = (text, theirs.key)
        if mine_text == self._own_game and descends(theirs, mine):
            events = session.adopt(theirs)  # that tab played on from this tab's game
            self.stores.written[SAVE_KEY] = text  # the game is that text: nothing to write
            self._own_game = text
            return events
        self._own_game = text  # the slot holds that tab's: the next save writes this tab's
        if descends(mine, theirs):
            return ()  # this tab played on from that tab's game: it is the newer
        joined, left_over = join(mine, theirs)  # both played on: one game with both's moves
        if left_over is not None:
            self._keep_diverged(game_to_text(left_over))
        return session.adopt(joined)

    def _diverged(self) -> list[str] | None:
        """The saved-game texts of the lines kept apart (``[]`` if none, ``None`` if unreadable)."""
        raw = self.stores.get(DIVERGED_KEY)
        try:
            data = [] if raw is None else loads(raw)
        except ValueError:
            return None
        return data if isinstance(data, list) and all(isinstance(v, str) for v in data) else None

    def _keep_diverged(self, text: str) -> None:
        """Keep once the saved-game ``text`` of a line not joined (last :data:`ARCHIVE_SIZE`)."""
        kept = self._diverged()
        if kept is None:
            kept = []
            self.stores.write(DIVERGED_KEY + UNREADABLE, self.stores.get(DIVERGED_KEY) or "")
        if text in kept:
            return
        self.stores.write(DIVERGED_KEY, json_text([*kept, text][-ARCHIVE_SIZE:]))

    def _follow_stats(self, session: Session) -> tuple[Event, ...]:
        """Merge another tab's statistics into ``session``'s (written back if they lack any)."""
        text = self._stale_text(STATS_KEY)
        if text is None:
            return ()  # (if cleared, the next save writes this tab's)
        try:
            theirs = stats_from_text(text)
        except Exception:  # unreadable: set aside, the next save writes this tab's
            self.stores.write(STATS_KEY + UNREADABLE, text)
            return ()
        lacking = theirs.copy().merge(session.stats)  # would they gain from this tab's?
        events = session.merge_stats(theirs)
        if not lacking:
            self.stores.written[STATS_KEY] = text
            self._stats_saved = session.stats_changes
        return events


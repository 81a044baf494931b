"""The game manager: state and commands (no words, no DOM, no storage format); every command
returns the events of what happened (``()`` when nothing changed)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Unpack

from nestor import MAX_DEAL, Game, get_variant
from nestor.deal import GRADE_NAMES

from .deals import Deals
from .events import (
    DealChanged,
    Event,
    FromOtherTab,
    GradeKnown,
    Moved,
    SettingChanged,
    TookBack,
    TutorialChanged,
)
from .play import Options
from .saved import SavedGame
from .settings import Settings
from .statistics.data import Key
from .statistics.record import Stats
from .tutorial import (
    FIRST_VISIT_DEAL,
    TUTORIAL_STEPS,
    TUTORIAL_VARIANT,
    TutorialStep,
    step_after,
    tutorial_deal,
    tutorial_step,
)
from .url import DealRequest


@dataclass(frozen=True)
class GradeRecord:
    """The player's settled games and wins of one grade in one variant (deals remembered)."""

    grade: str
    played: int
    won: int

    @property
    def win_rate(self) -> float | None:
        """``won / played``, from 0 to 1; ``None`` when none was played."""
        return self.won / self.played if self.played else None


class Session(Deals):
    """The deal in play, the grades known (``graded``: those worked out here, to keep) and the
    guide: the step shown (``tutorial``), ``tutorial_seen``: ``None``, ``"started"``, ``"done"``,
    and the step it last showed (``tutorial_resume``, where a reload in its middle takes it up)."""

    def __init__(self, game: Game, **options: Unpack[Options]) -> None:
        super().__init__(game, **options)
        self.grades: dict[Key, str] = {}
        self.graded: dict[Key, str] = {}
        self.tutorial: TutorialStep | None = None
        self.tutorial_seen: str | None = None
        self.tutorial_resume = TUTORIAL_STEPS[0]

    @classmethod
    def start(
        cls,
        request: DealRequest | None,
        saved: SavedGame | None,
        *,
        leave_saved: bool = True,
        **options: Unpack[Options],
    ) -> Session:
        """The session of a page opened on ``request`` (the URL's deal: saved, shelved or fresh;
        a variant alone: a random deal) with ``saved`` (resumed, or left if ``leave_saved``)."""
        rng = options["rng"] = options.get("rng") or random.Random()
        if saved is None:
            # The first game is the one asked for: no stand-in that could pass for it.
            variant = request.variant if request is not None else get_variant("standard")
            deal = request.deal if request is not None else None
            game = Game(variant, rng.randrange(MAX_DEAL) if deal is None else deal)
        else:
            game = saved.game
        session = cls(game, **options)
        if saved is not None:
            session.bring(saved)
        if request is None or (saved is None and request.deal is None):
            session.mark_daily(None)
            return session
        if saved is None:  # the URL's deal is in play: resume it if it is on the shelf
            kept = session.take(*session.key)
            if kept is not None:
                session.bring(kept)
        elif request.deal is None:
            session.switch(
                SavedGame(Game(request.variant, rng.randrange(MAX_DEAL))), leave=leave_saved
            )
        else:
            session.resume_or_start(request.variant.name, request.deal, leave=leave_saved)
        session.settle_left()  # opening a link is not a choice Undo takes back
        session.mark_daily(request.daily)
        return session

    def take_progress(
        self,
        stats: Stats,
        settings: Settings | None = None,
        saved: SavedGame | None = None,
        replacing: bool = False,
    ) -> tuple[Event, ...]:
        """A backup was restored: take its ``stats``, ``settings`` and ``saved`` game (kept as
        given: pass copies). ``replacing``: the game left is dropped, not settled."""
        events: list[Event] = []
        self.solving = False
        if replacing:
            self.left = None
        # The statistics first: the game left settles in the ones that stay (settled in the
        # old ones, which these replace, its loss was lost and it stayed "playing").
        self.stats = stats
        self.stats_changes += 1
        if saved is not None and (
            saved.key, saved.game.all_moves, saved.game.cursor, saved.help, saved.elapsed_ms
        ) != (self.key, self.game.all_moves, self.game.cursor, self.help, self.saved().elapsed_ms):
            if not replacing and saved.game.all_moves:
                self.settle_left()
            self.bring(saved)
            self.mark_daily(None)
            events.append(DealChanged(*self.key, resumed=saved.game.cursor > 0))
        self.stats.claim(*self.key)
        if settings is not None:
            for name in Settings.names():
                value = getattr(settings, name)
                if name == "language" and value is None:
                    continue  # a backup without a language keeps the page's
                if getattr(self.settings, name) != value:
                    setattr(self.settings, name, value)
                    events.append(SettingChanged(name))
        return tuple(events)

    @property
    def grade(self) -> str | None:
        """The grade of the deal in play, once known."""
        return self.grades.get(self.key)

    def know_grade(
        self, variant: str, deal: int, grade: str, graded: bool = False
    ) -> tuple[Event, ...]:
        """Learn the grade of a deal (``graded``: worked out here, to keep); ValueError: unknown."""
        if grade not in GRADE_NAMES:
            raise ValueError(f"unknown grade {grade!r}")
        key = (variant, deal)
        if graded:
            self.graded[key] = grade
        if self.grades.get(key) == grade:
            return ()
        self.grades[key] = grade
        return (GradeKnown(variant, deal, grade),)

    def look_up_grade(self, kept: Mapping[Key, str] | None = None) -> tuple[Event, ...]:
        """Learn the deal in play's grade from the table or ``kept`` (the storage's), if there."""
        found = None if self.grade is not None else self._known_grade(self.key, kept)
        return () if found is None else self.know_grade(*self.key, found)

    def _known_grade(self, key: Key, kept: Mapping[Key, str] | None) -> str | None:
        from nestor.graded_deals import known_grade

        return self.grades.get(key) or known_grade(*key) or (kept or {}).get(key)

    def grade_steps(self) -> Generator[None, None, tuple[Event, ...]]:
        """Work out the grade of the deal in play, yielding between slices of work."""
        from nestor.grade import grade_steps

        variant, deal = self.key
        result = yield from grade_steps(variant, deal)
        return self.know_grade(variant, deal, result.grade, graded=True)

    def new_graded_deal(self, variant: str, grade: str) -> tuple[Event, ...]:
        """A new deal of ``variant`` graded ``grade``, one not played if any (NestorError)."""
        from nestor.graded_deals import pick_deal

        name = get_variant(variant).name
        played = {deal for deal, _ in self.stats.deal_states(name)}
        deal = pick_deal(name, grade, self.rng, played)
        events = self.new_deal(name, deal)
        if deal is not None:
            events += self.know_grade(name, deal, grade)
        return events

    def grade_records(
        self, variant: str, kept: Mapping[Key, str] | None = None
    ) -> tuple[tuple[GradeRecord, ...], int]:
        """The player's settled games of ``variant`` per grade, and how many have none known."""
        played: Counter[str | None] = Counter()  # by grade (None: not known)
        won: Counter[str | None] = Counter()
        for deal, state in self.stats.deal_states(variant):
            if state != "playing":
                grade = self._known_grade((variant, deal), kept)
                played[grade] += 1
                won[grade] += state != "lost"
        return tuple(GradeRecord(g, played[g], won[g]) for g in GRADE_NAMES), played[None]

    def open_tutorial(
        self, first_visit: bool, asked: DealRequest | None, stored: SavedGame | None,
        replaying: bool = False,
    ) -> tuple[Event, ...]:
        """At start-up, start the guide if due: on a first visit with no link, on its own deal;
        after a reload in its middle (the address names no deal or the ``stored`` game's)."""
        if replaying:
            return ()
        if first_visit and asked is None:
            # The page opens on the guide's deal: no deal changed before the player's eyes
            # (a DealChanged would have the focus taken to the board, its ring shown).
            events = self.start_tutorial(fresh=self.game.cursor == 0, deal=FIRST_VISIT_DEAL)
            return tuple(e for e in events if not isinstance(e, DealChanged))
        if self.tutorial_seen == "started" and (asked is None or (
            asked.daily is None and stored is not None
            and (asked.variant.name, asked.deal) == stored.key
        )):
            return self.start_tutorial(fresh=False)
        return ()

    def start_tutorial(self, fresh: bool = True, deal: int | None = None) -> tuple[Event, ...]:
        """Start the guide on the game in play at the step it last showed, or (``fresh``) from
        its first step on ``deal`` or a new Easy deal."""
        events: tuple[Event, ...] = ()
        if fresh:
            untouched = self.game.cursor == 0
            if deal is None:
                played = [d for d, _ in self.stats.deal_states(TUTORIAL_VARIANT)]
                events = self.new_deal(TUTORIAL_VARIANT, tutorial_deal(self.rng, played))
            else:
                events = self.new_deal(TUTORIAL_VARIANT, deal)
                events += self.know_grade(TUTORIAL_VARIANT, deal, "easy")
            if untouched:  # a deal never played: Undo does not bring it back (a first visit)
                self.settle_left()
        self.tutorial_seen = "started"
        step = TUTORIAL_STEPS[0] if fresh else self.tutorial_resume
        return events + self._show(tutorial_step(step, self.game))

    def take_up_tutorial(self, step: str) -> tuple[Event, ...]:
        """The guide, shown, moved to ``step`` (one of :data:`TUTORIAL_STEPS`: another tab's)."""
        if self.tutorial is None or self.tutorial.step == step:
            return ()
        return self._show(tutorial_step(step, self.game))

    def tutorial_next(self) -> tuple[Event, ...]:
        """Next, on a step that waits for no move (the last one ends the guide)."""
        step = self.tutorial
        if step is None:
            return ()
        if step.step == "done":
            return self.end_tutorial()
        return self._show(step_after(step.step, self.game))

    def end_tutorial(self) -> tuple[Event, ...]:
        """Skip, or the last step's Play on: the guide ends and does not start by itself again."""
        self.tutorial_seen = "done"
        if self.tutorial is None:
            return ()
        return self._show(None)

    def follow_tutorial(self, events: Iterable[Event]) -> tuple[Event, ...]:
        """Move the guide on after ``events``: a pair at ``"pair"``/``"reserve"``, Undo at
        ``"undo"``; another move, or the game as another tab played it on, shows the step again;
        another deal ends it (Restart: anew), and so does a move in the game a link opened
        instead of the guide's."""
        step = self.tutorial
        events = tuple(events)
        if step is None:
            if self.tutorial_seen == "started" and any(isinstance(e, Moved) for e in events):
                self.tutorial_seen = "done"  # left through a link, and another game played on
            return ()
        if any(isinstance(e, TutorialChanged) for e in events):
            return ()  # the guide's own command (it deals its game)
        changed = [e for e in events if isinstance(e, DealChanged)]
        if changed and all(e.restarted for e in changed):
            return self._show(tutorial_step("pair", self.game))  # Restart: from the start
        if any(isinstance(e, FromOtherTab) and e.what == "game" for e in events):
            return self._show(tutorial_step(step.step, self.game))  # played on in another tab
        if changed:
            return self.end_tutorial()
        if step.step == "undo":
            if any(isinstance(e, TookBack) for e in events):
                return self._show(tutorial_step("done", self.game))
            return ()
        if not any(isinstance(e, (Moved, TookBack)) for e in events):
            return ()
        moved = any(isinstance(e, Moved) for e in events)
        if step.step in ("pair", "reserve") and moved:
            return self._show(step_after(step.step, self.game))
        if step.step == "done":
            return ()
        return self._show(tutorial_step(step.step, self.game))  # again, for the new position

    def _show(self, step: TutorialStep | None) -> tuple[Event, ...]:
        self.tutorial = step
        if step is not None:
            self.tutorial_resume = step.step
        return (TutorialChanged(None if step is None else step.step),)

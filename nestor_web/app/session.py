"""The game manager: the deal in play, the player's selection, help, Solve and statistics."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime
from typing import TYPE_CHECKING

from nestor import (
    MAX_DEAL,
    Game,
    Move,
    Outcome,
    Pair,
    Position,
    TurnStock,
    get_variant,
)
from nestor.daily import is_daily_deal

from .deals import DealCommands
from .events import (
    DealChanged,
    Event,
    FromOtherTab,
    Moved,
    Noticed,
    PairCount,
    Problem,
    Selected,
    SettingChanged,
    TimerChanged,
    TookBack,
    WentBack,
)
from .grades import GradeCommands
from .kept import Kept
from .ranges import clamped
from .saved import Help, NoShelf, SavedGame, Shelf
from .settings import Settings
from .solving import FINISH_NODES, SolverCommands, Thinking
from .statistics import Stats
from .timer import Timer
from .tutorial import TutorialCommands, TutorialStep
from .url import DealRequest, daily_query, deal_query

if TYPE_CHECKING:  # the solver is imported when first asked (it is not needed to draw a board)
    from nestor.solver import Solution


__all__ = ["FINISH_NODES", "Help", "NoShelf", "SavedGame", "Session", "Shelf", "Thinking"]


def local_day(ms: int) -> date | None:
    """The local calendar date at ``ms`` milliseconds since 1970 (in the browser, the page's time
    zone), or ``None`` for a time no date can hold."""
    try:
        return datetime.fromtimestamp(ms / 1000).date()
    except (OverflowError, OSError, ValueError):
        return None


class Session(DealCommands, SolverCommands, GradeCommands, TutorialCommands):
    """The game in play and everything about it that is not a word or a pixel."""

    def __init__(
        self,
        game: Game,
        *,
        settings: Settings | None = None,
        stats: Stats | None = None,
        shelf: Shelf | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], int] | None = None,
        timer_clock: Callable[[], int] | None = None,
        today: Callable[[], date] | None = None,
    ) -> None:
        self.game = game
        self.help = Help()
        self.settings = settings or Settings()
        self.stats = stats or Stats()
        self.rng = rng or random.Random()
        self.clock: Callable[[], int] = clock or (
            lambda: clamped(int(time.time() * 1000), "moment")
        )
        self.timer_clock: Callable[[], int] = timer_clock or (
            lambda: int(time.monotonic() * 1000)
        )
        self.today: Callable[[], date] = today or date.today
        self.daily: date | None = None
        self.selected: str | None = None
        self.hint: Move | None = None
        self.hint_solution: Solution | None = None
        self.hint_count: tuple[Position, PairCount] | None = None
        self.notices: list[Problem] = []
        self.stats_changes = 0  # counts the changes of the statistics (saving compares it)
        self.solving = False
        self.thinking: Thinking | None = None
        self.last_uncovered: tuple[str, ...] = ()
        self._analysis: tuple[Position, Solution] | None = None
        self._kept = Kept(self, shelf or NoShelf())  # the game left, and the shelf
        self.visible = True
        self.pointer = "touch"
        self._timer = Timer()
        self._finish: tuple[Position, bool | None] | None = None  # the finish check's answer
        self.grades: dict[tuple[str, int], str] = {}
        self.graded: dict[tuple[str, int], str] = {}
        self.tutorial: TutorialStep | None = None
        self.tutorial_seen: str | None = None

    @classmethod
    def start(
        cls,
        request: DealRequest | None,
        saved: SavedGame | None,
        *,
        settings: Settings | None = None,
        stats: Stats | None = None,
        shelf: Shelf | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], int] | None = None,
        timer_clock: Callable[[], int] | None = None,
        leave_saved: bool = True,
        today: Callable[[], date] | None = None,
    ) -> Session:
        """The session of a page opened on ``request`` (from the URL) with ``saved``."""
        rng = rng or random.Random()
        if saved is None:
            # Nothing to resume: the first game is the one asked for, never a stand-in that
            # could pass for the URL's deal (and skip the shelf), nor an extra random draw.
            variant = request.variant if request is not None else get_variant("standard")
            deal = request.deal if request is not None else None
            game = Game(variant, rng.randrange(MAX_DEAL) if deal is None else deal)
        else:
            game = saved.game
        session = cls(
            game, settings=settings, stats=stats, shelf=shelf, rng=rng, clock=clock,
            timer_clock=timer_clock, today=today,
        )
        if saved is not None:
            session.help = saved.help
            session._set_timer(saved.elapsed_ms)
        if request is None or (saved is None and request.deal is None):
            session._mark_daily(None)
            return session
        if saved is None:  # the URL's deal is in play: resume it if it is on the shelf
            kept = session._kept.take(*session.key)
            if kept is not None:
                session._bring(kept)
        elif request.deal is None:
            session._kept.switch(
                SavedGame(Game(request.variant, rng.randrange(MAX_DEAL))), leave=leave_saved
            )
        else:
            session._kept.resume_or_start(request.variant.name, request.deal, leave=leave_saved)
        session._kept.settle()  # opening a link is not a choice Undo takes back
        session._mark_daily(request.daily)
        return session

    # ---- reading -----------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The position on the board."""
        return self.game.position

    @property
    def key(self) -> tuple[str, int]:
        """The deal in play: ``(variant, deal)``."""
        return self.game.variant.name, self.game.deal

    @property
    def left(self) -> SavedGame | None:
        """The game left, while Undo can bring it back, else ``None`` (see the class's attributes).
        """
        return self._kept.left

    @property
    def shelf(self) -> Shelf:
        """Where games left in progress wait (the storage manager's archive)."""
        return self._kept.shelf

    def query(self) -> str:
        """The URL query that opens this deal: ``"?variant=V&deal=N"``, or for the daily deal
        ``"?daily=YYYY-MM-DD"``."""
        return deal_query(*self.key) if self.daily is None else daily_query(self.daily)

    def saved(self) -> SavedGame:
        """The game state a save keeps: the game, its help, and the timer's time as of its last stop
        or the last move (so that a save made while the timer merely ticks on writes nothing new).
        """
        return SavedGame(self.game, self.help, self._timer.ms)

    def elapsed_ms(self) -> int:
        """The timer: milliseconds played on this game so far (see :class:`SavedGame`)."""
        return self._timer.elapsed_ms(self.timer_clock)

    def timer_running(self) -> bool:
        """Whether the timer runs now: the page is shown, and the game has had a move and has not
        ended."""
        return self._timer.running

    def can_undo(self) -> bool:
        """Whether Undo does something: take back a move, or bring back the game left."""
        return self.game.can_undo() or self.left is not None

    def pairs_removed(self) -> int:
        """Pairs taken off the board so far (a Strict stock card that paired counts)."""
        return (52 - self.game.position.cards_left()) // 2

    # ---- the player's commands -----------------------------------------------------------

    def tap(self, card: str) -> tuple[Event, ...]:
        """A tap on ``card``."""
        position = self.game.position
        available = position.available()
        if position.outcome() is not None or card not in available:
            return ()
        self.solving = False  # the player takes over
        selected = self.selected if self.selected in available else None
        if selected == card:
            return self._select(None)
        if selected is not None and card in position.partners(selected):
            return self.pair(selected, card)
        if self.settings.auto_pair:
            partners = position.partners(card)
            if len(partners) == 1:  # only one card it can pair with: pair at once
                return self.pair(card, partners[0])
        return self._select(card)

    def pair(self, first: str, second: str) -> tuple[Event, ...]:
        """Remove ``first`` and ``second`` if they are a pair here: the command behind the second
        tap of tap-tap, auto-pair and a card dropped on another (a drag)."""
        position = self.game.position
        if position.outcome() is not None or second not in position.partners(first):
            return ()
        self.solving = False  # the player takes over
        return self._play(Pair(first, second))

    def clear_selection(self) -> tuple[Event, ...]:
        """Forget the selection (Escape)."""
        return self._select(None) if self.selected is not None else ()

    def turn_stock(self) -> tuple[Event, ...]:
        """Strict: turn the top stock card if that is legal now."""
        if not self.game.position.can_turn_stock():
            return ()
        self.solving = False
        return self._play(TurnStock())

    def undo(self) -> tuple[Event, ...]:
        """Take back the last move, if any; in a game with no move made yet, bring back the game
        left by the New deal, Restart or change of variant that started it (exactly as it was:
        moves, undo cursor, help, time; the statistics as they were before)."""
        if not self.game.can_undo():
            return self._kept.back() if self.left is not None else ()
        self.solving = False
        lost = self.game.position.outcome() is not None
        move = self.game.undo()
        if lost and self.stats.take_back(*self.key):
            self.stats_changes += 1
        self._fresh_ui()
        self._sync_timer()
        self.last_uncovered = ()
        return (TookBack(move),)

    def try_from(self, index: int) -> tuple[Event, ...]:
        """The review's "Try from here": put the game back at the position before its move ``index``
        (0-based, among the moves in effect), as that many undos would; the moves after it stay for
        redo."""
        game = self.game
        if not 0 <= index < game.cursor:
            return ()
        self.solving = False
        lost = game.position.outcome() is not None
        while game.cursor > index:
            game.undo()
        if lost and self.stats.take_back(*self.key):
            self.stats_changes += 1
        self.help = replace(self.help, reviewed=self.help.reviewed + 1)
        self._fresh_ui()
        self._sync_timer()
        self.last_uncovered = ()
        return (WentBack(index, game.all_moves[index]),)

    def redo(self) -> tuple[Event, ...]:
        """Replay the last move taken back, if any."""
        if not self.game.can_redo():
            return ()
        self.solving = False
        move = self.game.all_moves[self.game.cursor]
        return self._play(move)

    def set_setting(self, name: str, value: object) -> tuple[Event, ...]:
        """Change one setting (a field of :class:`Settings`).

        Raises:
            NestorError: unknown setting or unfit value (nothing changes).
        """
        self.settings.set(name, value)
        return (SettingChanged(name),)

    def notice(self, problem: Problem) -> tuple[Event, ...]:
        """Report ``problem`` to the player (once: the same problem is not repeated)."""
        if problem in self.notices:
            return ()
        self.notices.append(problem)
        return (Noticed(problem),)

    def dismiss_notices(self) -> tuple[Event, ...]:
        """The player dismissed the notices."""
        if not self.notices:
            return ()
        self.notices.clear()
        return (Noticed(Problem("dismissed")),)

    def merge_stats(self, other: Stats) -> tuple[Event, ...]:
        """Take in the statistics another tab saved (:meth:`Stats.merge`): nothing either recorded
        is lost."""
        changed = self.stats.merge(other)
        if self.left is None:  # else the game left, waiting for Undo, is still this tab's
            self.stats.claim(*self.key)  # the deal shown here is this tab's, even if moved there
        if not changed:
            return ()
        self.stats_changes += 1
        return (FromOtherTab("stats"),)

    def take_progress(
        self,
        stats: Stats,
        settings: Settings | None = None,
        saved: SavedGame | None = None,
        replacing: bool = False,
    ) -> tuple[Event, ...]:
        """A backup was restored (the storage manager's
        :meth:`~nestor_web.storage.manager.StorageManager.restore` works out what, by
        :mod:`~nestor_web.app.backup`'s rules): ``stats`` become the statistics, ``settings`` (if
        given) the settings, and ``saved`` (if given and not the game in play as it is) the game in
        play."""
        events: list[Event] = []
        self.solving = False
        if replacing:
            self._kept.left = None
        # The statistics first: the game left settles in the ones that stay (settled in the
        # old ones, which these replace, its loss was lost and it stayed "playing").
        self.stats = stats
        self.stats_changes += 1
        if saved is not None and (
            saved.key, saved.game.all_moves, saved.game.cursor, saved.help, saved.elapsed_ms
        ) != (self.key, self.game.all_moves, self.game.cursor, self.help, self._timer.ms):
            if not replacing and saved.game.all_moves:
                self._kept.settle()
            self._bring(saved)
            self._mark_daily(None)
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

    def set_visible(self, visible: bool) -> tuple[Event, ...]:
        """The page was hidden (``False``) or shown again: the timer stops or goes on."""
        if visible == self.visible:
            return ()
        self.visible = visible
        self._sync_timer()
        return (TimerChanged(self.timer_running()),)

    def take_longer_time(self, elapsed_ms: int) -> tuple[Event, ...]:
        """Another tab saved the game in play here with ``elapsed_ms`` on its timer: if that is
        longer than this tab's time as saved, it is the game's time (the player looked at it there
        longer); the timer goes on from it if it runs."""
        if elapsed_ms <= self._timer.ms:
            return ()
        self._set_timer(elapsed_ms)
        return (TimerChanged(self.timer_running()),)

    def settle_left_games(self) -> None:
        """No other tab is open: every game the statistics hold as unsettled but this one (left in
        progress in a tab since closed) settles as lost, as when the player leaves a deal
        (:meth:`Stats.settle_others`)."""
        if self.stats.settle_others(*self.key, self.clock()):
            self.stats_changes += 1

    def reset_stats(self) -> None:
        """Forget all statistics (the view asks the player first); the reset is remembered, so
        another tab's older statistics do not bring them back."""
        self.stats.reset(now_ms=self.clock())
        self.stats_changes += 1

    # ---- internals -----------------------------------------------------------------------

    def _select(self, card: str | None) -> tuple[Event, ...]:
        self.selected = card
        return (Selected(card),)

    def _bring(self, saved: SavedGame) -> None:
        """``saved`` comes into play: its game, help and time; the UI state starts afresh."""
        self.game = saved.game
        self.help = saved.help
        self._set_timer(saved.elapsed_ms)
        self._fresh_ui()
        self.last_uncovered = ()

    def _fresh_ui(self) -> None:
        self.selected = None
        self.hint = None
        self.hint_solution = None
        self.hint_count = None

    def _play(
        self, move: Move, by_solver: bool = False, by_finish: bool = False
    ) -> tuple[Event, ...]:
        """Put ``move`` (legal here) in effect and count it; a game left earlier can no longer be
        brought back, so it settles now."""
        self._kept.settle()
        before = self.game.position
        self.game.push(move)
        after = self.game.position
        self._fresh_ui()
        turned = before.stock[0] if isinstance(move, TurnStock) else None
        # Only available cards leave, and the stock card a turn pairs at once.
        gone = [turned] if turned is not None else []
        removed = tuple(c for c in [*gone, *before.available()] if c not in after)
        uncovered = tuple((c, after.available()[c]) for c in after.newly_available(before))
        self._carry_finish(before, after)
        self.last_uncovered = tuple(c for c, _place in uncovered)
        self._sync_timer()  # first: a winning move stops the timer, at the time it shows
        self._count_move()
        return (Moved(move, removed, turned, uncovered, after.outcome(), by_solver, by_finish),)

    def _count_move(self) -> None:
        """Tell the statistics about the move just put in effect (a win's time is the timer's, as it
        stopped at the winning move)."""
        game = self.game
        if self.stats.record_move(
            game.variant.name, game.deal, self.clock(),
            won=game.position.is_empty(), helped=self.help.used, first=game.cursor == 1,
            lost=game.position.outcome() not in (None, Outcome.WON),
            elapsed_ms=self._timer.ms,
        ):
            self.stats_changes += 1
        day = self.daily
        if (  # the daily deal won, started or finished on its own date
            day is not None and game.position.is_empty()
            and day in (self.today(), self.started_day())
            and self.stats.record_daily(day)
        ):
            self.stats_changes += 1

    def started_day(self) -> date | None:
        """The player's local date when the attempt at the deal in play began (its first move, as
        the statistics remember it), or ``None`` if that is not known."""
        start = self.stats.deal_start(*self.key)
        return None if start is None else local_day(start)

    def _mark_daily(self, day: date | None) -> None:
        """The game is the daily deal of ``day`` if it is that deal; by default of today, else of
        the date its attempt began (a daily deal started before midnight, resumed after it)."""
        if day is None:
            today, started = self.today(), self.started_day()
            days = (today,) if started is None or started >= today else (today, started)
        else:
            days = (day,)
        self.daily = next((d for d in days if is_daily_deal(d, *self.key)), None)

    # ---- the timer ---------------------------------------------------------------------

    def _set_timer(self, elapsed_ms: int) -> None:
        """The game in play has ``elapsed_ms`` on its timer; it runs if it should."""
        self._timer = Timer(elapsed_ms)
        self._sync_timer()

    def _sync_timer(self) -> None:
        """Bring the timer up to now, then let it run or stop as the game and page are."""
        now = self.timer_clock()
        game = self.game
        running = self.visible and bool(game.all_moves) and game.position.outcome() is None
        self._timer.sync(now, running)


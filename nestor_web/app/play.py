"""The deal in play: the player's moves, the help and the solver's answers, the timer."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator
from dataclasses import replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Literal, TypedDict, Unpack

from nestor import Game, Move, Outcome, Pair, Position, TurnStock
from nestor.daily import is_daily_deal

from .events import (
    Event,
    FromOtherTab,
    HintShown,
    Moved,
    Noticed,
    PairCount,
    Problem,
    Selected,
    SettingChanged,
    SolverBusy,
    TimerChanged,
    WentBack,
)
from .ranges import clamped
from .saved import Help, SavedGame, Shelf
from .settings import Settings
from .statistics.record import Stats
from .url import daily_query, deal_query

if TYPE_CHECKING:  # the solver is imported when first asked (it is not needed to draw a board)
    from nestor.solver import Solution

FINISH_NODES = 2_000  # positions the finish check looks at before it gives up
HINT_COUNT_NODES = 50_000  # the node budget of each search of a hint's first step

Thinking = Literal["hint", "deal"]  # what the solver may be busy with for the player


class Options(TypedDict, total=False):
    """What a :class:`Play` may be given in place of its defaults."""

    settings: Settings | None
    stats: Stats | None
    shelf: Shelf | None
    rng: random.Random | None
    clock: Callable[[], int] | None
    timer_clock: Callable[[], int] | None
    today: Callable[[], date] | None


class Play:
    """The game in play and the player's moves on it, the help, the solver's answers, the timer;
    ``stats_changes`` counts the statistics' changes (saving compares it); ``left``/``left_ui``:
    the game left for Undo with its daily date and marks; ``clock``: ms since 1970 (dates);
    ``timer_clock``: ms of a steady clock; ``pointer``: ``"touch"``, ``"mouse"``, ``"keyboard"``."""

    def __init__(self, game: Game, **options: Unpack[Options]) -> None:
        self.game = game
        self.help = Help()
        self.settings = options.get("settings") or Settings()
        self.stats = options.get("stats") or Stats()
        self.shelf: Shelf | None = options.get("shelf")
        self.rng = options.get("rng") or random.Random()
        self.clock: Callable[[], int] = options.get("clock") or (
            lambda: clamped(int(time.time() * 1000), "moment")
        )
        self.timer_clock: Callable[[], int] = options.get("timer_clock") or (
            lambda: int(time.monotonic() * 1000)
        )
        self.today: Callable[[], date] = options.get("today") or date.today
        self.daily: date | None = None
        self.selected: str | None = None
        self.hint: Move | None = None
        self.hint_solution: Solution | None = None
        self.hint_count: tuple[Position, PairCount] | None = None
        self.notices: list[Problem] = []
        self.stats_changes = 0
        self.solving = False
        self.thinking: Thinking | None = None
        self.last_uncovered: tuple[str, ...] = ()
        self.left: SavedGame | None = None
        self.left_ui: tuple[date | None, tuple[str, ...]] = (None, ())
        self.visible = True
        self.pointer = "touch"
        self._timer_ms = 0  # the timer's time as of its last sync
        self._timer_since: int | None = None  # the timer_clock then, while it runs
        self._analysis: tuple[Position, Solution] | None = None
        self._finish: tuple[Position, bool | None] | None = None  # the finish check's answer

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def key(self) -> tuple[str, int]:
        return self.game.variant.name, self.game.deal

    def query(self) -> str:
        return deal_query(*self.key) if self.daily is None else daily_query(self.daily)

    def saved(self) -> SavedGame:
        """The game as a save keeps it (the timer's time as of its last sync)."""
        return SavedGame(self.game, self.help, self._timer_ms)

    def elapsed_ms(self) -> int:
        """Milliseconds played on this game so far (a clock set back adds 0)."""
        if self._timer_since is None:
            return self._timer_ms
        return self._timer_ms + max(0, self.timer_clock() - self._timer_since)

    def timer_running(self) -> bool:
        return self._timer_since is not None

    def can_undo(self) -> bool:
        """Undo takes back a move or brings back the game left."""
        return self.game.can_undo() or self.left is not None

    def pairs_removed(self) -> int:
        """Pairs taken off the board so far."""
        return (52 - self.game.position.cards_left()) // 2

    def started_day(self) -> date | None:
        """The local date the attempt at the deal in play began, if known."""
        start = self.stats.deal_start(*self.key)
        try:
            return None if start is None else datetime.fromtimestamp(start / 1000).date()
        except (OverflowError, OSError, ValueError):  # a time no date holds
            return None

    def tap(self, card: str) -> tuple[Event, ...]:
        """Select ``card``, deselect it, or pair it with the selected card (or its only partner)."""
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
        """Remove ``first`` and ``second`` if they are a pair here."""
        position = self.game.position
        if position.outcome() is not None or second not in position.partners(first):
            return ()
        return self._play(Pair(first, second))

    def clear_selection(self) -> tuple[Event, ...]:
        return self._select(None) if self.selected is not None else ()

    def turn_stock(self) -> tuple[Event, ...]:
        """Strict: turn the top stock card if that is legal now."""
        if not self.game.position.can_turn_stock():
            return ()
        return self._play(TurnStock())

    def take_back(self, index: int) -> None:
        """Undo the moves from ``index`` on; a loss they settled is taken back."""
        self.solving = False
        game = self.game
        lost = game.position.outcome() is not None
        while game.cursor > index:
            game.undo()
        if lost:
            self.stats_changes += self.stats.take_back(*self.key)
        self.fresh_ui()
        self.sync_timer()
        self.last_uncovered = ()

    def try_from(self, index: int) -> tuple[Event, ...]:
        """The review's "Try from here": back to before move ``index``, the rest kept for redo."""
        if not 0 <= index < self.game.cursor:
            return ()
        self.take_back(index)
        self.help = replace(self.help, reviewed=self.help.reviewed + 1)
        return (WentBack(index, self.game.all_moves[index]),)

    def redo(self) -> tuple[Event, ...]:
        if not self.game.can_redo():
            return ()
        return self._play(self.game.all_moves[self.game.cursor])

    def set_setting(self, name: str, value: object) -> tuple[Event, ...]:
        """Change one setting (:meth:`Settings.set` raises on a bad one)."""
        self.settings.set(name, value)
        return (SettingChanged(name),)

    def notice(self, problem: Problem) -> tuple[Event, ...]:
        """Report ``problem`` to the player, once."""
        if problem in self.notices:
            return ()
        self.notices.append(problem)
        return (Noticed(problem),)

    def dismiss_notices(self) -> tuple[Event, ...]:
        if not self.notices:
            return ()
        self.notices.clear()
        return (Noticed(Problem("dismissed")),)

    def set_visible(self, visible: bool) -> tuple[Event, ...]:
        """The page was hidden or shown again: the timer stops or goes on."""
        if visible == self.visible:
            return ()
        self.visible = visible
        self.sync_timer()
        return (TimerChanged(self.timer_running()),)

    def merge_stats(self, other: Stats) -> tuple[Event, ...]:
        """Take in another tab's statistics."""
        changed = self.stats.merge(other)
        if self.left is None:  # else the game left, waiting for Undo, is still this tab's
            self.stats.claim(*self.key)  # the deal shown here is this tab's, even if moved there
        if not changed:
            return ()
        self.stats_changes += 1
        return (FromOtherTab("stats"),)

    def settle_left_games(self) -> None:
        """No other tab is open: every other unsettled game settles as lost."""
        self.stats_changes += self.stats.settle_others(*self.key, self.clock())

    def reset_stats(self) -> None:
        """Forget all statistics (the reset outweighs other tabs' older ones)."""
        self.stats.reset(now_ms=self.clock())
        self.stats_changes += 1

    def settle_left(self) -> None:
        """Undo can no longer bring back the game left: it settles (lost, if played, not won)."""
        left, self.left = self.left, None
        if left is not None and left.key != self.key:
            self.stats_changes += self.stats.leave(*left.key, self.clock())

    def start_solving(self) -> tuple[Event, ...]:
        self.solving = True
        return (SolverBusy(True, self.thinking),)

    def stop_solving(self) -> tuple[Event, ...]:
        if not self.solving:
            return ()
        self.solving = False
        return (SolverBusy(False, self.thinking),)

    def think(self, what: Thinking | None) -> tuple[Event, ...]:
        """The solver works on ``what`` for the player (``None``: done)."""
        self.thinking = what
        return (SolverBusy(self.solving, what),)

    def finishable(self) -> bool | None:
        """Can Finish play the game out (no line loses)? ``None`` until :meth:`finish_steps` ran."""
        position = self.game.position
        if position.outcome() is not None:
            return False
        if self._finish is None or self._finish[0] != position:
            return None
        return bool(self._finish[1])

    def analysis(self) -> Solution | None:
        """The solver's answer for the current position, if worked out."""
        if self._analysis is not None and self._analysis[0] == self.game.position:
            return self._analysis[1]
        return None

    def analyse_steps(self, max_nodes: int | None = None) -> Generator[None, None, Solution]:
        """Solve the current position (cached), yielding between slices of work."""
        position = self.game.position
        known = self.analysis()
        if known is not None:
            return known
        from nestor.solver import solve_steps

        solution = yield from solve_steps(position, max_nodes, known_order=False)
        self._analysis = (position, solution)
        return solution

    def hint_step(self) -> int:
        """The next press of Hint: ``1`` counts the pairs and those that lose, ``2`` shows the best
        pair (after the first, or with no pair to make)."""
        position = self.game.position
        counted = self.hint_count is not None and self.hint_count[0] == position
        return 2 if counted or not position.pairs() else 1

    def count_pairs_steps(
        self, max_nodes: int = HINT_COUNT_NODES
    ) -> Generator[None, None, PairCount]:
        """A hint's first step: count the legal pairs, and those that lose."""
        from nestor.solver import Status
        from nestor.solver.oracle import Oracle

        position = self.game.position
        choices = yield from Oracle(position, max_nodes).choices(position)
        pairs = [c for c in choices if isinstance(c.move, Pair)]
        return PairCount(
            pairs=len(pairs),
            losing=sum(1 for c in pairs if c.status is Status.LOST),
            unknown=sum(1 for c in pairs if c.status is Status.UNKNOWN),
        )

    def show_pair_count(self, count: PairCount) -> tuple[Event, ...]:
        """Show a hint's first step (no help: no pair is shown)."""
        self.hint_count = (self.game.position, count)
        return (HintShown(None, count=count),)

    def show_hint(self, solution: Solution) -> tuple[Event, ...]:
        """Show the hint of ``solution`` (help only when it shows a move)."""
        self.hint = solution.best_move
        self.hint_solution = solution
        if solution.best_move is not None:
            self.help = replace(self.help, hints=self.help.hints + 1)
        return (HintShown(solution.best_move),)

    def play_solver_move(self, solution: Solution) -> tuple[Event, ...]:
        """Solve: play the best move of ``solution``; ``()`` when no move keeps a chance."""
        move = solution.best_move
        if move is None or not self.game.position.is_legal(move):
            return ()
        self.help = replace(self.help, solver_moves=self.help.solver_moves + 1)
        return self._play(move, by_solver=True)

    def finish_steps(self, max_nodes: int = FINISH_NODES) -> Generator[None, None, bool | None]:
        """Check whether any way of playing on loses (kept for :meth:`finishable`)."""
        from nestor.finish import cannot_lose_steps

        position = self.game.position
        safe = yield from cannot_lose_steps(position, max_nodes)
        self._finish = (position, safe)
        return safe

    def finish(self) -> tuple[Event, ...]:
        """Finish: play the game out at once when no line loses (not help)."""
        if not self.finishable():
            return ()
        events: list[Event] = []
        while self.game.position.outcome() is None:
            events.extend(self._play(self.game.position.legal_moves()[0], by_finish=True))
        return tuple(events)

    def bring(self, saved: SavedGame) -> None:
        """``saved`` comes into play; selection and hints start afresh, Solve stops."""
        self.solving = False
        self.game = saved.game
        self.help = saved.help
        self.set_timer(saved.elapsed_ms)
        self.fresh_ui()
        self.last_uncovered = ()

    def fresh_ui(self) -> None:
        self.selected = None
        self.hint = None
        self.hint_solution = None
        self.hint_count = None

    def mark_daily(self, day: date | None) -> None:
        """Mark the game as the daily deal of ``day`` if it is (by default: of today, else of the
        date its attempt began)."""
        if day is None:
            today, started = self.today(), self.started_day()
            days = (today,) if started is None or started >= today else (today, started)
        else:
            days = (day,)
        self.daily = next((d for d in days if is_daily_deal(d, *self.key)), None)

    def set_timer(self, elapsed_ms: int) -> None:
        """The game in play has ``elapsed_ms`` on its timer; it runs if it should."""
        self._timer_ms, self._timer_since = elapsed_ms, None
        self.sync_timer()

    def sync_timer(self) -> None:
        """Bring the timer up to now, then let it run or stop as the game and page are."""
        game = self.game
        running = self.visible and bool(game.all_moves) and game.position.outcome() is None
        now = self.timer_clock()
        if self._timer_since is not None:
            self._timer_ms += max(0, now - self._timer_since)
        self._timer_since = now if running else None

    def _select(self, card: str | None) -> tuple[Event, ...]:
        self.selected = card
        return (Selected(card),)

    def _play(
        self, move: Move, by_solver: bool = False, by_finish: bool = False
    ) -> tuple[Event, ...]:
        """Play ``move`` (legal here) and count it; the game left settles; Solve stops unless it
        played it."""
        self.solving = self.solving and by_solver
        self.settle_left()
        before = self.game.position
        self.game.push(move)
        after = self.game.position
        self.fresh_ui()
        turned = before.stock[0] if isinstance(move, TurnStock) else None
        # Only available cards leave, and the stock card a turn pairs at once.
        removed = tuple(c for c in (turned, *before.available()) if c and c not in after)
        uncovered = tuple((c, after.available()[c]) for c in after.newly_available(before))
        if self._finish == (before, True):  # every position after a safe one is safe
            self._finish = (after, True)
        self.last_uncovered = tuple(c for c, _place in uncovered)
        self.sync_timer()  # first: a winning move stops the timer, at the time it shows
        self.stats_changes += self.stats.record_move(
            *self.key, self.clock(), won=after.is_empty(), helped=self.help.used,
            first=self.game.cursor == 1, lost=after.outcome() not in (None, Outcome.WON),
            elapsed_ms=self._timer_ms,
        )
        day = self.daily
        if (  # the daily deal won, started or finished on its own date
            day is not None and after.is_empty() and day in (self.today(), self.started_day())
        ):
            self.stats_changes += self.stats.record_daily(day)
        return (Moved(move, removed, turned, uncovered, after.outcome(), by_solver, by_finish),)

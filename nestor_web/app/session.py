"""The game manager: the deal in play, the player's selection, help, Solve and statistics.

Pure state and commands (Tatham's mid end, 2048's game manager): no words, no DOM, no
storage format. Every command returns the events of what happened (an empty tuple when
nothing changed); the browser's composition root then draws the view and hands the
session to the storage manager, which saves what changed.

Three kinds of state, kept apart:

* game state, what a save restores: :attr:`Session.game` and :attr:`Session.help`
  (plus the settings and statistics, saved under their own keys);
* UI state, never saved: :attr:`~Session.selected`, the hint shown, :attr:`~Session.notices`,
  :attr:`~Session.solving`, :attr:`~Session.thinking` and :attr:`~Session.last_uncovered`;
* caches: the solver's answer for the current position.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING, Literal, Protocol

from nestor import (
    MAX_DEAL,
    Game,
    Move,
    NestorError,
    Outcome,
    Pair,
    Position,
    TurnStock,
    check_deal_number,
    get_variant,
)
from nestor.daily import daily_deal, is_daily_deal

from .events import (
    DailyOpened,
    DealChanged,
    Event,
    FromOtherTab,
    HintShown,
    Moved,
    Noticed,
    Problem,
    Selected,
    SettingChanged,
    TimerChanged,
    TookBack,
    WentBack,
)
from .settings import Settings
from .statistics import Stats
from .url import DealRequest, daily_query, deal_query

if TYPE_CHECKING:  # the solver is imported when first asked (it is not needed to draw a board)
    from nestor.solver import Solution


@dataclass(frozen=True)
class Help:
    """The help used in one deal: hints that showed a move, moves Solve played, moves
    the game started with from a replay (:meth:`Session.play_from`), not played in it, and
    how many times the game went back to a position chosen in its review
    (:meth:`Session.try_from`: the review showed where the game was lost and how to win).

    A game won after any help counts as won with help.
    """

    hints: int = 0
    solver_moves: int = 0
    replayed: int = 0
    reviewed: int = 0

    @property
    def used(self) -> bool:
        """``True`` once a hint showed a move or Solve played one, when the game started
        from a replay's position after a move, or went on from a position of its review."""
        return bool(self.hints or self.solver_moves or self.replayed or self.reviewed)


@dataclass(frozen=True)
class SavedGame:
    """A game as saved: the deal, its moves and undo cursor (``game``), its help, and the
    time played on it (``elapsed_ms``, milliseconds the timer ran: the page shown, from the
    first move until the game ended)."""

    game: Game
    help: Help = Help()
    elapsed_ms: int = 0

    @property
    def key(self) -> tuple[str, int]:
        """``(variant, deal)``."""
        return self.game.variant.name, self.game.deal


class Shelf(Protocol):
    """Where games left in progress wait (the storage manager's archive)."""

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """Remove and return the game of ``variant``/``deal`` kept there, or ``None``.

        A shelf may report a kept game it cannot read itself (the storage manager does)
        and return ``None``.

        Raises:
            NestorError: the kept game could not be read (it is dropped); the session
                reports it.
        """


class NoShelf:
    """A :class:`Shelf` that keeps nothing (for tests of the session alone)."""

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """Nothing is kept: ``None``."""
        return None


FINISH_NODES = 2_000
"""Positions the finish check looks at before it gives up (and Finish is not offered)."""

Thinking = Literal["hint", "deal"]
"""What the solver may be busy with for the player: a hint, or a winnable deal."""


class Session:
    """The game in play and everything about it that is not a word or a pixel.

    Build it with :meth:`start`. Attributes (read them; change them with the commands):
        game: the :class:`nestor.Game` in play.
        help: the :class:`Help` used in this deal.
        settings: the :class:`~nestor_web.app.settings.Settings`.
        stats: the :class:`~nestor_web.app.statistics.Stats`.
        stats_changes: how many times the statistics changed (the storage manager saves
            them when this moved on).
        selected: the selected available card, or ``None``.
        hint: the move the hint shows, while its position is on the board.
        hint_solution: the solution that hint came from.
        notices: problems to report to the player, oldest first.
        solving: Solve is playing the winning line.
        thinking: what the solver works on for the player (:data:`Thinking`), or ``None``.
        left: the game left by the last New deal, Restart or change of variant, as it was,
            while Undo can bring it back (see :meth:`undo`), else ``None``.
        visible: the page is shown (the timer runs only then; see :meth:`set_visible`).
        last_uncovered: the cards the last move made available (the engine's
            ``newly_available``, as its :class:`~nestor_web.app.events.Moved` event says), until
            the next move, undo or another deal; ``()`` when there are none.
        rng: draws the deal numbers of new deals.
        clock: milliseconds since the Unix epoch (the statistics' times).
        timer_clock: milliseconds of a steady clock (the timer's; by default
            ``time.monotonic``, which a change of the computer's clock does not move).
        today: the player's local date (the daily deal's).
        daily: the date whose daily deal is in play, or ``None`` (see :meth:`open_daily`).
    """

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
        self.shelf: Shelf = shelf or NoShelf()
        self.rng = rng or random.Random()
        self.clock: Callable[[], int] = clock or (lambda: int(time.time() * 1000))
        self.timer_clock: Callable[[], int] = timer_clock or (
            lambda: int(time.monotonic() * 1000)
        )
        self.today: Callable[[], date] = today or date.today
        self.daily: date | None = None
        self.selected: str | None = None
        self.hint: Move | None = None
        self.hint_solution: Solution | None = None
        self.notices: list[Problem] = []
        self.stats_changes = 0  # counts the changes of the statistics (saving compares it)
        self.solving = False
        self.thinking: Thinking | None = None
        self.last_uncovered: tuple[str, ...] = ()
        self._analysis: tuple[Position, Solution] | None = None
        self.left: SavedGame | None = None
        # the game left's daily date and last move's marks (UI state Undo brings back too)
        self._left_ui: tuple[date | None, tuple[str, ...]] = (None, ())
        self.visible = True
        self._timer_ms = 0  # the timer's time up to _timer_since
        self._timer_since: int | None = None  # when the timer last started, if it runs
        self._finish: tuple[Position, bool | None] | None = None  # the finish check's answer

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
        """The session of a page opened on ``request`` (from the URL) with ``saved``.

        * The URL's deal is played: the saved game if it is that deal, else the same deal
          kept on the shelf of games left in progress, else fresh. The saved game, of
          another deal then, is left (it settles in the statistics) unless ``leave_saved``
          is false (another tab is open, and may be showing it).
        * A URL with a variant and no deal starts a random deal of that variant.
        * With no deal in the URL, the saved game resumes; with none, a random standard
          deal starts.
        * The game is the daily deal (:attr:`daily`) when the URL asked for a daily deal,
          or when it is today's.
        """
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
            kept = session._take_kept(*session.key)
            if kept is not None:
                session.game, session.help = kept.game, kept.help
                session._set_timer(kept.elapsed_ms)
        elif request.deal is None:
            session._switch(
                SavedGame(Game(request.variant, rng.randrange(MAX_DEAL))), leave=leave_saved
            )
        else:
            session._resume_or_start(request.variant.name, request.deal, leave=leave_saved)
        session._settle_left()  # opening a link is not a choice Undo takes back
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

    def query(self) -> str:
        """The URL query that opens this deal: ``"?variant=V&deal=N"``, or for the daily
        deal ``"?daily=YYYY-MM-DD"``."""
        return deal_query(*self.key) if self.daily is None else daily_query(self.daily)

    def saved(self) -> SavedGame:
        """The game state a save keeps: the game, its help, and the timer's time as of its
        last stop or the last move (so that a save made while the timer merely ticks on
        writes nothing new)."""
        return SavedGame(self.game, self.help, self._timer_ms)

    def elapsed_ms(self) -> int:
        """The timer: milliseconds played on this game so far (see :class:`SavedGame`)."""
        if self._timer_since is None:
            return self._timer_ms
        return self._timer_ms + max(0, self.timer_clock() - self._timer_since)

    def timer_running(self) -> bool:
        """Whether the timer runs now: the page is shown, and the game has had a move and
        has not ended."""
        return self._timer_since is not None

    def can_undo(self) -> bool:
        """Whether Undo does something: take back a move, or bring back the game left."""
        return self.game.can_undo() or self.left is not None

    def pairs_removed(self) -> int:
        """Pairs taken off the board so far (a Strict stock card that paired counts)."""
        return (52 - self.game.position.cards_left()) // 2

    def finishable(self) -> bool | None:
        """Can "Finish" play the game out now? ``True`` when the check (:meth:`finish_steps`)
        proved that no way of playing on loses; ``None`` while it was not run for this
        position; ``False`` otherwise (a losing line exists, or the check gave up)."""
        position = self.game.position
        if position.outcome() is not None:
            return False
        if self._finish is None or self._finish[0] != position:
            return None
        return bool(self._finish[1])

    def analysis(self) -> Solution | None:
        """The solver's answer for the current position, if it has been computed."""
        if self._analysis is not None and self._analysis[0] == self.game.position:
            return self._analysis[1]
        return None

    # ---- the player's commands -----------------------------------------------------------

    def tap(self, card: str) -> tuple[Event, ...]:
        """A tap on ``card``.

        An unavailable card (or any card once the game is over) does nothing. Tapping
        the selected card deselects it; an available card of the selected card's rank
        removes the pair; any other available card becomes the selection. With the
        auto-pair setting, a newly selected card with exactly one partner pairs at once.
        """
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
        """Remove ``first`` and ``second`` if they are a pair here: the command behind the
        second tap of tap-tap, auto-pair and a card dropped on another (a drag).

        Nothing happens (``()``, the selection kept) when the game is over or the two are not
        two available cards of one rank (a card dropped on a card it can't pair with).
        """
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
        """Take back the last move, if any; in a game with no move made yet, bring back the
        game left by the New deal, Restart or change of variant that started it (exactly as
        it was: moves, undo cursor, help, time; the statistics as they were before).

        A loss settled by the move taken back is taken back too (:meth:`Stats.take_back`):
        the game goes on.
        """
        if not self.game.can_undo():
            return self._return_to_left() if self.left is not None else ()
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
        """The review's "Try from here": put the game back at the position before its move
        ``index`` (0-based, among the moves in effect), as that many undos would; the moves
        after it stay for redo. From then on the game counts as played with help
        (:attr:`Help.reviewed`): the review showed where it was lost and what wins.

        A loss settled by the last move taken back is taken back too (as :meth:`undo`).
        Nothing happens (``()``) when ``index`` is not in ``0 .. cursor - 1``.
        """
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

    def restart(self) -> tuple[Event, ...]:
        """Start the same deal again from its first position (its help stays counted; the
        timer starts again from zero); Undo brings the game back as it was (see :attr:`left`).

        Like a new deal, a fresh start clears the notices.
        """
        self.solving = False
        left = self._leave()
        self.game = Game(self.game.variant, self.game.deal)
        self._set_timer(0)
        self._fresh_ui()
        self.last_uncovered = ()
        self.notices.clear()
        return (DealChanged(*self.key, restarted=True, left=left),)

    def new_deal(self, variant: str | None = None, deal: int | None = None) -> tuple[Event, ...]:
        """Start a deal of ``variant`` (else the current one): ``deal``, or a random one.

        The game left settles in the statistics (lost, if it was played and not won); the
        notices are cleared.

        Raises:
            VariantError: unknown variant name. DealNumberError: bad deal number.
        """
        v = get_variant(variant) if variant is not None else self.game.variant
        game = Game(v, self.rng.randrange(MAX_DEAL) if deal is None else deal)
        self.solving = False
        self.notices.clear()
        return self._switch(SavedGame(game))

    def open_deal(self, variant: str, deal: int | str) -> tuple[Event, ...]:
        """Go to a given deal: resume it if it is in play or on the shelf, else start it.

        Raises:
            VariantError, DealNumberError: on a bad variant or deal number.
        """
        name = get_variant(variant).name
        number = check_deal_number(deal)
        self.solving = False
        return self._resume_or_start(name, number)

    def open_daily(self, day: date | None = None) -> tuple[Event, ...]:
        """Go to the daily deal of ``day`` (default: today; the caller checks that ``day``
        is not later): resumed if it is in play or on the shelf, else started. While it
        is in play, :attr:`daily` is ``day`` and a win on that date counts for the daily
        streak."""
        day = day or self.today()
        self.solving = False
        events = self._resume_or_start(*daily_deal(day))
        self.daily = day
        return (*events, DailyOpened(day))

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
        """Take in the statistics another tab saved (:meth:`Stats.merge`): nothing either
        recorded is lost."""
        changed = self.stats.merge(other)
        if self.left is None:  # else the game left, waiting for Undo, is still this tab's
            self.stats.claim(*self.key)  # the deal shown here is this tab's, even if moved there
        if not changed:
            return ()
        self.stats_changes += 1
        return (FromOtherTab("stats"),)

    def adopt(self, saved: SavedGame) -> tuple[Event, ...]:
        """Another tab saved ``saved``, a game of the deal in play here: show its position.

        The player moved on in that tab last, so its game is the newer one; this tab's
        (which that tab had taken over when it opened or followed it) gives way, with a
        notice, instead of overwriting it on its next move. Its moves were counted in the
        statistics by that tab. Nothing happens for another deal, or the same game. A game
        with moves comes into play: the game left (:attr:`left`) settles, as in
        :meth:`_switch`, and the deal is this tab's unsettled game.
        """
        game = saved.game
        if saved.key != self.key or (game.all_moves, game.cursor, saved.help) == (
            self.game.all_moves, self.game.cursor, self.help
        ):
            return ()
        if game.all_moves:  # Undo takes back those moves now: the game left can't come back
            self._settle_left()
            self.stats.claim(*self.key)
        self.game = saved.game
        self.help = saved.help
        self._set_timer(saved.elapsed_ms)
        self.solving = False
        self._fresh_ui()
        self.last_uncovered = ()
        return (
            FromOtherTab("game"),
            DealChanged(*self.key, resumed=saved.game.cursor > 0),
            *self.notice(Problem("game.other_tab")),
        )

    def set_visible(self, visible: bool) -> tuple[Event, ...]:
        """The page was hidden (``False``) or shown again: the timer stops or goes on."""
        if visible == self.visible:
            return ()
        self.visible = visible
        self._sync_timer()
        return (TimerChanged(self.timer_running()),)

    def settle_left_games(self) -> None:
        """No other tab is open: every game the statistics hold as unsettled but this one
        (left in progress in a tab since closed) settles as lost, as when the player leaves a
        deal (:meth:`Stats.settle_others`)."""
        if self.stats.settle_others(*self.key, self.clock()):
            self.stats_changes += 1

    def reset_stats(self) -> None:
        """Forget all statistics (the view asks the player first); the reset is remembered,
        so another tab's older statistics do not bring them back."""
        self.stats.reset(now_ms=self.clock())
        self.stats_changes += 1

    # ---- replays --------------------------------------------------------------------------

    def play_from(self, game: Game) -> tuple[Event, ...]:
        """A replay's "Play from here": ``game`` (a replayed record at the position the
        replay showed; its later moves stay for redo) becomes the game in play, like a new
        deal (the game left settles in the statistics; the notices are cleared). Its moves
        in effect were not played here: a game that starts after any counts as played with
        help (:attr:`Help.replayed`)."""
        self.solving = False
        self.notices.clear()
        return self._switch(
            SavedGame(game, Help(replayed=game.cursor)), resumed=game.cursor > 0
        )

    # ---- the solver ----------------------------------------------------------------------

    def analyse_steps(self, max_nodes: int | None = None) -> Generator[None, None, Solution]:
        """Solve the current position (cached); a generator, see ``solve_steps``.

        Strict: the player cannot see the stock, so only the chance is worked out.
        """
        position = self.game.position
        known = self.analysis()
        if known is not None:
            return known
        from nestor.solver import solve_steps

        solution = yield from solve_steps(position, max_nodes, known_order=False)
        self._analysis = (position, solution)
        return solution

    def show_hint(self, solution: Solution) -> tuple[Event, ...]:
        """Show the hint of ``solution`` (for the current position).

        It counts as help only when it shows a move.
        """
        self.hint = solution.best_move
        self.hint_solution = solution
        if solution.best_move is not None:
            self.help = replace(self.help, hints=self.help.hints + 1)
        return (HintShown(solution.best_move),)

    def play_solver_move(self, solution: Solution) -> tuple[Event, ...]:
        """Solve: play the best move of ``solution`` (for the current position).

        Returns no events (and plays nothing) when no move keeps a chance to win.
        """
        move = solution.best_move
        if move is None or not self.game.position.is_legal(move):
            return ()
        self.help = replace(self.help, solver_moves=self.help.solver_moves + 1)
        return self._play(move, by_solver=True)

    # ---- Finish: play out a game that can no longer be lost --------------------------------

    def finish_steps(self, max_nodes: int = FINISH_NODES) -> Generator[None, None, bool | None]:
        """Check whether any way of playing on from the current position could lose
        (:func:`nestor.finish.cannot_lose_steps`), a generator like ``analyse_steps``; the
        answer is kept for :meth:`finishable`."""
        from nestor.finish import cannot_lose_steps

        position = self.game.position
        safe = yield from cannot_lose_steps(position, max_nodes)
        self._finish = (position, safe)
        return safe

    def finish(self) -> tuple[Event, ...]:
        """Finish: play the game out at once, when :meth:`finishable` says no line loses.

        Any legal move keeps the win, so the first one is played each time. It is no help
        (the game was already certain to be won): it counts as the player's own moves.
        """
        if not self.finishable():
            return ()
        self.solving = False
        events: list[Event] = []
        while self.game.position.outcome() is None:
            events.extend(self._play(self.game.position.legal_moves()[0], by_finish=True))
        return tuple(events)

    # ---- internals -----------------------------------------------------------------------

    def _select(self, card: str | None) -> tuple[Event, ...]:
        self.selected = card
        return (Selected(card),)

    def _fresh_ui(self) -> None:
        self.selected = None
        self.hint = None
        self.hint_solution = None

    def _play(
        self, move: Move, by_solver: bool = False, by_finish: bool = False
    ) -> tuple[Event, ...]:
        """Put ``move`` (legal here) in effect and count it; a game left earlier can no
        longer be brought back, so it settles now."""
        self._settle_left()
        before = self.game.position
        self.game.push(move)
        after = self.game.position
        self._fresh_ui()
        turned = before.stock[0] if isinstance(move, TurnStock) else None
        # Only available cards leave, and the stock card a turn pairs at once.
        gone = [turned] if turned is not None else []
        removed = tuple(c for c in [*gone, *before.available()] if c not in after)
        uncovered = tuple((c, after.available()[c]) for c in after.newly_available(before))
        if self._finish == (before, True):
            self._finish = (after, True)  # every position after a safe one is safe
        self.last_uncovered = tuple(c for c, _place in uncovered)
        self._count_move()
        self._sync_timer()
        return (Moved(move, removed, turned, uncovered, after.outcome(), by_solver, by_finish),)

    def _count_move(self) -> None:
        """Tell the statistics about the move just put in effect."""
        game = self.game
        if self.stats.record_move(
            game.variant.name, game.deal, self.clock(),
            won=game.position.is_empty(), helped=self.help.used, first=game.cursor == 1,
            lost=game.position.outcome() not in (None, Outcome.WON),
        ):
            self.stats_changes += 1
        day = self.daily
        if (  # the daily deal won on its own date
            day is not None and game.position.is_empty() and day == self.today()
            and self.stats.record_daily(day)
        ):
            self.stats_changes += 1

    def _mark_daily(self, day: date | None) -> None:
        """The game is the daily deal of ``day`` (default: today) if it is that deal (a
        hash or two for any other deal: the solver runs only for a candidate)."""
        day = day or self.today()
        self.daily = day if is_daily_deal(day, *self.key) else None

    def _resume_or_start(
        self, variant: str, deal: int, leave: bool = True
    ) -> tuple[Event, ...]:
        """Make ``variant``/``deal`` the game: the one in play, a kept one, or fresh."""
        if self.key == (variant, deal):
            self._fresh_ui()
            return ()
        kept = self._take_kept(variant, deal)
        if kept is not None:
            return self._switch(kept, resumed=kept.game.cursor > 0, leave=leave)
        return self._switch(SavedGame(Game(variant, deal)), leave=leave)

    def _take_kept(self, variant: str, deal: int) -> SavedGame | None:
        """The game of ``variant``/``deal`` taken off the shelf, or ``None`` (an unreadable
        one is reported)."""
        try:
            return self.shelf.take(variant, deal)
        except NestorError as exc:
            self.notice(Problem("archive.entry", exc))
            return None

    def _switch(
        self, saved: SavedGame, resumed: bool = False, leave: bool = True
    ) -> tuple[Event, ...]:
        """Another deal comes into play. The game left, if it has moves and was not won,
        waits in :attr:`left` for Undo; it settles in the statistics only once Undo can no
        longer bring it back (:meth:`_settle_left`): at the first move of another game, or
        when a game with moves made comes into play instead (its Undo takes back its own
        moves). Unless ``leave``, the game in play is dropped instead: neither kept for Undo
        nor settled (another tab may be playing it)."""
        left = self._leave() if leave and saved.key != self.key else False
        self.game = saved.game
        self.help = saved.help
        self._set_timer(saved.elapsed_ms)
        self._fresh_ui()
        self.last_uncovered = ()
        self._mark_daily(None)
        if self.left is not None and self.left.key == self.key:
            self.left = None  # the game left is back in play (Back, or its link)
            left = False
        elif self.game.all_moves:
            self._settle_left()
            left = False
        return (DealChanged(*self.key, resumed=resumed, left=left),)

    def _leave(self) -> bool:
        """The game in play is being left: keep it in :attr:`left` if it had moves and was
        not won (an earlier game left and still kept there settles first). ``True`` if
        it was kept."""
        game = self.game
        if not game.all_moves or game.position.is_empty():
            return False
        self._settle_left()
        self._sync_timer()  # its time up to now
        self.left = self.saved()
        self._left_ui = (self.daily, self.last_uncovered)
        return True

    def _settle_left(self) -> None:
        """Undo can no longer bring back the game left: it settles in the statistics (lost,
        if it was played and not won; a restarted deal is the game in play, nothing
        settles)."""
        left, self.left = self.left, None
        if left is None or left.key == self.key:
            return
        if self.stats.leave(*left.key, self.clock()):
            self.stats_changes += 1

    def _return_to_left(self) -> tuple[Event, ...]:
        """Undo right after leaving a game: it comes back exactly as it was left, taken off
        the shelf of games left in progress (the fresh game started instead had no move)."""
        left = self.left
        assert left is not None
        self.left = None
        self.solving = False
        if left.key != self.key:
            self._take_kept(*left.key)  # the copy the storage kept: the game is in play again
        self.game = left.game
        self.help = left.help
        self._set_timer(left.elapsed_ms)
        self._fresh_ui()
        self.daily, self.last_uncovered = self._left_ui  # its board exactly as it was left
        return (DealChanged(*self.key, resumed=True, returned=True),)

    # ---- the timer ---------------------------------------------------------------------

    def _set_timer(self, elapsed_ms: int) -> None:
        """The game in play has ``elapsed_ms`` on its timer; it runs if it should."""
        self._timer_ms = elapsed_ms
        self._timer_since = None
        self._sync_timer()

    def _sync_timer(self) -> None:
        """Bring the timer up to now, then let it run or stop as the game and page are."""
        now = self.timer_clock()
        if self._timer_since is not None:
            self._timer_ms += max(0, now - self._timer_since)  # a clock set back adds 0
        game = self.game
        running = self.visible and bool(game.all_moves) and game.position.outcome() is None
        self._timer_since = now if running else None


"""The games kept for another deal than the one in play: the game left, and the shelf."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Protocol

from nestor import Game, NestorError

from .events import DealChanged, Event, Problem
from .saved import SavedGame, Shelf

if TYPE_CHECKING:
    from .statistics import Stats


class Keeper(Protocol):
    """What a :class:`Kept` uses of its session (a :class:`~nestor_web.app.session.Session`, which
    imports this module): the attributes and commands its docstring describes, and the internals
    that put a game in play."""

    game: Game
    daily: date | None
    last_uncovered: tuple[str, ...]
    solving: bool
    stats: Stats
    stats_changes: int
    clock: Callable[[], int]

    @property
    def key(self) -> tuple[str, int]:
        """The deal in play: ``(variant, deal)``."""

    def saved(self) -> SavedGame:
        """The game in play as a save keeps it."""

    def notice(self, problem: Problem) -> tuple[Event, ...]:
        """Report ``problem`` to the player."""

    def _bring(self, saved: SavedGame) -> None:
        """``saved`` comes into play: its game, help and time; the UI state starts afresh."""

    def _fresh_ui(self) -> None:
        """No selection, no hint."""

    def _mark_daily(self, day: date | None) -> None:
        """The game is the daily deal of ``day`` (default: today) if it is that deal."""

    def _sync_timer(self) -> None:
        """Bring the timer up to now; it runs or stops as the game and page are."""


class Kept:
    """The games a :class:`~nestor_web.app.session.Session` keeps for other deals.

    Attributes:
        session: the session whose games these are (:class:`Keeper`).
        shelf: where games left in progress wait (:class:`~nestor_web.app.saved.Shelf`).
        left: the game left by the last New deal, Restart or change of variant, as it was, while
            Undo can bring it back, else ``None``.
        left_ui: the daily date and last move's marks of the game left (UI state that Undo brings
            back too).
    """

    __slots__ = ("left", "left_ui", "session", "shelf")

    def __init__(self, session: Keeper, shelf: Shelf) -> None:
        self.session = session
        self.shelf = shelf
        self.left: SavedGame | None = None
        self.left_ui: tuple[date | None, tuple[str, ...]] = (None, ())

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """The game of ``variant``/``deal`` taken off the shelf, or ``None`` (an unreadable one is
        reported to the player: a :class:`~nestor_web.app.events.Problem` ``"archive.entry"``
        notice)."""
        try:
            return self.shelf.take(variant, deal)
        except NestorError as exc:
            self.session.notice(Problem("archive.entry", exc))
            return None

    def resume_or_start(
        self, variant: str, deal: int, leave: bool = True
    ) -> tuple[Event, ...]:
        """Make ``variant``/``deal`` the game: the one in play, the game left (:attr:`left`), a kept
        one, or fresh."""
        session = self.session
        if session.key == (variant, deal):
            session._fresh_ui()
            return ()
        kept = self.take(variant, deal)
        left = self.left
        if left is not None and left.key == (variant, deal) and (
            left.game.position.outcome() is None  # in progress (a lost one starts afresh)
        ) and not (  # the storage's copy, when another tab played on from the game left
            kept is not None and len(kept.game.all_moves) > len(left.game.all_moves)
            and kept.game.all_moves[: left.game.cursor] == left.game.moves
        ):
            # The game left by the last New deal (Back, or its link): as it was left, newer
            # than the storage's copy, which the save after leaving it may not have made yet.
            kept = left
        if kept is not None:
            events = self.switch(kept, resumed=kept.game.cursor > 0, leave=leave)
            self.resumed()
            return events
        return self.switch(SavedGame(Game(variant, deal)), leave=leave)

    def switch(
        self, saved: SavedGame, resumed: bool = False, leave: bool = True
    ) -> tuple[Event, ...]:
        """Another deal, ``saved``, comes into play."""
        session = self.session
        left = self.leave() if leave and saved.key != session.key else False
        session._bring(saved)
        session._mark_daily(None)
        if self.left is not None and self.left.key == session.key:
            self.left = None  # the game left is back in play (Back, or its link)
            left = False
        elif session.game.all_moves:
            self.settle()
            left = False
        return (DealChanged(*session.key, resumed=resumed, left=left),)

    def leave(self) -> bool:
        """The game in play is being left: keep it in :attr:`left` if it had moves and was not won
        (an earlier game left and still kept there settles first)."""
        session = self.session
        game = session.game
        if not game.all_moves or game.position.is_empty():
            return False
        self.settle()
        session._sync_timer()  # its time up to now
        self.left = session.saved()
        self.left_ui = (session.daily, session.last_uncovered)
        return True

    def settle(self) -> None:
        """Undo can no longer bring back the game left: it settles in the statistics (lost, if it
        was played and not won; a restarted deal is the game in play, nothing settles)."""
        session = self.session
        left, self.left = self.left, None
        if left is None or left.key == session.key:
            return
        if session.stats.leave(*left.key, session.clock()):
            session.stats_changes += 1

    def resumed(self) -> None:
        """The game in play came back as it was left: if it is in progress, the loss its leaving
        settled is taken back (:meth:`Stats.take_back`, as Undo takes back a losing move's), so the
        history does not call it lost beside its result to come."""
        session = self.session
        if session.game.position.outcome() is None and session.stats.take_back(*session.key):
            session.stats_changes += 1

    def back(self) -> tuple[Event, ...]:
        """Undo right after leaving a game (:attr:`left` is not ``None``): it comes back exactly as
        it was left, taken off the shelf of games left in progress (the fresh game started instead
        had no move)."""
        session = self.session
        left = self.left
        assert left is not None
        self.left = None
        session.solving = False
        if left.key != session.key:
            self.take(*left.key)  # the copy the storage kept: the game is in play again
        session._bring(left)
        session.daily, session.last_uncovered = self.left_ui  # its board exactly as it was
        return (DealChanged(*session.key, resumed=True, returned=True),)

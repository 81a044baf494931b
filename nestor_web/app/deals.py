"""Another deal into play: New deal, Restart, a link, the daily deal, Undo of a deal change (the
game left waits for Undo, then settles; games left earlier wait on the shelf)."""

from __future__ import annotations

from datetime import date

from nestor import MAX_DEAL, Game, NestorError, check_deal_number, get_variant
from nestor.daily import daily_deal

from .events import DailyOpened, DealChanged, Event, FromOtherTab, Problem, TimerChanged, TookBack
from .play import Play
from .saved import Help, SavedGame


class Deals(Play):
    """The game in play, and the commands that bring another deal into play."""

    def undo(self) -> tuple[Event, ...]:
        """Take back the last move; with no move yet, bring back the game left, as it was."""
        if self.game.can_undo():
            move = self.game.all_moves[self.game.cursor - 1]
            self.take_back(self.game.cursor - 1)
            return (TookBack(move),)
        left, self.left = self.left, None
        if left is None:
            return ()
        if left.key != self.key:
            self.take(*left.key)  # the copy the storage kept: the game is in play again
        self.bring(left)
        self.daily, self.last_uncovered = self.left_ui  # its board exactly as it was
        return (DealChanged(*self.key, resumed=True, returned=True),)

    def restart(self) -> tuple[Event, ...]:
        """Start the same deal again (its help stays counted, the timer from zero)."""
        left = self.leave()
        self.bring(SavedGame(Game(self.game.variant, self.game.deal), self.help))
        self.notices.clear()
        return (DealChanged(*self.key, restarted=True, left=left),)

    def new_deal(self, variant: str | None = None, deal: int | None = None) -> tuple[Event, ...]:
        """Start ``deal`` (else a random one) of ``variant`` (else the current one)."""
        v = get_variant(variant) if variant is not None else self.game.variant
        game = Game(v, self.rng.randrange(MAX_DEAL) if deal is None else deal)
        self.notices.clear()
        return self.switch(SavedGame(game))

    def open_deal(self, variant: str, deal: int | str) -> tuple[Event, ...]:
        """Go to a deal: resumed if in play or on the shelf, else started."""
        return self.resume_or_start(get_variant(variant).name, check_deal_number(deal))

    def open_daily(self, day: date | None = None) -> tuple[Event, ...]:
        """Go to the daily deal of ``day`` (default: today), resumed or started."""
        day = day or self.today()
        events = self.resume_or_start(*daily_deal(day))
        self.daily = day
        return (*events, DailyOpened(day))

    def adopt(self, saved: SavedGame) -> tuple[Event, ...]:
        """Another tab saved ``saved``, a newer game of the deal in play: show it, with a notice."""
        if saved.key != self.key:
            return ()
        if (saved.game.all_moves, saved.game.cursor, saved.help) == (
            self.game.all_moves, self.game.cursor, self.help
        ):  # the same game: a longer time is taken
            if saved.elapsed_ms <= self._timer_ms:
                return ()
            self.set_timer(saved.elapsed_ms)
            return (TimerChanged(self.timer_running()),)
        if saved.game.all_moves:  # Undo takes back those moves now: the game left can't come back
            self.settle_left()
            self.stats.claim(*self.key)
        self.bring(saved)
        return (
            FromOtherTab("game"),
            DealChanged(*self.key, resumed=saved.game.cursor > 0),
            *self.notice(Problem("game.other_tab")),
        )

    def play_from(self, game: Game) -> tuple[Event, ...]:
        """A replay's "Play from here": ``game`` comes into play like a new deal, its moves help."""
        self.notices.clear()
        return self.switch(SavedGame(game, Help(replayed=game.cursor)), resumed=game.cursor > 0)

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """The game of ``variant``/``deal`` off the shelf, or ``None`` (unreadable: reported)."""
        try:
            return None if self.shelf is None else self.shelf.take(variant, deal)
        except NestorError as exc:
            self.notice(Problem("archive.entry", exc))
            return None

    def resume_or_start(self, variant: str, deal: int, leave: bool = True) -> tuple[Event, ...]:
        """Make ``variant``/``deal`` the game: the one in play, the game left, a shelved one, or
        fresh (``leave``: as :meth:`switch`); Solve stops."""
        self.solving = False
        if self.key == (variant, deal):
            self.fresh_ui()
            return ()
        kept = self.take(variant, deal)
        left = self.left
        if left is not None and left.key == (variant, deal) and (
            left.game.position.outcome() is None  # in progress (a lost one starts afresh)
        ) and not (  # the storage's copy, when another tab played on from the game left
            kept is not None and len(kept.game.all_moves) > len(left.game.all_moves)
            and kept.game.all_moves[: left.game.cursor] == left.game.moves
        ):
            # The game left by the last New deal: newer than the storage's copy, if any.
            kept = left
        if kept is None:
            return self.switch(SavedGame(Game(variant, deal)), leave=leave)
        events = self.switch(kept, resumed=kept.game.cursor > 0, leave=leave)
        # Back as it was left: the loss its leaving settled is taken back, if in progress.
        if self.game.position.outcome() is None:
            self.stats_changes += self.stats.take_back(*self.key)
        return events

    def switch(
        self, saved: SavedGame, resumed: bool = False, leave: bool = True
    ) -> tuple[Event, ...]:
        """``saved`` comes into play; the game left waits for Undo unless ``saved`` has moves.
        Without ``leave`` the game in play is dropped, neither kept nor settled."""
        left = self.leave() if leave and saved.key != self.key else False
        self.bring(saved)
        self.mark_daily(None)
        if self.left is not None and self.left.key == self.key:
            self.left = None  # the game left is back in play (Back, or its link)
            left = False
        elif self.game.all_moves:
            self.settle_left()
            left = False
        return (DealChanged(*self.key, resumed=resumed, left=left),)

    def leave(self) -> bool:
        """The game in play is left: keep it for Undo (``True``) if it had moves and was not won;
        a game left earlier settles first."""
        game = self.game
        if not game.all_moves or game.position.is_empty():
            return False
        self.settle_left()
        self.sync_timer()  # its time up to now
        self.left = self.saved()
        self.left_ui = (self.daily, self.last_uncovered)
        return True

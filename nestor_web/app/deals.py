"""The session's commands that bring another deal into play."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING

from nestor import MAX_DEAL, Game, check_deal_number, get_variant
from nestor.daily import daily_deal

from .events import DailyOpened, DealChanged, Event, FromOtherTab, Problem
from .saved import Help, SavedGame

if TYPE_CHECKING:
    from .kept import Kept
    from .statistics import Stats


class DealCommands:
    """The commands of a :class:`~nestor_web.app.session.Session` that change the deal in play."""

    game: Game
    help: Help
    rng: random.Random
    today: Callable[[], date]
    daily: date | None
    solving: bool
    notices: list[Problem]
    stats: Stats
    _kept: Kept

    if TYPE_CHECKING:

        @property
        def key(self) -> tuple[str, int]: ...

        def notice(self, problem: Problem) -> tuple[Event, ...]: ...

        def _bring(self, saved: SavedGame) -> None: ...

        def take_longer_time(self, elapsed_ms: int) -> tuple[Event, ...]: ...

    def restart(self) -> tuple[Event, ...]:
        """Start the same deal again from its first position (its help stays counted; the timer
        starts again from zero); Undo brings the game back as it was (see
        :attr:`~nestor_web.app.session.Session.left`)."""
        self.solving = False
        left = self._kept.leave()
        self._bring(SavedGame(Game(self.game.variant, self.game.deal), self.help))
        self.notices.clear()
        return (DealChanged(*self.key, restarted=True, left=left),)

    def new_deal(self, variant: str | None = None, deal: int | None = None) -> tuple[Event, ...]:
        """Start a deal of ``variant`` (else the current one): ``deal``, or a random one.

        Raises:
            VariantError: unknown variant name. DealNumberError: bad deal number.
        """
        v = get_variant(variant) if variant is not None else self.game.variant
        game = Game(v, self.rng.randrange(MAX_DEAL) if deal is None else deal)
        self.solving = False
        self.notices.clear()
        return self._kept.switch(SavedGame(game))

    def open_deal(self, variant: str, deal: int | str) -> tuple[Event, ...]:
        """Go to a given deal: resume it if it is in play or on the shelf, else start it.

        Raises:
            VariantError, DealNumberError: on a bad variant or deal number.
        """
        name = get_variant(variant).name
        number = check_deal_number(deal)
        self.solving = False
        return self._kept.resume_or_start(name, number)

    def open_daily(self, day: date | None = None) -> tuple[Event, ...]:
        """Go to the daily deal of ``day`` (default: today; the caller checks that ``day`` is not
        later): resumed if it is in play or on the shelf, else started."""
        day = day or self.today()
        self.solving = False
        events = self._kept.resume_or_start(*daily_deal(day))
        self.daily = day
        return (*events, DailyOpened(day))

    def adopt(self, saved: SavedGame) -> tuple[Event, ...]:
        """Another tab saved ``saved``, a game of the deal in play here: show its position."""
        game = saved.game
        if saved.key != self.key:
            return ()
        if (game.all_moves, game.cursor, saved.help) == (
            self.game.all_moves, self.game.cursor, self.help
        ):
            return self.take_longer_time(saved.elapsed_ms)
        if game.all_moves:  # Undo takes back those moves now: the game left can't come back
            self._kept.settle()
            self.stats.claim(*self.key)
        self._bring(saved)
        self.solving = False
        return (
            FromOtherTab("game"),
            DealChanged(*self.key, resumed=saved.game.cursor > 0),
            *self.notice(Problem("game.other_tab")),
        )

    # ---- replays ----------------------------------------------------------------------------

    def play_from(self, game: Game) -> tuple[Event, ...]:
        """A replay's "Play from here": ``game`` (a replayed record at the position the replay
        showed; its later moves stay for redo) becomes the game in play, like a new deal (the game
        left settles in the statistics; the notices are cleared)."""
        self.solving = False
        self.notices.clear()
        return self._kept.switch(
            SavedGame(game, Help(replayed=game.cursor)), resumed=game.cursor > 0
        )

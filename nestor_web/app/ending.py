"""The end of a game: what the end screen needs beyond the session (no words, no DOM)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from nestor import Outcome

from .session import Session

if TYPE_CHECKING:  # the solver is imported when first asked (it is not needed to draw a board)
    from nestor.solver import Solution

VERDICT_NODES = 50_000  # the solver's node budget for the verdict on a deal (a guard only)


@dataclass(frozen=True)
class DailyWin:
    """What winning the daily deal of ``day`` did: the date ``counted`` (started or finished on
    it), won ``late``, the daily streaks as of today, the ``run`` of dates won ending on ``day``."""

    day: date
    counted: bool
    late: bool
    streak: int
    best_streak: int
    run: int = 0


class Ending:
    """The end screen's state; ``dismissed``: closed by the player (until the next end)."""

    def __init__(self, max_nodes: int = VERDICT_NODES) -> None:
        self.dismissed = False
        self.max_nodes = max_nodes
        self._verdicts: dict[tuple[str, int], Solution] = {}

    def sync(self, session: Session) -> None:
        """A game not over has no dismissed end screen (the next end shows it)."""
        if session.game.position.outcome() is None:
            self.dismissed = False

    def shown(self, session: Session) -> bool:
        return session.game.position.outcome() is not None and not self.dismissed

    @staticmethod
    def daily_win(session: Session) -> DailyWin | None:
        """What the win did to the daily record, when a daily deal is won."""
        day = session.daily
        if day is None or session.game.position.outcome() is not Outcome.WON:
            return None
        today = session.today()
        summary = session.stats.daily_summary(today)
        return DailyWin(
            day, session.stats.daily_won(day), today > day, summary.streak,
            summary.best_streak, session.stats.daily_run(day),
        )

    @staticmethod
    def won_by_play(session: Session) -> bool:
        """An open variant's game was won: the deal is winnable, no search needed."""
        return session.game.position.outcome() is Outcome.WON and not session.game.variant.has_stock

    def verdict(self, session: Session) -> Solution | None:
        """The solver's answer for the deal in play's first position, if worked out."""
        return self._verdicts.get(session.key)

    def needs_verdict(self, session: Session) -> bool:
        return (
            self.shown(session)
            and session.key not in self._verdicts
            and not self.won_by_play(session)
        )

    def verdict_steps(self, session: Session) -> Generator[None, None, Solution]:
        """Work out the verdict for the deal in play, yielding between slices."""
        from nestor.solver import solve_steps

        key = session.key
        known = self._verdicts.get(key)
        if known is not None:
            return known
        solution = yield from solve_steps(session.game.start, self.max_nodes, known_order=False)
        self._verdicts[key] = solution
        return solution

"""Deals' grades (:mod:`nestor.grade`), and the player's wins per grade."""

from __future__ import annotations

from dataclasses import dataclass

from nestor.deal import GRADES, UNWINNABLE

from .statistics.data import Key as Key

GRADE_NAMES = (*GRADES, UNWINNABLE)
"""Every grade a deal can have, easiest first."""


@dataclass(frozen=True)
class GradeRecord:
    """The player's settled games of one grade in one variant, over the deals remembered.

    Attributes:
        grade: one of :data:`GRADE_NAMES`.
        played: deals of that grade that settled (won, won with help, lost).
        won: those won, with help or without.
    """

    grade: str
    played: int
    won: int

    @property
    def win_rate(self) -> float | None:
        """``won / played``, from 0 to 1; ``None`` when none was played."""
        return self.won / self.played if self.played else None


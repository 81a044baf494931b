"""Deals' grades known to the page, and the player's wins per grade.

A deal's grade (:mod:`nestor.grade`) is a fact about its cards: it comes from the table shipped
with the game (:mod:`nestor.graded_deals`), from the grades this page worked out before (kept by
the storage manager), or from grading the deal in the page's time slices. No words, no DOM.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from nestor.deal import GRADES, UNWINNABLE

from .statistics import Stats

GRADE_NAMES = (*GRADES, UNWINNABLE)
"""Every grade a deal can have, easiest first."""

Key = tuple[str, int]
"""A deal: ``(variant name, deal number)``."""


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


def grade_records(
    stats: Stats, variant: str, known: Mapping[Key, str], kept: Mapping[Key, str] | None = None
) -> tuple[tuple[GradeRecord, ...], int]:
    """The settled games of ``variant`` per grade (one :class:`GradeRecord` per grade), each deal's
    grade from ``known``, the table or ``kept``; and how many settled deals have no known grade."""
    from nestor.graded_deals import known_grade

    played = dict.fromkeys(GRADE_NAMES, 0)
    won = dict.fromkeys(GRADE_NAMES, 0)
    unknown = 0
    for deal, state in stats.deal_states(variant):
        if state == "playing":
            continue
        key = (variant, deal)
        grade = known.get(key) or known_grade(variant, deal) or (
            kept.get(key) if kept is not None else None)
        if grade is None:
            unknown += 1
            continue
        played[grade] += 1
        won[grade] += state != "lost"
    return tuple(GradeRecord(g, played[g], won[g]) for g in GRADE_NAMES), unknown

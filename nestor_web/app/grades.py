"""The session's commands about deals' grades: what is known of each deal's grade, New deal of one
grade, and the wins per grade of the deals remembered."""

from __future__ import annotations

import random
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nestor import get_variant

from .events import Event, GradeKnown

if TYPE_CHECKING:
    from nestor import Game

    from .statistics import Stats

GRADE_NAMES = ("easy", "medium", "hard", "unwinnable")
"""Every grade a deal can have, easiest first (:data:`nestor.grade.GRADES` and ``"unwinnable"``)."""

Key = tuple[str, int]
"""A deal: ``(variant name, deal number)``."""


@dataclass(frozen=True)
class GradeRecord:
    """The player's games of one grade in one variant, over the deals remembered by the statistics
    (:data:`~nestor_web.app.statistics.DEAL_MEMORY`, the last 5,000 changed).

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


class GradeCommands:
    """What a :class:`~nestor_web.app.session.Session` knows of deals' grades.

    Attributes:
        grades: the grade of each deal known here, by :data:`Key` (from the table, the grades kept,
            or worked out in the page).
        graded: the grades this page worked out itself (a subset of ``grades``): the storage manager
            keeps them, as the table does not hold them.
    """

    game: Game
    rng: random.Random
    stats: Stats
    grades: dict[Key, str]
    graded: dict[Key, str]

    if TYPE_CHECKING:

        @property
        def key(self) -> tuple[str, int]: ...

        def new_deal(
            self, variant: str | None = None, deal: int | None = None
        ) -> tuple[Event, ...]: ...

    @property
    def grade(self) -> str | None:
        """The grade of the deal in play, once known, else ``None``."""
        return self.grades.get(self.key)

    def know_grade(self, variant: str, deal: int, grade: str, graded: bool = False
                   ) -> tuple[Event, ...]:
        """``grade`` is the grade of ``deal`` of ``variant`` (``graded``: worked out in this page,
        to be kept).

        Raises:
            ValueError: ``grade`` is not one of :data:`GRADE_NAMES`.
        """
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
        """Learn the grade of the deal in play if the table holds it, or ``kept`` (the grades the
        storage manager kept) does: a :class:`~nestor_web.app.events.GradeKnown`, or ``()`` when it
        must be worked out (:meth:`grade_steps`) or was known."""
        if self.grade is not None:
            return ()
        from nestor.graded_deals import known_grade

        variant, deal = self.key
        found = known_grade(variant, deal)
        if found is None and kept is not None:
            found = kept.get(self.key)
        return () if found is None else self.know_grade(variant, deal, found)

    def grade_steps(self) -> Generator[None, None, tuple[Event, ...]]:
        """Work out the grade of the deal in play (:func:`nestor.grade.grade_steps`), yielding
        between slices of work; then :meth:`know_grade` it (kept: ``graded``)."""
        from nestor.grade import grade_steps

        variant, deal = self.key
        result = yield from grade_steps(variant, deal)
        return self.know_grade(variant, deal, result.grade, graded=True)

    def new_graded_deal(self, variant: str, grade: str) -> tuple[Event, ...]:
        """New deal of ``variant`` graded ``grade`` (``"easy"``, ``"medium"`` or ``"hard"``), drawn
        from the table (:func:`nestor.graded_deals.pick_deal`), one the statistics do not remember
        as played while the table has others; any deal if it has none.

        Raises:
            VariantError: unknown variant. NestorError: unknown grade (``grade.unknown``).
        """
        from nestor.graded_deals import pick_deal

        name = get_variant(variant).name
        played = {deal for deal, _ in self.stats.deal_states(name)}
        deal = pick_deal(name, grade, self.rng, played)
        events = self.new_deal(name, deal)
        if deal is not None:
            events += self.know_grade(name, deal, grade)
        return events

    def grade_records(self, variant: str, kept: Mapping[Key, str] | None = None
                      ) -> tuple[tuple[GradeRecord, ...], int]:
        """The player's settled games of ``variant`` per grade (one :class:`GradeRecord` per grade
        of :data:`GRADE_NAMES`), over the deals the statistics remember, each deal's grade from
        :attr:`grades`, the table, or ``kept``; and how many settled deals have no known grade yet
        (not graded here)."""
        from nestor.graded_deals import known_grade

        played = dict.fromkeys(GRADE_NAMES, 0)
        won = dict.fromkeys(GRADE_NAMES, 0)
        unknown = 0
        for deal, state in self.stats.deal_states(variant):
            if state == "playing":
                continue
            key = (variant, deal)
            grade = self.grades.get(key) or known_grade(variant, deal) or (
                kept.get(key) if kept is not None else None)
            if grade is None:
                unknown += 1
                continue
            played[grade] += 1
            won[grade] += state != "lost"
        return tuple(GradeRecord(g, played[g], won[g]) for g in GRADE_NAMES), unknown

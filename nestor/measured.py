"""The measured odds of every variant, and of each way of playing: the figures of
docs/odds.md, as data.

:data:`ODDS` comes from ``python -m nestor odds --variant NAME --deals 100000`` (deals 0 to
99,999, shuffle version 1), :data:`SKILL` from ``odds --strategy NAME --deals 10000``. The
page shows them in the player's language (nestor_web.view.texts), and tests/test_measured.py
checks that docs/odds.md says the same. Percentages are kept as
the decimal text the table prints (``"53.29"``), so no rounding happens twice.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Share:
    """A share of deals, with its 95% interval.

    Attributes:
        variant: variant name; for Strict, ``kind`` says which of its two figures.
        kind: ``"winnable"`` (with perfect play, the stock order known in Strict) or
            ``"chance"`` (Strict: the mean chance with best play, stock order unknown).
        deals: deals solved.
        won: deals won (``None`` for a mean chance).
        percent, low, high: the figure and its interval, in percent, as decimal text.
    """

    variant: str
    kind: str
    deals: int
    won: int | None
    percent: str
    low: str
    high: str


ODDS: tuple[Share, ...] = (
    Share("standard", "winnable", 100_000, 53_285, "53.29", "52.98", "53.59"),
    Share("vertical", "winnable", 100_000, 95_979, "95.98", "95.86", "96.10"),
    Share("doublets", "winnable", 100_000, 99_999, "99.999", "99.994", "99.9998"),
    Share("overlapping", "winnable", 100_000, 25_085, "25.09", "24.82", "25.35"),
    Share("strict", "chance", 100_000, None, "13.47", "13.33", "13.60"),
    Share("strict", "winnable", 100_000, 15_499, "15.50", "15.28", "15.72"),
)
"""Every figure of docs/odds.md, in its order."""


@dataclass(frozen=True)
class Skill:
    """The share of deals one strategy wins in one variant, with its 95% interval.

    Attributes:
        strategy: a name of :data:`nestor.strategies.STRATEGIES`.
        variant: variant name.
        deals: deals played (deals 0 to ``deals - 1``).
        won: deals won (``None`` for Strict's ``perfect``, a mean chance with best play).
        percent, low, high: the share and its interval (Wilson's; a normal approximation
            for a mean chance), in percent, as decimal text with two decimals.
    """

    strategy: str
    variant: str
    deals: int
    won: int | None
    percent: str
    low: str
    high: str


SKILL: tuple[Skill, ...] = (
)
"""The skill table of docs/odds.md, by strategy then variant: each figure from
``python -m nestor odds --variant V --strategy S --deals 10000 --json`` (seed 0), turned
into these lines by ``scripts/skill_table.py``."""

SKILL_DEALS = 10_000
"""Deals played for every figure of :data:`SKILL`."""

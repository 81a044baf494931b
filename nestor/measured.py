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
    Skill("random", "standard", 10_000, 382, "3.82", "3.46", "4.21"),
    Skill("random", "strict", 10_000, 366, "3.66", "3.31", "4.05"),
    Skill("random", "vertical", 10_000, 487, "4.87", "4.47", "5.31"),
    Skill("random", "doublets", 10_000, 4_063, "40.63", "39.67", "41.60"),
    Skill("random", "overlapping", 10_000, 346, "3.46", "3.12", "3.84"),
    Skill("uncover", "standard", 10_000, 1_516, "15.16", "14.47", "15.88"),
    Skill("uncover", "strict", 10_000, 478, "4.78", "4.38", "5.22"),
    Skill("uncover", "vertical", 10_000, 4_579, "45.79", "44.82", "46.77"),
    Skill("uncover", "doublets", 10_000, 7_160, "71.60", "70.71", "72.48"),
    Skill("uncover", "overlapping", 10_000, 606, "6.06", "5.61", "6.54"),
    Skill("reserve-last", "standard", 10_000, 1_244, "12.44", "11.81", "13.10"),
    Skill("reserve-last", "strict", 10_000, 361, "3.61", "3.26", "3.99"),
    Skill("reserve-last", "vertical", 10_000, 3_906, "39.06", "38.11", "40.02"),
    Skill("reserve-last", "doublets", 10_000, 6_361, "63.61", "62.66", "64.55"),
    Skill("reserve-last", "overlapping", 10_000, 383, "3.83", "3.47", "4.22"),
    Skill("longest", "standard", 10_000, 1_756, "17.56", "16.83", "18.32"),
    Skill("longest", "strict", 10_000, 565, "5.65", "5.21", "6.12"),
    Skill("longest", "vertical", 10_000, 4_885, "48.85", "47.87", "49.83"),
    Skill("longest", "doublets", 10_000, 7_993, "79.93", "79.13", "80.70"),
    Skill("longest", "overlapping", 10_000, 583, "5.83", "5.39", "6.31"),
    Skill("tips", "standard", 10_000, 1_778, "17.78", "17.04", "18.54"),
    Skill("tips", "strict", 10_000, 563, "5.63", "5.20", "6.10"),
    Skill("tips", "vertical", 10_000, 5_040, "50.40", "49.42", "51.38"),
    Skill("tips", "doublets", 10_000, 7_499, "74.99", "74.13", "75.83"),
    Skill("tips", "overlapping", 10_000, 713, "7.13", "6.64", "7.65"),
    Skill("greedy", "standard", 10_000, 750, "7.50", "7.00", "8.03"),
    Skill("greedy", "strict", 10_000, 452, "4.52", "4.13", "4.94"),
    Skill("greedy", "vertical", 10_000, 1_282, "12.82", "12.18", "13.49"),
    Skill("greedy", "doublets", 10_000, 5_299, "52.99", "52.01", "53.97"),
    Skill("greedy", "overlapping", 10_000, 562, "5.62", "5.19", "6.09"),
    Skill("perfect", "standard", 10_000, 5_341, "53.41", "52.43", "54.39"),
    Skill("perfect", "strict", 10_000, None, "13.23", "12.81", "13.65"),
    Skill("perfect", "vertical", 10_000, 9_609, "96.09", "95.69", "96.45"),
    Skill("perfect", "doublets", 10_000, 10_000, "100.00", "99.96", "100.00"),
    Skill("perfect", "overlapping", 10_000, 2_547, "25.47", "24.63", "26.33"),
)
"""The skill table of docs/odds.md, by strategy then variant: each figure from
``python -m nestor odds --variant V --strategy S --deals 10000 --json`` (seed 0), turned
into these lines by ``scripts/skill_table.py``."""

SKILL_DEALS = 10_000
"""Deals played for every figure of :data:`SKILL`."""

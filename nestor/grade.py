"""How hard a deal is: Easy, Medium, Hard or Unwinnable, measured with the engine.

Unwinnable when the solver proves no way of playing wins the deal as dealt (Strict: with its
stock as dealt). Otherwise the grade is the variant's :class:`Cuts` applied to the deal's
:func:`score`, compared left to right, higher easier: the beginners' tips' share of wins
(:data:`TIPS_PLAYOUTS` games, :mod:`nestor.strategies`) less :data:`NARROW_WEIGHT` for each
one-way position on the solver's winning line (:func:`narrow`), then the chance with best
play, then random play's share. docs/odds.md, "Difficulty grades", says why.

Standard library only; the browser may import it. :func:`grade_steps` yields between slices
of work (one move of a playout, a few dozen solver nodes), as the solver does.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from .checks import whole_number
from .deal import GRADES, UNWINNABLE, check_deal_number, deal_position
from .position import Move, Pair, Position
from .solver import Solution, Status, solve_steps
from .solver.oracle import Oracle
from .steps import run_to_end
from .strategies import deal_rng, get_strategy
from .variants import get_variant

__all__ = [
    "CUTS",
    "GRADES",
    "NARROW_MAX_NODES",
    "NARROW_WEIGHT",
    "STRICT_CHANCE_FLOOR",
    "TIPS_PLAYOUTS",
    "UNWINNABLE",
    "Cuts",
    "Grade",
    "LineCount",
    "derive_cuts",
    "grade",
    "grade_steps",
    "narrow",
    "narrow_steps",
    "score",
    "tips_win_rate",
    "wins_steps",
]

NARROW_WEIGHT = 0.25
"""What one one-way position takes off the tips' share in the :func:`score` (4 of 16 games)."""

TIPS_PLAYOUTS = 16
"""Games played per deal with each of the ``tips`` and ``random`` strategies: game ``s``
(``0 .. 15``) draws its ties with :func:`nestor.strategies.deal_rng` ``(s, variant, strategy,
deal)``, so each can be replayed."""

NARROW_MAX_NODES = 50_000
"""The node budget of each search that judges a pair for :func:`narrow` (the review's
``DEFAULT_MAX_NODES``); a pair it leaves unknown makes its position ``undecided``."""

STRICT_CHANCE_FLOOR = 0.0
"""Strict: a deal whose chance with best play is at or below this is unwinnable. ``0.0``:
only the solver's proof makes a deal unwinnable."""

Score = tuple[float, float, float]
"""A deal's score, compared left to right, higher is easier (see :func:`score`)."""


@dataclass(frozen=True)
class Cuts:
    """One variant's cut points between the grades, and what they were measured over.

    Attributes:
        variant: variant name.
        easy: the lowest :func:`score` that is Easy.
        medium: the lowest score that is Medium; a winnable deal below it is Hard.
        deals: the deals measured (deal numbers ``0 .. deals - 1``).
        winnable: how many of them were winnable (the cut points are terciles among them).
        provisional: measured over fewer deals than the table's 10,000.
    """

    variant: str
    easy: Score
    medium: Score
    deals: int
    winnable: int
    provisional: bool

    def grade_of(self, key: Score) -> str:
        """The grade of a winnable deal with score ``key``: ``"easy"``, ``"medium"`` or
        ``"hard"``."""
        if key >= self.easy:
            return "easy"
        if key >= self.medium:
            return "medium"
        return "hard"


# BEGIN CUTS (written by scripts/grade_table.py --write)
# Measured over deals 0 to 9999 of each variant:
# python scripts/grade_table.py --deals 10000 --seed 16 --write
CUTS: dict[str, Cuts] = {
    "standard": Cuts(
        "standard",
        easy=(0.0, 1.0, 0.25),
        medium=(-0.75, 1.0, 0.0625),
        deals=10000, winnable=5341, provisional=False,
    ),
    "strict": Cuts(
        "strict",
        easy=(0.375, 0.5, 0.3125),
        medium=(-0.25, 0.7083333333333333, 0.0625),
        deals=10000, winnable=1553, provisional=False,
    ),
    "vertical": Cuts(
        "vertical",
        easy=(1.0, 1.0, 0.0),
        medium=(0.0, 1.0, 0.0625),
        deals=10000, winnable=9609, provisional=False,
    ),
    "doublets": Cuts(
        "doublets",
        easy=(1.0, 1.0, 0.4375),
        medium=(0.75, 1.0, 0.125),
        deals=10000, winnable=10000, provisional=False,
    ),
    "overlapping": Cuts(
        "overlapping",
        easy=(0.0, 1.0, 0.1875),
        medium=(-0.75, 1.0, 0.0),
        deals=10000, winnable=2547, provisional=False,
    ),
}
# END CUTS
"""Every variant's cut points (by variant name), written by ``scripts/grade_table.py``."""


@dataclass(frozen=True)
class LineCount:
    """What :func:`narrow_steps` found along a winning line.

    Attributes:
        narrow: positions with two legal pairs or more of which exactly one keeps the game
            winnable (every other one proven lost; Strict: chance 0).
        forced: positions with exactly one legal pair (no choice).
        undecided: positions with a choice where the node budget left a pair unknown and
            no two pairs were proven to keep the game winnable.
        positions: positions of the line looked at (one per move; a stock turn included).
    """

    narrow: int
    forced: int
    undecided: int
    positions: int


@dataclass(frozen=True)
class Grade:
    """The grade of one deal and the figures it comes from.

    Attributes:
        variant: variant name.
        deal: deal number.
        grade: ``"easy"``, ``"medium"``, ``"hard"`` or ``"unwinnable"``.
        tips_win_rate: ``tips_wins / playouts``, ``0.0 .. 1.0``.
        narrow: one-way positions on the winning line (:class:`LineCount`); 0 if unwinnable.
        tips_wins: games of the tips strategy won, ``0 .. playouts``.
        random_win_rate: ``random_wins / playouts``, ``0.0 .. 1.0``.
        random_wins: games of the random strategy won, ``0 .. playouts``.
        playouts: games played with each of the two strategies (:data:`TIPS_PLAYOUTS`; 0 for
            an unwinnable deal, which is not played).
        forced: positions of the line with a single legal pair.
        undecided: positions of the line the node budget left undecided.
        line: moves of the winning line (0 if unwinnable).
        chance: Strict only: the chance with best play, stock order unknown, ``0.0 .. 1.0``;
            ``None`` in the open variants.
        score: the pair the grade is read from (:func:`score`); ``None`` if unwinnable.
        cut_deals: the deals the variant's cut points were measured over.
        provisional: the cut points are provisional (fewer than 10,000 deals).
    """

    variant: str
    deal: int
    grade: str
    tips_win_rate: float
    narrow: int
    tips_wins: int
    random_win_rate: float
    random_wins: int
    playouts: int
    forced: int
    undecided: int
    line: int
    chance: float | None
    score: Score | None
    cut_deals: int
    provisional: bool

    def to_json(self) -> dict[str, Any]:
        """The grade as a JSON object: ``{"variant", "deal", "grade", "tips_win_rate",
        "narrow", "tips_wins", "random_win_rate", "random_wins", "playouts", "forced",
        "undecided", "line", "chance", "score", "cut_deals", "provisional"}`` (``score`` a
        list of three numbers or ``null``)."""
        return {
            "variant": self.variant,
            "deal": self.deal,
            "grade": self.grade,
            "tips_win_rate": self.tips_win_rate,
            "narrow": self.narrow,
            "tips_wins": self.tips_wins,
            "random_win_rate": self.random_win_rate,
            "random_wins": self.random_wins,
            "playouts": self.playouts,
            "forced": self.forced,
            "undecided": self.undecided,
            "line": self.line,
            "chance": self.chance,
            "score": None if self.score is None else list(self.score),
            "cut_deals": self.cut_deals,
            "provisional": self.provisional,
        }


def score(
    tips_win_rate: float, narrow: int, chance: float | None, random_win_rate: float
) -> Score:
    """The score a winnable deal is graded by, compared left to right, higher is easier.

    Args:
        tips_win_rate, random_win_rate: ``0.0 .. 1.0``.
        narrow: one-way positions on the winning line, ``0`` or more.
        chance: Strict: the chance with best play, stock order unknown, ``0.0 .. 1.0``;
            ``None`` in the open variants, where best play wins a winnable deal: ``1.0``.

    Returns:
        ``(tips_win_rate - NARROW_WEIGHT * narrow, chance, random_win_rate)``: the first
        from ``-NARROW_WEIGHT * narrow`` to ``1.0``, the others ``0.0 .. 1.0``. Every part is
        a whole number of sixteenths (or Strict's chance), so the sum is exact.
    """
    return (tips_win_rate - NARROW_WEIGHT * narrow, 1.0 if chance is None else chance,
            random_win_rate)


def wins_steps(
    variant: str, deal: int, strategy: str = "tips", playouts: int = TIPS_PLAYOUTS
) -> Generator[None, None, int]:
    """Play the deal ``playouts`` times with ``strategy``; the number of games won.

    Game ``s`` (``0 .. playouts - 1``) draws its ties with ``deal_rng(s, variant, strategy,
    deal)``: game 0 is ``play_deal(variant, strategy, deal)``. A generator: yields after
    every move; its value is the count, ``0 .. playouts``.

    Raises:
        VariantError: unknown variant. DealNumberError: bad deal number.
        NestorError: unknown strategy (``strategy.unknown``).
    """
    start = deal_position(variant, deal)
    name = start.variant.name
    play = get_strategy(strategy)
    won = 0
    for seed in range(playouts):
        rng = deal_rng(seed, name, strategy, deal)
        position = start
        while (outcome := position.outcome()) is None:
            position = position.apply(play(position, rng))
            yield None
        won += outcome.won
    return won


def tips_win_rate(variant: str, deal: int, playouts: int = TIPS_PLAYOUTS) -> float:
    """The share of ``playouts`` seeded games of the ``tips`` strategy that win the deal.

    ``0.0 .. 1.0``; see :func:`wins_steps`. Raises VariantError, DealNumberError.
    """
    return run_to_end(wins_steps(variant, deal, "tips", playouts)) / playouts


def narrow_steps(
    start: Position, line: Sequence[Move], max_nodes: int = NARROW_MAX_NODES
) -> Generator[None, None, LineCount]:
    """Count the one-way positions along ``line``, a winning line from ``start``.

    Every position before a move of ``line`` is looked at: its legal pairs are judged with
    one :class:`~nestor.solver.oracle.Oracle` (node budget ``max_nodes`` per search), see
    :class:`LineCount`. Open variants: winnable means proven winnable; Strict: a chance with
    best play above 0, stock order unknown. A generator (yields between solver slices); its
    value is the :class:`LineCount`. ``line`` is not checked (an illegal move gives wrong
    counts). Raises nothing.
    """
    oracle = Oracle(start, max_nodes)
    if not oracle.strict and line:
        oracle.learn(oracle.search.hkey, line)  # the line itself proves its positions winnable
    position = start
    narrow = forced = undecided = 0
    for move in line:
        choices = yield from oracle.choices(position)
        pairs = [c for c in choices if isinstance(c.move, Pair)]
        if len(pairs) == 1:
            forced += 1
        elif len(pairs) >= 2:
            keep = sum(1 for c in pairs if c.status is Status.WINNABLE)
            lost = sum(1 for c in pairs if c.status is Status.LOST)
            if keep == 1 and lost == len(pairs) - 1:
                narrow += 1
            elif keep < 2:
                undecided += 1
        oracle.advance(position, move)
        position = position.apply(move)
    return LineCount(narrow, forced, undecided, len(line))


def narrow(variant: str, deal: int, max_nodes: int = NARROW_MAX_NODES) -> int:
    """The one-way positions on the solver's winning line of a deal; 0 when it has none.

    See :func:`narrow_steps`. Raises VariantError, DealNumberError.
    """
    start = deal_position(variant, deal)
    solution = run_to_end(solve_steps(start))
    return run_to_end(narrow_steps(start, solution.line, max_nodes)).narrow


def _winnable(solution: Solution, strict: bool) -> bool:
    """The deal can be won as dealt (Strict: with its stock order, and above the floor)."""
    if strict:
        return (solution.known_order is Status.WINNABLE
                and (solution.win_probability or 0.0) > STRICT_CHANCE_FLOOR)
    return solution.status is Status.WINNABLE


def grade_steps(
    variant: str, deal: int, cuts: Cuts | None = None, playouts: int = TIPS_PLAYOUTS
) -> Generator[None, None, Grade]:
    """Grade deal number ``deal`` of ``variant`` (see the module docstring).

    Args:
        variant: a variant name (any case, as :func:`nestor.variants.get_variant` reads).
        deal: a deal number, ``0 .. MAX_DEAL - 1``.
        cuts: the cut points to grade by; default the variant's :data:`CUTS`.
        playouts: games of the tips strategy (default :data:`TIPS_PLAYOUTS`).

    A generator: yields between slices of work (one move, a few dozen solver nodes); its
    value is the :class:`Grade`. The deal is solved in full (no budget: an unwinnable
    verdict is a proof), then played (tips, then random), then its line is walked.

    Raises:
        VariantError: unknown variant. DealNumberError: bad deal number.
        NestorError: ``playouts`` is not a whole number of at least 1 (``number.not_whole``,
            ``number.too_small``).
    """
    v = get_variant(variant)
    number = check_deal_number(deal)
    whole_number(playouts, "playouts", low=1)
    cut = CUTS[v.name] if cuts is None else cuts
    start = deal_position(v, number)
    solution = yield from solve_steps(start)
    chance = solution.win_probability if v.has_stock else None
    if not _winnable(solution, v.has_stock):
        return Grade(v.name, number, UNWINNABLE, 0.0, 0, 0, 0.0, 0, 0, 0, 0, 0, chance, None,
                     cut.deals, cut.provisional)
    wins = yield from wins_steps(v.name, number, "tips", playouts)
    random_wins = yield from wins_steps(v.name, number, "random", playouts)
    counted = yield from narrow_steps(start, solution.line)
    rate, random_rate = wins / playouts, random_wins / playouts
    key = score(rate, counted.narrow, chance, random_rate)
    return Grade(v.name, number, cut.grade_of(key), rate, counted.narrow, wins, random_rate,
                 random_wins, playouts, counted.forced, counted.undecided,
                 len(solution.line), chance, key, cut.deals, cut.provisional)


def grade(variant: str, deal: int, cuts: Cuts | None = None,
          playouts: int = TIPS_PLAYOUTS) -> Grade:
    """Grade a deal in one go: :func:`grade_steps` run to its end.

    Raises:
        VariantError: unknown variant. DealNumberError: bad deal number.
    """
    return run_to_end(grade_steps(variant, deal, cuts, playouts))


def _threshold(ordered: Sequence[Score], share: float) -> Score:
    """The score ``t`` among ``ordered`` (ascending) with the count below ``t`` nearest
    ``share * len(ordered)`` (on a tie of distances, the lower ``t``)."""
    target = share * len(ordered)
    best: tuple[float, Score] | None = None
    for i, key in enumerate(ordered):
        if i and ordered[i - 1] == key:
            continue  # the count below a score is the index of its first occurrence
        distance = abs(i - target)
        if best is None or distance < best[0]:
            best = (distance, key)
    assert best is not None
    return best[1]


def derive_cuts(variant: str, keys: Sequence[Score], deals: int) -> Cuts:
    """The cut points that split ``keys`` (the scores of the winnable deals among the first
    ``deals``) into three about equal parts.

    ``medium`` is the score with about a third of ``keys`` below it, ``easy`` the one with
    about two thirds below it (:func:`_threshold`; scores that tie fall on one side, so the
    parts are equal only as far as the ties allow). ``provisional`` when ``deals < 10_000``.

    Raises:
        ValueError: ``keys`` is empty.
    """
    if not keys:
        raise ValueError("no winnable deal to cut")
    ordered = sorted(keys)
    return Cuts(get_variant(variant).name, _threshold(ordered, 2 / 3),
                _threshold(ordered, 1 / 3), deals, len(keys), deals < 10_000)

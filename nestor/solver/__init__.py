"""An exact solver: can this position still be won, and how?

:func:`solve` answers with a :class:`Solution`. Its ``status`` (a :class:`Status`) is exact in
the open variants (``LOST`` is a proof); in Strict, where the stock's order is hidden, it says
whether the chance with best play (``win_probability``) is above 0, and ``known_order`` decides
the game with the dealt order known. With a node budget a search may stop early: ``UNKNOWN``,
never ``LOST``. The searches: :mod:`.exact` (a winning line), :mod:`.chance` (Strict's
expectimax), on the stack model of :mod:`.model`; :mod:`.oracle` caches them over one game.
docs/solver.md, "The solver's search", says more.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from enum import Enum

from ..cards import RANKS
from ..position import Move, Pair, Position
from ..steps import run_to_end
from .chance import best_chance
from .exact import winning_line
from .model import BudgetExceeded, Search, stacks_of

__all__ = ["BudgetExceeded", "Solution", "Status", "iter_line", "solve", "solve_steps"]


class Status(Enum):
    """Whether a game can still be won. Compare members with ``is``: every one is truthy."""

    WINNABLE = "winnable"
    """Proved: a winning line exists (Strict: the chance with best play is above 0)."""
    LOST = "lost"
    """Proved: no way of playing on wins (Strict: whatever the stock order)."""
    UNKNOWN = "unknown"
    """The node budget ran out before the search could tell."""


@dataclass(frozen=True)
class Solution:
    """The solver's answer for one position.

    Attributes:
        status: can the player still win from here? Open variants: the exact
            answer. Strict: from the chance with best play, ``WINNABLE`` if
            ``win_probability > 0``, ``LOST`` if it is 0. ``UNKNOWN`` when the
            node budget ran out first (then ``win_probability`` is ``None``).
        known_order: can the game be won with every card's place known?
            Strict: with the actual stock order known (the analysis answer:
            what ``python -m nestor solve`` reports as ``winnable``, what
            ``odds`` counts and "winnable deals only" asks for); ``None`` when
            :func:`solve` was called with ``known_order=False``. Open variants
            hide no card: always the same as ``status``.
        line: a winning line from the position (pairs and, in Strict, stock
            turns in the actual order): open variants when ``status`` is
            ``WINNABLE``, Strict when ``known_order`` is; else empty.
        nodes: positions visited (for Strict, by both searches).
        win_probability: Strict only: the chance to win with best play when
            the stock order is unknown (every order equally likely), in
            ``0.0 .. 1.0``; ``None`` for other variants or when the budget ran out.
        best_move: the move to play: the first move of ``line``, or in Strict
            the move with the best chance; ``None`` when no move helps (lost,
            unknown, or already won).
    """

    status: Status
    line: tuple[Move, ...] = ()
    nodes: int = 0
    win_probability: float | None = None
    best_move: Move | None = None
    known_order: Status | None = None


def _status(won: bool | None) -> Status:
    """``True`` -> WINNABLE, ``False`` -> LOST, ``None`` (budget ran out) -> UNKNOWN."""
    return Status.UNKNOWN if won is None else Status.WINNABLE if won else Status.LOST


# ---- public API ------------------------------------------------------------------------


def solve_steps(
    position: Position, max_nodes: int | None = None, known_order: bool = True
) -> Generator[None, None, Solution]:
    """Like :func:`solve`, as a generator that yields every few dozen positions.

    Drive it with ``next()`` until ``StopIteration``, whose ``value`` is the
    :class:`Solution`; between two steps the caller may do other work (the
    browser uses this to keep the page responsive).
    """
    strict = position.variant.has_stock
    outcome = position.outcome()
    if outcome is not None:
        done = _status(outcome.won)
        return Solution(
            done, nodes=0, win_probability=(1.0 if outcome.won else 0.0) if strict else None,
            known_order=done if known_order or not strict else None,
        )
    nodes = 0
    probability: float | None = None
    best: Move | None = None
    if strict:
        chance = Search(stacks_of(position), list(position.stock), False, max_nodes)
        try:
            probability, best = yield from best_chance(chance)
        except BudgetExceeded:
            probability, best = None, None
        nodes += chance.nodes
        if best is None and probability and not any(position.columns):
            best = _stock_pair(position.stock)  # tableau empty: pair the stock cards
        if probability == 0.0:
            best = None
        status = _status(None if probability is None else probability > 0.0)
        if not known_order:
            return Solution(status, (), nodes, probability, best)
    search = Search(
        stacks_of(position), list(position.stock), not strict,
        None if max_nodes is None else max(0, max_nodes - nodes),
    )
    try:
        line = yield from winning_line(search)
    except BudgetExceeded:
        if not strict:
            return Solution(Status.UNKNOWN, (), search.nodes, known_order=Status.UNKNOWN)
        return Solution(status, (), nodes + search.nodes, probability, best, Status.UNKNOWN)
    nodes += search.nodes
    moves = tuple(line or ())
    if not strict:
        won = _status(line is not None)
        return Solution(won, moves, nodes, None, moves[0] if moves else None, won)
    if best is None and moves and probability:
        best = moves[0]  # tableau empty, stock left: pair the stock cards
    return Solution(status, moves, nodes, probability, best, _status(line is not None))


def _stock_pair(stock: tuple[str, ...]) -> Pair:
    """The first pair of the stock in the order the exact search pairs it off."""
    rest = sorted(stock, key=lambda c: (RANKS.index(c[0]), c))
    return Pair(rest[0], rest[1])


def solve(
    position: Position, max_nodes: int | None = None, known_order: bool = True
) -> Solution:
    """Solve ``position`` exactly (see the module docstring).

    Args:
        position: any position of any variant.
        max_nodes: optional budget of positions to visit; when it runs out the
            answer is ``Status.UNKNOWN``, never ``Status.LOST``.
        known_order: Strict only: also decide the game with the stock order
            known (``Solution.known_order``, the analysis answer). ``False``
            skips that search, as hints do (the player cannot see the stock),
            and leaves ``known_order`` ``None``.

    Returns:
        A :class:`Solution`.
    """
    return run_to_end(solve_steps(position, max_nodes, known_order))


def iter_line(position: Position, line: tuple[Move, ...]) -> Iterator[Position]:
    """Yield the positions reached by playing ``line`` from ``position``.

    Raises:
        IllegalMoveError: if a move of the line is not legal where it is played.
    """
    for move in line:
        position = position.apply(move)
        yield position

"""An exact solver: can this position still be won, and how?

For the open variants (``standard``, ``vertical``, ``doublets``,
``overlapping``) :func:`solve` decides exactly whether every card can still be
removed and returns a winning line when it can. A "no" is a proof: the search
is exhaustive. With a node budget the search may stop early, and then the
answer is "unknown" (``winnable is None``), never "no".

For ``strict`` the player knows which cards are in the stock but not their
order. :func:`solve` then gives (a) the probability of winning with best play,
every stock order equally likely, with the move that achieves it, and (b)
whether the game can be won when the actual stock order is known, with a
winning line (for analysis only).

The package:

* :mod:`.model` -- the stack model both searches run on (:class:`~.model.Search`:
  every variant as stacks of cards where only the top is available, the memo
  key) and the pruning rules R1-R4 with the argument that each is sound;
* :mod:`.exact` -- the exhaustive depth-first search for a winning line (open
  variants, and Strict with the stock order known);
* :mod:`.chance` -- Strict's expectimax over the unknown stock order;
* this module -- the public API: :func:`solve`, :func:`solve_steps`,
  :func:`iter_line`, :class:`Solution`, :class:`BudgetExceeded`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass

from ..cards import RANKS
from ..position import Move, Pair, Position
from .chance import best_chance
from .exact import winning_line
from .model import BudgetExceeded, Search, stacks_of

__all__ = ["BudgetExceeded", "Solution", "iter_line", "solve", "solve_steps"]


@dataclass(frozen=True)
class Solution:
    """The solver's answer for one position.

    Attributes:
        winnable: ``True`` or ``False`` (exact), or ``None`` if a node budget
            stopped the search first. Strict: with the stock order known.
        line: a winning line from the position (pairs and, in Strict, stock
            turns), empty when not winnable.
        nodes: positions visited (for Strict, by both searches).
        win_probability: Strict only: the chance to win with best play when
            the stock order is unknown (every order equally likely); ``None``
            for other variants or when the budget ran out.
        best_move: the move to play: the first move of ``line``, or in Strict
            the move with the best chance; ``None`` when no move helps (lost,
            or already won).
    """

    winnable: bool | None
    line: tuple[Move, ...] = ()
    nodes: int = 0
    win_probability: float | None = None
    best_move: Move | None = None


# ---- public API ------------------------------------------------------------------------


def solve_steps(
    position: Position, max_nodes: int | None = None, known_order: bool = True
) -> Generator[None, None, Solution]:
    """Like :func:`solve`, as a generator that yields every few dozen positions.

    Drive it with ``next()`` until ``StopIteration``, whose ``value`` is the
    :class:`Solution`; between two steps the caller may do other work (the
    browser uses this to keep the page responsive).
    """
    outcome = position.outcome()
    if outcome is not None:
        return Solution(winnable=outcome.won, nodes=0,
                        win_probability=(1.0 if outcome.won else 0.0)
                        if position.variant.has_stock else None)
    strict = position.variant.has_stock
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
        if not known_order:
            return Solution(None, (), nodes, probability, None if probability == 0.0 else best)
    search = Search(
        stacks_of(position), list(position.stock), not strict,
        None if max_nodes is None else max(0, max_nodes - nodes),
    )
    try:
        line = yield from winning_line(search)
    except BudgetExceeded:
        return Solution(None, (), nodes + search.nodes, probability, best)
    nodes += search.nodes
    winnable = line is not None
    moves = tuple(line or ())
    if not strict:
        best = moves[0] if moves else None
    elif probability == 0.0:
        best = None
    elif best is None and moves:
        best = moves[0]  # tableau empty, stock left: pair the stock cards
    return Solution(winnable, moves, nodes, probability, best)


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
            answer is ``winnable=None`` ("unknown"), never ``False``.
        known_order: Strict only: also decide the game with the stock order
            known (the analysis answer). ``False`` skips it, as hints do (the
            player cannot see the stock), and leaves ``winnable`` ``None``.

    Returns:
        A :class:`Solution`.
    """
    steps = solve_steps(position, max_nodes, known_order)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: Solution = done.value
            return result


def iter_line(position: Position, line: tuple[Move, ...]) -> Iterator[Position]:
    """Yield the positions reached by playing ``line`` from ``position``.

    Raises:
        IllegalMoveError: if a move of the line is not legal where it is played.
    """
    for move in line:
        position = position.apply(move)
        yield position

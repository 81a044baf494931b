"""Can the game still be lost? The check behind "Finish" (auto-finish).

A position is *safe* when no way of playing on from it loses: every sequence of legal moves
ends in a win. Then nothing is left to decide, and a game may be played out at once by any
legal moves (what the page's Finish does).

The rules are those of :mod:`nestor.position` (sources: ``shared/seeds`` 000
"Playing"/"Winning"/"Variants", 001): a move removes two available cards of equal rank;
Strict turns a stock card only when no pair is available, and loses when it cannot pair;
a game is lost when no legal move is left with cards in play.

The search (:func:`cannot_lose_steps`) is a depth-first search for a *losing line*: a
sequence of legal moves that ends in a lost position. It proves a position safe only by
exhausting every line (positions already proved safe are not searched again), with two
shortcuts:

* **all available** (sound): when every card left is available and no card is face down
  in a stock, the position is safe. Cards leave in pairs of one rank from four of each, so
  every rank has an even number left; removing cards never covers another, so every card
  stays available, a pair is always there while cards are left, and every line wins.
* **the stock hides its order** (cautious): in Strict, a line that has to turn a stock
  card counts as one that may lose. The player cannot see the stock's order, so the check
  does not use it either (it would tell the player something about the hidden cards); a
  turned card can always be one with no partner left available.

Budget: a search that looks at more than ``max_nodes`` positions gives up (``None``), and
so does one from a position with more than :data:`MAX_COVERED` cards covered (not worth
starting: such searches are long, and a losing line is almost always there): the game is
then treated as one that can still be lost.
"""

from __future__ import annotations

from collections.abc import Generator

from .position import Position, TurnStock
from .steps import run_to_end

__all__ = ["FINISH_YIELD_EVERY", "MAX_COVERED", "cannot_lose", "cannot_lose_steps"]

MAX_COVERED = 12
"""The search is not started from a position with more cards than this not available."""

FINISH_YIELD_EVERY = 32
"""Positions looked at between two yields of :func:`cannot_lose_steps`."""


class _GaveUp(Exception):
    """The node budget ran out."""


def _all_open(position: Position) -> bool:
    """Every card left is available (so no stock card lies face down: those are cards left,
    never available)."""
    return len(position.available()) == position.cards_left()


def cannot_lose_steps(
    position: Position, max_nodes: int | None = 2_000
) -> Generator[None, None, bool | None]:
    """Search for a losing line from ``position`` (see the module docstring), as a
    generator that yields every :data:`FINISH_YIELD_EVERY` positions; drive it with
    ``next()`` until ``StopIteration``, whose ``value`` is the answer.

    Args:
        position: any position of any variant.
        max_nodes: most positions to look at, or ``None`` for no limit.

    Returns (as the generator's value):
        ``True``: no way of playing on loses (the position is safe; a won position is);
        ``False``: some line loses (a lost position has lost already; in Strict, a line
        that must turn a stock card counts as losing); ``None``: the budget ran out first,
        or more than :data:`MAX_COVERED` cards are covered.
    """
    if position.outcome() is None and position.cards_left() - len(position.available()) > (
        MAX_COVERED
    ):
        return None
    safe: set[Position] = set()
    nodes = 0

    def search(p: Position) -> Generator[None, None, bool]:
        nonlocal nodes
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise _GaveUp
        if nodes % FINISH_YIELD_EVERY == 0:
            yield
        outcome = p.outcome()
        if outcome is not None:
            return outcome.won
        if p in safe or _all_open(p):
            return True
        moves = p.legal_moves()
        if any(isinstance(m, TurnStock) for m in moves):
            return False
        for move in moves:
            if not (yield from search(p.apply(move))):
                return False
        safe.add(p)
        return True

    try:
        return (yield from search(position))
    except _GaveUp:
        return None


def cannot_lose(position: Position, max_nodes: int | None = 2_000) -> bool | None:
    """:func:`cannot_lose_steps` run to its end: ``True``, ``False`` or ``None``."""
    return run_to_end(cannot_lose_steps(position, max_nodes))

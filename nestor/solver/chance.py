"""Strict with the stock order unknown: the best-play chance to win (expectimax).

:func:`best_chance` searches :class:`~.model.Search` with R1 and R4 only (R2
and R3 are not sound in Strict, see :mod:`.model`): the player picks the pair
with the best chance; when stuck, each card left in the stock is equally
likely to be turned next.
"""

from __future__ import annotations

from collections.abc import Generator

from ..cards import RANKS
from ..position import Move, TurnStock
from .model import Search


def best_chance(
    search: Search, memo: dict[tuple[int, int], float] | None = None
) -> Generator[None, None, tuple[float, Move | None]]:
    """Return the win probability with best play and the best first move.

    The probability is in ``0.0 .. 1.0``, every order of the stock equally
    likely; the move is ``None`` when none helps (lost, or nothing left to do
    in the stacks). Memoised on the stack heights and the number of stock
    cards left (sound: see "Memo" in :mod:`.model`): ``memo``, filled in as the
    search goes, may be shared by several searches over one
    :class:`~.model.Search` (positions reached from one start); by default
    each search starts with an empty one. Yields every few dozen nodes;
    ``search`` is back in its starting state afterwards (unless the budget ran
    out).

    Raises:
        BudgetExceeded: when ``search.max_nodes`` runs out (``search`` is then
            left part way; ``memo`` holds only finished values).
    """
    if memo is None:
        memo = {}

    def value(
        new_forced: int = -1, root: bool = False
    ) -> Generator[None, None, tuple[float, Move | None]]:
        """The chance from here; ``new_forced`` is a rank the last move left with two cards."""
        if search.tick():
            yield
        removed = search.safe_closure(root)
        best: tuple[float, Move | None] = (1.0, None)
        if any(search.heights):
            key = (search.key(), len(search.stock))
            if key in memo and not root:
                best = (memo[key], None)
            elif new_forced >= 0 and search.forced_cycle(new_forced):
                best = (0.0, None)  # R4
                memo[key] = 0.0
            else:
                best = yield from expand()
                memo[key] = best[0]
        first = search.removed_moves(removed)[:1]
        search.restore_pairs(removed)
        return (best[0], first[0]) if first and best[0] > 0.0 else best

    def expand() -> Generator[None, None, tuple[float, Move | None]]:
        best: tuple[float, Move | None] = (0.0, None)
        moves = search.moves()
        for a, b in moves:
            r = search.pop_pair(a, b)
            p, _ = yield from value(r if search.remaining[r] == 2 else -1)
            search.restore_pair(a, b)
            if best[1] is None or p > best[0]:
                best = (p, search.top_pair(a, b))
            if p >= 1.0:
                break
        if moves or not search.stock:
            return best
        total = 0.0
        for card in sorted(set(search.stock)):
            match = search.top_stack(RANKS.index(card[0]))
            if match >= 0:
                p, _ = yield from search.turned(card, match, value)
                total += p
        return total / len(search.stock), TurnStock()

    if search.forced_cycle():
        return 0.0, None
    result = yield from value(root=True)
    return result

"""The exact search: open variants, and Strict with the stock order known.

:func:`winning_line` is a depth-first search over :class:`~.model.Search`
with R1-R4 (R2 and R3 only where ``prune_free``) and a memo of positions
proved lost (keyed before R1 and after it, see "Memo" in :mod:`.model`: a
child already in it costs one node and no search). It is exhaustive, so
``None`` is a proof that no line wins.
"""

from __future__ import annotations

from collections.abc import Generator

from ..cards import RANKS
from ..position import Move, TurnStock
from .model import Search, pair_of


def winning_line(
    search: Search,
    failed: set[tuple[int, int]] | None = None,
    won: set[tuple[int, int]] | None = None,
) -> Generator[None, None, list[Move] | None]:
    """Return a winning line from ``search``'s position, or ``None`` when it is lost.

    With a stock (Strict, order known), a stuck position turns ``search.stock[0]``.
    Yields every few dozen nodes so a caller can spread the work over time slices;
    ``search`` is back in its starting state afterwards (unless the budget ran out).

    ``failed`` is the memo of positions proved lost (memo keys, see "Memo" in
    :mod:`.model`), filled in as the search goes; pass the same set to several
    searches over one :class:`~.model.Search` (positions reached from one start)
    to share what each proved. By default each search starts with an empty one.
    ``won`` (optional, same keys) holds positions already proved winnable: the
    search stops when it reaches one, and the line it returns then ends there
    (a winning line only together with one from that position).

    Raises:
        BudgetExceeded: when ``search.max_nodes`` runs out (``search`` is then
            left part way; ``failed`` holds only what was proved).
    """
    if failed is None:
        failed = set()

    def rec(new_forced: int = -1, root: bool = False) -> Generator[None, None, list[Move] | None]:
        """Search from here; ``new_forced`` is a rank the last move left with two cards.

        ``root``: the search's first position (R1 looks at every rank there, see
        :meth:`~.model.Search.safe_closure`).
        """
        if search.tick():
            yield
        seen = (search.hkey, len(search.stock))
        removed = search.safe_closure(root)
        line: list[Move] | None = None
        if not any(search.heights):
            # Tableau empty: what is left of the stock pairs off (our Strict rule).
            rest = sorted(search.stock, key=lambda c: (RANKS.index(c[0]), c))
            line = [pair_of(rest[j], rest[j + 1]) for j in range(0, len(rest), 2)]
        else:
            key = (search.key(), len(search.stock))
            if won is not None and key in won:
                line = []  # proved winnable by an earlier search
            elif key not in failed:
                if new_forced >= 0 and search.forced_cycle(new_forced):
                    line = None  # R4 (R1 never touches a rank caught in a cycle)
                else:
                    line = yield from expand()
                if line is None:
                    failed.add(key)
            if line is None and removed:
                failed.add(seen)  # lost before R1 too (R1 never changes the answer)
        prefix = search.removed_moves(removed) if line is not None else []
        search.restore_pairs(removed)
        return None if line is None else prefix + line

    def expand() -> Generator[None, None, list[Move] | None]:
        moves = search.moves()
        left = len(search.stock)
        for a, b in moves:
            r = search.pop_pair(a, b)
            if (search.hkey, left) in failed:
                # Proved lost before: the node rec would count, with no search (no
                # generator, no R1: the memo holds the key before R1 as well as after).
                search.dirty = 0
                if search.tick():
                    yield
                search.restore_pair(a, b)
                continue
            line = yield from rec(r if search.remaining[r] == 2 else -1)
            search.restore_pair(a, b)
            if line is not None:
                return [search.top_pair(a, b), *line]
        if moves or not search.stock or search.pair_open():
            return None  # a pair was open (perhaps pruned): the stock may not be turned
        card = search.stock[0]
        match = search.top_stack(RANKS.index(card[0]))
        if match < 0:
            return None  # the turned card cannot pair: lost
        line = yield from search.turned(card, match, rec)
        return None if line is None else [TurnStock(), *line]

    if search.forced_cycle():
        return None
    result = yield from rec(root=True)
    return result

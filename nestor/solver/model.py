"""The stack model the searches share, and the pruning rules R1-R4.

Every variant is a set of stacks of cards where only the top card is available (a column, an
open reserve card, the overlapping reserve); suits never matter, so the stack heights (and
Strict's count of stock cards left) are the memo key. :class:`Search` holds that state and
changes it in place: a move pops cards off the tops, its ``restore_*`` twin puts them back.
The rules, each sound: R1 removes all of a rank at once when all are available; R2 and R3
(open variants) leave free cards for later; R4 finds forced pairs that block each other.
docs/solver.md, "The solver's search", gives each rule's argument and the memo key's.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TypeVar

from ..cards import RANKS
from ..errors import NestorError
from ..position import Move, Pair, Position

_T = TypeVar("_T")

YIELD_EVERY = 64
"""Nodes searched between two yields of the stepping generators."""


class BudgetExceeded(NestorError):
    """The node budget ran out; :func:`nestor.solver.solve` reports it as ``Status.UNKNOWN``."""


_PAIRS: dict[tuple[str, str], Pair] = {}


def pair_of(first: str, second: str) -> Pair:
    """``Pair(first, second)`` for two canonical card codes, made once and then shared.

    A :class:`~nestor.position.Pair` is immutable, so one object per pair of
    cards serves every search; making one checks both codes, which the
    searches' inner loops would otherwise repeat for every move they return.

    Raises:
        CardError, MoveError: as :class:`~nestor.position.Pair`.
    """
    pair = _PAIRS.get((first, second))
    if pair is None:
        pair = _PAIRS[(first, second)] = Pair(first, second)
    return pair


_STACKS: dict[int, tuple[int, ...]] = {}


def stacks_in(bits: int) -> tuple[int, ...]:
    """The stack indexes in the bit set ``bits``, ascending (worked out once per set)."""
    found = _STACKS.get(bits)
    if found is None:
        found = _STACKS[bits] = tuple(i for i in range(bits.bit_length()) if bits >> i & 1)
    return found


def stacks_of(position: Position) -> list[list[str]]:
    """The position as stacks of card codes, bottom first (see the module docstring)."""
    stacks = [list(col) for col in position.columns]
    if position.reserve:
        if not position.variant.overlapping:
            stacks.extend([card] for card in position.reserve)
        else:
            stacks.append(list(position.reserve))
    return stacks


@dataclass
class Search:
    """Mutable search state over stacks; see the module docstring for the rules.

    Args:
        stacks: card codes per stack, bottom first (:func:`stacks_of`).
        stock: Strict's stock, ``stock[0]`` turned next (empty otherwise).
        prune_free: apply R2 and R3 (open variants only).
        max_nodes: the node budget, or ``None`` for none; :meth:`tick` raises
            :class:`BudgetExceeded` past it.

    Attributes besides: ``ranks`` (rank index 0-12 per card, as ``stacks``),
    ``heights`` (cards left per stack), ``remaining`` (cards left per rank,
    stock included), ``places`` (per rank, ``(stack, index from the bottom)``
    of each of its stack cards), ``prefix`` (per stack and height, the ranks
    below it as a bit set), ``distinct`` (no stack holds two cards of one
    rank), ``hkey`` (the heights packed in an int, 6 bits per stack),
    ``avail`` (per rank, the stacks whose top card has that rank, as a bit set
    over stack indexes: kept up to date by every removal and restore, so no
    node scans the stacks), ``dirty`` (the ranks a removal uncovered a card of
    since the last :meth:`safe_closure`, as a bit set) and ``nodes``
    (positions visited so far).
    """

    stacks: list[list[str]]
    stock: list[str]
    prune_free: bool
    max_nodes: int | None
    ranks: list[list[int]] = field(init=False)
    heights: list[int] = field(init=False)
    remaining: list[int] = field(init=False)
    weights: list[int] = field(init=False)
    places: list[list[tuple[int, int]]] = field(init=False)
    prefix: list[list[int]] = field(init=False)
    distinct: bool = field(init=False)
    avail: list[int] = field(init=False)
    hkey: int = 0
    dirty: int = 0
    nodes: int = 0

    def __post_init__(self) -> None:
        self.ranks = [[RANKS.index(c[0]) for c in s] for s in self.stacks]
        self.heights = [len(s) for s in self.stacks]
        self.remaining = [0] * 13
        for s in self.ranks:
            for r in s:
                self.remaining[r] += 1
        for c in self.stock:
            self.remaining[RANKS.index(c[0])] += 1
        # Heights are below 64 (a stack holds at most 48 cards), so 6 bits each.
        self.weights = [1 << (6 * i) for i in range(len(self.stacks))]
        self.hkey = sum(h * w for h, w in zip(self.heights, self.weights, strict=True))
        self.places = [[] for _ in range(13)]
        for i, s in enumerate(self.ranks):
            for p, r in enumerate(s):
                self.places[r].append((i, p))
        # R4's "cards above": per stack, the ranks below each height as a bit set, and
        # whether no rank occurs twice in any stack (then the ranks strictly between two
        # heights are prefix[high] & ~prefix[low]).
        self.prefix = []
        for s in self.ranks:
            bits = [0]
            for r in s:
                bits.append(bits[-1] | 1 << r)
            self.prefix.append(bits)
        self.distinct = all(len(set(s)) == len(s) for s in self.ranks)
        self.avail = [0] * 13
        for i, (s, high) in enumerate(zip(self.ranks, self.heights, strict=True)):
            if high:
                self.avail[s[high - 1]] |= 1 << i

    # ---- helpers ---------------------------------------------------------------------

    def key(self) -> int:
        """The memo key of the stack heights (kept up to date by every removal)."""
        return self.hkey

    def tick(self) -> bool:
        """Count a node; ``True`` when it is time to yield.

        Raises:
            BudgetExceeded: once more than ``max_nodes`` nodes have been counted.
        """
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded("node budget exceeded")
        return self.nodes % YIELD_EVERY == 0

    def top_stack(self, rank: int) -> int:
        """The lowest stack whose top card has ``rank`` (0-12), or -1 when none has."""
        m = self.avail[rank]
        return (m & -m).bit_length() - 1

    def pair_open(self) -> bool:
        """Is a pair available (two top cards of one rank), pruned by R2/R3 or not?"""
        return any(m & (m - 1) for m in self.avail)

    def top_pair(self, a: int, b: int) -> Pair:
        """The pair made by the top cards of stacks ``a`` and ``b``."""
        h = self.heights
        return pair_of(self.stacks[a][h[a] - 1], self.stacks[b][h[b] - 1])

    def pop_pair(self, a: int, b: int) -> int:
        """Remove the top cards of stacks ``a`` and ``b``; return their rank."""
        h = self.heights
        ha = h[a] = h[a] - 1
        hb = h[b] = h[b] - 1
        self.hkey -= self.weights[a] + self.weights[b]
        ra, rb = self.ranks[a], self.ranks[b]
        r = ra[ha]
        self.remaining[r] -= 2
        avail = self.avail
        avail[r] &= ~(1 << a | 1 << b)
        if ha:
            u = ra[ha - 1]
            avail[u] |= 1 << a
            self.dirty |= 1 << u
        if hb:
            u = rb[hb - 1]
            avail[u] |= 1 << b
            self.dirty |= 1 << u
        return r

    def restore_pair(self, a: int, b: int) -> None:
        """Put back the two cards :meth:`pop_pair` removed from stacks ``a`` and ``b``."""
        h = self.heights
        ha, hb = h[a], h[b]
        ra = self.ranks[a]
        avail = self.avail
        if ha:
            avail[ra[ha - 1]] &= ~(1 << a)
        if hb:
            avail[self.ranks[b][hb - 1]] &= ~(1 << b)
        r = ra[ha]
        avail[r] |= 1 << a | 1 << b
        self.remaining[r] += 2
        h[a] = ha + 1
        h[b] = hb + 1
        self.hkey += self.weights[a] + self.weights[b]

    def pop_one(self, stack: int, rank: int) -> None:
        """Strict: remove the top of ``stack`` (of ``rank``) with a stock card of ``rank``."""
        high = self.heights[stack] = self.heights[stack] - 1
        self.hkey -= self.weights[stack]
        self.remaining[rank] -= 2
        self.avail[rank] &= ~(1 << stack)
        if high:
            u = self.ranks[stack][high - 1]
            self.avail[u] |= 1 << stack
            self.dirty |= 1 << u

    def restore_one(self, stack: int, rank: int) -> None:
        """Put back the card :meth:`pop_one` removed from ``stack`` (and its stock card's count)."""
        high = self.heights[stack]
        if high:
            self.avail[self.ranks[stack][high - 1]] &= ~(1 << stack)
        self.avail[rank] |= 1 << stack
        self.heights[stack] = high + 1
        self.hkey += self.weights[stack]
        self.remaining[rank] += 2

    def restore_pairs(self, pairs: list[tuple[int, int]]) -> None:
        """Put back a list of pairs removed by :meth:`pop_pair`, last first."""
        for a, b in reversed(pairs):
            self.restore_pair(a, b)

    def snapshot(self) -> tuple[list[int], int, list[int], list[int]]:
        """The changing state (heights, ``hkey``, ``remaining``, ``avail``), for :meth:`resume`."""
        return list(self.heights), self.hkey, list(self.remaining), list(self.avail)

    def resume(self, saved: tuple[list[int], int, list[int], list[int]]) -> None:
        """Go back to a :meth:`snapshot` (after a search the budget stopped part way)."""
        self.heights[:], self.hkey, self.remaining[:], self.avail[:] = saved
        self.dirty = 0

    def safe_closure(self, full: bool = False) -> list[tuple[int, int]]:
        """Apply R1 until it no longer applies; return the pairs removed, in order.

        ``full``: look at every rank (a search's first position, set up by
        someone else); else only at the ranks in ``dirty``. That is enough
        inside a search: every position it reaches is one R1 no longer applied
        to, with one move made (a pair, or a stock turn), and R1 comes to apply
        to a rank only when a card of it is uncovered. (The pair's own rank
        had two available cards: had all of its cards been available, R1
        would have removed them. A stock turn happens only with no pair open,
        so its rank keeps at most one available card.) A rank whose cards R1
        removes leaves none, so after each round only the ranks it uncovered
        need a look. The order is the one of a scan of the tops: round by
        round, the ranks by their lowest available stack, each rank's stacks
        ascending, so the winning lines found are the same.
        """
        removed: list[tuple[int, int]] = []
        avail, remaining = self.avail, self.remaining
        check = (1 << 13) - 1 if full else self.dirty
        self.dirty = 0
        while check:
            ready: list[tuple[int, int]] = []
            while check:
                low = check & -check
                check ^= low
                r = low.bit_length() - 1
                m = avail[r]
                if m & (m - 1) and m.bit_count() == remaining[r]:
                    ready.append((m & -m, r))
            if not ready:
                break
            if len(ready) > 1:
                ready.sort()
            for _, r in ready:
                lst = stacks_in(avail[r])
                for j in range(0, len(lst) - 1, 2):
                    removed.append((lst[j], lst[j + 1]))
                    self.pop_pair(lst[j], lst[j + 1])
            check = self.dirty
            self.dirty = 0
        return removed

    def removed_moves(self, removed: list[tuple[int, int]]) -> list[Move]:
        """The pairs :meth:`safe_closure` removed, as moves (call it before restoring them)."""
        h = self.heights
        depth = {i: 0 for pair in removed for i in pair}
        moves: list[Move] = []
        for a, b in reversed(removed):
            cards = []
            for i in (a, b):
                cards.append(self.stacks[i][h[i] + depth[i]])
                depth[i] += 1
            moves.append(pair_of(cards[0], cards[1]))
        moves.reverse()
        return moves

    def turned(
        self, card: str, stack: int, then: Callable[[int], Generator[None, None, _T]]
    ) -> Generator[None, None, _T]:
        """Strict: remove stock ``card`` with the top of ``stack``, run ``then``, restore.

        ``then`` gets the rank the turn left with exactly two cards (a new
        forced pair for R4), or -1.
        """
        r = RANKS.index(card[0])
        saved = self.stock
        self.stock = list(saved)
        self.stock.remove(card)
        self.pop_one(stack, r)
        try:
            result = yield from then(r if self.remaining[r] == 2 else -1)
        finally:
            self.restore_one(stack, r)
            self.stock = saved
        return result

    def forced_cycle(self, through: int | None = None) -> bool:
        """R4: is there a cycle among forced pairs (through rank ``through`` if given)?

        A rank is forced when exactly two of its cards are left (in Strict one
        may be in the stock). ``before(x)`` is the set of forced ranks with a
        card above a card of ``x``; a cycle is a forced rank that reaches itself.
        """
        remaining = self.remaining
        h = self.heights
        ranks = self.ranks
        places = self.places
        memo: dict[int, int] = {}
        forced = 0
        for r in range(13):
            if remaining[r] == 2:
                forced |= 1 << r
        prefix = self.prefix if self.distinct else None

        def before(x: int) -> int:
            found = memo.get(x)
            if found is None:
                found = 0
                if prefix is not None:
                    for i, p in places[x]:
                        high = h[i]
                        if p + 1 < high:
                            bits = prefix[i]
                            found |= bits[high] & ~bits[p + 1]
                    found &= forced
                else:
                    for i, p in places[x]:
                        s = ranks[i]
                        for q in range(p + 1, h[i]):
                            y = s[q]
                            if remaining[y] == 2:
                                found |= 1 << y
                memo[x] = found
            return found

        starts = [r for r in range(13) if forced >> r & 1] if through is None else [through]
        for start in starts:
            target = 1 << start
            frontier, visited = before(start), 0
            while frontier:
                if frontier & target:
                    return True
                visited |= frontier
                nxt = 0
                x = frontier
                while x:
                    low = x & -x
                    nxt |= before(low.bit_length() - 1)
                    x ^= low
                frontier = nxt & ~visited
        return False

    def moves(self) -> list[tuple[int, int]]:
        """The pair moves to try, as stack-index pairs, best first (R2, R3, ordering)."""
        h = self.heights
        scored: list[tuple[int, int, int]] = []
        for m in self.avail:
            if not m & (m - 1):
                continue  # fewer than two available
            lst = stacks_in(m)
            if self.prune_free:
                free = [i for i in lst if h[i] == 1]
                if len(lst) == 2:
                    if len(free) == 2:
                        continue  # R2
                elif free:
                    others = [i for i in lst if i != free[0]]  # R3
                    if h[others[0]] == 1 and h[others[1]] == 1:
                        continue  # R2
                    scored.append((h[others[0]] + h[others[1]], others[0], others[1]))
                    continue
            for x in range(len(lst)):
                for y in range(x + 1, len(lst)):
                    a, b = lst[x], lst[y]
                    scored.append((h[a] + h[b], a, b))
        scored.sort(reverse=True)
        return [(a, b) for _, a, b in scored]

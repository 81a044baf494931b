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

The model. Every variant is a set of *stacks* of cards, bottom first, where
only the top card of a stack is available: each column is a stack, an open
reserve is one stack per card, and the overlapping reserve is a single stack.
Suits never matter, so a position is fully described by the height of each
stack (plus, in Strict, the cards left in the stock): that vector is the memo
key.

Pruning rules (each is sound: it never changes the answer):

R1 -- all of a rank available. If every card left of some rank is available,
   removing them at once (one or two pairs) is safe. They can only pair with
   each other, and removing cards never makes another card unavailable, so any
   winning line can be reordered to remove them first. In Strict the same
   holds: while such a pair exists the stock cannot be turned, so every line
   removes them before the next turn anyway, and moving that removal earlier
   keeps every later move legal.
R2 -- free cards wait (open variants only). A card with nothing beneath it
   (the bottom of its stack: a reserve card, or the last card of a column)
   uncovers nothing when removed and stays available until it is removed. So
   two such cards of a rank that still has cards elsewhere are never paired
   now: in any winning line that pairs them, that pair can move to the very
   end.
R3 -- keep a free card (open variants only). When three cards of a rank are
   available and the fourth is not, and one of the three is free, pair the
   other two. A line that pairs the free card z with y and later x with the
   fourth card w is matched by pairing x with y now and z with w later: z is
   always available, and removing x instead of z uncovers more, never less.
   (R2 and R3 are not used in Strict: there, holding a pair back also holds
   back the stock, so postponing is not free.)
R4 -- deadlock of forced pairs. When exactly two cards of a rank are left
   (both in stacks), they must be removed together. If card A lies above card
   B in a stack, A's pair must go before B's. A cycle in this "must go before"
   relation among forced pairs (including a forced pair lying in one stack)
   can never be resolved, so the position is lost. Removing cards only deletes
   such constraints, so a cycle can only appear when a move leaves a new forced
   pair, and it must pass through that pair: the check runs only then.
Memo: positions already proved lost are not searched again (and Strict's
   probabilities are memoised per position).
Move order: moves that uncover the most cards (the tallest stacks) first,
   which finds winning lines early on winnable deals.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from .cards import RANKS
from .errors import NestorError
from .position import Move, Pair, Position, TurnStock

_T = TypeVar("_T")

_YIELD_EVERY = 64
"""Nodes searched between two yields of the stepping generators."""


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


class BudgetExceeded(NestorError):
    """Internal: the node budget ran out (reported as ``winnable=None``)."""


def _stacks(position: Position) -> list[list[str]]:
    """The position as stacks of cards, bottom first (see the module docstring)."""
    stacks = [list(col) for col in position.columns]
    if position.reserve:
        if not position.variant.overlapping:
            stacks.extend([card] for card in position.reserve)
        else:
            stacks.append(list(position.reserve))
    return stacks


@dataclass
class _Search:
    """Mutable search state over stacks; see the module docstring for the rules."""

    stacks: list[list[str]]
    stock: list[str]
    prune_free: bool
    max_nodes: int | None
    ranks: list[list[int]] = field(init=False)
    heights: list[int] = field(init=False)
    remaining: list[int] = field(init=False)
    weights: list[int] = field(init=False)
    places: list[list[tuple[int, int]]] = field(init=False)
    hkey: int = 0
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
        # Where each rank's cards lie: (stack, index from the bottom).
        self.places = [[] for _ in range(13)]
        for i, s in enumerate(self.ranks):
            for p, r in enumerate(s):
                self.places[r].append((i, p))

    # ---- helpers ---------------------------------------------------------------------

    def key(self) -> int:
        """The memo key of the stack heights (kept up to date by every removal)."""
        return self.hkey

    def tick(self) -> bool:
        """Count a node; ``True`` when it is time to yield. Raises at the budget."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded("node budget exceeded")
        return self.nodes % _YIELD_EVERY == 0

    def tops(self) -> dict[int, list[int]]:
        """Available stacks grouped by the rank of their top card."""
        tops: dict[int, list[int]] = {}
        h = self.heights
        for i, s in enumerate(self.ranks):
            if h[i]:
                r = s[h[i] - 1]
                if r in tops:
                    tops[r].append(i)
                else:
                    tops[r] = [i]
        return tops

    def top_pair(self, a: int, b: int) -> Pair:
        """The pair made by the top cards of stacks ``a`` and ``b``."""
        h = self.heights
        return Pair(self.stacks[a][h[a] - 1], self.stacks[b][h[b] - 1])

    def pop_pair(self, a: int, b: int) -> int:
        """Remove the top cards of stacks ``a`` and ``b``; return their rank."""
        h = self.heights
        h[a] -= 1
        h[b] -= 1
        self.hkey -= self.weights[a] + self.weights[b]
        r = self.ranks[a][h[a]]
        self.remaining[r] -= 2
        return r

    def push_pair(self, a: int, b: int) -> None:
        """Undo :meth:`pop_pair`."""
        h = self.heights
        self.remaining[self.ranks[a][h[a]]] += 2
        h[a] += 1
        h[b] += 1
        self.hkey += self.weights[a] + self.weights[b]

    def pop_one(self, stack: int, rank: int) -> None:
        """Strict: remove the top of ``stack`` with a stock card of ``rank``."""
        self.heights[stack] -= 1
        self.hkey -= self.weights[stack]
        self.remaining[rank] -= 2

    def push_one(self, stack: int, rank: int) -> None:
        """Undo :meth:`pop_one`."""
        self.heights[stack] += 1
        self.hkey += self.weights[stack]
        self.remaining[rank] += 2

    def safe_closure(self) -> tuple[list[tuple[int, int]], dict[int, list[int]]]:
        """Apply R1 until it no longer applies; return the pairs removed and the tops."""
        removed: list[tuple[int, int]] = []
        while True:
            tops = self.tops()
            changed = False
            for r, lst in tops.items():
                if len(lst) == self.remaining[r] and len(lst) >= 2:
                    for j in range(0, len(lst) - 1, 2):
                        removed.append((lst[j], lst[j + 1]))
                        self.pop_pair(lst[j], lst[j + 1])
                    changed = True
            if not changed:
                return removed, tops

    def turned(
        self, card: str, stack: int, then: Callable[[], Generator[None, None, _T]]
    ) -> Generator[None, None, _T]:
        """Strict: remove stock ``card`` with the top of ``stack``, run ``then``, undo."""
        r = RANKS.index(card[0])
        saved = self.stock
        self.stock = list(saved)
        self.stock.remove(card)
        self.pop_one(stack, r)
        try:
            result = yield from then()
        finally:
            self.push_one(stack, r)
            self.stock = saved
        return result

    def undo_pairs(self, pairs: list[tuple[int, int]]) -> None:
        """Undo a list of removals, last first."""
        for a, b in reversed(pairs):
            self.push_pair(a, b)

    def forced_cycle(self, through: int | None = None) -> bool:
        """R4: is there a cycle among forced pairs (through rank ``through`` if given)?

        A rank is forced when exactly two of its cards are left and none is in
        the stock. ``before(x)`` is the set of forced ranks with a card above a
        card of ``x``; a cycle is a forced rank that reaches itself.
        """
        remaining = self.remaining
        stock_ranks = 0
        for c in self.stock:
            stock_ranks |= 1 << RANKS.index(c[0])
        h = self.heights
        ranks = self.ranks
        memo: dict[int, int] = {}

        def before(x: int) -> int:
            found = memo.get(x)
            if found is None:
                found = 0
                for i, p in self.places[x]:
                    s = ranks[i]
                    for q in range(p + 1, h[i]):
                        y = s[q]
                        if remaining[y] == 2 and not (stock_ranks >> y) & 1:
                            found |= 1 << y
                memo[x] = found
            return found

        if through is None:
            starts = [
                r for r in range(13) if remaining[r] == 2 and not (stock_ranks >> r) & 1
            ]
        elif (stock_ranks >> through) & 1:
            return False
        else:
            starts = [through]
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

    def moves(self, tops: dict[int, list[int]]) -> list[tuple[int, int]]:
        """The pair moves to try, as stack-index pairs, best first (R2, R3, ordering)."""
        h = self.heights
        scored: list[tuple[int, int, int]] = []
        for lst in tops.values():
            if len(lst) < 2:
                continue
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


# ---- open variants (and Strict with the stock order known) -------------------------------


def _exact(search: _Search) -> Generator[None, None, list[Move] | None]:
    """Depth-first search; returns a winning line or ``None`` when lost (exhaustive).

    With a stock (Strict, order known), a stuck position turns ``search.stock[0]``.
    Yields every few dozen nodes so a caller can spread the work over time slices.
    """
    failed: set[tuple[int, int]] = set()

    def rec(new_forced: int = -1) -> Generator[None, None, list[Move] | None]:
        """Search from here; ``new_forced`` is a rank the last move left with two cards."""
        if search.tick():
            yield
        removed, tops = search.safe_closure()
        line: list[Move] | None = None
        if not any(search.heights):
            # Tableau empty: what is left of the stock pairs off (our Strict rule).
            rest = sorted(search.stock, key=lambda c: (RANKS.index(c[0]), c))
            line = [Pair(rest[j], rest[j + 1]) for j in range(0, len(rest), 2)]
        else:
            key = (search.key(), len(search.stock))
            if key not in failed:
                if new_forced >= 0 and search.forced_cycle(new_forced):
                    line = None  # R4 (R1 never touches a rank caught in a cycle)
                else:
                    line = yield from expand(tops)
                if line is None:
                    failed.add(key)
        prefix = _pairs_of(search, removed) if line is not None else []
        search.undo_pairs(removed)
        return None if line is None else prefix + line

    def expand(tops: dict[int, list[int]]) -> Generator[None, None, list[Move] | None]:
        moves = search.moves(tops)
        for a, b in moves:
            r = search.pop_pair(a, b)
            line = yield from rec(r if search.remaining[r] == 2 else -1)
            search.push_pair(a, b)
            if line is not None:
                return [search.top_pair(a, b), *line]
        if moves or not search.stock or any(len(lst) >= 2 for lst in tops.values()):
            return None  # a pair was open (perhaps pruned): the stock may not be turned
        card = search.stock[0]
        match = tops.get(RANKS.index(card[0]))
        if not match:
            return None  # the turned card cannot pair: lost
        line = yield from search.turned(card, match[0], rec)
        return None if line is None else [TurnStock(), *line]

    if search.forced_cycle():
        return None
    result = yield from rec()
    return result


def _pairs_of(search: _Search, removed: list[tuple[int, int]]) -> list[Move]:
    """The pairs removed by :meth:`_Search.safe_closure`, as moves (state is after them)."""
    h = search.heights
    depth = {i: 0 for pair in removed for i in pair}
    moves: list[Move] = []
    for a, b in reversed(removed):
        cards = []
        for i in (a, b):
            cards.append(search.stacks[i][h[i] + depth[i]])
            depth[i] += 1
        moves.append(Pair(cards[0], cards[1]))
    moves.reverse()
    return moves


# ---- Strict, stock order unknown ---------------------------------------------------------


def _chance(search: _Search) -> Generator[None, None, tuple[float, Move | None]]:
    """Best-play win probability in Strict when the stock's order is unknown.

    Expectimax: the player picks the pair with the best chance; when stuck,
    each card left in the stock is equally likely to be turned next. Memoised
    on the stack heights and the set of stock cards left. Uses R1 and R4 only.
    Returns the probability and the best first move (``None`` if none helps).
    """
    memo: dict[tuple[int, frozenset[str]], float] = {}

    def value(
        root: bool = False, new_forced: int = -1
    ) -> Generator[None, None, tuple[float, Move | None]]:
        if search.tick():
            yield
        removed, tops = search.safe_closure()
        best: tuple[float, Move | None] = (1.0, None)
        if any(search.heights):
            key = (search.key(), frozenset(search.stock))
            if key in memo and not root:
                best = (memo[key], None)
            elif new_forced >= 0 and search.forced_cycle(new_forced):
                best = (0.0, None)  # R4
                memo[key] = 0.0
            else:
                best = yield from expand(tops)
                memo[key] = best[0]
        first = _pairs_of(search, removed)[:1]
        search.undo_pairs(removed)
        return (best[0], first[0]) if first and best[0] > 0.0 else best

    def expand(tops: dict[int, list[int]]) -> Generator[None, None, tuple[float, Move | None]]:
        best: tuple[float, Move | None] = (0.0, None)
        moves = search.moves(tops)
        for a, b in moves:
            r = search.pop_pair(a, b)
            p, _ = yield from value(False, r if search.remaining[r] == 2 else -1)
            search.push_pair(a, b)
            if best[1] is None or p > best[0]:
                best = (p, search.top_pair(a, b))
            if p >= 1.0:
                break
        if moves or not search.stock:
            return best
        total = 0.0
        for card in sorted(set(search.stock)):
            match = tops.get(RANKS.index(card[0]))
            if match:
                p, _ = yield from search.turned(card, match[0], value)
                total += p
        return total / len(search.stock), TurnStock()

    if search.forced_cycle():
        return 0.0, None
    result = yield from value(root=True)
    return result


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
        chance = _Search(_stacks(position), list(position.stock), False, max_nodes)
        try:
            probability, best = yield from _chance(chance)
        except BudgetExceeded:
            probability, best = None, None
        nodes += chance.nodes
        if best is None and probability and not any(position.columns):
            best = _stock_pair(position.stock)  # tableau empty: pair the stock cards
        if not known_order:
            return Solution(None, (), nodes, probability, None if probability == 0.0 else best)
    search = _Search(
        _stacks(position), list(position.stock), not strict,
        None if max_nodes is None else max(0, max_nodes - nodes),
    )
    try:
        line = yield from _exact(search)
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

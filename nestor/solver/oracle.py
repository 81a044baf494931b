"""The solver's answers for the positions of one game, each position searched once.

:class:`Oracle` is the cache behind the game review (:mod:`nestor.review`): it
answers, for the positions of one game and every position one legal move from
them, whether the game can still be won (open variants, :class:`~nestor.solver.Status`)
or the chance to win with best play, every stock order equally likely (Strict,
``0.0 .. 1.0``). It runs the searches of :mod:`nestor.solver.exact` and
:mod:`nestor.solver.chance` on one :class:`~nestor.solver.model.Search` built
from the game's start, so the memos those searches fill in are shared by all
of the positions it is asked about (sound for positions reached from one
start: see "Memo" in :mod:`nestor.solver.model`).

The rules are those of :mod:`nestor.position` (sources: ``shared/seeds`` 000
"Playing"/"Winning"/"Variants", 001), with our rule for Strict with the
tableau empty: the stock's cards pair off, which always wins.

Every answer is a proof or ``UNKNOWN`` (Strict: ``None``): each search runs
with a node budget, and one that runs out proves nothing. Searching methods
are generators that yield ``None`` every few dozen solver nodes (as
:func:`nestor.solver.solve_steps` does) and return their answer as the
generator's value (``StopIteration.value``; :func:`nestor.steps.run_to_end`
runs one in one go).

Stateful, not thread-safe: an :class:`Oracle` has a *current state*, one
position of the game, which :meth:`Oracle.advance` moves on by one move.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass

from ..cards import RANKS, rank_of
from ..position import Move, Outcome, Pair, Position, TurnStock
from . import Status
from .chance import best_chance
from .exact import winning_line
from .model import BudgetExceeded, Search, pair_of, stacks_of

__all__ = ["Choice", "Oracle", "best_known_chance", "status_of_chance"]


@dataclass(frozen=True)
class Choice:
    """One legal move in a position, and how the game stands after it.

    Attributes:
        move: the move (a :class:`~nestor.position.Pair`, or Strict's
            :class:`~nestor.position.TurnStock`).
        status: can the game still be won after it? Strict: ``WINNABLE`` when
            its chance is above 0. ``UNKNOWN`` when the solver gave up.
        chance: Strict only: the chance to win with best play after the move,
            ``0.0 .. 1.0``; for a stock turn the expected chance over the
            cards that may come up (the turn is then the only legal move, so
            it is the chance before it). ``None`` in the open variants and
            when unknown.
    """

    move: Move
    status: Status
    chance: float | None = None


def best_known_chance(choices: Iterable[Choice]) -> float | None:
    """The highest chance among ``choices`` (Strict), ``None`` if none is known.

    Args:
        choices: any number of :class:`Choice`; those whose ``chance`` is
            ``None`` are left out.

    Returns:
        A chance in ``0.0 .. 1.0``, or ``None`` (no choice, or none with a
        known chance: always so in the open variants).
    """
    known = [c.chance for c in choices if c.chance is not None]
    return max(known) if known else None


def status_of_chance(chance: float | None) -> Status:
    """Strict: how a game stands from its chance with best play.

    ``None`` (unknown) -> ``UNKNOWN``, above ``0.0`` -> ``WINNABLE``, ``0.0``
    -> ``LOST``.
    """
    if chance is None:
        return Status.UNKNOWN
    return Status.WINNABLE if chance > 0.0 else Status.LOST


def _partners(line: Iterable[Pair]) -> dict[str, str]:
    """Each card of ``line`` (pairs of distinct cards) mapped to the card it is paired with."""
    partner: dict[str, str] = {}
    for m in line:
        partner[m.first] = m.second
        partner[m.second] = m.first
    return partner


class Oracle:
    """The solver's answers for the positions of one game, each position searched once.

    Every position of a game and every position one move from it is reached
    from the deal, so they are all states of one stack model
    (:class:`~nestor.solver.model.Search` built from the deal): the oracle
    walks it along the game (:meth:`advance`), steps into a choice and back
    (:meth:`choices`), and shares the searches' memos between all the
    positions it asks about: what one search proved lost (Strict: the chances
    worked out) no later search works out again. The memo keys are sound for
    positions reached from one start (see "Memo" in :mod:`nestor.solver.model`).

    The current state starts as ``start`` and moves on only by
    :meth:`advance`; every position passed to a method must be the current
    state (the oracle does not check: a position that is not gives wrong
    answers, never an error).

    Attributes:
        strict: the variant has a stock (Strict): chances, not statuses.
        max_nodes: the node budget of each search, at least 1 (not checked
            here: :mod:`nestor.review` checks it).
        search: the stack model, in the current state.
        status: open variants: what is proved per memo key (a winning line
            found proves every position along it winnable).
        chance: Strict: the chance with best play per memo key, ``0.0 ..
            1.0`` (``None``: the budget ran out there).
        lost_moves: open variants: the pairs proved lost at a position of the
            game already reviewed. Such a pair stays lost at every later
            position of the game where it is legal: that position with the
            pair played is the lost one with the moves played since (their
            cards are not the pair's, and removing cards never makes a card
            unavailable), and a position reached from a lost one is lost.
        searches: how many searches were started.
        nodes: the positions the solver visited over all of them (comparable
            with :attr:`nestor.solver.Solution.nodes`).
    """

    def __init__(self, start: Position, max_nodes: int) -> None:
        """Build the stack model of ``start`` (any position of any variant) as the current state.

        Args:
            start: the game's first position (the deal, or any position the
                moves are played from).
            max_nodes: the node budget of each search (positions visited).
        """
        self.strict: bool = start.variant.has_stock
        self.max_nodes: int = max_nodes
        stacks = stacks_of(start)
        self.search: Search = Search(stacks, list(start.stock), not self.strict, None)
        self.stack_of: dict[str, int] = {
            card: i for i, stack in enumerate(stacks) for card in stack
        }
        self.depth: dict[str, int] = {card: j for stack in stacks for j, card in enumerate(stack)}
        self.failed: set[tuple[int, int]] = set()
        self.won: set[tuple[int, int]] = set()
        self.lines: dict[int, tuple[tuple[Pair, ...], int]] = {}
        self.memo: dict[tuple[int, int], float] = {}
        self.status: dict[tuple[int, int], Status] = {}
        self.chance: dict[tuple[int, int], float | None] = {}
        self.lost_moves: set[Move] = set()
        self.searches: int = 0
        self.nodes: int = 0

    def key(self) -> tuple[int, int]:
        """The current state's memo key: ``(stack heights, stock cards left)``.

        The heights are packed into one ``int`` (:attr:`Search.hkey
        <nestor.solver.model.Search>`); the key is the one of "Memo" in
        :mod:`nestor.solver.model`.
        """
        return (self.search.hkey, len(self.search.stock))

    def known_chance(self) -> float | None:
        """Strict: the chance worked out so far for the current state, without searching.

        Returns:
            ``0.0 .. 1.0``; ``None`` when not worked out yet, when the budget
            ran out there, and always in the open variants.
        """
        return self.chance.get(self.key()) if self.strict else None

    # ---- the current state ---------------------------------------------------------------

    def solve(self) -> Generator[None, None, Status]:
        """How the current state stands (Strict: from its chance), searching if not known yet.

        A generator: yields ``None`` every few dozen solver nodes; its value
        is the :class:`~nestor.solver.Status`, ``UNKNOWN`` when the search ran
        out of budget (the search is then put back in the current state, and
        the answer is kept: it is not searched again). Open variants: a
        winning line found is learnt (:meth:`learn`). Raises nothing.
        """
        if self.strict:
            chance = yield from self.chance_here()
            return status_of_chance(chance)
        key = self.key()
        known = self.status.get(key)
        if known is not None:
            return known
        search = self.search
        saved = search.snapshot()
        search.nodes, search.max_nodes = 0, self.max_nodes
        self.searches += 1
        try:
            line = yield from winning_line(search, self.failed, self.won)
        except BudgetExceeded:
            search.resume(saved)
            status = Status.UNKNOWN
        else:
            status = Status.LOST if line is None else Status.WINNABLE
            if line is not None:
                self.learn(search.hkey, line)
        self.nodes += search.nodes
        self.status[key] = status
        return status

    def learn(self, hkey: int, line: Iterable[Move]) -> None:
        """Open variants: record that ``line`` wins from the stack heights ``hkey``.

        ``line`` holds pairs only (no stock in the open variants), legal in
        turn from the heights ``hkey`` (a :meth:`key`'s first part).

        The line may end at a position an earlier line went through (where
        :func:`~nestor.solver.exact.winning_line` stops when given ``won``);
        then that line's rest completes it. Every position along it is proved
        winnable, and keeps the line from there (:attr:`lines`).
        """
        weights, stack_of = self.search.weights, self.stack_of
        moves: list[Pair] = []
        keys = [hkey]
        for move in line:
            assert isinstance(move, Pair)  # no stock in the open variants
            moves.append(move)
            hkey -= weights[stack_of[move.first]] + weights[stack_of[move.second]]
            keys.append(hkey)
        known = self.lines.get(hkey)
        full = tuple(moves) + (known[0][known[1]:] if known is not None else ())
        for at, key in enumerate(keys):
            if key not in self.lines:
                self.lines[key] = (full, at)
                self.won.add((key, 0))
                self.status[(key, 0)] = Status.WINNABLE

    def chance_here(self) -> Generator[None, None, float | None]:
        """Strict: the chance with best play from the current state, ``None`` if unknown.

        A generator (yields ``None`` between solver slices); its value is the
        chance, ``0.0 .. 1.0``, every stock order equally likely
        (:func:`~nestor.solver.chance.best_chance`), ``1.0`` with the tableau
        empty (our Strict rule, see :mod:`nestor.position`), ``None`` when the
        budget ran out. Worked out once per memo key. Raises nothing.
        """
        key = self.key()
        if key in self.chance:
            return self.chance[key]
        search = self.search
        chance: float | None
        if not any(search.heights):
            chance = 1.0  # the tableau is empty: the stock's cards pair off
        else:
            saved = search.snapshot()
            search.nodes, search.max_nodes = 0, self.max_nodes
            self.searches += 1
            try:
                chance, _ = yield from best_chance(search, self.memo)
            except BudgetExceeded:
                search.resume(saved)
                chance = None
            self.nodes += search.nodes
        self.chance[key] = chance
        return chance

    def settle(self, choices: tuple[Choice, ...]) -> Status:
        """Record what ``choices``, the current state's moves, prove about it; return its status.

        One winnable move makes it winnable, every move lost makes it lost
        (Strict: its chance is the best of its pairs', once all of theirs are
        known); else it stays as it was. No search: a proof from the choices
        alone.

        Args:
            choices: the current state's :meth:`choices` (or fewer: then only
                a winnable one proves anything).

        Returns:
            The current state's :class:`~nestor.solver.Status` (Strict: from
            its chance).
        """
        key = self.key()
        if self.strict:
            if self.chance.get(key) is None:
                pairs = [c for c in choices if isinstance(c.move, Pair)]
                if pairs and all(c.chance is not None for c in pairs):
                    self.chance[key] = best_known_chance(pairs)
            return status_of_chance(self.chance.get(key))
        status = self.status.get(key, Status.UNKNOWN)
        if status is Status.UNKNOWN:
            if any(c.status is Status.WINNABLE for c in choices):
                status = Status.WINNABLE
            elif choices and all(c.status is Status.LOST for c in choices):
                status = Status.LOST
            if status is not Status.UNKNOWN:  # kept only when proved: a search may follow
                self.status[key] = status
        return status

    def prove_path(
        self, played: Sequence[Move], ended: Outcome | None
    ) -> Generator[None, None, None]:
        """Open variants: prove how the game's own positions stand, before any choice is searched.

        The current state is the start; so it is again afterwards. The game's
        positions are ordered by reachability: each is reached from every
        earlier one by the moves played, so if one is winnable every earlier
        one is (its line, after the moves that lead to it), and if one is lost
        every later one is. A won game is a winning line itself: every
        position along it is winnable, with no search at all. Otherwise the
        positions are searched from the last one back, until one is proved
        winnable (all before it are then): late positions hold fewer cards and
        their searches are small, each proof of a lost one is kept in the
        shared memo for the next one back, and the first winning line found
        is shorter than the deal's. A position the budget does not settle
        stops the walk; the positions before it are then searched as the
        review reaches them, as if this had not run.

        Args:
            played: the game's moves from the start, all pairs (open variants;
                legal in turn, not checked).
            ended: how the game ended (``None``: in progress); a lost game's
                last position is marked lost, a won game's line is learnt.

        A generator (yields ``None`` between solver slices, value ``None``).
        Raises nothing.
        """
        search, stack_of = self.search, self.stack_of
        pairs: list[tuple[int, int]] = []
        for move in played:
            assert isinstance(move, Pair)  # no stock in the open variants
            pairs.append((stack_of[move.first], stack_of[move.second]))
        if ended is not None and ended.won:
            self.learn(search.hkey, played)
            return
        at = 0  # the state is the game's position ``at``

        def go(to: int) -> None:
            nonlocal at
            while at < to:
                search.pop_pair(*pairs[at])
                at += 1
            while at > to:
                at -= 1
                search.restore_pair(*pairs[at])

        # Bisect for the last winnable position: ``low`` is proved winnable (-1: none
        # yet), ``high`` is proved lost (or, for a game in progress, not searched).
        low, high = -1, len(pairs)
        if ended is not None:  # lost: no pair left
            go(high)
            self.mark(False)
        else:
            high += 1
        while high - low > 1:
            mid = (low + high) // 2
            go(mid)
            status = yield from self.solve()
            if status is Status.WINNABLE:
                low = mid
            elif status is Status.LOST:
                high = mid
            else:
                break  # the budget ran out: the review searches as it goes
        go(0)
        if low > 0:
            self.learn(search.hkey, played[:low])  # it ends where a winning line is known

    def mark(self, won: bool) -> None:
        """Record the current state as won or lost (a finished game, or one after a lost one).

        Strict: its chance becomes ``1.0`` or ``0.0``. Overwrites what was
        known: the caller has the proof.
        """
        if self.strict:
            self.chance[self.key()] = 1.0 if won else 0.0
        else:
            self.status[self.key()] = Status.WINNABLE if won else Status.LOST

    # ---- moving ---------------------------------------------------------------------------

    def repaired(
        self, rest: tuple[Pair, ...], partner: dict[str, str], move: Pair
    ) -> tuple[Pair, ...] | None:
        """A winning line after ``move`` from one, ``rest``, before it; ``None`` if none found.

        The current state is after ``move``. ``partner`` maps each card of
        ``rest`` to the card it is paired with there (:func:`_partners`). If
        ``move`` is a pair of ``rest``, the others still win in their order:
        removing two cards early never makes another card unavailable. Else
        ``rest`` pairs each card of ``move`` with another card of the rank;
        those two are paired with each other instead, and the pairs are played
        in any order that works: a pair is played as soon as both its cards
        are available, and since playing a pair never makes another card
        unavailable, this finds an order whenever one exists for these pairs.

        Open variants only (pairs, no stock). Raises nothing.
        """
        first, second = move.first, move.second
        one, two = partner.get(first), partner.get(second)
        if one is None or two is None:
            return None  # not a line from here (never the case: it removes every card)
        if one == second:
            return tuple(m for m in rest if m.first != first)
        gone = (first, second, one, two)
        pending = [m for m in rest if m.first not in gone]
        pending.append(pair_of(one, two))
        heights = list(self.search.heights)
        stack_of, depth = self.stack_of, self.depth
        order: list[Pair] = []
        while pending:
            left = []
            for m in pending:
                a, b = stack_of[m.first], stack_of[m.second]
                if heights[a] - 1 == depth[m.first] and heights[b] - 1 == depth[m.second]:
                    heights[a] -= 1
                    heights[b] -= 1
                    order.append(m)
                else:
                    left.append(m)
            if len(left) == len(pending):
                return None  # no pair of these can be played any more
            pending = left
        return tuple(order)

    def choices(self, position: Position) -> Generator[None, None, tuple[Choice, ...]]:
        """Every legal move of ``position`` (the current state) with how the game stands after it.

        Yields after each position searched, so many small searches in a row
        still hand control back. ``position`` is a position of the game (the
        moves of :attr:`lost_moves` were proved lost at it or before it).

        Returns (as the generator's value):
            One :class:`Choice` per legal move, in
            :meth:`~nestor.position.Position.legal_moves` order. Strict: a
            stock turn has the current state's own chance; with the stock
            turned up (tableau empty) every move wins (chance ``1.0``).

        The current state is the same afterwards. Raises nothing.
        """
        out: list[Choice] = []
        search = self.search
        # Winning lines from here: our own, then one through each winnable choice found,
        # each with its partner map (:meth:`repaired`), made when first needed.
        lines: list[tuple[tuple[Pair, ...], dict[str, str]]] = []
        if not self.strict and search.hkey in self.lines:
            full, at = self.lines[search.hkey]
            lines.append((full[at:], {}))
        for move in position.legal_moves():
            if isinstance(move, TurnStock):
                # Strict's only legal move then: its chance is the position's own.
                chance = yield from self.chance_here()
                out.append(Choice(move, status_of_chance(chance), chance))
                continue
            if position.stock_turned_up:  # Strict, tableau empty: every move wins
                out.append(Choice(move, Status.WINNABLE, 1.0))
                continue
            a, b = self.stack_of[move.first], self.stack_of[move.second]
            search.pop_pair(a, b)
            if self.strict:
                pass
            elif move in self.lost_moves:
                self.status[self.key()] = Status.LOST
            elif self.status.get(self.key()) is None:
                for rest, partner in lines:
                    if not partner:
                        partner.update(_partners(rest))
                    repaired = self.repaired(rest, partner, move)
                    if repaired is not None:
                        self.learn(search.hkey, repaired)
                        break
            status = yield from self.solve()
            chance = self.known_chance()
            if status is Status.WINNABLE and search.hkey in self.lines:
                full, at = self.lines[search.hkey]
                through = (move, *full[at:])
                lines.append((through, {}))
            search.restore_pair(a, b)
            if status is Status.LOST and not self.strict:
                self.lost_moves.add(move)
            out.append(Choice(move, status, chance))
            yield None
        return tuple(out)

    def advance(self, position: Position, move: Move) -> None:
        """Play ``move`` (legal in ``position``, the current state) on the stack model.

        The rules of :mod:`nestor.position` (``shared/seeds`` 000 "Playing",
        "Variants"): a pair leaves its two stacks (or, with Strict's stock
        turned up, the stock); a stock turn takes the turned card,
        ``position.stock[0]``, with the available card of its rank, or leaves
        it face up when there is none (the game is then lost; the stacks do
        not show it, so the caller marks it: :meth:`mark`). Not checked:
        an illegal move corrupts the model. Raises nothing.
        """
        search = self.search
        if isinstance(move, TurnStock):
            card = position.stock[0]
            match = next((c for c in position.available() if rank_of(c) == rank_of(card)), None)
            search.stock = [c for c in search.stock if c != card]
            if match is not None:
                search.pop_one(self.stack_of[match], RANKS.index(rank_of(card)))
            else:
                search.remaining[RANKS.index(rank_of(card))] -= 1  # the game is lost here
        elif position.stock_turned_up:
            search.stock = [c for c in search.stock if c not in move.cards]
            search.remaining[RANKS.index(rank_of(move.first))] -= 2
        else:
            search.pop_pair(self.stack_of[move.first], self.stack_of[move.second])

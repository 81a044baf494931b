"""Review a game: where was it lost, and what would have kept it winnable?

:func:`review` is a pure function of a game record (:class:`~nestor.game.Record`):
the same record gives the same :class:`Review` on every machine. It walks the
game move by move with the exact solver (:mod:`nestor.solver`) and says, for
every move:

* open variants (``standard``, ``vertical``, ``doublets``, ``overlapping``):
  whether the game could still be won before the move and after it
  (:class:`~nestor.solver.Status`), and which other moves would have kept it
  winnable;
* ``strict``, where the player cannot see the stock: the chance to win with
  best play, every stock order equally likely (:mod:`nestor.solver.chance`),
  before and after the move, how much the move cut it, and which moves had a
  higher chance.

Over the whole game (see :class:`Review`):

* the **turning point**. Open variants: the first move after which a winnable
  game could no longer be won. Strict: the move that cut the chance most (the
  first of equals; none if no move cut it), and the other moves that cut it,
  by how much (``Review.cuts``);
* the **critical moments**: moves played where more pairs were available but
  only one or two of them kept the game winnable (Strict: kept the best
  chance).

Proofs only, never guesses: the solver runs with a node budget per position,
and a position it gives up on is ``Status.UNKNOWN`` (Strict: chance ``None``).
What the review infers is proved too: a position is lost when every move from
it loses and winnable when one move from it wins, and once a position is lost
every later one is (removing cards never makes a lost game winnable), so after
the turning point nothing is searched at all. An unknown position keeps the
turning point from being named when it could lie on either side of it
(``Review.turning_point`` is then ``None`` and ``Review.undecided`` says so).

:func:`review_steps` is the same computation as a generator that yields
between solver slices (as :func:`nestor.solver.solve_steps` does), and yields
each :class:`MoveReview` as soon as it is final, in play order, so a page can
show a review while it is being worked out; :func:`sliced` turns it into a
plain slice generator with a callback for the finished moves.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass

from .cards import RANKS, rank_of
from .checks import whole_number
from .deal import deal_position
from .errors import NestorError, RecordError
from .game import Record
from .position import Move, Outcome, Pair, Position, TurnStock
from .solver import Status
from .solver.chance import best_chance
from .solver.exact import winning_line
from .solver.model import BudgetExceeded, Search, pair_of, stacks_of

__all__ = [
    "CHANCE_TOLERANCE",
    "DEFAULT_MAX_NODES",
    "Choice",
    "MoveReview",
    "Review",
    "position_review_steps",
    "review",
    "review_steps",
    "sliced",
]

DEFAULT_MAX_NODES = 50_000
"""The solver's node budget per position searched (see :func:`review`).

No deal of 10,000 per variant needs more than 6,500 nodes (``bench/solver.py``),
and positions later in a game need fewer, so the budget is only a guard against a
pathological position (at some 10 µs a node, it bounds one search to about half
a second); past it the position is ``Status.UNKNOWN``.
"""

CHANCE_TOLERANCE = 1e-9
"""Strict: two chances closer than this are equal (they are sums of fractions
worked out by separate searches, so they may differ in the last bits)."""


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


@dataclass(frozen=True)
class MoveReview:
    """The review of one move of the game.

    Attributes:
        index: the move's place in the game, from 0.
        move: the move played.
        turned: Strict, for a stock turn: the card that came up; else ``None``.
        before: could the game be won in the position the move was played in?
            Strict: ``WINNABLE`` when ``chance_before > 0``.
        after: could it be won in the position the move reached?
        chance_before: Strict only: the chance with best play (stock order
            unknown) before the move, ``0.0 .. 1.0``; ``None`` in the open
            variants or when the solver gave up.
        chance_after: Strict only: the same after the move. After a stock
            turn it is the chance with the card that actually came up, which
            may be higher or lower than before: that is luck, not play.
        cut: Strict only: how much the move cut the chance,
            ``chance_before - chance_after`` for a pair (``0.0`` when it kept
            the best chance), ``0.0`` for a stock turn (forced, so it is never
            the player's choice); ``None`` in the open variants or when a
            chance is unknown.
        choices: every legal move in the position before, in
            :meth:`~nestor.position.Position.legal_moves` order, each with how
            the game stands after it.
        alternatives: the other moves there that kept the game winnable
            (Strict: that had a higher chance than the move played), sorted
            by their notation; empty when the move played was at least as good
            as every other.
        critical: more pairs were available than kept the game winnable, and
            only one or two of them did (Strict: only one or two kept the best
            chance, and the chance was above 0). ``False`` when a choice is
            unknown.
    """

    index: int
    move: Move
    turned: str | None
    before: Status
    after: Status
    chance_before: float | None
    chance_after: float | None
    cut: float | None
    choices: tuple[Choice, ...]
    alternatives: tuple[Move, ...]
    critical: bool

    @property
    def keepers(self) -> tuple[Move, ...]:
        """The moves here that kept the game winnable (Strict: kept the best chance).

        In ``choices`` order, the move played among them if it did.
        """
        best = _best_chance(self.choices)
        return tuple(
            c.move for c in self.choices
            if c.status is Status.WINNABLE
            and (best is None or (c.chance is not None and c.chance >= best - CHANCE_TOLERANCE))
        )


@dataclass(frozen=True)
class Review:
    """The review of a whole game (or of a game in progress).

    Attributes:
        record: the game reviewed (``None`` for :func:`position_review_steps`).
        position: the position the moves were played from (the deal).
        start: could the deal be won from the start? (Strict: chance above 0.)
        start_chance: Strict only: the chance with best play at the deal;
            ``None`` in the open variants or when unknown.
        outcome: how the game ended, ``None`` while it is in progress.
        moves: one :class:`MoveReview` per move of the record, in play order.
        turning_point: the index of the turning point (see the module
            docstring), or ``None``: the game was never winnable, stayed
            winnable, no move cut the chance, or an unknown position hides it
            (then ``undecided`` is ``True``).
        undecided: ``True`` when the solver gave up on a position that the
            turning point could lie on either side of.
        cuts: Strict only: every move that cut the chance, as ``(index,
            cut)`` in play order (the turning point among them); empty in the
            open variants.
        critical: the indexes of the critical moments (see
            :attr:`MoveReview.critical`), in play order.
        nodes: the positions the solver visited for the whole review (its
            effort, comparable with :attr:`nestor.solver.Solution.nodes`).
    """

    record: Record | None
    position: Position
    start: Status
    start_chance: float | None
    outcome: Outcome | None
    moves: tuple[MoveReview, ...]
    turning_point: int | None
    undecided: bool
    cuts: tuple[tuple[int, float], ...]
    critical: tuple[int, ...]
    nodes: int = 0

    def position_before(self, index: int) -> Position:
        """The position in which move ``index`` was played (``len(moves)``: the last one).

        For showing the board at a moment of the review, or trying again from there.

        Raises:
            IndexError: ``index`` is not in ``0 .. len(moves)``.
        """
        if not 0 <= index <= len(self.moves):
            raise IndexError(f"move index {index} is not in 0..{len(self.moves)}")
        here = self.position
        for item in self.moves[:index]:
            here = here.apply(item.move)
        return here

    @property
    def alternatives(self) -> tuple[Move, ...]:
        """The alternatives at the turning point (``()`` when there is none), sorted."""
        if self.turning_point is None:
            return ()
        return self.moves[self.turning_point].alternatives


def _best_chance(choices: Iterable[Choice]) -> float | None:
    """The highest chance among ``choices`` (Strict), ``None`` if none is known."""
    known = [c.chance for c in choices if c.chance is not None]
    return max(known) if known else None


def _status_of_chance(chance: float | None) -> Status:
    if chance is None:
        return Status.UNKNOWN
    return Status.WINNABLE if chance > 0.0 else Status.LOST


def _sorted_moves(moves: Iterable[Move]) -> tuple[Move, ...]:
    return tuple(sorted(moves, key=str))


def _partners(line: Iterable[Pair]) -> dict[str, str]:
    """Each card of ``line`` (pairs of distinct cards) mapped to the card it is paired with."""
    partner: dict[str, str] = {}
    for m in line:
        partner[m.first] = m.second
        partner[m.second] = m.first
    return partner


class _Oracle:
    """The solver's answers for the positions of one game, each position searched once.

    Every position of a game and every position one move from it is reached
    from the deal, so they are all states of one stack model
    (:class:`~nestor.solver.model.Search` built from the deal): the oracle
    walks it along the game (:meth:`advance`), steps into a choice and back
    (:meth:`choices`), and shares the searches' memos between all the
    positions it asks about: what one search proved lost (Strict: the chances
    worked out) no later search works out again. The memo keys are sound for
    positions reached from one start (see "Memo" in :mod:`nestor.solver.model`).

    Open variants: ``status`` holds what is proved per memo key (a winning
    line found proves every position along it winnable). Strict: ``chance``
    holds the chance with best play per key (``None``: unknown).

    Open variants: ``lost_moves`` holds the pairs proved lost at a position
    of the game already reviewed. Such a pair stays lost at every later
    position of the game where it is legal: that position with the pair
    played is the lost one with the moves played since (their cards are not
    the pair's, and removing cards never makes a card unavailable), and a
    position reached from a lost one is lost.
    """

    def __init__(self, start: Position, max_nodes: int) -> None:
        self.strict = start.variant.has_stock
        self.max_nodes = max_nodes
        stacks = stacks_of(start)
        self.search = Search(stacks, list(start.stock), not self.strict, None)
        self.stack_of = {card: i for i, stack in enumerate(stacks) for card in stack}
        self.depth = {card: j for stack in stacks for j, card in enumerate(stack)}
        self.failed: set[tuple[int, int]] = set()
        self.won: set[tuple[int, int]] = set()
        self.lines: dict[int, tuple[tuple[Pair, ...], int]] = {}
        self.memo: dict[tuple[int, int], float] = {}
        self.status: dict[tuple[int, int], Status] = {}
        self.chance: dict[tuple[int, int], float | None] = {}
        self.lost_moves: set[Move] = set()
        self.searches = 0
        self.nodes = 0

    def key(self) -> tuple[int, int]:
        """The current state's memo key: the stack heights and the stock cards left."""
        return (self.search.hkey, len(self.search.stock))

    # ---- the current state ---------------------------------------------------------------

    def solve(self) -> Generator[None, None, Status]:
        """How the current state stands (Strict: from its chance), searching if not known yet."""
        if self.strict:
            chance = yield from self.chance_here()
            return _status_of_chance(chance)
        key = self.key()
        known = self.status.get(key)
        if known is not None:
            return known
        search = self.search
        saved = (list(search.heights), search.hkey, list(search.remaining))
        search.nodes, search.max_nodes = 0, self.max_nodes
        self.searches += 1
        try:
            line = yield from winning_line(search, self.failed, self.won)
        except BudgetExceeded:
            search.heights[:], search.hkey, search.remaining[:] = saved
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
        """Strict: the chance with best play from the current state, ``None`` if unknown."""
        key = self.key()
        if key in self.chance:
            return self.chance[key]
        search = self.search
        chance: float | None
        if not any(search.heights):
            chance = 1.0  # the tableau is empty: the stock's cards pair off
        else:
            saved = (list(search.heights), search.hkey, list(search.remaining))
            search.nodes, search.max_nodes = 0, self.max_nodes
            self.searches += 1
            try:
                chance, _ = yield from best_chance(search, self.memo)
            except BudgetExceeded:
                search.heights[:], search.hkey, search.remaining[:] = saved
                chance = None
            self.nodes += search.nodes
        self.chance[key] = chance
        return chance

    def settle(self, choices: tuple[Choice, ...]) -> Status:
        """Record what ``choices``, the current state's moves, prove about it; return its status.

        One winnable move makes it winnable, every move lost makes it lost
        (Strict: its chance is the best of its pairs'); else it stays as it was.
        """
        key = self.key()
        if self.strict:
            if self.chance.get(key) is None:
                pairs = [c for c in choices if isinstance(c.move, Pair)]
                if pairs and all(c.chance is not None for c in pairs):
                    self.chance[key] = _best_chance(pairs)
            return _status_of_chance(self.chance.get(key))
        status = self.status.get(key, Status.UNKNOWN)
        if status is Status.UNKNOWN:
            if any(c.status is Status.WINNABLE for c in choices):
                status = Status.WINNABLE
            elif choices and all(c.status is Status.LOST for c in choices):
                status = Status.LOST
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
        """Record the current state as won or lost (a finished game, or one after a lost one)."""
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
        """
        out = []
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
                out.append(Choice(move, _status_of_chance(chance), chance))
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
            chance = self.chance.get(self.key()) if self.strict else None
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
        """Play ``move`` (legal in ``position``, the current state) on the stack model."""
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


def review_steps(
    record: Record, max_nodes: int = DEFAULT_MAX_NODES
) -> Generator[MoveReview | None, None, Review]:
    """Review ``record`` step by step; the generator's return value is the :class:`Review`.

    Yields ``None`` every few dozen solver nodes (the caller may do other work
    between two steps) and each :class:`MoveReview` as soon as it is final, in
    play order. Drive it with ``next()`` until ``StopIteration``, whose
    ``value`` is the review; :func:`sliced` wraps it for a caller that wants
    only slices.

    Args:
        record: the game: any legal sequence of moves from the deal, finished
            or not.
        max_nodes: the solver's node budget per position searched, at least 1.

    Raises:
        RecordError: a move of the record is illegal where it is played (code
            ``record.illegal_move``, details ``index`` from 1, ``move``,
            ``reason``); raised at the first ``next()``, before anything is
            yielded.
        NestorError: ``max_nodes`` is not a whole number of at least 1 (code
            ``number.not_whole`` or ``number.too_small``, ``where``
            ``"max_nodes"``), also at the first ``next()``.
    """
    whole_number(max_nodes, "max_nodes", low=1)
    positions = _positions(deal_position(record.variant, record.deal), record.moves)
    return (yield from _review(positions, record.moves, record, max_nodes))


def position_review_steps(
    position: Position, moves: Sequence[Move], max_nodes: int = DEFAULT_MAX_NODES
) -> Generator[MoveReview | None, None, Review]:
    """Like :func:`review_steps`, for ``moves`` played from any ``position``.

    The review's ``record`` is then ``None`` and ``position`` is the start.

    Raises:
        RecordError: a move is illegal where it is played (code
            ``record.illegal_move``, as :meth:`~nestor.game.Record.replay`).
        NestorError: a bad ``max_nodes``, as :func:`review_steps`.
    """
    whole_number(max_nodes, "max_nodes", low=1)
    return (yield from _review(_positions(position, moves), tuple(moves), None, max_nodes))


def _positions(start: Position, moves: Sequence[Move]) -> list[Position]:
    """``start`` and the position after each of ``moves``, in play order.

    Raises:
        RecordError: a move is illegal where it is played (code
            ``record.illegal_move``, as :meth:`~nestor.game.Record.replay`).
    """
    out = [start]
    for i, move in enumerate(moves, 1):
        try:
            out.append(out[-1].apply(move))
        except NestorError as exc:
            raise RecordError(
                f"move {i} ({move}) is illegal: {exc}",
                code="record.illegal_move", index=i, move=str(move), reason=exc.code,
            ) from None
    return out


def _review(
    positions: list[Position], played: tuple[Move, ...], record: Record | None, max_nodes: int
) -> Generator[MoveReview | None, None, Review]:
    start = positions[0]
    strict = start.variant.has_stock
    oracle = _Oracle(start, max_nodes)
    if not strict:
        yield from oracle.prove_path(played, positions[-1].outcome())
    start_status = yield from oracle.solve()
    start_chance = oracle.chance.get(oracle.key()) if strict else None
    reviews: list[MoveReview] = []
    here = start
    for index, move in enumerate(played):
        there = positions[index + 1]
        before = yield from oracle.solve()
        chance_before = oracle.chance.get(oracle.key()) if strict else None
        if before is Status.LOST:
            # Lost before, lost after every move (a proof, no search needed).
            choices = tuple(Choice(m, Status.LOST, chance_before) for m in here.legal_moves())
            oracle.advance(here, move)
            oracle.mark(False)
        else:
            choices = yield from oracle.choices(here)
            before = oracle.settle(choices)
            chance_before = oracle.chance.get(oracle.key()) if strict else None
            oracle.advance(here, move)
            chosen = next(c for c in choices if c.move == move)
            if chosen.status is Status.UNKNOWN and there.outcome() is None:
                # Perhaps the next position's own moves decide it.
                oracle.settle((yield from oracle.choices(there)))
        ended = there.outcome()
        if ended is not None:  # a turned card that can't pair leaves no trace in the stacks
            oracle.mark(ended.won)
        after = yield from oracle.solve()
        chance_after = oracle.chance.get(oracle.key()) if strict else None
        if not isinstance(move, TurnStock):  # what settling the move played found out
            choices = tuple(
                Choice(c.move, after, chance_after) if c.move == move else c for c in choices
            )
        item = _move_review(
            index, move, here, before, after, chance_before, chance_after, choices, strict
        )
        reviews.append(item)
        yield item
        here = there

    moves = tuple(reviews)
    turning, undecided, cuts = _turning_point(moves, strict)
    return Review(
        record=record,
        position=start,
        start=start_status,
        start_chance=start_chance,
        outcome=here.outcome(),
        moves=moves,
        turning_point=turning,
        undecided=undecided,
        cuts=cuts,
        critical=tuple(m.index for m in moves if m.critical),
        nodes=oracle.nodes,
    )


def _move_review(
    index: int,
    move: Move,
    here: Position,
    before: Status,
    after: Status,
    chance_before: float | None,
    chance_after: float | None,
    choices: tuple[Choice, ...],
    strict: bool,
) -> MoveReview:
    """Put together the :class:`MoveReview` of ``move``, played in ``here``."""
    pairs = [c for c in choices if isinstance(c.move, Pair)]
    turned = here.stock[0] if isinstance(move, TurnStock) else None
    if not strict:
        alternatives = _sorted_moves(
            c.move for c in choices if c.status is Status.WINNABLE
        ) if after is Status.LOST else ()
        keepers = [c for c in pairs if c.status is Status.WINNABLE]
        known = all(c.status is not Status.UNKNOWN for c in pairs)
        critical = known and 1 <= len(keepers) <= 2 and len(keepers) < len(pairs)
        return MoveReview(
            index, move, turned, before, after, None, None, None, choices, alternatives, critical
        )
    cut: float | None
    alternatives = ()
    critical = False
    if isinstance(move, TurnStock):
        cut = 0.0
    elif chance_before is None or chance_after is None:
        cut = None
    else:
        cut = chance_before - chance_after
        if cut < CHANCE_TOLERANCE:
            cut = 0.0
        alternatives = _sorted_moves(
            c.move for c in pairs
            if c.chance is not None and c.chance > chance_after + CHANCE_TOLERANCE
        )
        best = _best_chance(pairs)
        if best is not None and best > 0.0 and all(c.chance is not None for c in pairs):
            keepers = [
                c for c in pairs if c.chance is not None and c.chance >= best - CHANCE_TOLERANCE
            ]
            critical = len(keepers) <= 2 and len(keepers) < len(pairs)
    return MoveReview(
        index, move, turned, before, after, chance_before, chance_after, cut, choices,
        alternatives, critical,
    )


def _turning_point(
    moves: tuple[MoveReview, ...], strict: bool
) -> tuple[int | None, bool, tuple[tuple[int, float], ...]]:
    """``(turning point, undecided, cuts)`` of the reviewed moves (see :class:`Review`)."""
    if not strict:
        if not moves:
            return None, False, ()
        # How the game stood before each move and after the last: winnable, then lost.
        states = [m.before for m in moves] + [moves[-1].after]
        lost = next((j for j, s in enumerate(states) if s is Status.LOST), None)
        if lost is None:  # never proved lost: none, unless the end is unknown
            return None, states[-1] is Status.UNKNOWN, ()
        if lost == 0:  # lost from the start: no move lost it
            return None, False, ()
        if states[lost - 1] is Status.WINNABLE:
            return lost - 1, False, ()
        return None, True, ()  # an unknown position just before the first lost one hides it
    cuts = tuple((m.index, m.cut) for m in moves if m.cut is not None and m.cut > 0.0)
    if any(m.cut is None and isinstance(m.move, Pair) for m in moves):
        return None, True, cuts
    turning: int | None = None
    most = 0.0
    for index, cut in cuts:
        if cut > most + CHANCE_TOLERANCE:
            turning, most = index, cut
    return turning, False, cuts


def review(record: Record, max_nodes: int = DEFAULT_MAX_NODES) -> Review:
    """Review ``record`` (see the module docstring); :func:`review_steps` in one go.

    Raises:
        RecordError, NestorError: as :func:`review_steps`.
    """
    steps = review_steps(record, max_nodes)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: Review = done.value
            return result


def sliced(
    steps: Generator[MoveReview | None, None, Review],
    on_move: Callable[[MoveReview], object],
) -> Generator[None, None, Review]:
    """Run ``steps`` as a plain slice generator, handing each finished move to ``on_move``.

    For a scheduler that expects ``Generator[None, None, T]`` (the page's
    ``Tasks.sliced``): ``on_move`` is called with each :class:`MoveReview` in
    play order, between two slices; the return value is the :class:`Review`.
    """
    while True:
        try:
            item = next(steps)
        except StopIteration as done:
            result: Review = done.value
            return result
        if item is not None:
            on_move(item)
        yield None

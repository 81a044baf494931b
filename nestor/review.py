"""Review a game: where was it lost, and what would have kept it winnable?

:func:`review` is a pure function of a game record (:class:`~nestor.game.Record`): it walks the
game move by move with the exact solver (one :class:`~nestor.solver.oracle.Oracle` per game)
and says, for every move, whether the game could still be won before and after it (Strict: the
chance with best play) and which other moves would have kept it winnable; over the whole game,
the turning point and the critical moments (:class:`Review`). Proofs only, never guesses: a
position the node budget gives up on is ``UNKNOWN``, and may leave the turning point unnamed.
:func:`review_steps` yields between solver slices and each :class:`MoveReview` once final;
:func:`sliced` makes it a plain slice generator. docs/review.md says what a review shows.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass

from .checks import whole_number
from .deal import deal_position
from .errors import NestorError, RecordError
from .game import Record
from .position import Move, Outcome, Pair, Position, TurnStock
from .solver import Status
from .solver.oracle import Choice, Oracle, best_known_chance
from .steps import run_to_end

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
"""The solver's node budget per position searched (see :func:`review`): a guard against a
pathological position, far above what real deals need (docs/review.md); past it the position
is ``Status.UNKNOWN``."""

CHANCE_TOLERANCE = 1e-9
"""Strict: two chances closer than this are equal (they are sums of fractions
worked out by separate searches, so they may differ in the last bits)."""


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
        best = best_known_chance(self.choices)
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


def _sorted_moves(moves: Iterable[Move]) -> tuple[Move, ...]:
    return tuple(sorted(moves, key=str))


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
    oracle = Oracle(start, max_nodes)
    if not strict:
        yield from oracle.prove_path(played, positions[-1].outcome())
    start_status = yield from oracle.solve()
    start_chance = oracle.known_chance()
    reviews: list[MoveReview] = []
    here = start
    for index, move in enumerate(played):
        there = positions[index + 1]
        before = yield from oracle.solve()
        chance_before = oracle.known_chance()
        if before is Status.LOST:
            # Lost before, lost after every move (a proof, no search needed).
            choices = tuple(Choice(m, Status.LOST, chance_before) for m in here.legal_moves())
            oracle.advance(here, move)
            oracle.mark(False)
        else:
            choices = yield from oracle.choices(here)
            before = oracle.settle(choices)
            chance_before = oracle.known_chance()
            oracle.advance(here, move)
            chosen = next(c for c in choices if c.move == move)
            if chosen.status is Status.UNKNOWN and there.outcome() is None:
                # Perhaps the next position's own moves decide it.
                oracle.settle((yield from oracle.choices(there)))
        ended = there.outcome()
        if ended is not None:  # a turned card that can't pair leaves no trace in the stacks
            oracle.mark(ended.won)
        after = yield from oracle.solve()
        chance_after = oracle.known_chance()
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
        best = best_known_chance(pairs)
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
    return run_to_end(review_steps(record, max_nodes))


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

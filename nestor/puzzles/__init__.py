"""Puzzles: a moment of a real deal where exactly one pair keeps the game winnable.

A puzzle is a position reached from a deal by the pairs ``before`` it, with at least two
legal pairs (its ``choices``), exactly one of which (the ``answer``) keeps the game winnable,
while after any other choice every way of playing on ends with no pair left within
``horizon`` pairs, the wrong pair included (at most :data:`MAX_HORIZON`). The open variants
only (:data:`PUZZLE_VARIANTS`): Strict hides its stock, so no answer is certain there.

:func:`examine` tells whether a position is a puzzle (the bounded search of
:func:`longest_line` for the wrong choices, the solver for the answer; :func:`examine_steps`
is the same in slices, for a page);
:func:`refutation` is the line the page plays out after a wrong choice; :func:`rate` gives a
puzzle's rating; :func:`find_puzzles` plays a deal as a beginner would to meet such moments.
The shipped set (:data:`DATA_FILE`, written by ``scripts/puzzle_table.py``) is read by
:func:`puzzles`, :func:`get_puzzle`, :func:`daily_puzzle` and :func:`pick_puzzle`.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
from collections.abc import Collection, Generator, Iterable
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from ..deal import check_deal_number, deal_position
from ..errors import NestorError
from ..link import decode_moves, encode_moves
from ..position import Pair, Position
from ..steps import run_to_end
from ..variants import get_variant

__all__ = [
    "DATA_FILE",
    "MAX_HORIZON",
    "PUZZLE_VARIANTS",
    "Puzzle",
    "Verdict",
    "daily_puzzle",
    "examine",
    "examine_steps",
    "find_puzzles",
    "get_puzzle",
    "longest_line",
    "pick_puzzle",
    "puzzles",
    "rate",
    "refutation",
    "tips_chance",
    "updated_rating",
]

PUZZLE_VARIANTS = ("standard", "vertical", "doublets", "overlapping")
"""The variants puzzles come from: every card open, so each answer is certain."""

MAX_HORIZON = 8
"""The longest a wrong choice may last, in pairs, the wrong pair included."""

SEARCH_NODES = 20_000
"""The positions :func:`longest_line` may visit for one choice before it gives up."""

PROBE_NODES = 64
"""The first, quick look at each choice in :func:`examine`: enough to find a long line."""

SOLVER_NODES = 200_000
"""The solver's budget for proving the answer winnable (``UNKNOWN`` is no puzzle)."""

DATA_FILE = "puzzles.txt"
"""The shipped puzzles, beside this module: a header line, then one line per puzzle,
``variant deal before answer horizon rating``, ``before`` and ``answer`` in the moves code of
replay links (:mod:`nestor.link`); a puzzle's id is its line's number among them, from 1."""

HEADER = "# nestor puzzles 1"
"""The first line of :data:`DATA_FILE`: its format's version."""

RATING_LOW, RATING_HIGH = 400, 2800
"""The range of a puzzle's rating (and of a player's, :func:`updated_rating`)."""


class _TooBig(Exception):
    """The bounded search visited more than its budget."""


def _stacks(position: Position) -> tuple[tuple[str, ...], ...]:
    """The position's cards as stacks, bottom first, of which only the top is available: the
    columns, then each reserve card alone (the overlapping reserve as one stack)."""
    stacks = [*position.columns]
    if position.variant.overlapping:
        stacks.append(position.reserve)
    else:
        stacks.extend((card,) for card in position.reserve)
    return tuple(stacks)


def _open_pairs(ranks: tuple[str, ...], heights: tuple[int, ...]) -> list[tuple[int, int]]:
    """The pairs open at ``heights``, as the two stacks whose top cards they are; ``ranks``
    holds each stack's ranks, bottom first, one character a card."""
    tops: dict[str, list[int]] = {}
    pairs: list[tuple[int, int]] = []
    for i, height in enumerate(heights):
        if height:
            group = tops.setdefault(ranks[i][height - 1], [])
            pairs.extend((a, i) for a in group)
            group.append(i)
    return pairs


class _Longest:
    """The bounded search of :func:`longest_line` over one position's stacks."""

    def __init__(self, position: Position, max_nodes: int) -> None:
        self.stacks = _stacks(position)
        self.ranks = tuple("".join(card[0] for card in stack) for stack in self.stacks)
        self.memo: dict[tuple[int, ...], int] = {}
        self.budget = max_nodes

    def start(self) -> tuple[int, ...]:
        return tuple(len(stack) for stack in self.stacks)

    def after(self, heights: tuple[int, ...], pair: tuple[int, int]) -> tuple[int, ...]:
        lowered = list(heights)
        for stack in pair:
            lowered[stack] -= 1
        return tuple(lowered)

    def longest(self, heights: tuple[int, ...], limit: int) -> int:
        """The most pairs playable from ``heights`` before no pair is left, or ``limit + 1``
        when a longer line or a win exists. The memo holds an exact length, or minus one
        less than a length some line is known to exceed."""
        found = self.memo.get(heights)
        if found is not None and (found >= 0 or -found - 1 >= limit):
            return min(found, limit + 1) if found >= 0 else limit + 1
        self.budget -= 1
        if self.budget < 0:
            raise _TooBig
        if not any(heights):
            return limit + 1
        pairs = _open_pairs(self.ranks, heights)
        if not pairs:
            self.memo[heights] = 0
            return 0
        if limit <= 0:
            return 1
        best = 0
        for pair in pairs:
            best = max(best, 1 + self.longest(self.after(heights, pair), limit - 1))
            if best > limit:
                self.memo[heights] = -limit - 1
                return limit + 1
        self.memo[heights] = best
        return best

    def pair(self, heights: tuple[int, ...], pair: tuple[int, int]) -> Pair:
        a, b = pair
        return Pair(self.stacks[a][heights[a] - 1], self.stacks[b][heights[b] - 1])


def longest_line(position: Position, limit: int, max_nodes: int = SEARCH_NODES) -> int | None:
    """The number of pairs in the longest way of playing on from ``position`` (an open
    variant's) until no pair is left, if it is at most ``limit``; ``limit + 1`` when some
    line is longer or wins; ``None`` when the search would visit more than ``max_nodes``
    positions."""
    search = _Longest(position, max_nodes)
    try:
        return search.longest(search.start(), limit)
    except _TooBig:
        return None


def refutation(position: Position, wrong: Pair, limit: int = MAX_HORIZON) -> tuple[Pair, ...]:
    """``wrong`` and then the longest way of playing on after it, up to no pair left: why the
    choice loses, as the page plays it out. Empty if ``wrong`` is not a pair of ``position``
    or the line after it is longer than ``limit`` pairs in all."""
    if wrong not in position.pairs():
        return ()
    line = [wrong]
    here = position.apply(wrong)
    while len(line) <= limit:
        pairs = here.pairs()
        if not pairs:
            return tuple(line)
        left = limit - len(line) - 1
        lengths = [longest_line(here.apply(pair), left) for pair in pairs]
        if any(n is None or n > left for n in lengths):
            return ()
        best = max(range(len(pairs)), key=lambda i: lengths[i] or 0)
        line.append(pairs[best])
        here = here.apply(pairs[best])
    return ()


@dataclass(frozen=True)
class Verdict:
    """A position found to be a puzzle: its ``answer``, its ``horizon`` (the longest a wrong
    choice lasts, in pairs, the wrong pair included) and its ``choices`` (every legal pair)."""

    answer: Pair
    horizon: int
    choices: tuple[Pair, ...]


def examine(position: Position, max_nodes: int = SEARCH_NODES,
            solver_nodes: int = SOLVER_NODES) -> Verdict | None:
    """The :class:`Verdict` if ``position`` is a puzzle (see the module docstring), else
    ``None``, also when a search ran out of its budget. Strict positions are never puzzles."""
    return run_to_end(examine_steps(position, max_nodes, solver_nodes))


def examine_steps(position: Position, max_nodes: int = SEARCH_NODES,
                  solver_nodes: int = SOLVER_NODES) -> Generator[None, None, Verdict | None]:
    """:func:`examine` as a generator that yields after each choice's search and between
    the solver's slices (a page runs it between its other work); its value is the
    verdict."""
    from ..solver import Status, solve_steps  # the solver only when a position is examined

    if position.variant.has_stock or position.outcome() is not None:
        return None
    choices = position.pairs()
    if len(choices) < 2:
        return None
    lengths: dict[Pair, int | None] = {}
    for budget in (PROBE_NODES, max_nodes):  # most positions have two live choices: soon seen
        for pair in choices:
            if lengths.get(pair) is None:
                lengths[pair] = longest_line(position.apply(pair), MAX_HORIZON - 1, budget)
                yield None
        if sum(1 for n in lengths.values() if n is not None and n >= MAX_HORIZON) > 1:
            return None
    if any(n is None for n in lengths.values()):
        return None
    live = [pair for pair, n in lengths.items() if n is not None and n >= MAX_HORIZON]
    horizon = max((1 + n for n in lengths.values() if n is not None and n < MAX_HORIZON),
                  default=0)
    if len(live) != 1:
        return None
    proof = yield from solve_steps(position.apply(live[0]), solver_nodes)
    if proof.status is not Status.WINNABLE:
        return None
    return Verdict(live[0], horizon, choices)


def tips_chance(position: Position, verdict: Verdict) -> float:
    """The chance that the sources' three tips (:func:`nestor.strategies.tips_key`) pick the
    answer: 1 over the number of pairs they rank first, if the answer is one of them."""
    from ..strategies import tips_key

    keys = {pair: tips_key(position, pair) for pair in verdict.choices}
    best = max(keys.values())
    first = [pair for pair, key in keys.items() if key == best]
    return 1 / len(first) if verdict.answer in first else 0.0


def rate(position: Position, verdict: Verdict) -> int:
    """A puzzle's rating, higher is harder: from the chance that the tips pick the answer
    and the number of choices (the most weight), the wrong choices' horizon (a longer way down
    is harder to see) and the cards left to read; within :data:`RATING_LOW` .. ``HIGH``."""
    tips = tips_chance(position, verdict)
    score = (1000 + 600 * (1 - tips) + 700 * math.log2(len(verdict.choices) / 2)
             + 30 * (verdict.horizon - 1) + 4 * (position.cards_left() - 24))
    return max(RATING_LOW, min(RATING_HIGH, round(score)))


def updated_rating(player: int, puzzle: int, solved: bool, k: int = 32) -> int:
    """A player's rating after trying a puzzle rated ``puzzle``: Elo's update, ``k`` times
    the result (1 solved, 0 failed) less the expected one; within the puzzles' range."""
    expected = 1 / (1 + 10 ** ((puzzle - player) / 400))
    return max(RATING_LOW, min(RATING_HIGH, round(player + k * ((1.0 if solved else 0.0)
                                                                   - expected))))


def find_puzzles(variant: str, deal: int, seed: int = 0,
                 limit: int = 1) -> list[tuple[tuple[Pair, ...], Verdict]]:
    """Play ``deal`` of ``variant`` as a beginner would (the tips most of the time, now and
    then any pair, from a random source seeded by ``seed``, the variant and the deal) and
    return the first ``limit`` puzzle moments met: the pairs before each, and its verdict.
    After a moment the game goes on with its answer.

    Raises:
        VariantError, DealNumberError.
    """
    from ..strategies import tips_key

    name = get_variant(variant).name
    rng = random.Random(f"puzzles:{seed}:{name}:{check_deal_number(deal)}")
    position = deal_position(name, deal)
    before: list[Pair] = []
    found: list[tuple[tuple[Pair, ...], Verdict]] = []
    while position.outcome() is None and len(found) < limit and name in PUZZLE_VARIANTS:
        verdict = examine(position)
        pairs = position.pairs()
        if verdict is not None:
            found.append((tuple(before), verdict))
            move = verdict.answer
        elif rng.random() < 0.75:
            keys = [tips_key(position, pair) for pair in pairs]
            move = rng.choice([p for p, key in zip(pairs, keys, strict=True)
                               if key == max(keys)])
        else:
            move = rng.choice(pairs)
        before.append(move)
        position = position.apply(move)
    return found


@dataclass(frozen=True)
class Puzzle:
    """One shipped puzzle: its ``id`` (from 1), the ``variant`` and ``deal`` it comes from,
    the pairs played ``before`` it, its ``answer``, ``horizon`` and ``rating``."""

    id: int
    variant: str
    deal: int
    before: tuple[Pair, ...]
    answer: Pair
    horizon: int
    rating: int

    def position(self) -> Position:
        """The puzzle's position: the deal after the pairs ``before`` it."""
        position = deal_position(self.variant, self.deal)
        for pair in self.before:
            position = position.apply(pair)
        return position

    def choices(self) -> tuple[Pair, ...]:
        """Every legal pair of the position, the answer among them."""
        return self.position().pairs()

    def to_json(self) -> dict[str, Any]:
        """``{"id", "variant", "deal", "before", "choices", "answer", "horizon", "rating"}``,
        each pair a list of its two card codes."""
        return {
            "id": self.id, "variant": self.variant, "deal": self.deal,
            "before": [list(p.cards) for p in self.before],
            "choices": [list(p.cards) for p in self.choices()],
            "answer": list(self.answer.cards), "horizon": self.horizon, "rating": self.rating,
        }

    def to_line(self) -> str:
        """The puzzle's line in :data:`DATA_FILE` (its id is its place there)."""
        return " ".join((self.variant, str(self.deal), encode_moves(self.before),
                         encode_moves((self.answer,)), str(self.horizon), str(self.rating)))

    @classmethod
    def from_line(cls, puzzle_id: int, line: str) -> Puzzle:
        """The puzzle of ``line`` (as :meth:`to_line` writes it), numbered ``puzzle_id``.

        Raises:
            NestorError: code ``"puzzle.line"`` (details ``id``, ``value``) when the line
                cannot be read.
        """
        try:
            variant, deal, before, answer, horizon, rating = line.split(" ")
            moves, answers = decode_moves(before), decode_moves(answer)
            pairs = tuple(m for m in moves if isinstance(m, Pair))
            if len(pairs) != len(moves) or len(answers) != 1 or not isinstance(
                    answers[0], Pair):
                raise ValueError("a stock turn, or not one answer")
            name = get_variant(variant).name
            if name not in PUZZLE_VARIANTS:
                raise ValueError(f"{name} has no puzzles")
            if not (1 <= int(horizon) <= MAX_HORIZON and RATING_LOW <= int(rating) <= RATING_HIGH):
                raise ValueError("a horizon or rating out of range")
            return cls(puzzle_id, name, check_deal_number(int(deal)), pairs, answers[0],
                       int(horizon), int(rating))
        except ValueError as error:  # NestorError is a ValueError
            raise NestorError(f"puzzle {puzzle_id} cannot be read: {error}",
                              code="puzzle.line", id=puzzle_id, value=line[:60]) from None


def _read() -> str:
    """The text of :data:`DATA_FILE`: through this module's loader (out of the page's
    archive), else from the file system."""
    path = os.path.join(os.path.dirname(__file__), DATA_FILE)
    get_data = getattr(__spec__.loader, "get_data", None) if __spec__ else None
    data: bytes = Path(path).read_bytes() if get_data is None else get_data(path)
    return data.decode("ascii")


def read_puzzles(text: str) -> tuple[Puzzle, ...]:
    """The puzzles of a :data:`DATA_FILE` text.

    Raises:
        NestorError: code ``"puzzle.format"`` (detail ``value``: the first line) for another
            header; ``"puzzle.line"`` for a line that cannot be read.
    """
    lines = text.splitlines()
    if not lines or lines[0] != HEADER:
        raise NestorError("not a puzzles file of this version", code="puzzle.format",
                          value=(lines[0] if lines else "")[:60])
    return tuple(Puzzle.from_line(n, line) for n, line in enumerate(lines[1:], 1))


def write_puzzles(found: Iterable[Puzzle]) -> str:
    """The :data:`DATA_FILE` text of ``found``, in their order (their ids are renumbered)."""
    return "\n".join((HEADER, *(p.to_line() for p in found))) + "\n"


@cache
def puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles, by id (the first has id 1)."""
    return read_puzzles(_read())


def get_puzzle(puzzle_id: object) -> Puzzle:
    """The shipped puzzle numbered ``puzzle_id``.

    Raises:
        NestorError: code ``"puzzle.unknown"`` (details ``value``, ``count``) for anything
            but a whole number from 1 to the number of puzzles.
    """
    shipped = puzzles()
    if isinstance(puzzle_id, int) and not isinstance(puzzle_id, bool) and (
            1 <= puzzle_id <= len(shipped)):
        return shipped[puzzle_id - 1]
    raise NestorError(f"no puzzle {str(puzzle_id)[:60]}: puzzles are 1 to {len(shipped)}",
                      code="puzzle.unknown", value=str(puzzle_id)[:60], count=len(shipped))


def daily_puzzle(day: date) -> Puzzle:
    """The puzzle of ``day``, the same for everyone: drawn from the SHA-256 of its ISO date."""
    shipped = puzzles()
    digest = hashlib.sha256(f"nestor-puzzle:{day.isoformat()}".encode("ascii")).digest()
    return shipped[int.from_bytes(digest[:8], "big") % len(shipped)]


def pick_puzzle(rating: int, rng: random.Random, avoid: Collection[int] = (),
                spread: int = 150) -> Puzzle:
    """A puzzle rated within ``spread`` of ``rating`` (the nearest ones when none is), drawn
    with ``rng``, leaving out the ids in ``avoid`` while others remain."""
    fresh = [p for p in puzzles() if p.id not in avoid] or list(puzzles())
    near = [p for p in fresh if abs(p.rating - rating) <= spread]
    if not near:
        closest = min(abs(p.rating - rating) for p in fresh)
        near = [p for p in fresh if abs(p.rating - rating) == closest]
    return rng.choice(near)

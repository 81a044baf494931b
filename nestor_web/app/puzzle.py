"""A puzzle tried: its position, the player's pair, and what follows it."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import date

from nestor import Game, NestorError, Pair, Position, Record
from nestor.puzzles import Puzzle, Verdict, daily_puzzle, get_puzzle, pick_puzzle, rate, refutation

from .events import Problem
from .puzzle_record import PuzzleRecord, Try
from .url import puzzle_asked

PACE_SECONDS = 0.9  # between two pairs of a refutation played out

PUZZLE_KEYS: dict[str, str] = {  # event.key (letters in lower case): the command it gives
    "h": "hint",
    "n": "next",
    "d": "daily",
    "Escape": "deselect",
}


@dataclass(frozen=True)
class PuzzleStepped:
    """The puzzle shown is in ``phase`` now; ``pair``: just played on its board."""

    phase: str
    pair: Pair | None = None


class PuzzleTry:
    """A puzzle shown and tried: its ``phase`` (choose, refute, solved, failed), the pair
    ``chosen``, the refutation ``line`` of a wrong pair (that pair first) and how many of its
    pairs are ``shown`` on the board."""

    def __init__(self, puzzle: Puzzle, daily: date | None = None) -> None:
        self.puzzle = puzzle
        self.daily = daily
        self.start: Position = puzzle.position()
        self.phase = "choose"
        self.selected: str | None = None
        self.chosen: Pair | None = None
        self.hinted = False
        self.line: tuple[Pair, ...] = ()
        self.shown = 0

    @property
    def choices(self) -> tuple[Pair, ...]:
        return self.start.pairs()

    @property
    def position(self) -> Position:
        """The position on the board (the refutation's, as far as shown)."""
        here = self.start
        for pair in self.line[:self.shown]:
            here = here.apply(pair)
        return here

    def game(self) -> Game:
        """A game of the puzzle's deal at the position on the board."""
        game = Game(self.puzzle.variant, self.puzzle.deal)
        for pair in (*self.puzzle.before, *self.line[:self.shown]):
            game.push(pair)
        return game

    @property
    def over(self) -> bool:
        return self.phase in ("solved", "failed")

    def first_try(self, at: int) -> Try | None:
        """The try to keep (made ``at``) once chosen or hinted (none for the player's own game)."""
        if self.phase == "choose" or self.puzzle.id < 1:
            return None
        return Try(self.puzzle.id, self.puzzle.rating, self.phase == "solved", at)

    def tap(self, card: str) -> tuple[PuzzleStepped, ...]:
        """While the player chooses: select ``card``, deselect it, or play it with the selected."""
        if self.phase != "choose":
            return ()
        if card not in self.start.available():
            return ()
        if self.selected == card:
            self.selected = None
            return (PuzzleStepped("choose"),)
        if self.selected is not None and card in self.start.partners(self.selected):
            return self.play(Pair(self.selected, card))
        self.selected = card
        return (PuzzleStepped("choose"),)

    def play(self, pair: Pair) -> tuple[PuzzleStepped, ...]:
        """The player's pair: solved if it is the answer, else the refutation begins."""
        if self.phase != "choose" or pair not in self.start.pairs():
            return ()
        self.selected = None
        self.chosen = pair
        if pair == self.puzzle.answer:  # the board stays on the position, the answer marked
            self.phase = "solved"
            return (PuzzleStepped("solved", pair),)
        self.line = refutation(self.start, pair) or (pair,)
        self.phase = "refute" if len(self.line) > 1 else "failed"
        self.shown = 1 if self.phase == "refute" else 0  # the player's pair is on the board
        return (PuzzleStepped(self.phase, pair),)

    def step(self) -> tuple[PuzzleStepped, ...]:
        """The refutation's next pair; after its last, the puzzle's position again, failed."""
        if self.phase != "refute":
            return ()
        if self.shown < len(self.line):
            self.shown += 1
            return (PuzzleStepped("refute", self.line[self.shown - 1]),)
        self.shown = 0
        self.phase = "failed"
        return (PuzzleStepped("failed"),)

    def hint(self) -> tuple[PuzzleStepped, ...]:
        """Show the answer: the puzzle is failed."""
        if self.phase != "choose":
            return ()
        self.selected = None
        self.hinted = True
        self.phase = "failed"
        return (PuzzleStepped("failed"),)


def puzzle_request(query: str, today: date) -> tuple[PuzzleTry | None, Problem | None]:
    """The puzzle a URL query asks for (``?puzzle=K``, or ``?puzzle=daily``)."""
    asked = puzzle_asked(query)
    if asked is None:
        return None, None
    if asked == "daily":
        return daily_try(today), None
    try:
        puzzle = get_puzzle(int(asked) if asked.isdecimal() and len(asked) < 10 else asked)
    except NestorError as exc:
        return None, Problem("link.puzzle", exc)
    return _dated(puzzle, today), None


def _dated(puzzle: Puzzle, today: date) -> PuzzleTry:
    return PuzzleTry(puzzle, today if daily_puzzle(today).id == puzzle.id else None)


def daily_try(today: date) -> PuzzleTry:
    return PuzzleTry(daily_puzzle(today), today)


def next_try(record: PuzzleRecord, rng: random.Random, today: date, after: int = 0) -> PuzzleTry:
    """A puzzle near the player's rating not tried yet, nor ``after`` (the one just shown)."""
    avoid = set(record.tries) | {after}
    return _dated(pick_puzzle(record.rating(), rng, avoid), today)


def practice_try(record: Record, index: int, verdict: Verdict) -> PuzzleTry:
    """A puzzle (id 0) from the player's own game: the position before move ``index`` of
    ``record``, a puzzle by ``verdict`` (ValueError after a stock turn)."""
    before = tuple(move for move in record.moves[:index] if isinstance(move, Pair))
    if len(before) != index:
        raise ValueError("a stock turn before the moment: Strict has no puzzles")
    puzzle = Puzzle(0, record.variant.name, record.deal, before, verdict.answer, verdict.horizon, 0)
    return PuzzleTry(replace(puzzle, rating=rate(puzzle.position(), verdict)))


def puzzle_query(puzzle: Puzzle) -> str:
    return f"?puzzle={puzzle.id}"

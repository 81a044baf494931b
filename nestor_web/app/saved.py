"""A game as saved, the help used in it, the shelf where games left in progress wait, and two
tabs' lines of play of one deal: which came from which, and joining them."""

from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import Protocol

from nestor import Game, TurnStock


@dataclass(frozen=True)
class Help:
    """The help used in one deal: hints that showed a move, moves Solve played, moves it started
    with from a replay, and times it went back to a position of its review."""

    hints: int = 0
    solver_moves: int = 0
    replayed: int = 0
    reviewed: int = 0

    @property
    def used(self) -> bool:
        return bool(self.hints or self.solver_moves or self.replayed or self.reviewed)

    def most(self, other: Help) -> Help:
        """The larger of each count of this and ``other``."""
        return Help(*map(max, astuple(self), astuple(other)))


@dataclass(frozen=True)
class SavedGame:
    """A game as saved: the game, its help, and the milliseconds its timer ran."""

    game: Game
    help: Help = Help()
    elapsed_ms: int = 0

    @property
    def key(self) -> tuple[str, int]:
        return self.game.variant.name, self.game.deal


class Shelf(Protocol):
    """Where games left in progress wait (the storage manager's archive)."""

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """Take the game of ``variant``/``deal`` off, or ``None``; NestorError: unreadable."""


def descends(theirs: SavedGame, mine: SavedGame) -> bool:
    """Whether ``theirs`` was played on from ``mine`` (same deal): it starts with ``mine``'s moves
    in effect, or it is the deal restarted (no move: a restart drops every move)."""
    if theirs.key != mine.key:
        return False
    ahead = theirs.game.all_moves
    return not ahead or ahead[: mine.game.cursor] == mine.game.moves


def join(mine: SavedGame, theirs: SavedGame) -> tuple[SavedGame, SavedGame | None]:
    """Join two lines of one deal, neither descending from the other: the moves of one, then those
    of the other that can follow, and the line that could not all follow (ValueError: two deals)."""
    if mine.key != theirs.key:
        raise ValueError(f"{mine.key} and {theirs.key} are different deals")
    a, b = mine.game.moves, theirs.game.moves
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    first, second = sorted(
        (mine, theirs),
        key=lambda s: (len(s.game.moves) - common, [str(m) for m in s.game.moves[common:]]),
        reverse=True,
    )
    game = first.game.record().replay()
    left_over: SavedGame | None = None
    turns = sum(isinstance(m, TurnStock) for m in game.moves)
    seen_turns = sum(isinstance(m, TurnStock) for m in second.game.moves[:common])
    for move in second.game.moves[common:]:
        if isinstance(move, TurnStock):
            seen_turns += 1
            if seen_turns <= turns:
                continue  # the first line turned this stock card too
        elif move in game.moves:  # a pair made already
            continue
        if not game.position.is_legal(move):
            left_over = second
            break
        game.push(move)
        turns += isinstance(move, TurnStock)
    return SavedGame(game, mine.help.most(theirs.help)), left_over



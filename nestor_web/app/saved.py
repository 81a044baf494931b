"""A game as saved, the help used in it, and the shelf where games left in progress wait."""

from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import Protocol

from nestor import Game


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
        """Remove and return the game of ``variant``/``deal``, or ``None`` (NestorError: unreadable,
        dropped)."""

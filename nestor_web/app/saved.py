"""A game as saved, the help used in it, and the shelf where games left in progress wait."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from nestor import Game


@dataclass(frozen=True)
class Help:
    """The help used in one deal: hints that showed a move, moves Solve played, moves the game
    started with from a replay (:meth:`~nestor_web.app.session.Session.play_from`), not played in
    it, and how many times the game went back to a position chosen in its review
    (:meth:`~nestor_web.app.session.Session.try_from`: the review showed where the game was lost and
    how to win)."""

    hints: int = 0
    solver_moves: int = 0
    replayed: int = 0
    reviewed: int = 0

    @property
    def used(self) -> bool:
        """``True`` once a hint showed a move or Solve played one, when the game started from a
        replay's position after a move, or went on from a position of its review."""
        return bool(self.hints or self.solver_moves or self.replayed or self.reviewed)


@dataclass(frozen=True)
class SavedGame:
    """A game as saved: the deal, its moves and undo cursor (``game``), its help, and the time
    played on it (``elapsed_ms``, milliseconds the timer ran: the page shown, from the first move
    until the game ended)."""

    game: Game
    help: Help = Help()
    elapsed_ms: int = 0

    @property
    def key(self) -> tuple[str, int]:
        """``(variant, deal)``."""
        return self.game.variant.name, self.game.deal


class Shelf(Protocol):
    """Where games left in progress wait (the storage manager's archive)."""

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """Remove and return the game of ``variant``/``deal`` kept there, or ``None``.

        Raises:
            NestorError: the kept game could not be read (it is dropped); the session reports it.
        """


class NoShelf:
    """A :class:`Shelf` that keeps nothing (for tests of the session alone)."""

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """Nothing is kept: ``None``."""
        return None

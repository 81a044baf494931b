"""The session's commands that ask the solver: the hint, Solve and Finish."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from .events import Event, HintShown, PairCount, SolverBusy

if TYPE_CHECKING:
    from nestor import Game, Move, Position
    from nestor.solver import Solution

    from .saved import Help

FINISH_NODES = 2_000
"""Positions the finish check looks at before it gives up (and Finish is not offered)."""

HINT_COUNT_NODES = 50_000
"""The node budget of each search of a hint's first step (one per pair on the board, sharing what
they learn: :class:`nestor.solver.oracle.Oracle`), as the review's."""


Thinking = Literal["hint", "deal"]
"""What the solver may be busy with for the player: a hint, or a winnable deal."""


class SolverCommands:
    """The hint, Solve and Finish of a :class:`~nestor_web.app.session.Session`."""

    game: Game
    help: Help
    solving: bool
    thinking: Thinking | None
    hint: Move | None
    hint_solution: Solution | None
    hint_count: tuple[Position, PairCount] | None  # a hint's first step, for that position
    _analysis: tuple[Position, Solution] | None
    _finish: tuple[Position, bool | None] | None  # the finish check's answer

    if TYPE_CHECKING:

        def _play(
            self, move: Move, by_solver: bool = False, by_finish: bool = False
        ) -> tuple[Event, ...]: ...

    # ---- what the solver does for the player ------------------------------------------------

    def start_solving(self) -> tuple[Event, ...]:
        """Solve starts playing the winning line (the page's solver work plays it)."""
        self.solving = True
        return (SolverBusy(True, self.thinking),)

    def stop_solving(self) -> tuple[Event, ...]:
        """Solve stops (Stop, a hint asked for, another deal); nothing if it was not playing."""
        if not self.solving:
            return ()
        self.solving = False
        return (SolverBusy(False, self.thinking),)

    def think(self, what: Thinking | None) -> tuple[Event, ...]:
        """The solver works on ``what`` for the player (``None``: it is done), which the page says
        (a hint being found, a winnable deal being looked for)."""
        self.thinking = what
        return (SolverBusy(self.solving, what),)

    # ---- reading ---------------------------------------------------------------------------

    def finishable(self) -> bool | None:
        """Can "Finish" play the game out now?"""
        position = self.game.position
        if position.outcome() is not None:
            return False
        if self._finish is None or self._finish[0] != position:
            return None
        return bool(self._finish[1])

    def analysis(self) -> Solution | None:
        """The solver's answer for the current position, if it has been computed."""
        if self._analysis is not None and self._analysis[0] == self.game.position:
            return self._analysis[1]
        return None

    # ---- the solver ------------------------------------------------------------------------

    def analyse_steps(self, max_nodes: int | None = None) -> Generator[None, None, Solution]:
        """Solve the current position (cached); a generator, see ``solve_steps``."""
        position = self.game.position
        known = self.analysis()
        if known is not None:
            return known
        from nestor.solver import solve_steps

        solution = yield from solve_steps(position, max_nodes, known_order=False)
        self._analysis = (position, solution)
        return solution

    def hint_step(self) -> int:
        """Which step the next press of Hint is: ``1``, the count of the pairs on the board and how
        many of them lose (no help: nothing is shown); ``2``, the best pair (as :meth:`show_hint`),
        once the first was shown for this position, or when no pair can be made (Strict's stock
        turn)."""
        position = self.game.position
        if self.hint_count is not None and self.hint_count[0] == position:
            return 2
        if not any(True for _ in position.pairs()):
            return 2
        return 1

    def count_pairs_steps(
        self, max_nodes: int = HINT_COUNT_NODES
    ) -> Generator[None, None, PairCount]:
        """A hint's first step: for each legal pair, whether the game can still be won after it
        (:meth:`nestor.solver.oracle.Oracle.choices`; Strict: a chance above 0); a generator like
        :meth:`analyse_steps`."""
        from nestor import Pair
        from nestor.solver import Status
        from nestor.solver.oracle import Oracle

        position = self.game.position
        choices = yield from Oracle(position, max_nodes).choices(position)
        pairs = [c for c in choices if isinstance(c.move, Pair)]
        return PairCount(
            pairs=len(pairs),
            losing=sum(1 for c in pairs if c.status is Status.LOST),
            unknown=sum(1 for c in pairs if c.status is Status.UNKNOWN),
        )

    def show_pair_count(self, count: PairCount) -> tuple[Event, ...]:
        """Show a hint's first step (for the current position): counted as no help, since no pair is
        shown; the next press shows the best pair."""
        self.hint_count = (self.game.position, count)
        return (HintShown(None, count=count),)

    def show_hint(self, solution: Solution) -> tuple[Event, ...]:
        """Show the hint of ``solution`` (for the current position)."""
        self.hint = solution.best_move
        self.hint_solution = solution
        if solution.best_move is not None:
            self.help = replace(self.help, hints=self.help.hints + 1)
        return (HintShown(solution.best_move),)

    def play_solver_move(self, solution: Solution) -> tuple[Event, ...]:
        """Solve: play the best move of ``solution`` (for the current position)."""
        move = solution.best_move
        if move is None or not self.game.position.is_legal(move):
            return ()
        self.help = replace(self.help, solver_moves=self.help.solver_moves + 1)
        return self._play(move, by_solver=True)

    # ---- Finish: play out a game that can no longer be lost --------------------------------

    def finish_steps(self, max_nodes: int = FINISH_NODES) -> Generator[None, None, bool | None]:
        """Check whether any way of playing on from the current position could lose
        (:func:`nestor.finish.cannot_lose_steps`), a generator like ``analyse_steps``; the answer is
        kept for :meth:`finishable`."""
        from nestor.finish import cannot_lose_steps

        position = self.game.position
        safe = yield from cannot_lose_steps(position, max_nodes)
        self._finish = (position, safe)
        return safe

    def finish(self) -> tuple[Event, ...]:
        """Finish: play the game out at once, when :meth:`finishable` says no line loses."""
        if not self.finishable():
            return ()
        self.solving = False
        events: list[Event] = []
        while self.game.position.outcome() is None:
            events.extend(self._play(self.game.position.legal_moves()[0], by_finish=True))
        return tuple(events)

    def _carry_finish(self, before: Position, after: Position) -> None:
        """A move led from ``before`` to ``after``: every position after a safe one is safe."""
        if self._finish == (before, True):
            self._finish = (after, True)

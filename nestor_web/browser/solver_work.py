"""The page's work with the solver, in its time slices so the page never freezes: Hint,
Solve, a deal proved winnable, the winnable indicator, and whether Finish may be offered.

Each is a task of the page (:meth:`Tasks.spawn`); it works on the position it started from
and shows its answer only if the game is still there. What it needs of the page is
:class:`SolverPort`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Protocol, TypeVar

from pyscript import document

from nestor import VARIANTS

from ..app.events import Event, Problem
from ..app.settings import SOLVE_PAUSE_MS

if TYPE_CHECKING:
    from nestor.solver import Solution

    from ..app.session import Session

T = TypeVar("T")


class SolverPort(Protocol):
    """What the solver's work asks of the page (the composition root)."""

    @property
    def session(self) -> Session:
        """The session of the game in play."""

    def run(self, command: Callable[[], tuple[Event, ...]], animate: bool = True) -> None:
        """Run a session command, draw and save what happened (animated)."""

    def update(self, events: tuple[Event, ...]) -> None:
        """Draw the game after ``events`` (``()``: as it is), and save."""

    async def sliced(self, steps: Generator[None, None, T]) -> T:
        """Run ``steps`` to its end in the page's time slices; its value."""

    def kept_grades(self) -> dict[tuple[str, int], str]:
        """The grades the page worked out before (the storage manager keeps them)."""


class SolverWork:
    """The solver's tasks for the page ``app``.

    Attributes:
        indicator_for, finish_for: the position the winnable indicator's and the Finish
            check's task works on now (``None``: none runs), so a draw does not start a
            second one for the same position.
        grading: the deals whose grade a task works out now.
    """

    def __init__(self, app: SolverPort) -> None:
        self.app = app
        self.indicator_for: object = None
        self.finish_for: object = None
        self.grading: set[tuple[str, int]] = set()

    async def hint_task(self) -> None:
        """Hint, in two steps: the first press says how many pairs can be
        made and how many of them lose; the next, at the same position, solves it and shows
        the best move."""
        session = self.app.session
        position = session.position
        if position.outcome() is not None:
            return
        self.app.update(session.think("hint"))
        start = time.perf_counter()
        if session.hint_step() == 1:
            count = await self.app.sliced(session.count_pairs_steps())
            elapsed = (time.perf_counter() - start) * 1000
            document.body.setAttribute("data-hint-ms", f"{elapsed:.1f}")
            done = session.think(None)
            self.app.update(done + (
                session.show_pair_count(count) if session.position is position else ()))
            return
        solution = await self.app.sliced(session.analyse_steps())
        elapsed = (time.perf_counter() - start) * 1000
        document.body.setAttribute("data-hint-ms", f"{elapsed:.1f}")
        done = session.think(None)
        if session.position is position:
            self.app.update(done + session.show_hint(solution))
        else:
            self.app.update(done)

    async def solve_task(self) -> None:
        """Solve: play the best move, one pair at a time, until won, stopped or lost."""
        session = self.app.session
        self.app.update(session.start_solving())
        try:
            while session.solving and session.game.outcome() is None:
                position = session.position
                solution = await self.app.sliced(session.analyse_steps())
                if not session.solving or session.position is not position:
                    break
                events = self._solver_step(solution)
                if not events:
                    self.app.update(session.show_hint(solution))  # no winning line remains
                    break
                await asyncio.sleep(SOLVE_PAUSE_MS[session.settings.solve_speed] / 1000)
        finally:
            self.app.update(session.stop_solving())

    def _solver_step(self, solution: Solution) -> tuple[Event, ...]:
        """Solve's next move, animated like the player's own pairs; its events."""
        played: list[tuple[Event, ...]] = []

        def step() -> tuple[Event, ...]:
            played.append(self.app.session.play_solver_move(solution))
            return played[-1]

        self.app.run(step)
        return played[-1]

    async def winnable_deal_task(self, variant: str) -> None:
        """Look for a deal the solver proves winnable, then start it."""
        session = self.app.session
        self.app.update(session.think("deal"))
        from nestor.analysis import winnable_deal_steps

        found = await self.app.sliced(winnable_deal_steps(VARIANTS[variant], session.rng))
        events = session.think(None)
        if found is None:
            events += session.new_deal(variant)
            events += session.notice(Problem("winnable.not_found"))
        else:
            events += session.open_deal(variant, found)
        self.app.update(events)

    async def grade_task(self) -> None:
        """The grade of the deal shown: from the table shipped with the game or the
        grades kept, else worked out in the page's time slices (and kept)."""
        session = self.app.session
        key = session.key
        if key in self.grading:
            return
        self.grading.add(key)
        try:
            events = session.look_up_grade()  # the table first: no need to read the kept ones
            if not events and session.grade is None:
                events = session.look_up_grade(self.app.kept_grades())
            if not events and session.grade is None:
                events = await self.app.sliced(session.grade_steps())
            self.app.update(events)
        finally:
            self.grading.discard(key)

    async def finish_check_task(self) -> None:
        """Can the game still be lost? If not, Finish is offered (see nestor.finish)."""
        session = self.app.session
        position = session.position
        self.finish_for = position
        safe = await self.app.sliced(session.finish_steps())
        if self.finish_for is position:
            self.finish_for = None
        if safe and session.position is position:
            self.app.update(())

    async def indicator_task(self) -> None:
        """Winnable indicator: solve the current position, then show the verdict."""
        position = self.app.session.position
        self.indicator_for = position
        await self.app.sliced(self.app.session.analyse_steps())
        if self.indicator_for is position:
            self.indicator_for = None
        if self.app.session.position is position:
            self.app.update(())

"""The page's solver work in time slices: Hint, Solve, a winnable deal, the indicator, the
grade, Finish's check. Each answer is shown only if the game is still where it started."""

from __future__ import annotations

import asyncio
import time
from functools import partial

from pyscript import document

from nestor import VARIANTS

from ..app.events import Problem
from ..app.session import Session
from ..app.settings import SOLVE_PAUSE_MS
from ..storage.manager import StorageManager
from .controller import Controller
from .dom import Tasks


class SolverWork:
    """The solver's tasks; in work: ``indicator_for``, ``finish_for`` (positions), ``grading``."""

    def __init__(
        self, session: Session, controller: Controller, tasks: Tasks, storage: StorageManager
    ) -> None:
        self.session = session
        self.controller = controller
        self.tasks = tasks
        self.storage = storage
        self.indicator_for: object = None
        self.finish_for: object = None
        self.grading: set[tuple[str, int]] = set()

    def start_needed(self) -> None:
        """Start what the position needs and nothing works on: indicator, Finish, grade."""
        session = self.session
        if (session.settings.winnable_indicator and session.analysis() is None
                and self.indicator_for is not session.position):
            self.tasks.spawn(self.indicator_task)
        if session.finishable() is None and self.finish_for is not session.position:
            self.tasks.spawn(self.finish_check_task)
        if session.grade is None and session.key not in self.grading:
            self.tasks.spawn(self.grade_task)

    async def hint_task(self) -> None:
        """Hint: the first press counts the pairs (and losing ones), the next the best move."""
        session = self.session
        position = session.position
        if position.outcome() is not None:
            return
        self.controller.update(session.think("hint"))
        start = time.perf_counter()
        first = session.hint_step() == 1
        if first:
            count = await self.tasks.sliced(session.count_pairs_steps())
        else:
            solution = await self.tasks.sliced(session.analyse_steps())
        document.body.setAttribute("data-hint-ms", f"{(time.perf_counter() - start) * 1000:.1f}")
        events = session.think(None)
        if session.position is position:
            events += session.show_pair_count(count) if first else session.show_hint(solution)
        self.controller.update(events)

    async def solve_task(self) -> None:
        """Solve: play the best move, one pair at a time, until won, stopped or lost."""
        session = self.session
        self.controller.update(session.start_solving())
        try:
            while session.solving and session.game.outcome() is None:
                position = session.position
                solution = await self.tasks.sliced(session.analyse_steps())
                if not session.solving or session.position is not position:
                    break
                events = self.controller.run(partial(session.play_solver_move, solution))
                if not events:
                    self.controller.update(session.show_hint(solution))  # no winning line remains
                    break
                await asyncio.sleep(SOLVE_PAUSE_MS[session.settings.solve_speed] / 1000)
        finally:
            self.controller.update(session.stop_solving())

    async def winnable_deal_task(self, variant: str) -> None:
        """Look for a deal the solver proves winnable, then start it."""
        session = self.session
        self.controller.update(session.think("deal"))
        from nestor.analysis import winnable_deal_steps

        found = await self.tasks.sliced(winnable_deal_steps(VARIANTS[variant], session.rng))
        events = session.think(None)
        if found is None:
            events += session.new_deal(variant)
            events += session.notice(Problem("winnable.not_found"))
        else:
            events += session.open_deal(variant, found)
        self.controller.update(events)

    async def grade_task(self) -> None:
        """The deal's grade: shipped or kept, else worked out (and kept)."""
        session = self.session
        key = session.key
        if key in self.grading:
            return
        self.grading.add(key)
        try:
            events = session.look_up_grade()  # the table first: no need to read the kept ones
            if not events and session.grade is None:
                events = session.look_up_grade(self.storage.kept_grades())
            if not events and session.grade is None:
                events = await self.tasks.sliced(session.grade_steps())
            self.controller.update(events)
        finally:
            self.grading.discard(key)

    async def finish_check_task(self) -> None:
        """Can the game still be lost? If not, Finish is offered (see nestor.finish)."""
        session = self.session
        position = session.position
        self.finish_for = position
        safe = await self.tasks.sliced(session.finish_steps())
        if self.finish_for is position:
            self.finish_for = None
        if safe and session.position is position:
            self.controller.update(())

    async def indicator_task(self) -> None:
        """Winnable indicator: solve the current position, then show the verdict."""
        position = self.session.position
        self.indicator_for = position
        await self.tasks.sliced(self.session.analyse_steps())
        if self.indicator_for is position:
            self.indicator_for = None
        if self.session.position is position:
            self.controller.update(())

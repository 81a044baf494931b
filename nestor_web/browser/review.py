"""The review panel (``#review-dialog``, ``body[data-review-busy]`` while it works): moves reviewed
in time slices, drawn as final; Try from here, Practise this, Copy link (work loaded when used)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from pyscript import document

from ..view.replay import link_words
from .actuator import Actuator
from .controller import Controller
from .dom import Tasks, game_link, listen, missing, set_text, show_copy, to_clipboard

if TYPE_CHECKING:
    from ..app.puzzle import PuzzleTry
    from ..app.review import ReviewState
    from ..app.session import Session

STEP_KEYS = {"ArrowLeft": -1, "ArrowDown": -1, "ArrowRight": 1, "ArrowUp": 1}  # the timeline's


class ReviewPanel:
    """The review panel; ``state`` is the review shown or worked out (``None`` before any).
    ``practise`` shows a puzzle from the game in the puzzle mode."""

    def __init__(
        self, session: Session, controller: Controller, tasks: Tasks, actuator: Actuator,
        practise: Callable[[PuzzleTry], None],
    ) -> None:
        self.session = session
        self.controller = controller
        self.tasks = tasks
        self.actuator = actuator
        self.show_puzzle = practise
        self.state: ReviewState | None = None
        self.dialog = document.getElementById("review-dialog")
        self.body = document.getElementById("review-body")
        self._draw_pending = False
        self._proxies = [listen(self.dialog, "click", self.on_click),
                         listen(self.dialog, "keydown", self.on_key)]

    def open(self) -> None:
        """Open the panel on the review of the game's moves in effect (kept if it is of them)."""
        record = self.session.game.record()
        if self.state is None or self.state.record != record:
            from ..app.review import ReviewState  # not at start-up (see the module's doc)

            state = ReviewState(record)
            self.state = state
            self.tasks.spawn(lambda: self._work(state))
        if not self.dialog.open:
            self.actuator.toggle_dialog("review")
        document.getElementById("review-link-words").textContent = ""
        document.getElementById("review-link-field").hidden = True
        self.draw()

    async def _work(self, state: ReviewState) -> None:
        """Work ``state`` out in slices, drawing the panel as moves become final."""
        body = document.body
        body.setAttribute("data-review-busy", "")
        start = time.perf_counter()
        try:
            done = await self.tasks.sliced(self._drawing(state))
        finally:
            if self.state is state or self.state is None:
                body.removeAttribute("data-review-busy")
        if done and self.state is state:
            body.setAttribute("data-review-ms", f"{(time.perf_counter() - start) * 1000:.1f}")
            self.draw()

    def _drawing(self, state: ReviewState) -> Generator[None, None, bool]:
        """``state``'s slices (until another replaces it), a draw asked as moves become final."""
        steps = state.steps(lambda: self.state is state)
        seen = 0
        while True:
            try:
                next(steps)
            except StopIteration as finished:
                result: bool = finished.value
                return result
            if len(state.moves) != seen:
                seen = len(state.moves)
                if not self._draw_pending:
                    self._draw_pending = True
                    asyncio.get_event_loop().call_soon(self._draw_now)
            yield None

    def _draw_now(self) -> None:
        self._draw_pending = False
        self.draw()

    def can_try(self) -> bool:
        """Can "Try from here" go back in the game in play (still the game reviewed)?"""
        state = self.state
        if state is None or state.chosen is None:
            return False
        game = self.session.game
        record = state.record
        return (
            (game.variant.name, game.deal) == (record.variant.name, record.deal)
            and game.moves[: state.total] == record.moves
            and state.chosen < game.cursor
        )

    def draw(self) -> None:
        """Draw the review (while the panel is open); the focus stays on its control."""
        state = self.state
        if state is None or not self.dialog.open:
            return
        from ..view.review import review_html, review_status  # opened: imported by now

        focus = document.activeElement
        keep: str | None = None
        if not missing(focus) and self.body.contains(focus):
            for name in ("data-review-go", "data-review-command", "data-review-timeline"):
                if focus.hasAttribute(name):
                    keep = f'[{name}="{focus.getAttribute(name)}"]'
                    break
        self.body.innerHTML = review_html(state, self.session.settings, self.can_try())
        if keep is not None:
            target = self.body.querySelector(keep)
            if not missing(target):
                target.focus()
        set_text(document.getElementById("review-status"), review_status(state))

    def on_click(self, event: Any) -> None:
        """A tap in the panel: a move, the timeline, Try from here, Practise this, Copy link."""
        state = self.state
        target = event.target.closest(
            "[data-review-go], [data-review-timeline], [data-review-command], "
            '[data-action="copy-link"], [data-action="practise"]'
        )
        if missing(target) or state is None:
            return
        if target.hasAttribute("data-review-go"):
            state.choose(int(str(target.getAttribute("data-review-go"))))
            self.draw()
        elif target.hasAttribute("data-review-timeline"):
            svg = target.querySelector("svg")
            rect = svg.getBoundingClientRect()
            if rect.width:
                from ..view.timeline import point_at  # drawn: imported by now

                index = point_at((event.clientX - rect.left) / rect.width, state.total)
                if index is not None:
                    state.choose(index)
                    self.draw()
        elif target.hasAttribute("data-review-command"):
            if str(target.getAttribute("data-review-command")) == "try":
                self.try_from_here()
        elif target.getAttribute("data-action") == "practise":
            self.practise()
        else:
            self.copy_link()

    def on_key(self, event: Any) -> None:
        """The focused timeline's keys: the arrows move the choice, Home and End to an end."""
        state = self.state
        target = event.target
        if state is None or missing(target) or not target.hasAttribute("data-review-timeline"):
            return
        key = str(event.key)
        if key in STEP_KEYS:
            state.step(STEP_KEYS[key])
        elif key == "Home":
            state.choose(0)
        elif key == "End":
            state.choose(state.total - 1)
        else:
            return
        event.preventDefault()
        self.draw()

    def try_from_here(self) -> None:
        """Put the game back before the chosen move (the rest kept for redo); close the panel."""
        state = self.state
        if state is None or state.chosen is None or not self.can_try():
            return
        index = state.chosen
        self.dialog.close()
        self.controller.run(lambda: self.session.try_from(index), animate=False)
        self.actuator.restore_focus()

    def practise(self) -> None:
        """Close the panel and show the moment before the turning point as a puzzle."""
        state = self.state
        review = state.result if state is not None else None
        if state is None or review is None or review.turning_point is None or (
                state.practice is None):
            return
        from ..app.puzzle import practice_try  # the puzzles: not at start-up

        attempt = practice_try(state.record, review.turning_point, state.practice)
        self.dialog.close()
        self.show_puzzle(attempt)

    def copy_link(self) -> None:
        """Copy the game's replay link, or show it selected where the clipboard is refused."""
        url = game_link(self.session.game)
        self.tasks.spawn(lambda: self._copy(url))

    async def _copy(self, url: str) -> None:
        copied = await to_clipboard(url)
        document.getElementById("review-link-words").textContent = link_words(copied)
        field = document.getElementById("review-link-field")
        field.hidden = copied
        show_copy(self.dialog, field, url, copied)

"""The review panel of the page (``#review-dialog``, ``[data-review]``): writes the DOM, runs
the solver in the page's time slices.

Opened by the "Review" control (``[data-action="review"]``) or by :meth:`ReviewPanel.open`
(``App.open_review``, which the end screen calls too): the game in play's moves in effect
are reviewed with :func:`nestor.review.review_steps` in slices (``Tasks.sliced``), and the
panel is drawn again as each move's review becomes final, so it fills in progressively and
the page never freezes. Every word and the markup come from :mod:`nestor_web.view.review`;
the state (the moves reviewed, the move chosen) is :class:`nestor_web.app.review.ReviewState`.

What works the review out and draws it (:mod:`nestor.review`, the solver, the view) is imported
on the panel's first use, not at start-up (the page imports it in idle time once it takes input:
``root.LATER_MODULES``).

What the panel needs of the page is :class:`ReviewPort`.

Once done, the same slices examine the turning point: when the position before it is a puzzle,
"Practise this" (``[data-action="practise"]``) closes the panel and shows that moment in the
puzzle mode (a puzzle from the player's own game, id 0).

Hooks for tests: ``body[data-review-busy]`` while a review is worked out (and its turning
point examined),
``body[data-review-ms]`` the time the last one took (milliseconds).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Generator
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pyodide.ffi import create_proxy
from pyscript import document

from ..view.replay import link_words
from .clipboard import game_link, to_clipboard
from .dom import missing

if TYPE_CHECKING:
    from ..app.events import Event
    from ..app.puzzle import PuzzleTry
    from ..app.review import ReviewState
    from ..app.session import Session

T = TypeVar("T")

STEP_KEYS = {"ArrowLeft": -1, "ArrowDown": -1, "ArrowRight": 1, "ArrowUp": 1}
"""The timeline's keys that move the choice one move back or on."""


class ReviewPort(Protocol):
    """What the review panel asks of the page (the composition root)."""

    @property
    def session(self) -> Session:
        """The session of the game in play (its record, its settings, Try from here)."""

    def run(self, command: Callable[[], tuple[Event, ...]], animate: bool = True) -> None:
        """Run a session command, draw and save what happened."""

    def spawn(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run the coroutine ``make()`` returns as a task of the page."""

    async def sliced(self, steps: Generator[None, None, T]) -> T:
        """Run ``steps`` to its end in the page's time slices; its value."""

    def restore_focus(self) -> None:
        """Give the game's board the focus (its first available card)."""

    def toggle_dialog(self, name: str) -> None:
        """Open the panel ``name`` (``"review"``), or close it if open."""

    def practise(self, attempt: PuzzleTry) -> None:
        """Show ``attempt``, a puzzle from the player's own game, in the puzzle mode."""


class ReviewPanel:
    """The review panel of ``app``'s page.

    Attributes:
        state: the review shown (or being worked out), ``None`` before the first.
    """

    def __init__(self, app: ReviewPort) -> None:
        self.app = app
        self.state: ReviewState | None = None
        self.dialog = document.getElementById("review-dialog")
        self.body = document.getElementById("review-body")
        self._said = ""
        self._draw_pending = False
        self._proxies: list[Any] = []
        for kind, handler in (("click", self.on_click), ("keydown", self.on_key)):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            self.dialog.addEventListener(kind, proxy)

    # ---- opening and working out ---------------------------------------------------------

    def open(self) -> None:
        """Open the panel on the review of the game in play (its moves in effect): the one
        already worked out or under way if it is of these moves, else a new one."""
        record = self.app.session.game.record()
        if self.state is None or not self.state.matches(record):
            from ..app.review import ReviewState  # not at start-up (see the module's doc)

            state = ReviewState(record)
            self.state = state
            self.app.spawn(lambda: self._work(state))
        if not self.dialog.open:
            self.app.toggle_dialog("review")
        document.getElementById("review-link-words").textContent = ""
        field = document.getElementById("review-link-field")
        field.hidden = True
        self.draw()

    async def _work(self, state: ReviewState) -> None:
        """Work ``state`` out in slices, drawing the panel as moves become final."""
        body = document.body
        body.setAttribute("data-review-busy", "")
        start = time.perf_counter()
        try:
            done = await self.app.sliced(self._drawing(state))
        finally:
            if self.state is state or self.state is None:
                body.removeAttribute("data-review-busy")
        if done and self.state is state:
            body.setAttribute("data-review-ms", f"{(time.perf_counter() - start) * 1000:.1f}")
            self.draw()

    def _drawing(self, state: ReviewState) -> Generator[None, None, bool]:
        """``state``'s slices (given up once another review replaces it), asking for a
        draw whenever a move's review became final."""
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
                self._draw_soon()
            yield None

    def _draw_soon(self) -> None:
        if not self._draw_pending:
            self._draw_pending = True
            asyncio.get_event_loop().call_soon(self._draw_now)

    def _draw_now(self) -> None:
        self._draw_pending = False
        self.draw()

    # ---- drawing -------------------------------------------------------------------------

    def can_try(self) -> bool:
        """Can "Try from here" go back in the game in play? Only while its moves in effect
        still begin with the moves reviewed (it is the same game, not moved elsewhere)."""
        state = self.state
        if state is None or state.chosen is None:
            return False
        game = self.app.session.game
        record = state.record
        return (
            (game.variant.name, game.deal) == (record.variant.name, record.deal)
            and game.moves[: state.total] == record.moves
            and state.chosen < game.cursor
        )

    def draw(self) -> None:
        """Draw the review shown (only while the panel is open); the keyboard focus stays on
        the control it was on."""
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
        self.body.innerHTML = review_html(state, self.app.session.settings, self.can_try())
        if keep is not None:
            target = self.body.querySelector(keep)
            if not missing(target):
                target.focus()
        said = review_status(state)
        if said != self._said:
            document.getElementById("review-status").textContent = said
            self._said = said

    # ---- input ---------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        """A tap in the panel: a move (list, timeline point, moment), the timeline, Try
        from here, Practise this, Copy link."""
        state = self.state
        target = event.target.closest(
            "[data-review-go], [data-review-timeline], [data-review-command], "
            '[data-action="copy-link"], [data-action="practise"]'
        )
        if missing(target) or state is None:
            return
        if target.hasAttribute("data-review-go"):
            self.choose(int(str(target.getAttribute("data-review-go"))))
        elif target.hasAttribute("data-review-timeline"):
            svg = target.querySelector("svg")
            rect = svg.getBoundingClientRect()
            if rect.width:
                from ..view.timeline import point_at  # drawn: imported by now

                index = point_at((event.clientX - rect.left) / rect.width, state.total)
                if index is not None:
                    self.choose(index)
        elif target.hasAttribute("data-review-command"):
            if str(target.getAttribute("data-review-command")) == "try":
                self.try_from_here()
        elif target.getAttribute("data-action") == "practise":
            self.practise()
        else:
            self.copy_link()

    def on_key(self, event: Any) -> None:
        """The timeline's keys (while it has the focus): the arrows move the choice one
        move, Home and End to the first and the last."""
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

    def choose(self, index: int) -> None:
        """Show move ``index``'s position."""
        if self.state is not None:
            self.state.choose(index)
            self.draw()

    def try_from_here(self) -> None:
        """Put the game back at the position before the chosen move (the moves after it
        stay for redo), close the panel and give the board the focus."""
        state = self.state
        if state is None or state.chosen is None or not self.can_try():
            return
        index = state.chosen
        self.dialog.close()
        self.app.run(lambda: self.app.session.try_from(index), animate=False)
        self.app.restore_focus()

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
        self.app.practise(attempt)

    # ---- the link ------------------------------------------------------------------------

    def copy_link(self) -> None:
        """Copy the replay link of the game in play to the clipboard; if the browser
        refuses, show it in the panel, selected, to copy by hand."""
        url = game_link(self.app.session.game)
        self.app.spawn(lambda: self._copy(url))

    async def _copy(self, url: str) -> None:
        copied = await to_clipboard(url)
        document.getElementById("review-link-words").textContent = link_words(copied)
        field = document.getElementById("review-link-field")
        field.value = url
        field.hidden = copied
        self.dialog.setAttribute("data-copied", "true" if copied else "false")
        if not copied:
            field.focus()
            field.select()

"""The end screen on the page (``#end-screen``), drawn from :func:`nestor_web.view.end.end_view`.

When the game ends it appears above the board and takes the focus; its buttons are the page's
own ``data-action`` controls (the input manager runs them). Closing it (its button, Escape)
gives the focus back, or to "Show the result" (``#end-again``), which brings it back. The
verdict on the deal is worked out in the page's time slices once it is shown.
Hook: ``body[data-end]`` is ``"shown"`` or ``"dismissed"``; absent while the game goes on.
"""

from __future__ import annotations

from typing import Any

from pyscript import document

from nestor import Pair

from ..app.ending import Ending
from ..app.events import Event, TookBack
from ..app.session import Session
from ..view.end import EndView, end_view, render_end, reopen_words
from .actuator import Actuator
from .dom import listen, missing
from .tasks import Tasks


class EndScreen:
    """The end screen of ``session``'s game; ``ending`` is its state (dismissed, verdicts)."""

    def __init__(self, session: Session, tasks: Tasks, actuator: Actuator) -> None:
        self.session = session
        self.tasks = tasks
        self.actuator = actuator
        self.ending = Ending()
        self._replaying = False  # a replay is shown (the last draw was told so)
        self.el = document.getElementById("end-screen")
        self.again = document.getElementById("end-again")
        self._drawn: EndView | None = None
        self._before: Any = None  # the element focused before the end screen took the focus
        self._working = False  # the verdict is being worked out
        self._dismissing = False  # the player closes it: the focus goes back, not to the board
        self._proxies = [listen(self.el, "click", self.on_click),
                         listen(self.again, "click", self.on_again)]

    @property
    def shown(self) -> bool:
        """Is the end screen on the page now?"""
        return self._drawn is not None

    # ---- input ------------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        """A tap on the close button (the page's commands are the input manager's)."""
        target = event.target.closest("[data-end-command]")
        if not missing(target) and not target.disabled:
            self.dismiss()

    def on_again(self, event: Any) -> None:
        """A tap on "Show the result": the end screen comes back."""
        if missing(event.target.closest("button")):
            return
        self.ending.dismissed = False
        self._ask_verdict(self.session)
        self.draw(self.session)

    def escape(self) -> bool:
        """Escape was pressed: dismiss the end screen if it is shown. Was it?"""
        if not self.shown:
            return False
        self.dismiss()
        return True

    def dismiss(self) -> None:
        """Close the end screen; the focus goes back where it was before it appeared, or to
        "Show the result"."""
        self.ending.dismissed = True
        self._dismissing = True
        try:
            self.draw(self.session)
        finally:
            self._dismissing = False
        before, self._before = self._before, None
        if _focusable(before):
            before.focus()
        else:
            self.again.querySelector("button").focus()

    # ---- drawing ----------------------------------------------------------------------------

    def follow(self, session: Session, replaying: bool) -> None:
        """After a command: the end screen's state follows ``session``'s game (a game over
        is shown once, a new game forgets the last one's), and the verdict on the deal is
        worked out if the end screen needs it. ``replaying``: a replay from a link is shown,
        a mode of its own, where the game's end screen waits (and no verdict is worked out)."""
        self._replaying = replaying
        self.ending.sync(session)
        self._ask_verdict(session)

    def draw(self, session: Session, events: tuple[Event, ...] = ()) -> None:
        """Show, update or hide the end screen for ``session`` after ``events`` (the board
        is drawn already, :meth:`follow` has run): it only draws."""
        ending = self.ending
        view = end_view(session, ending) if ending.shown(session) and not self._replaying else None
        drawn, self._drawn = self._drawn, view
        body = document.body
        if view is None:
            if drawn is not None:
                self._hide(events)
            over = session.game.position.outcome() is not None
            self._set_again(over)
            if over:
                body.setAttribute("data-end", "dismissed")
            else:
                body.removeAttribute("data-end")
            return
        self._set_again(False)
        body.setAttribute("data-end", "shown")
        if drawn is None or drawn.without_verdict() != view.without_verdict():
            self._write(view, appearing=drawn is None)
        elif (drawn.verdict, drawn.verdict_kind) != (view.verdict, view.verdict_kind):
            verdict = self.el.querySelector("#end-verdict")
            verdict.textContent = view.verdict
            verdict.setAttribute("data-verdict", view.verdict_kind)
        if drawn is None:
            focus = document.activeElement
            self._before = None if missing(focus) else focus
            self.el.focus()

    def _ask_verdict(self, session: Session) -> None:
        """Start working out the verdict if the end screen needs it (and is not waiting for a
        replay) and nothing works on it yet."""
        if not self._replaying and self.ending.needs_verdict(session) and not self._working:
            self._working = True
            self.tasks.spawn(self._verdict_task)

    def _write(self, view: EndView, appearing: bool) -> None:
        """Write the whole end screen; a button that had the focus keeps it."""
        focus = document.activeElement
        keep = None
        if not appearing and not missing(focus) and bool(self.el.contains(focus)):
            keep = focus.getAttribute("data-action") or focus.getAttribute("data-end-command")
        self.el.innerHTML = render_end(view)
        self.el.setAttribute("data-outcome", view.outcome)
        self.el.hidden = False
        if keep is not None and not missing(keep):
            target = self.el.querySelector(
                f'[data-action="{keep}"], [data-end-command="{keep}"]'
            )
            if not missing(target):
                target.focus()
            else:
                self.el.focus()

    def _hide(self, events: tuple[Event, ...]) -> None:
        """Take the end screen off the page; focus inside it goes to the board: the pair an
        Undo took back, else the first available card (New deal when none)."""
        focus = document.activeElement
        inside = not missing(focus) and bool(self.el.contains(focus))
        self.el.hidden = True
        self.el.innerHTML = ""
        if inside and not self._dismissing:
            taken = next((e.move for e in events if isinstance(e, TookBack)), None)
            self.actuator.restore_focus(taken.first if isinstance(taken, Pair) else "", None)

    def _set_again(self, shown: bool) -> None:
        """Show or hide "Show the result" (the game is over and its end screen closed)."""
        button = self.again.querySelector("button")
        word = reopen_words()
        if str(button.textContent) != word:
            button.textContent = word
        if bool(self.again.hidden) == shown:
            self.again.hidden = not shown

    async def _verdict_task(self) -> None:
        """Work out the verdict on the deal in play, then show it."""
        try:
            await self.tasks.sliced(self.ending.verdict_steps(self.session))
        finally:
            self._working = False
        self._ask_verdict(self.session)  # the game moved on to another deal meanwhile
        self.draw(self.session)


def _focusable(element: Any) -> bool:
    """Can ``element`` take the focus back: still on the page, shown, enabled, not <body>?"""
    if missing(element) or not bool(element.isConnected):
        return False
    if str(element.tagName).lower() == "body" or bool(getattr(element, "disabled", False)):
        return False
    return len(list(element.getClientRects())) > 0

"""The end screen on the page: ``[data-end-screen]`` (``#end-screen``), drawn from
:func:`nestor_web.view.end.end_view`.

It only writes the DOM; what it says comes from the view, its state from
:class:`~nestor_web.app.ending.Ending`. When the game in play ends, the end screen appears
in place of the status line, above the board (which stays where it was), and takes the
keyboard focus; its buttons are the page's own commands (Play again is Restart, New deal,
Undo, Copy link) run through :meth:`App.action`. The close button and Escape dismiss it: the
focus goes back where it was before (a card, New deal), or else to "Show the result"
(``#end-again``), which brings it back. A command that ends the game's being over (Undo, Play
again, New deal) hides it, and the focus goes to the board (the pair taken back, or the
first available card).

The verdict on the deal ("could it have been won from the start?") is worked out by the
solver in the page's time slices (:class:`~nestor_web.browser.tasks.Tasks`) once the end
screen is shown; the screen says "Working it out…" meanwhile, and the answer replaces that
text in place (a polite live region).

The page tells it what changed: :meth:`EndScreen.follow` after every command (the end
screen's state follows the game, and the verdict is asked for), then :meth:`EndScreen.draw`,
which only draws, and is told whether a replay is shown (the game's end screen waits for it).
What it needs of the page is :class:`EndPort`.

Hooks: ``body[data-end]`` is ``"shown"`` while the end screen is shown and ``"dismissed"``
while the player has closed it; absent while the game goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Generator
from typing import Any, Protocol, TypeVar

from pyodide.ffi import create_proxy
from pyscript import document

from nestor import Pair

from ..app.ending import Ending
from ..app.events import Event, TookBack
from ..app.session import Session
from ..view.end import EndView, end_view, render_end, reopen_words
from .dom import missing

T = TypeVar("T")


class EndPort(Protocol):
    """What the end screen asks of the page (the composition root)."""

    @property
    def session(self) -> Session:
        """The session of the game in play."""

    def action(self, name: str, value: str | None = None) -> None:
        """Do what a control of the page stands for (the end screen's buttons are those)."""

    def spawn(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run the coroutine ``make()`` returns as a task of the page."""

    async def sliced(self, steps: Generator[None, None, T]) -> T:
        """Run ``steps`` to its end in the page's time slices; its value."""

    def restore_focus(self, card: str = "") -> None:
        """Give the board the focus: ``card`` if it is available, else the first available
        card."""


class EndScreen:
    """The end screen of ``app``'s game.

    Attributes:
        ending: the end screen's state (dismissed, the verdicts worked out).
    """

    def __init__(self, app: EndPort) -> None:
        self.app = app
        self.ending = Ending()
        self._replaying = False  # a replay is shown (the last draw was told so)
        self.el = document.getElementById("end-screen")
        self.again = document.getElementById("end-again")
        self._drawn: EndView | None = None
        self._before: Any = None  # the element focused before the end screen took the focus
        self._working = False  # the verdict is being worked out
        self._dismissing = False  # the player closes it: the focus goes back, not to the board
        self._proxies = [create_proxy(self.on_click), create_proxy(self.on_again)]
        self.el.addEventListener("click", self._proxies[0])
        self.again.addEventListener("click", self._proxies[1])

    @property
    def shown(self) -> bool:
        """Is the end screen on the page now?"""
        return self._drawn is not None

    # ---- input ------------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        """A tap in the end screen: its close button, or one of the page's commands."""
        target = event.target.closest("[data-end-command], [data-action]")
        if missing(target) or target.disabled:
            return
        if target.hasAttribute("data-end-command"):
            self.dismiss()
        else:
            self.app.action(str(target.getAttribute("data-action")))

    def on_again(self, event: Any) -> None:
        """A tap on "Show the result": the end screen comes back."""
        if missing(event.target.closest("button")):
            return
        self.ending.reopen()
        self._ask_verdict(self.app.session)
        self.draw(self.app.session)

    def escape(self) -> bool:
        """Escape was pressed: dismiss the end screen if it is shown. Was it?"""
        if not self.shown:
            return False
        self.dismiss()
        return True

    def dismiss(self) -> None:
        """Close the end screen; the focus goes back where it was before it appeared, or to
        "Show the result"."""
        self.ending.dismiss()
        self._dismissing = True
        try:
            self.draw(self.app.session)
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
            over = ending.outcome(session) is not None
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
            self.app.spawn(self._verdict_task)

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
            self.app.restore_focus(taken.first if isinstance(taken, Pair) else "")

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
            await self.app.sliced(self.ending.verdict_steps(self.app.session))
        finally:
            self._working = False
        self._ask_verdict(self.app.session)  # the game moved on to another deal meanwhile
        self.draw(self.app.session)


def _focusable(element: Any) -> bool:
    """Can ``element`` take the focus back: still on the page, shown, enabled, not <body>?"""
    if missing(element) or not bool(element.isConnected):
        return False
    if str(element.tagName).lower() == "body" or bool(getattr(element, "disabled", False)):
        return False
    return len(list(element.getClientRects())) > 0

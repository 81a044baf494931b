"""The end screen (``#end-screen``, ``body[data-end]`` ``shown`` or ``dismissed``): the focus at the
game's end and the verdict on the deal; and the daily deal's label and Share."""

from __future__ import annotations

from typing import Any

from pyscript import document

from nestor import Pair

from ..app.ending import Ending
from ..app.events import Event, TookBack
from ..app.session import Session
from ..view.daily import daily_label, share_status, share_text
from ..view.end import EndView, end_view, render_end, reopen_words
from .actuator import Actuator
from .dom import Tasks, flag, listen, missing, page_link, set_hidden, set_text, to_clipboard


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
        if self._drawn is None:
            return False
        self.dismiss()
        return True

    def dismiss(self) -> None:
        """Close the end screen; the focus goes back, or to "Show the result"."""
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

    def follow(self, session: Session, replaying: bool) -> None:
        """After a command: follow ``session``'s game and its verdict, unless ``replaying``."""
        self._replaying = replaying
        self.ending.sync(session)
        self._ask_verdict(session)

    def draw(self, session: Session, events: tuple[Event, ...] = ()) -> None:
        """Show, update or hide the end screen after ``events`` (after :meth:`follow`)."""
        ending = self.ending
        view = end_view(session, ending) if ending.shown(session) and not self._replaying else None
        drawn, self._drawn = self._drawn, view
        body = document.body
        if view is None:
            if drawn is not None:
                self._hide(events)
            over = session.game.position.outcome() is not None
            self._set_again(over)
            flag(body, "data-end", "dismissed" if over else None)
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
        """Take the end screen off; a focus inside goes to the board (an Undo's pair)."""
        focus = document.activeElement
        inside = not missing(focus) and bool(self.el.contains(focus))
        self.el.hidden = True
        self.el.innerHTML = ""
        if inside and not self._dismissing:
            taken = next((e.move for e in events if isinstance(e, TookBack)), None)
            self.actuator.restore_focus(taken.first if isinstance(taken, Pair) else "")

    def _set_again(self, shown: bool) -> None:
        """Show or hide "Show the result" (the game is over and its end screen closed)."""
        set_text(self.again.querySelector("button"), reopen_words())
        set_hidden(self.again, not shown)

    async def _verdict_task(self) -> None:
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


class DailyPanel:
    """Draws the daily deal's label and Share control, and copies the share text."""

    def __init__(self) -> None:
        self.el = {
            name: document.getElementById(name)
            for name in ("daily-label", "share", "share-status", "share-box", "share-text")
        }
        self._drawn: object = None

    def draw(self, session: Session) -> None:
        """Show the label while a daily deal is played, and Share once it is over."""
        label = daily_label(session)
        over = session.position.outcome() is not None
        state = (label, over and label is not None, share_text(session))
        if state == self._drawn:
            return
        self._drawn = state
        el = self.el
        el["daily-label"].textContent = label or ""
        set_hidden(el["daily-label"], label is None)
        set_hidden(el["share"], not state[1])
        if not state[1]:
            el["share-status"].textContent = ""
            set_hidden(el["share-box"], True)
        elif not el["share-box"].hidden:
            el["share-text"].value = self._full_text(session)

    def _full_text(self, session: Session) -> str:
        return f"{share_text(session) or ''}\n{page_link(session.query())}"

    async def share(self, session: Session) -> None:
        """Copy the share text, or show it selected to copy by hand where that is refused."""
        text = self._full_text(session)
        copied = await to_clipboard(text)
        el = self.el
        el["share-status"].textContent = share_status(copied)
        document.body.setAttribute("data-shared", "copied" if copied else "shown")
        if not copied:
            el["share-text"].value = text
            set_hidden(el["share-box"], False)
            el["share-text"].focus()
            el["share-text"].select()

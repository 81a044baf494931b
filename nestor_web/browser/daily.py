"""The daily deal on the page: the player's local date, the label beside the deal, Share."""

from __future__ import annotations

from datetime import date
from typing import Any

from pyscript import document, window

from ..app.session import Session
from ..view.daily import daily_label, share_status, share_text
from .dom import page_link, to_clipboard


def local_today() -> date:
    """The player's local calendar date, from the browser's clock and time zone."""
    now = window.Date.new()
    return date(int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))


def _hide(element: Any, hidden: bool) -> None:
    if bool(element.hidden) != hidden:
        element.hidden = hidden


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
        _hide(el["daily-label"], label is None)
        _hide(el["share"], not state[1])
        if not state[1]:
            el["share-status"].textContent = ""
            _hide(el["share-box"], True)
        elif not el["share-box"].hidden:
            el["share-text"].value = self._full_text(session)

    def _full_text(self, session: Session) -> str:
        """The share text and the link to the daily deal."""
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
            _hide(el["share-box"], False)
            el["share-text"].focus()
            el["share-text"].select()

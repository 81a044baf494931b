"""The guided first game's sheet (``#tutorial``, ``[data-tutorial]`` the step) and the ring on
what it points at (``data-tutorial-target``); the sheet goes on top (``data-at``) not to hide it,
with room above the page's content (``--sheet-room``) so that nothing stays under it."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pyscript import document, window

from ..view.board import MARK
from ..view.tutorial import TutorialView
from .dom import flag, listen, missing, set_hidden, set_text

MARGIN_PX = 12  # kept between the sheet and what it points at
ROOM = "--sheet-room"  # the room above the page's content (over its padding) at the top


class TutorialPanel:
    """Draws the guide's :class:`TutorialView` (``None``: no guide) on the page."""

    def __init__(self) -> None:
        self.section = document.getElementById("tutorial")
        self.title = document.getElementById("tutorial-title")
        self.text = document.getElementById("tutorial-text")
        self.next = self.section.querySelector('[data-action="tutorial-next"]')
        self.skip = self.section.querySelector('[data-action="tutorial-skip"]')
        self._shown: TutorialView | None = None
        self._wanted: list[Any] = []  # what the last draw rings
        self._resized = listen(window, "resize", self._turned)

    def _turned(self, _event: Any = None) -> None:
        """The screen turned or was resized: the sheet shown placed again for it."""
        if self._shown is not None and not self.section.hidden:
            self._place(self._wanted)

    def draw(self, view: TutorialView | None) -> None:
        """Show ``view`` (words written only when they change), or hide the guide."""
        if view is None and self._shown is None:
            return  # no guide, and none shown: nothing to draw (the move path stays as it was)
        written = False
        if view != self._shown:
            self._shown = view
            if view is None:
                _keeping_place(lambda: _hide(self.section))
            else:
                written = any([
                    flag(self.section, "data-tutorial", view.step),
                    set_text(self.title, view.title), set_text(self.text, view.text),
                    set_text(self.next, view.next_label),
                    set_hidden(self.next, not view.next_label),
                    set_text(self.skip, view.skip_label),
                    set_hidden(self.skip, not view.skip_label),
                    set_hidden(self.section, False),
                ])
        ringed = self._mark(view)
        # The sheet static/js/wake.js placed, as this draw would, while the page woke up: its
        # step, words and rings unchanged, its place stands (measuring lays the page out).
        waking = bool(document.body.hasAttribute("data-waking"))
        placed = not missing(self.section.getAttribute("data-at"))
        if view is not None and not (waking and placed and not written and not ringed):
            self._place(self._wanted, reveal=written or ringed)

    def _mark(self, view: TutorialView | None) -> bool:
        """Ring what ``view`` points at (after every draw); ``True`` if a ring changed."""
        wanted: list[Any] = []
        if view is not None:
            places = [f'#board [data-card="{card}"]' for card in view.cards]
            if view.control:
                places.append(f'#controls [data-action="{view.control}"]')
            found = [document.querySelector(place) for place in places]
            wanted = [element for element in found if not missing(element)]
        changed = False
        for element in document.querySelectorAll(f"[{MARK}]"):
            if not any(element == other for other in wanted):
                element.removeAttribute(MARK)
                changed = True
        for element in wanted:
            changed = flag(element, MARK, "") or changed
        self._wanted = wanted
        return changed

    def _place(self, targets: list[Any], reveal: bool = True) -> None:
        """The screen's foot or top, whichever hides no target (under the sheet or outside the
        window) and covers the fewest available cards (the foot if it covers none); at the top,
        with room above the page's content as tall as the sheet reaches. Where both
        hide one (large type on a small screen): the foot, with room under the page's content
        (``data-room``, kept while the sheet shows: taking it away would scroll the page under
        the player's finger), the page scrolled to show the targets above the sheet if
        ``reveal`` (a new step or new rings, a turned screen: not a tap on the same step,
        where the player may have scrolled to another ring)."""
        cards = list(document.querySelectorAll("#board [data-available]"))
        height = float(window.innerHeight)
        best: tuple[int, int, int] | None = None
        chosen = "bottom"
        for rank, at in enumerate(("bottom", "top")):
            flag(self.section, "data-at", at)
            sheet = self.section.getBoundingClientRect()
            covered = (
                sum(_hidden(sheet, t.getBoundingClientRect(), height) for t in targets),
                sum(_overlaps(sheet, c.getBoundingClientRect()) for c in cards),
                rank,
            )
            if best is None or covered < best:
                best, chosen = covered, at
            if covered == (0, 0, 0):
                break
        hides = best is not None and best[0] > 0
        at = "bottom" if hides else chosen
        flag(self.section, "data-at", at)
        if at == "top":
            reach = float(self.section.getBoundingClientRect().bottom) + MARGIN_PX
            _keeping_place(lambda: _set_room(_room(reach)))
        elif _keeping_place(lambda: _set_room(None)):
            self._place(targets, reveal)  # the page, scrolled into the room, moved: again
            return
        if hides:
            flag(self.section, "data-room", "")
            if reveal:
                self._show_above(targets)

    def _show_above(self, targets: list[Any]) -> None:
        """The page scrolled to show ``targets`` between the window's top and the sheet at its
        foot (their top part if they do not fit)."""
        sheet = float(self.section.getBoundingClientRect().top)
        boxes = [t.getBoundingClientRect() for t in targets]
        top = min(float(box.top) for box in boxes) - MARGIN_PX
        bottom = max(float(box.bottom) for box in boxes) + MARGIN_PX
        by = min(bottom - sheet, top) if bottom > sheet else min(top, 0.0)
        if by:
            window.scrollBy(0, by)

    def focus_next(self) -> bool:
        """Give the keyboard focus to Next, if the guide shows it; ``True`` if it did."""
        if self.section.hidden or self.next.hidden:
            return False
        self.next.focus()
        return True


def _hide(section: Any) -> None:
    """The guide's sheet hidden, and the room above the page's content taken away."""
    section.hidden = True
    section.setAttribute("data-tutorial", "")
    _set_room(None)


def _room(reach: float) -> str:
    """The room above the page's content for a sheet reaching ``reach`` px down the window: whole
    pixels over the page's padding (``--pad``), so the page scrolls by exactly what it moves."""
    pad = str(window.getComputedStyle(document.body).getPropertyValue("--pad")).strip()
    try:
        over = reach - float(pad.removesuffix("px"))
    except ValueError:
        over = reach
    return f"{max(0, math.ceil(over))}px"


def _set_room(room: str | None) -> None:
    """Room above the page's content for a sheet at the top (``None``: none), so that the
    header's controls can be scrolled out from under it."""
    style = document.body.style
    if room is None:
        style.removeProperty(ROOM)
    elif str(style.getPropertyValue(ROOM)) != room:
        style.setProperty(ROOM, room)


def _keeping_place(change: Callable[[], None]) -> bool:
    """Run ``change``, which may add or take away the room above the page's content, with the
    page scrolled by what it moved: nothing moves on the screen as far as the page scrolls
    (not when the room goes while the page is scrolled into it); ``True`` if it moved."""
    header = document.querySelector("header")
    before = float(header.getBoundingClientRect().top)
    change()
    moved = float(header.getBoundingClientRect().top) - before
    if moved:
        window.scrollBy(0, moved)
    return abs(float(header.getBoundingClientRect().top) - before) >= 1


def _hidden(sheet: Any, box: Any, height: float) -> bool:
    """Is ``box`` under ``sheet`` or outside a window ``height`` px high?"""
    return _overlaps(sheet, box) or float(box.top) < 0 or float(box.bottom) > height


def _overlaps(a: Any, b: Any) -> bool:
    return bool(
        float(a.left) + MARGIN_PX < float(b.right) and float(b.left) + MARGIN_PX < float(a.right)
        and float(a.top) + MARGIN_PX < float(b.bottom)
        and float(b.top) + MARGIN_PX < float(a.bottom)
    )

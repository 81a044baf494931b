"""The guided first game's sheet (``#tutorial``, ``[data-tutorial]`` the step) and the ring on
what it points at (``data-tutorial-target``); the sheet goes on top (``data-at``) not to hide it."""

from __future__ import annotations

from typing import Any

from pyscript import document

from ..view.board import MARK
from ..view.tutorial import TutorialView
from .dom import missing

MARGIN_PX = 12  # kept between the sheet and what it points at


class TutorialPanel:
    """Draws the guide's :class:`TutorialView` (``None``: no guide) on the page."""

    def __init__(self) -> None:
        self.section = document.getElementById("tutorial")
        self.title = document.getElementById("tutorial-title")
        self.text = document.getElementById("tutorial-text")
        self.next = self.section.querySelector('[data-action="tutorial-next"]')
        self.skip = self.section.querySelector('[data-action="tutorial-skip"]')
        self._shown: TutorialView | None = None

    def draw(self, view: TutorialView | None) -> None:
        """Show ``view`` (words written only when they change), or hide the guide."""
        if view is None and self._shown is None:
            return  # no guide, and none shown: nothing to draw (the move path stays as it was)
        if view != self._shown:
            self._shown = view
            if view is None:
                self.section.hidden = True
                self.section.setAttribute("data-tutorial", "")
            else:
                self.section.setAttribute("data-tutorial", view.step)
                self.title.textContent = view.title
                self.text.textContent = view.text
                self.next.textContent = view.next_label
                self.next.hidden = not view.next_label
                self.skip.textContent = view.skip_label
                self.skip.hidden = not view.skip_label
                self.section.hidden = False
        self._mark(view)

    def _mark(self, view: TutorialView | None) -> None:
        """Ring what ``view`` points at (after every draw) and place the sheet clear of it."""
        wanted: list[Any] = []
        if view is not None:
            places = [f'#board [data-card="{card}"]' for card in view.cards]
            if view.control:
                places.append(f'#controls [data-action="{view.control}"]')
            found = [document.querySelector(place) for place in places]
            wanted = [element for element in found if not missing(element)]
        for element in document.querySelectorAll(f"[{MARK}]"):
            element.removeAttribute(MARK)
        for element in wanted:
            element.setAttribute(MARK, "")
        if view is not None:
            self._place(wanted)

    def _place(self, targets: list[Any]) -> None:
        """The screen's foot or top, whichever covers no target and fewest available cards."""
        cards = list(document.querySelectorAll("#board [data-available]"))
        best: tuple[int, int, int] | None = None
        chosen = "bottom"
        for rank, at in enumerate(("bottom", "top")):
            self.section.setAttribute("data-at", at)
            sheet = self.section.getBoundingClientRect()
            covered = (
                sum(_overlaps(sheet, t.getBoundingClientRect()) for t in targets),
                sum(_overlaps(sheet, c.getBoundingClientRect()) for c in cards),
                rank,
            )
            if best is None or covered < best:
                best, chosen = covered, at
        self.section.setAttribute("data-at", chosen)

    def focus_next(self) -> bool:
        """Give the keyboard focus to Next, if the guide shows it; ``True`` if it did."""
        if self.section.hidden or self.next.hidden:
            return False
        self.next.focus()
        return True


def _overlaps(a: Any, b: Any) -> bool:
    return bool(
        float(a.left) + MARGIN_PX < float(b.right) and float(b.left) + MARGIN_PX < float(a.right)
        and float(a.top) + MARGIN_PX < float(b.bottom)
        and float(b.top) + MARGIN_PX < float(a.bottom)
    )

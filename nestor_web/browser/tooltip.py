"""The icon controls' tooltips: each one's name beside it while it is hovered or has the
keyboard focus (issue 22: a desktop player saw a row of bare icons, named only for screen
readers by their visually hidden word).

One element, ``#tooltip`` (``role="tooltip"``), is moved beside the control and shows the
control's own word (``.word``, the text its accessible name comes from, already in the page's
language), so nothing here writes a word. A control whose word is shown anyway (the icons in
the phone's More menu) gets none. It hides when the pointer leaves, the focus moves on, on
Escape and on scrolling; the pointer never lands on it.
"""

from __future__ import annotations

from typing import Any

from pyodide.ffi import create_proxy
from pyscript import document, window

from .dom import missing

ICONS = "button.icon"
"""The icon controls: the panels' buttons, More, Copy link, Review, Install."""

GAP_PX = 6
"""Between a control and its tooltip."""


class Tooltips:
    """Shows ``#tooltip`` beside the icon control under the pointer or with the keyboard
    focus."""

    def __init__(self) -> None:
        self.tip = document.getElementById("tooltip")
        self._for: Any = None  # the control whose name it shows
        self._proxies: list[Any] = []
        for target, kind, handler in (
            (document, "pointerover", self.on_over),
            (document, "pointerout", self.on_out),
            (document, "focusin", self.on_focus),
            (document, "focusout", self.on_out),
            (document, "keydown", self.on_key),
            (window, "scroll", self.on_out),
        ):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            target.addEventListener(kind, proxy, True)

    def on_over(self, event: Any) -> None:
        """The pointer came over an element: a tooltip if it is (in) an icon control."""
        control = _control(event.target)
        if control is not None:
            self.show(control)

    def on_focus(self, event: Any) -> None:
        """The focus moved: a tooltip if it is on an icon control by the keyboard."""
        control = _control(event.target)
        if control is not None and bool(control.matches(":focus-visible")):
            self.show(control)
        else:
            self.hide()

    def on_out(self, _event: Any = None) -> None:
        """The pointer or the focus left, or the page scrolled."""
        self.hide()

    def on_key(self, event: Any) -> None:
        """Escape hides the tooltip (and goes on to whatever else it does)."""
        if str(event.key) == "Escape":
            self.hide()

    def show(self, control: Any) -> None:
        """Show ``control``'s word beside it: below it, or above it near the screen's foot;
        never past the screen's sides. Nothing if its word is shown already."""
        word = control.querySelector(".word")
        if missing(word) or float(word.getBoundingClientRect().width) > 2:
            self.hide()
            return
        tip = self.tip
        tip.textContent = str(word.textContent)
        tip.hidden = False
        box = control.getBoundingClientRect()
        own = tip.getBoundingClientRect()
        width, height = float(window.innerWidth), float(window.innerHeight)
        left = float(box.left) + float(box.width) / 2 - float(own.width) / 2
        left = max(GAP_PX, min(left, width - float(own.width) - GAP_PX))
        top = float(box.bottom) + GAP_PX
        if top + float(own.height) > height - GAP_PX:
            top = float(box.top) - GAP_PX - float(own.height)
        tip.style.left = f"{left:.0f}px"
        tip.style.top = f"{top:.0f}px"
        self._for = control

    def hide(self) -> None:
        """Take the tooltip away."""
        if self._for is not None or not bool(self.tip.hidden):
            self.tip.hidden = True
            self._for = None


def _control(target: Any) -> Any:
    """The icon control ``target`` is, or is inside; ``None`` if none."""
    if missing(target) or not hasattr(target, "closest"):
        return None
    control = target.closest(ICONS)
    return None if missing(control) else control

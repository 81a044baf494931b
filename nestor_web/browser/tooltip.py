"""The icon controls' tooltips: ``#tooltip`` shows a control's own word (``.word``) beside it
while hovered or focused by the keyboard; it hides on leaving, Escape and scrolling."""

from __future__ import annotations

from typing import Any

from pyodide.ffi import create_proxy
from pyscript import document, window

from .dom import listen, missing

ICONS = "button.icon"
"""The icon controls: the panels' buttons, More, Copy link, Review, Install."""

GAP_PX = 6
"""Between a control and its tooltip."""


class Tooltips:
    """Shows ``#tooltip`` beside the icon control hovered or focused by the keyboard (only
    the icon controls listen, and the page's scrolling while a tooltip is shown)."""

    def __init__(self) -> None:
        self.tip = document.getElementById("tooltip")
        self._for: Any = None  # the control whose name it shows
        self._hide = create_proxy(self.on_out)
        self._scrolled = create_proxy(self.on_scroll)
        self._proxies: list[Any] = [self._hide, self._scrolled]
        for control in document.querySelectorAll(ICONS):
            for kind, handler in (
                ("pointerenter", self.on_over), ("focus", self.on_focus),
                ("pointerleave", None), ("blur", None), ("keydown", self.on_key),
            ):
                if handler is None:
                    control.addEventListener(kind, self._hide)
                else:
                    self._proxies.append(listen(control, kind, handler))

    def on_over(self, event: Any) -> None:
        """The pointer came over an icon control."""
        self.show(event.currentTarget)

    def on_focus(self, event: Any) -> None:
        """An icon control took the focus: its tooltip if the keyboard moved it there."""
        control = event.currentTarget
        if bool(control.matches(":focus-visible")):
            self.show(control)

    def on_out(self, _event: Any = None) -> None:
        """The pointer or the focus left."""
        self.hide()

    def on_scroll(self, _event: Any = None) -> None:
        """The page scrolled: the tooltip follows a control the keyboard holds, else goes."""
        control = self._for
        if control is not None and bool(control.matches(":focus-visible")):
            self.show(control)
        else:
            self.hide()

    def on_key(self, event: Any) -> None:
        """Escape on the control hides its tooltip (and goes on to whatever else it does)."""
        if str(event.key) == "Escape":
            self.hide()

    def show(self, control: Any) -> None:
        """Show ``control``'s word below it (above near the screen's foot), on the screen."""
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
        if self._for is None:
            window.addEventListener("scroll", self._scrolled, True)
        self._for = control

    def hide(self) -> None:
        """Take the tooltip away."""
        if self._for is not None:
            window.removeEventListener("scroll", self._scrolled, True)
            self._for = None
        self.tip.hidden = True


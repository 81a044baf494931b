"""Dragging a card onto a partner (``data-partners``): it follows the pointer (``data-dragging``),
else slides back. A press moving under :data:`SLOP_PX` is a tap; the click after it is swallowed."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from pyodide.ffi import JsException, create_once_callable
from pyscript import document

from .animation import Motion
from .dom import animate, flag, listen, missing

SLOP_PX = {"mouse": 5.0, "pen": 8.0, "touch": 10.0}  # a tap's most movement, by pointerType
OVERLAP = 0.25  # off every partner, a card lands on one it covers by this share of its area
SNAP_BACK_MS = 180  # a card dropped off any partner slides back (at the normal speed)


class _Press:
    """A pointer pressed on an available card, until it is lifted."""

    def __init__(self, event: Any, element: Any) -> None:
        self.pointer = int(event.pointerId)
        self.kind = str(event.pointerType) or "mouse"
        self.element = element
        self.card = str(element.getAttribute("data-card"))
        self.partners = str(element.getAttribute("data-partners") or "").split()
        self.x0 = float(event.clientX)
        self.y0 = float(event.clientY)
        self.dx = 0.0
        self.dy = 0.0
        self.dragging = False
        self.target: str | None = None


class Drag:
    """Pointer events on ``board``: a press that did not move is ``tap(card)``, a drop
    ``drop(card, onto)`` (did a move happen?); a card slides back at ``motion``'s speed."""

    def __init__(
        self, board: Any, tap: Callable[[str], None], drop: Callable[[str, str], bool],
        motion: Motion,
    ) -> None:
        self.board = board
        self.tap = tap
        self.drop = drop
        self.motion = motion
        self._press: _Press | None = None
        self._swallow = False  # the click that follows a drag is not a tap
        self._proxies = [listen(board, kind, handler) for kind, handler in (
            ("pointerdown", self.on_down), ("pointermove", self.on_move),
            ("pointerup", self.on_up), ("pointercancel", self.on_cancel),
            ("lostpointercapture", self.on_lost), ("contextmenu", self.on_context_menu),
        )]
        self._proxies.append(listen(board, "click", self.on_click, capture=True))

    def on_down(self, event: Any) -> None:
        """A press: remember it if it is the primary button on an available card."""
        self._swallow = False
        if self._press is not None or not event.isPrimary or int(event.button) != 0:
            return
        element = event.target.closest("[data-card][data-available]")
        if missing(element):
            return
        self._press = _Press(event, element)

    def on_move(self, event: Any) -> None:
        """The pointer moved: past the slop, the card is dragged and follows it."""
        press = self._press
        if press is None or int(event.pointerId) != press.pointer:
            return
        press.dx = float(event.clientX) - press.x0
        press.dy = float(event.clientY) - press.y0
        if not press.dragging:
            if (press.dx ** 2 + press.dy ** 2) ** 0.5 < SLOP_PX.get(press.kind, 8.0):
                return
            self._start(press, event)
        press.element.style.transform = f"translate({press.dx}px, {press.dy}px)"
        self._aim(press, self._target(press, event))
        event.preventDefault()

    def on_up(self, event: Any) -> None:
        """The pointer was lifted: a drag drops its card, a press that did not move taps it."""
        press = self._press
        if press is None or int(event.pointerId) != press.pointer:
            return
        self._press = None
        self._swallow = True
        if not press.dragging:
            self.tap(press.card)
            return
        target = self._target(press, event)
        self._end(press)
        if target is not None and self.drop(press.card, target):
            if press.element.isConnected:  # the pair went: its element normally with it
                self._rest(press.element)
            return
        self._snap_back(press)

    def on_cancel(self, event: Any) -> None:
        """The browser took the pointer (a scroll, a lost capture): the card slides back."""
        press = self._press
        if press is None or int(event.pointerId) != press.pointer:
            return
        self._press = None
        if press.dragging:
            self._end(press)
            self._snap_back(press)

    def on_lost(self, event: Any) -> None:
        """The dragged card lost the pointer capture: as a cancel (not another element's)."""
        press = self._press
        if press is not None and press.dragging and event.target == press.element:
            self.on_cancel(event)

    def on_context_menu(self, event: Any) -> None:
        """A long press on an available card is a tap, not a context menu."""
        if not missing(event.target.closest("[data-card][data-available]")):
            event.preventDefault()

    def on_click(self, event: Any) -> None:
        """Swallow the click that ends a press, played already (keyboard clicks pass)."""
        if self._swallow and int(event.detail) != 0:
            event.stopPropagation()
            event.preventDefault()
        self._swallow = False

    def _start(self, press: _Press, event: Any) -> None:
        press.dragging = True
        element = press.element
        with suppress(JsException):  # a synthetic pointer (a test's) has nothing to capture
            element.setPointerCapture(press.pointer)
        element.setAttribute("data-dragging", "")
        self.board.setAttribute("data-drag", "")
        for code in press.partners:
            partner = self._card(code)
            if partner is not None:
                partner.setAttribute("data-drop-target", "")

    def _end(self, press: _Press) -> None:
        """Stop following the pointer: the drag's marks come off (not yet the transform)."""
        element = press.element
        element.removeAttribute("data-dragging")
        self.board.removeAttribute("data-drag")
        for marked in self.board.querySelectorAll("[data-drop-target], [data-drop]"):
            marked.removeAttribute("data-drop-target")
            marked.removeAttribute("data-drop")
        with suppress(JsException):  # the element may have left the page
            if element.hasPointerCapture(press.pointer):
                element.releasePointerCapture(press.pointer)

    def _aim(self, press: _Press, target: str | None) -> None:
        """Mark ``target``, the partner the card would drop on now (``data-drop``)."""
        if target == press.target:
            return
        for code in (press.target, target):
            element = self._card(code) if code is not None else None
            if element is not None:
                flag(element, "data-drop", "" if code == target else None)
        press.target = target

    def _target(self, press: _Press, event: Any) -> str | None:
        """The partner under the pointer, else the one covered most (≥ :data:`OVERLAP`), or None."""
        if not press.partners:
            return None
        for element in document.elementsFromPoint(event.clientX, event.clientY):
            code = element.getAttribute("data-card") if element.hasAttribute("data-card") \
                else None
            if code is not None and str(code) in press.partners:
                return str(code)
        box = press.element.getBoundingClientRect()
        area = float(box.width) * float(box.height)
        best, most = None, OVERLAP * area
        for code in press.partners:
            partner = self._card(code)
            if partner is None:
                continue
            other = partner.getBoundingClientRect()
            width = min(box.right, other.right) - max(box.left, other.left)
            height = min(box.bottom, other.bottom) - max(box.top, other.top)
            if width > 0 and height > 0 and width * height >= most:
                best, most = code, width * height
        return best

    def _snap_back(self, press: _Press) -> None:
        """Slide the card back to its place, as fast as the animations are set."""
        element = press.element
        scale = self.motion.scale
        if not element.isConnected or scale <= 0:
            self._rest(element)
            return
        moved = f"translate({press.dx}px, {press.dy}px)"
        element.style.transform = ""
        element.setAttribute("data-snapping", "")
        animation = animate(
            element, [{"transform": moved}, {"transform": "translate(0px, 0px)"}],
            {"duration": SNAP_BACK_MS * scale, "easing": "ease-out"},
        )
        animation.onfinish = create_once_callable(
            lambda _event: element.removeAttribute("data-snapping")
        )

    @staticmethod
    def _rest(element: Any) -> None:
        element.style.transform = ""
        element.removeAttribute("data-snapping")

    def _card(self, code: str) -> Any:
        element = self.board.querySelector(f'[data-card="{code}"]')
        return None if missing(element) else element

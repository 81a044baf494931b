"""The input manager: page events and keys become commands; it knows no rules. Also the
"More" menu, the variant picker and the icon controls' tooltips."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_proxy
from pyscript import document, window

from ..app.keymap import BACK_KEYS, NAVIGATION, command_for
from ..app.session import Session
from .actuator import Actuator
from .controller import Controller
from .dom import listen, missing
from .drag import Drag


class Input:
    """Binds the page's events: taps and drops to ``session`` commands run by ``controller``,
    controls to ``action``, settings controls to ``setting``, Back and Forward to ``moved``."""

    def __init__(
        self, session: Session, controller: Controller, actuator: Actuator,
        action: Callable[[str], None], setting: Callable[[str, object], None],
        moved: Callable[[], None],
    ) -> None:
        self.session = session
        self.controller = controller
        self.actuator = actuator
        self.action = action
        self.setting = setting
        self.menu = Menu()
        controls = (  # with the rules' "Show me on the board", the guide's Next and Skip
            "controls", "counters", "notice", "keys-dialog", "stats-dialog", "share",
            "rules-dialog", "tutorial", "end-screen",
        )
        self._proxies = [
            listen(document.getElementById("board"), "click", self.on_board_click),
            listen(document.getElementById("settings"), "change", self.on_setting_change),
            *(listen(document.getElementById(n), "click", self.on_control_click) for n in controls),
            listen(window, "popstate", lambda _event: moved()),
            listen(document, "keydown", self.on_key),
            # The advice's words follow the way the player points (before the press's click).
            listen(document, "pointerdown", lambda e: self.pointer_used(str(e.pointerType))),
        ]
        self.drag = Drag(document.getElementById("board"), self.tap, self.drop, actuator.motion)

    def tap(self, card: str) -> None:
        """A tap on a card."""
        self.controller.run(lambda: self.session.tap(card))

    def drop(self, card: str, onto: str) -> bool:
        """A card dragged onto another: paired if they pair. Did a move happen?"""
        return bool(self.controller.run(lambda: self.session.pair(card, onto)))

    def pointer_used(self, kind: str) -> None:
        """The player pressed with ``kind`` (a ``pointerType``, or ``"keyboard"``)."""
        self.session.pointer = {"pen": "mouse", "": "mouse"}.get(kind, kind)

    def on_board_click(self, event: Any) -> None:
        """A tap on the play area: a card, or the stock pile."""
        target = event.target.closest("[data-card], [data-action]")
        if missing(target):
            return
        # Every tap counts, however soon it follows the last one (``event.detail`` > 1): a
        # second tap on the same spot is meant for the card that moved up into it. Double-tap
        # zoom is turned off in CSS (touch-action), not by dropping clicks.
        if target.hasAttribute("data-action"):
            self.on_control_click(event)
            return
        self.tap(str(target.getAttribute("data-card")))

    def on_control_click(self, event: Any) -> None:
        """A tap on a control button (``data-action``), in the page or a dialog."""
        target = event.target.closest("[data-action]")
        if missing(target) or target.disabled:
            return
        self.action(str(target.getAttribute("data-action")))

    def on_setting_change(self, event: Any) -> None:
        """A settings control changed (``data-setting`` names the setting)."""
        control = event.target
        name = control.getAttribute("data-setting")
        if missing(name):
            return
        value = bool(control.checked) if control.type == "checkbox" else str(control.value)
        self.setting(str(name), value)

    def on_key(self, event: Any) -> None:
        """Keyboard play: arrows move between available cards; single keys for controls."""
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        target = event.target
        tag = str(target.tagName).lower() if not missing(target.tagName) else ""
        if tag in ("input", "select", "textarea"):
            return
        key = str(event.key)
        if key == "Escape" and self.menu.close():  # an open menu takes Escape
            event.preventDefault()
            return
        if self.actuator.dialog_open() or self.actuator.address_held:
            # A dialog or a mode handles its own keys; the key that opened the keys list
            # closes it again, as the list says.
            if command_for(key) == "keys" and self.actuator.dialog_open("keys"):
                self.action("keys")
                event.preventDefault()
            return
        if key in NAVIGATION or (key in ("Enter", " ") and tag == "button"):
            self.pointer_used("keyboard")
        if key in NAVIGATION:
            self.actuator.move_focus(-1 if key in BACK_KEYS else 1)
            event.preventDefault()
        elif key == "Escape":
            self.action("deselect")
        else:
            command = command_for(key)
            if command is None:
                return
            button = document.querySelector(f'#controls [data-action="{command}"]')
            if not missing(button) and not button.disabled and not button.hidden:
                self.action(command)
                event.preventDefault()


class Menu:
    """The disclosure of ``#more-menu`` by its ``[data-menu]`` button."""

    def __init__(self) -> None:
        self.panel = document.getElementById("more-menu")
        self.toggle = document.querySelector("[data-menu]")
        self._proxies = [
            listen(self.toggle, "click", self.on_toggle),
            listen(self.panel, "click", self.on_panel_click),
            listen(document, "click", self.on_document_click),
        ]

    def is_open(self) -> bool:
        """Is the menu shown?"""
        return bool(self.panel.hasAttribute("data-open"))

    def open(self) -> None:
        """Show the menu and put the focus on its first shown button."""
        self.panel.setAttribute("data-open", "")
        self.toggle.setAttribute("aria-expanded", "true")
        for button in self.panel.querySelectorAll("button"):
            if not button.disabled and button.getClientRects().length:
                button.focus()
                break

    def close(self, return_focus: bool = True) -> bool:
        """Hide the menu; with ``return_focus`` the focus goes back to its button. Was it open?"""
        if not self.is_open():
            return False
        self.panel.removeAttribute("data-open")
        self.toggle.setAttribute("aria-expanded", "false")
        if return_focus:
            self.toggle.focus()
        return True

    def on_toggle(self, _event: Any) -> None:
        """A tap on "More": close the menu, or open it if it was closed."""
        if not self.close():
            self.open()

    def on_panel_click(self, event: Any) -> None:
        """A tap on a button of the menu closes it, before its action runs."""
        if not missing(event.target.closest("button")):
            self.close()

    def on_document_click(self, event: Any) -> None:
        """A tap outside the menu and its button closes it (the focus stays where it went)."""
        target = event.target
        if self.panel.contains(target) or self.toggle.contains(target):
            return
        self.close(return_focus=False)


BROWSE_KEYS = frozenset(  # move a closed picker's choice without committing it (and letters)
    {"ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"}
)


class VariantPicker:
    """Binds the ``#variant`` select: ``change`` deals only when the choice is committed."""

    def __init__(self, deal: Callable[[str], None]) -> None:
        self.deal = deal
        self.element = document.getElementById("variant")
        self._browsing = False  # a key that moves the choice is down
        self._pending = False  # the picker shows a choice not committed yet
        self._proxies = [listen(self.element, kind, handler) for kind, handler in (
            ("keydown", self.on_key), ("keyup", self.on_key_up), ("change", self.on_change),
            ("blur", self.on_blur),
        )]

    def playing(self) -> str:
        """The variant in play (the page's ``<body data-variant>``)."""
        return str(document.body.getAttribute("data-variant") or "")

    def on_key(self, event: Any) -> None:
        """Enter commits the choice shown, Escape takes it back; others only browse."""
        key = str(event.key)
        if key == "Enter":
            if self._pending:
                event.preventDefault()
                self.commit()
        elif key == "Escape":
            if self._pending:
                event.preventDefault()
                event.stopPropagation()
                self._pending = False
                self.element.value = self.playing()
        elif key in BROWSE_KEYS or (len(key) == 1 and not (event.ctrlKey or event.metaKey)):
            self._browsing = True

    def on_key_up(self, _event: Any) -> None:
        """The browsing key is up: a ``change`` from now on is a choice from the list."""
        self._browsing = False

    def on_change(self, _event: Any) -> None:
        """The choice changed: deal, unless a browsing key changed it."""
        if self._browsing:
            self._pending = str(self.element.value) != self.playing()
            return
        self._pending = True
        self.commit()

    def on_blur(self, _event: Any) -> None:
        """Leaving the picker commits the choice it shows."""
        self._browsing = False
        if self._pending:
            self.commit()

    def commit(self) -> None:
        """Deal a game of the variant shown, if it is not the one in play."""
        self._pending = False
        value = str(self.element.value)
        if value and value != self.playing():
            self.deal(value)


ICONS = "button.icon"  # the panels' buttons, More, Copy link, Review, Install
GAP_PX = 6  # between a control and its tooltip


class Tooltips:
    """Shows ``#tooltip`` by the icon control hovered or keyboard-focused, following scrolls."""

    def __init__(self) -> None:
        self.tip = document.getElementById("tooltip")
        self._for: Any = None  # the control whose name it shows
        self._scrolled = create_proxy(self.on_scroll)
        self._proxies: list[Any] = [self._scrolled]
        for control in document.querySelectorAll(ICONS):
            for kind, handler in (
                ("pointerenter", self.on_over), ("focus", self.on_focus),
                ("pointerleave", self.hide), ("blur", self.hide), ("keydown", self.on_key),
            ):
                self._proxies.append(listen(control, kind, handler))

    def on_over(self, event: Any) -> None:
        """The pointer came over an icon control."""
        self.show(event.currentTarget)

    def on_focus(self, event: Any) -> None:
        """An icon control took the focus: its tooltip if the keyboard moved it there."""
        control = event.currentTarget
        if bool(control.matches(":focus-visible")):
            self.show(control)

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

    def hide(self, _event: Any = None) -> None:
        """Take the tooltip away (the pointer or the focus left)."""
        if self._for is not None:
            window.removeEventListener("scroll", self._scrolled, True)
            self._for = None
        self.tip.hidden = True


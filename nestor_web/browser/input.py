"""The input manager: page events and keys become commands; it knows no rules.

Listeners are delegated to containers that never change, so redrawn cards need no new
listeners; the proxies live as long as the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyscript import document, window

from ..app.keymap import BACK_KEYS, NAVIGATION, command_for
from ..app.session import Session
from .actuator import Actuator
from .controller import Controller
from .dom import listen, missing
from .drag import Drag
from .menu import Menu


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
        by_id = (
            ("board", "click", self.on_board_click),
            ("controls", "click", self.on_control_click),
            ("counters", "click", self.on_control_click),
            ("notice", "click", self.on_control_click),
            ("settings", "change", self.on_setting_change),
            ("keys-dialog", "click", self.on_control_click),
            ("stats-dialog", "click", self.on_control_click),
            ("share", "click", self.on_control_click),
            ("rules-dialog", "click", self.on_control_click),  # "Show me on the board"
            ("tutorial", "click", self.on_control_click),  # the guide's Next and Skip
            ("end-screen", "click", self.on_control_click),
        )
        self._proxies = [listen(document.getElementById(n), k, h) for n, k, h in by_id]
        self._proxies += [
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
        """The player pressed with ``kind`` (a ``pointerType``, or ``"keyboard"``): the status
        line's advice says so from the next draw on."""
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
        if key == "Escape" and self.menu.on_escape():
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

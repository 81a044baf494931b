"""The input manager: page events and keys become commands; it knows no rules.

Listeners are delegated to containers that never change, so redrawn cards need no new
listeners; the proxies live as long as the page.
"""

from __future__ import annotations

from typing import Any, Protocol

from pyodide.ffi import create_proxy
from pyscript import document, window

from ..app.keymap import BACK_KEYS, NAVIGATION, command_for
from .dom import missing
from .drag import Drag, DragCommands
from .menu import Menu


class Commands(DragCommands, Protocol):
    """What the input manager asks of the composition root (dragging's commands too)."""

    def tap(self, card: str) -> None:
        """A tap on an available card."""

    def action(self, name: str, value: str | None = None) -> None:
        """A control's ``data-action`` (``value``: the variant picker's choice)."""

    def setting(self, name: str, value: object) -> None:
        """A settings control changed."""

    def pointer_used(self, kind: str) -> None:
        """A press with ``kind`` (``"mouse"``, ``"pen"``, ``"touch"`` or ``"keyboard"``)."""

    def key_focus(self, step: int) -> None:
        """Arrow keys: move the focus between available cards."""

    def address_changed(self) -> None:
        """Back or Forward: the address shows another deal."""

    def dialog_open(self, name: str | None = None) -> bool:
        """Is a dialog open (it handles its own keys)? With ``name``: that dialog."""


class Input:
    """Binds the page's events to ``commands``."""

    def __init__(self, commands: Commands) -> None:
        self.commands = commands
        self._proxies: list[Any] = []
        self.menu = Menu()
        for name, kind, handler in (
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
        ):
            self._listen(document.getElementById(name), kind, handler)
        self._listen(window, "popstate", lambda _event: commands.address_changed())
        self._listen(document, "keydown", self.on_key)
        # The words of the advice follow the way the player points (before the press's click).
        self._listen(document, "pointerdown", lambda e: commands.pointer_used(str(e.pointerType)))
        self.drag = Drag(document.getElementById("board"), commands)

    def _listen(self, target: Any, kind: str, handler: Any) -> None:
        proxy = create_proxy(handler)
        self._proxies.append(proxy)
        target.addEventListener(kind, proxy)

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
        self.commands.tap(str(target.getAttribute("data-card")))

    def on_control_click(self, event: Any) -> None:
        """A tap on a control button (``data-action``), in the page or a dialog."""
        target = event.target.closest("[data-action]")
        if missing(target) or target.disabled:
            return
        self.commands.action(str(target.getAttribute("data-action")))

    def on_setting_change(self, event: Any) -> None:
        """A settings control changed (``data-setting`` names the setting)."""
        control = event.target
        name = control.getAttribute("data-setting")
        if missing(name):
            return
        value = bool(control.checked) if control.type == "checkbox" else str(control.value)
        self.commands.setting(str(name), value)

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
        if self.commands.dialog_open():
            # The dialog handles its own keys (Esc closes it); the key that opened the keys
            # list closes it again, as the list says.
            if command_for(key) == "keys" and self.commands.dialog_open("keys"):
                self.commands.action("keys")
                event.preventDefault()
            return
        if key in NAVIGATION or (key in ("Enter", " ") and tag == "button"):
            self.commands.pointer_used("keyboard")
        if key in NAVIGATION:
            self.commands.key_focus(-1 if key in BACK_KEYS else 1)
            event.preventDefault()
        elif key == "Escape":
            self.commands.action("deselect")
        else:
            command = command_for(key)
            if command is None:
                return
            button = document.querySelector(f'#controls [data-action="{command}"]')
            if not missing(button) and not button.disabled and not button.hidden:
                self.commands.action(command)
                event.preventDefault()

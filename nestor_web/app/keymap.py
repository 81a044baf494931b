"""The one keymap: which key stands for which command (the view words them, input reads them)."""

from __future__ import annotations

KEYMAP: dict[str, str] = {
    "u": "undo",
    "r": "redo",
    "n": "new",
    "s": "restart",
    "h": "hint",
    "t": "turn",
    "?": "keys",
}
"""Single keys (lower case) for the controls, by key: the ``data-action`` they press."""

NAVIGATION = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown")
"""Keys that move the focus between the available cards (left/up: back, right/down: on)."""

BACK_KEYS = ("ArrowLeft", "ArrowUp")
"""The navigation keys that move the focus back."""


def command_for(key: str) -> str | None:
    """The command of a key press (``event.key``), or ``None``. Letters ignore case."""
    return KEYMAP.get(key.lower() if len(key) == 1 else key)

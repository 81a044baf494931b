"""The one keymap: which key stands for which command (the view words them, input reads them)."""

from __future__ import annotations

KEYMAP: dict[str, str] = {  # single keys (lower case): the data-action of the control they press
    "u": "undo",
    "r": "redo",
    "n": "new",
    "s": "restart",
    "h": "hint",
    "t": "turn",
    "?": "keys",
}

NAVIGATION = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown")  # the focus between cards
BACK_KEYS = ("ArrowLeft", "ArrowUp")  # those that move it back


def command_for(key: str) -> str | None:
    """The command of a key press (``event.key``), or ``None``. Letters ignore case."""
    return KEYMAP.get(key.lower() if len(key) == 1 else key)

"""The variant picker (``#variant``): a new deal only for a committed choice.

A closed ``<select>`` changes at every arrow key; such a change only moves the picker. Enter,
or leaving the picker, commits it; Escape takes it back; a choice from the opened list deals
at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyscript import document

from .dom import listen

BROWSE_KEYS = frozenset(
    {"ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"}
)
"""Keys that move a closed picker's choice without committing it (and any one letter)."""


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

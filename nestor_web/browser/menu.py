"""The "More" menu: ``[data-menu]`` shows or hides ``#more-menu`` (``data-open``). A tap on
one of its buttons, Escape (focus back to "More") or a tap outside closes it.
"""

from __future__ import annotations

from typing import Any

from pyscript import document

from .dom import listen, missing

MENU = "more-menu"
TOGGLE = "[data-menu]"


class Menu:
    """The disclosure of ``#more-menu`` by its ``[data-menu]`` button."""

    def __init__(self) -> None:
        self.panel = document.getElementById(MENU)
        self.toggle = document.querySelector(TOGGLE)
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

    def close(self, return_focus: bool = True) -> None:
        """Hide the menu; with ``return_focus`` the focus goes back to its button."""
        if not self.is_open():
            return
        self.panel.removeAttribute("data-open")
        self.toggle.setAttribute("aria-expanded", "false")
        if return_focus:
            self.toggle.focus()

    def on_toggle(self, _event: Any) -> None:
        """A tap on "More": open or close the menu."""
        if self.is_open():
            self.close()
        else:
            self.open()

    def on_panel_click(self, event: Any) -> None:
        """A tap on a button of the menu closes it (before the button's action runs, so a
        dialog it opens gives the focus back to "More")."""
        if not missing(event.target.closest("button")):
            self.close()

    def on_document_click(self, event: Any) -> None:
        """A tap outside the menu and its button closes it (the focus stays where it went)."""
        if not self.is_open():
            return
        target = event.target
        if self.panel.contains(target) or self.toggle.contains(target):
            return
        self.close(return_focus=False)

    def on_escape(self) -> bool:
        """Escape: close the menu if it is open (True: the key was used)."""
        if not self.is_open():
            return False
        self.close()
        return True

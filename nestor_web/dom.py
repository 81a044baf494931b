"""The DOM adapter: applies the view to the page and turns events into session calls.

Runs only in the browser (PyScript on Pyodide). Everything it shows comes
from :func:`nestor_web.view.board_view`; everything it does is one call on
:class:`nestor_web.session.Session`. Listeners are delegated to containers
that never change, so re-rendered cards need no new listeners; the proxies
live as long as the page.
"""

from __future__ import annotations

from typing import Any

from pyodide.ffi import create_proxy
from pyscript import document, window

from nestor import VARIANTS, NestorError

from .session import MemoryStorage, Session
from .view import board_view, render_board


class LocalStorage:
    """The browser's localStorage as a :class:`~nestor_web.session.Storage`."""

    def get(self, key: str) -> str | None:
        """Return the text stored under ``key``, or ``None``."""
        value = window.localStorage.getItem(key)
        # JS null arrives as ``None`` or as Pyodide's ``jsnull``; stored values are strings.
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``."""
        window.localStorage.setItem(key, value)


def _storage() -> tuple[Any, str | None]:
    try:
        store = LocalStorage()
        store.set("nestor.probe", "1")
        return store, None
    except Exception:  # the browser forbids storage (e.g. blocked cookies)
        return MemoryStorage(), "This browser does not let the game save: progress will be lost."


class App:
    """Owns the session and the page elements; one instance per page."""

    def __init__(self) -> None:
        storage, problem = _storage()
        self.session = Session.open(storage, str(window.location.search))
        if problem:
            self.session.notice = " ".join(filter(None, [problem, self.session.notice]))
        self.el = {
            name: document.getElementById(name)
            for name in (
                "board", "controls", "variant", "status", "notice", "notice-text",
                "deal-number", "variant-title", "cards-left", "moves-made",
            )
        }
        self._proxies = [
            create_proxy(self.on_board_click),
            create_proxy(self.on_control_click),
            create_proxy(self.on_variant_change),
        ]
        self.el["board"].addEventListener("click", self._proxies[0])
        self.el["controls"].addEventListener("click", self._proxies[1])
        self.el["notice"].addEventListener("click", self._proxies[1])
        self.el["variant"].addEventListener("change", self._proxies[2])
        select = self.el["variant"]
        select.innerHTML = "".join(
            f'<option value="{v.name}">{v.title}</option>' for v in VARIANTS.values()
        )
        for button in document.querySelectorAll("#controls button, #variant"):
            button.disabled = False
        self.render()
        document.body.setAttribute("data-ready", "")

    # ---- events ----------------------------------------------------------------------

    def on_board_click(self, event: Any) -> None:
        """A tap on the play area: a card, or the stock pile."""
        target = event.target.closest("[data-card], [data-action]")
        if target is None:
            return
        if target.hasAttribute("data-action"):
            self.on_control_click(event)
            return
        if self.session.tap(str(target.getAttribute("data-card"))):
            self.render()

    def on_control_click(self, event: Any) -> None:
        """A tap on a control button (``data-action``)."""
        target = event.target.closest("[data-action]")
        if target is None or target.disabled:
            return
        action = str(target.getAttribute("data-action"))
        s = self.session
        if action == "dismiss":
            s.notice = None
        else:
            handler = {
                "new": s.new_deal, "restart": s.restart, "undo": s.undo,
                "redo": s.redo, "turn": s.turn_stock,
            }.get(action)
            if handler is None:
                return
            handler()
        self.render()

    def on_variant_change(self, event: Any) -> None:
        """The variant picker changed: deal a new game of that variant."""
        try:
            self.session.new_deal(str(event.target.value))
        except NestorError as exc:
            self.session.notice = str(exc)
        self.render()

    # ---- drawing ---------------------------------------------------------------------

    def render(self) -> None:
        """Draw the session's current view on the page."""
        view = board_view(self.session)
        el = self.el
        el["board"].innerHTML = render_board(view)
        el["variant"].value = view.variant
        el["variant-title"].textContent = view.variant_title
        el["deal-number"].textContent = str(view.deal)
        el["cards-left"].textContent = str(view.cards_left)
        el["moves-made"].textContent = str(view.moves_made)
        el["status"].textContent = view.status
        el["notice-text"].textContent = view.notice or ""
        el["notice"].hidden = view.notice is None
        for action, enabled in (
            ("undo", view.can_undo), ("redo", view.can_redo), ("turn", view.can_turn_stock),
        ):
            for button in document.querySelectorAll(f'#controls [data-action="{action}"]'):
                button.disabled = not enabled
        turn = document.querySelector('#controls [data-action="turn"]')
        if turn is not None:
            turn.hidden = not view.has_stock
        body = document.body
        if view.outcome:
            body.setAttribute("data-outcome", view.outcome)
        else:
            body.removeAttribute("data-outcome")
        body.setAttribute("data-variant", view.variant)
        if str(window.location.search) != view.query:
            window.history.replaceState(None, "", view.query)
        document.title = f"Nestor – {view.variant_title}, deal {view.deal}"


def start() -> App:
    """Create the app on the current page; called once by ``main.py``."""
    return App()

"""The DOM adapter: applies the view to the page and turns events into session calls.

Runs only in the browser (PyScript on Pyodide). Everything it shows comes
from :func:`nestor_web.view.board_view`; everything it does is one call on
:class:`nestor_web.session.Session`. Listeners are delegated to containers
that never change, so re-rendered cards need no new listeners; the proxies
live as long as the page.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator
from typing import Any, TypeVar

from pyodide.ffi import create_proxy
from pyscript import document, window

try:  # JS null arrives as this object, not as None
    from pyodide.ffi import jsnull
except ImportError:  # pragma: no cover - older Pyodide: JS null is None
    jsnull = None

from nestor import VARIANTS, NestorError

from .session import MemoryStorage, Session, parse_query, winnable_deal_steps
from .view import board_view, render_board

T = TypeVar("T")

SLICE_SECONDS = 0.008
"""Longest stretch the solver runs before the page gets to handle input again."""

SOLVE_PACE_SECONDS = 0.6
"""Pause between two pairs played by Solve, so the player can follow."""


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


def missing(value: Any) -> bool:
    """``True`` for a JS ``null``/``undefined`` result (``None`` or Pyodide's ``jsnull``)."""
    return value is None or value is jsnull or type(value).__name__ == "JsNull"


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
        self.solving = False
        self.busy = 0  # solver tasks running
        self.indicator_for: object = None  # the position the indicator task works on
        self.el = {
            name: document.getElementById(name)
            for name in (
                "board", "controls", "variant", "status", "notice", "notice-text",
                "deal-number", "variant-title", "cards-left", "moves-made", "indicator",
                "opt-indicator", "opt-winnable-only", "settings",
            )
        }
        self._proxies = [
            create_proxy(self.on_board_click),
            create_proxy(self.on_control_click),
            create_proxy(self.on_variant_change),
            create_proxy(self.on_setting_change),
            create_proxy(self.on_popstate),
        ]
        self.el["board"].addEventListener("click", self._proxies[0])
        self.el["controls"].addEventListener("click", self._proxies[1])
        self.el["notice"].addEventListener("click", self._proxies[1])
        self.el["variant"].addEventListener("change", self._proxies[2])
        self.el["settings"].addEventListener("change", self._proxies[3])
        window.addEventListener("popstate", self._proxies[4])
        select = self.el["variant"]
        select.innerHTML = "".join(
            f'<option value="{v.name}">{v.title}</option>' for v in VARIANTS.values()
        )
        for button in document.querySelectorAll("#controls button, #variant, #settings input"):
            button.disabled = False
        self.render()
        document.body.setAttribute("data-ready", "")

    # ---- events ----------------------------------------------------------------------

    def on_popstate(self, event: Any) -> None:
        """Back or Forward: go to the deal in the address (resumed if in progress)."""
        request, problem = parse_query(str(window.location.search))
        self.solving = False
        if request is not None and request.deal is not None:
            self.session.open_deal(request.variant.name, request.deal)
        elif problem:
            self.session.notice = problem
        self.render()

    def on_board_click(self, event: Any) -> None:
        """A tap on the play area: a card, or the stock pile."""
        target = event.target.closest("[data-card], [data-action]")
        if missing(target) or event.detail > 1:
            return  # the second click of a double click would hit the card that moved up
        if target.hasAttribute("data-action"):
            self.on_control_click(event)
            return
        self.solving = False  # the player takes over
        if self.session.tap(str(target.getAttribute("data-card"))):
            self.render()

    def on_control_click(self, event: Any) -> None:
        """A tap on a control button (``data-action``)."""
        target = event.target.closest("[data-action]")
        if missing(target) or target.disabled:
            return
        action = str(target.getAttribute("data-action"))
        s = self.session
        if action == "solve":
            if self.solving:
                self.solving = False
            else:
                asyncio.ensure_future(self.solve_task())
            return
        self.solving = False  # any other control stops Solve: the player takes over
        if action == "dismiss":
            s.notice = None
        elif action == "hint":
            asyncio.ensure_future(self.hint_task())
            return
        elif action == "new":
            self.deal_new(s.game.variant.name)
            return
        else:
            handler = {
                "restart": s.restart, "undo": s.undo, "redo": s.redo, "turn": s.turn_stock,
            }.get(action)
            if handler is None:
                return
            handler()
        self.render()

    def on_variant_change(self, event: Any) -> None:
        """The variant picker changed: deal a new game of that variant."""
        self.solving = False
        self.deal_new(str(event.target.value))

    def on_setting_change(self, event: Any) -> None:
        """A settings checkbox changed (``data-setting`` names the setting)."""
        name = event.target.getAttribute("data-setting")
        if missing(name):
            return
        try:
            self.session.set_setting(str(name), bool(event.target.checked))
        except NestorError as exc:
            self.session.notice = str(exc)
        self.render()

    # ---- work with the solver, without freezing the page ------------------------------

    async def run_sliced(self, steps: Generator[None, None, T]) -> T:
        """Run a solver generator in slices of :data:`SLICE_SECONDS`, yielding to the page."""
        self.busy += 1
        document.body.setAttribute("data-busy", "")
        try:
            while True:
                deadline = time.perf_counter() + SLICE_SECONDS
                try:
                    while time.perf_counter() < deadline:
                        next(steps)
                except StopIteration as done:
                    result: T = done.value
                    return result
                await asyncio.sleep(0)
        finally:
            self.busy -= 1
            if not self.busy:
                document.body.removeAttribute("data-busy")

    async def hint_task(self) -> None:
        """Hint: solve the current position and show the best move."""
        position = self.session.game.position
        if position.outcome() is not None:
            return
        self.el["status"].textContent = "Thinking…"
        start = time.perf_counter()
        solution = await self.run_sliced(self.session.analyse_steps())
        elapsed = (time.perf_counter() - start) * 1000
        document.body.setAttribute("data-hint-ms", f"{elapsed:.1f}")
        if self.session.game.position is position:
            self.session.show_hint(solution)
        self.render()

    async def solve_task(self) -> None:
        """Solve: play the best move, one pair at a time, until won, stopped or lost."""
        self.solving = True
        self.render()
        try:
            while self.solving and self.session.game.outcome() is None:
                position = self.session.game.position
                solution = await self.run_sliced(self.session.analyse_steps())
                if not self.solving or self.session.game.position is not position:
                    break
                if not self.session.play_solver_move(solution):
                    self.session.show_hint(solution)  # says that no winning line remains
                    break
                self.render()
                await asyncio.sleep(SOLVE_PACE_SECONDS)
        finally:
            self.solving = False
            self.render()

    def deal_new(self, variant: str) -> None:
        """New deal of ``variant``: any deal, or a proved winnable one if so set."""
        if not self.session.settings.winnable_only:
            try:
                self.session.new_deal(variant)
            except NestorError as exc:
                self.session.notice = str(exc)
            self.render()
            return
        asyncio.ensure_future(self.winnable_deal_task(variant))

    async def winnable_deal_task(self, variant: str) -> None:
        """Look for a deal the solver proves winnable, then start it."""
        self.el["status"].textContent = "Looking for a winnable deal…"
        try:
            found = await self.run_sliced(
                winnable_deal_steps(VARIANTS[variant], self.session.rng)
            )
        except KeyError:
            found = None
        if found is None:
            self.session.new_deal(variant)
            self.session.notice = "No winnable deal was found quickly; this one may not be."
        else:
            self.session.open_deal(variant, found)
        self.render()

    async def indicator_task(self) -> None:
        """Winnable indicator: solve the current position, then show the verdict."""
        position = self.session.game.position
        self.indicator_for = position
        await self.run_sliced(self.session.analyse_steps())
        if self.indicator_for is position:
            self.indicator_for = None
        self.render()

    # ---- drawing ---------------------------------------------------------------------

    def render(self) -> None:
        """Draw the session's current view on the page."""
        view = board_view(self.session)
        el = self.el
        focus = document.activeElement
        focused_card = None
        focused_column = None
        if not missing(focus) and focus.hasAttribute("data-card"):
            focused_card = str(focus.getAttribute("data-card"))
            column = focus.closest(".column")
            if not missing(column):
                focused_column = str(column.getAttribute("data-column"))
        el["board"].innerHTML = render_board(view)
        if focused_card is not None:
            self.restore_focus(focused_card, focused_column)
        el["variant"].value = view.variant
        el["variant-title"].textContent = view.variant_title
        el["deal-number"].textContent = str(view.deal)
        el["cards-left"].textContent = str(view.cards_left)
        el["moves-made"].textContent = str(view.moves_made)
        el["status"].textContent = (
            "Solve is playing the winning line, one pair at a time: press Stop to take over."
            if self.solving and view.outcome is None else view.status
        )
        el["notice-text"].textContent = view.notice or ""
        el["notice"].hidden = view.notice is None
        el["indicator"].textContent = view.indicator or ""
        el["indicator"].hidden = view.indicator is None
        el["opt-indicator"].checked = view.winnable_indicator
        el["opt-winnable-only"].checked = view.winnable_only
        playing = view.outcome is None
        solve = document.querySelector('#controls [data-action="solve"]')
        solve.textContent = "Stop" if self.solving else "Solve"
        solve.setAttribute("aria-pressed", "true" if self.solving else "false")
        for action, enabled in (
            ("undo", view.can_undo), ("redo", view.can_redo), ("turn", view.can_turn_stock),
            ("hint", playing), ("solve", playing or self.solving),
        ):
            for button in document.querySelectorAll(f'#controls [data-action="{action}"]'):
                button.disabled = not enabled
        turn = document.querySelector('#controls [data-action="turn"]')
        if not missing(turn):
            turn.hidden = not view.has_stock
        body = document.body
        if view.outcome:
            body.setAttribute("data-outcome", view.outcome)
        else:
            body.removeAttribute("data-outcome")
        body.setAttribute("data-variant", view.variant)
        if self.solving:
            body.setAttribute("data-solving", "")
        else:
            body.removeAttribute("data-solving")
        if (
            view.indicator is not None
            and self.session.analysis() is None
            and self.indicator_for is not self.session.game.position
        ):
            asyncio.ensure_future(self.indicator_task())
        shown = str(window.location.search)
        if shown != view.query:
            # A new deal gets its own history entry, so Back returns to the last one.
            request, _ = parse_query(shown)
            if request is not None and request.deal is not None:
                window.history.pushState(None, "", view.query)
            else:
                window.history.replaceState(None, "", view.query)
        document.title = f"Nestor – {view.variant_title}, deal {view.deal}"


    def restore_focus(self, card: str, column: str | None) -> None:
        """Keep keyboard focus on the board after a redraw.

        Focus returns to the same card if it is still available, else to the
        available card of the same column, else to the first available card.
        """
        target = document.querySelector(f'#board [data-card="{card}"][data-available]')
        if missing(target) and column is not None:
            target = document.querySelector(
                f'#board .column[data-column="{column}"] [data-available]'
            )
        if missing(target):
            target = document.querySelector("#board [data-available]")
        if not missing(target):
            target.focus()


def start() -> App:
    """Create the app on the current page; called once by ``main.py``."""
    return App()

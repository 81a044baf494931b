"""The DOM adapter: applies the view to the page and turns events into session calls.

Runs only in the browser (PyScript on Pyodide). Everything it shows comes
from :func:`nestor_web.view.board_view` and :mod:`nestor_web.texts`;
everything it does is one call on :class:`nestor_web.session.Session`.
Listeners are delegated to containers that never change, so re-rendered
cards need no new listeners; the proxies live as long as the page.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator
from html import escape
from typing import Any, TypeVar

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

from nestor import VARIANTS, NestorError

from .i18n import LANGUAGES, N_, _, language, variant_title
from .session import MemoryStorage, Session, parse_query, winnable_deal_steps
from .texts import TEXTS, keys_html, rules_html
from .view import board_view, render_board, stats_html

try:  # JS null arrives as this object, not as None
    from pyodide.ffi import jsnull
except ImportError:  # pragma: no cover - older Pyodide: JS null is None
    jsnull = None

T = TypeVar("T")

SLICE_SECONDS = 0.008
"""Longest stretch the solver runs before the page gets to handle input again."""

SOLVE_PACE_SECONDS = 0.6
"""Pause between two pairs played by Solve, so the player can follow."""

ANIMATION_MS = 350
"""How long a removed pair takes to fly to the discard pile."""

KEY_ACTIONS = {"u": "undo", "r": "redo", "n": "new", "s": "restart", "h": "hint", "t": "turn"}
"""Single keys for the controls (also shown in the keyboard help)."""


class LocalStorage:
    """The browser's localStorage as a :class:`~nestor_web.session.Storage`."""

    def get(self, key: str) -> str | None:
        """Return the text stored under ``key``, or ``None``."""
        value = window.localStorage.getItem(key)
        # JS null arrives as ``None`` or as Pyodide's ``jsnull``; stored values are strings.
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` (raises if the browser refuses)."""
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
        problem = N_("This browser does not let the game save: progress will be lost.")
        return MemoryStorage(), problem


class App:
    """Owns the session and the page elements; one instance per page."""

    def __init__(self) -> None:
        storage, problem = _storage()
        languages = [str(x) for x in window.navigator.languages] or [
            str(window.navigator.language)
        ]
        self.session = Session.open(storage, str(window.location.search), languages=languages)
        if problem:
            self.session.notice = " ".join(filter(None, [_(problem), self.session.notice]))
        self.solving = False
        self.busy = 0  # solver tasks running
        self.indicator_for: object = None  # the position the indicator task works on
        self.el = {
            name: document.getElementById(name)
            for name in (
                "board", "controls", "variant", "status", "notice", "notice-text",
                "deal-number", "variant-title", "cards-left", "moves-made", "indicator",
                "settings", "announce", "keys-dialog", "stats-dialog", "stats-text",
                "rules-text", "keys-text", "opt-language",
            )
        }
        handlers = {
            "board": ("click", self.on_board_click),
            "controls": ("click", self.on_control_click),
            "notice": ("click", self.on_control_click),
            "variant": ("change", self.on_variant_change),
            "settings": ("change", self.on_setting_change),
            "keys-dialog": ("click", self.on_dialog_click),
            "stats-dialog": ("click", self.on_dialog_click),
        }
        self._proxies = []
        for name, (kind, handler) in handlers.items():
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            self.el[name].addEventListener(kind, proxy)
        for target, kind, handler in (
            (window, "popstate", self.on_popstate),
            (document, "keydown", self.on_key),
        ):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            target.addEventListener(kind, proxy)
        self.fill_texts()
        for control in document.querySelectorAll(
            "#controls button, #variant, #settings input, #settings select"
        ):
            control.disabled = False
        self.render()
        document.body.setAttribute("data-ready", "")

    # ---- texts and settings ----------------------------------------------------------

    def fill_texts(self) -> None:
        """Put the page's own texts in the current language (see nestor_web.texts)."""
        document.documentElement.lang = language()
        document.body.setAttribute("data-lang", language())
        for element in document.querySelectorAll("[data-text]"):
            element.textContent = _(TEXTS[str(element.getAttribute("data-text"))])
        for element in document.querySelectorAll("[data-label]"):
            element.setAttribute("aria-label", _(TEXTS[str(element.getAttribute("data-label"))]))
        self.el["rules-text"].innerHTML = rules_html()
        self.el["keys-text"].innerHTML = keys_html()
        self.el["variant"].innerHTML = "".join(
            f'<option value="{name}">{escape(variant_title(name))}</option>' for name in VARIANTS
        )
        self.el["opt-language"].innerHTML = "".join(
            f'<option value="{code}" lang="{code}">{escape(title)}</option>'
            for code, title in LANGUAGES.items()
        )

    def apply_settings(self) -> None:
        """Reflect the settings on the page: controls, theme, colours, motion."""
        settings = self.session.settings
        root = document.documentElement
        root.setAttribute("data-theme", settings.theme)
        root.setAttribute("data-four-colours", "true" if settings.four_colours else "false")
        root.setAttribute("data-animations", "true" if self.animations() else "false")
        for control in document.querySelectorAll("#settings [data-setting]"):
            value = getattr(settings, str(control.getAttribute("data-setting")))
            if control.type == "checkbox":
                control.checked = self.animations() if value is None else bool(value)
            else:
                control.value = value or ""

    def animations(self) -> bool:
        """Animate? The setting, or when unset, unless the system asks for reduced motion."""
        chosen = self.session.settings.animations
        if chosen is not None:
            return chosen
        return not window.matchMedia("(prefers-reduced-motion: reduce)").matches

    def on_setting_change(self, event: Any) -> None:
        """A settings control changed (``data-setting`` names the setting)."""
        control = event.target
        name = control.getAttribute("data-setting")
        if missing(name):
            return
        value = bool(control.checked) if control.type == "checkbox" else str(control.value)
        try:
            self.session.set_setting(str(name), value)
        except NestorError as exc:
            self.session.notice = str(exc)
        if name == "language":
            self.fill_texts()
        self.render()

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
        self.act(lambda: self.session.tap(str(target.getAttribute("data-card"))))

    def on_control_click(self, event: Any) -> None:
        """A tap on a control button (``data-action``)."""
        target = event.target.closest("[data-action]")
        if missing(target) or target.disabled:
            return
        self.run_action(str(target.getAttribute("data-action")))

    def run_action(self, action: str) -> None:
        """Do what a control (or its key) stands for."""
        s = self.session
        if action == "solve":
            if self.solving:
                self.solving = False
            else:
                asyncio.ensure_future(self.solve_task())
            return
        if action == "keys":
            self.toggle_dialog(self.el["keys-dialog"])
            return
        if action == "stats":
            self.show_stats()
            return
        self.solving = False  # any other control stops Solve: the player takes over
        if action == "dismiss":
            s.notice = None
            self.render()
        elif action == "hint":
            asyncio.ensure_future(self.hint_task())
        elif action == "new":
            self.deal_new(s.game.variant.name)
        else:
            handler = {
                "restart": s.restart, "undo": s.undo, "redo": s.redo, "turn": s.turn_stock,
            }.get(action)
            if handler is not None:
                self.act(handler)

    def act(self, change: Any) -> None:
        """Run ``change`` on the session, then animate what left and redraw."""
        animate = self.animations()
        # Measure the cards only when they may fly: layout reads are not free on the move path.
        before = {
            str(e.getAttribute("data-card")): e
            for e in document.querySelectorAll("#board [data-card]")
        } if animate else {}
        rects = {card: e.getBoundingClientRect() for card, e in before.items()}
        if change() is False:
            return
        gone = {card: rect for card, rect in rects.items() if not self._in_play(card)}
        if gone:
            self.fly_away(gone, before)
        self.render()

    def _in_play(self, card: str) -> bool:
        pos = self.session.game.position
        return any(card in col for col in pos.columns) or card in pos.reserve or (
            card in pos.stock or card == pos.unpaired
        )

    def fly_away(self, cards: dict[str, Any], elements: dict[str, Any]) -> None:
        """Animate copies of removed cards to the discard pile; the board is redrawn at once.

        ``cards`` maps each removed card to where it was; ``elements`` holds
        the card elements as they were drawn. The copies are decoration only
        (no pointer events): input during the animation goes to the real,
        already updated board.
        """
        pile = document.getElementById("discard").getBoundingClientRect()
        for card, rect in cards.items():
            original = elements[card]
            ghost = document.createElement("div")  # not a button: never focusable
            ghost.className = f"{original.className} ghost"
            ghost.innerHTML = original.innerHTML
            ghost.setAttribute("aria-hidden", "true")
            style = ghost.style
            style.left = f"{rect.left}px"
            style.top = f"{rect.top}px"
            style.width = f"{rect.width}px"
            style.height = f"{rect.height}px"
            document.body.appendChild(ghost)
            dx = pile.left - rect.left
            dy = pile.top - rect.top
            frames = to_js([
                {"transform": "translate(0, 0) scale(1)", "opacity": 1},
                {"transform": f"translate({dx}px, {dy}px) scale(0.3)", "opacity": 0},
            ], dict_converter=window.Object.fromEntries)
            animation = ghost.animate(frames, to_js(
                {"duration": ANIMATION_MS, "easing": "ease-in"},
                dict_converter=window.Object.fromEntries,
            ))
            animation.onfinish = create_once_callable(lambda _event, g=ghost: g.remove())

    def on_variant_change(self, event: Any) -> None:
        """The variant picker changed: deal a new game of that variant."""
        self.solving = False
        self.deal_new(str(event.target.value))

    def on_key(self, event: Any) -> None:
        """Keyboard play: arrows move between available cards; single keys for controls."""
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        target = event.target
        tag = str(target.tagName).lower() if not missing(target.tagName) else ""
        if tag in ("input", "select", "textarea"):
            return
        key = str(event.key)
        if self.el["keys-dialog"].open or self.el["stats-dialog"].open:
            return  # the dialog handles its own keys (Esc closes it)
        if key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
            self.move_focus(-1 if key in ("ArrowLeft", "ArrowUp") else 1)
            event.preventDefault()
        elif key == "Escape":
            self.session.selected = None
            self.render()
        elif key == "?":
            self.run_action("keys")
        elif key.lower() in KEY_ACTIONS:
            button = document.querySelector(f'#controls [data-action="{KEY_ACTIONS[key.lower()]}"]')
            if not missing(button) and not button.disabled and not button.hidden:
                self.run_action(KEY_ACTIONS[key.lower()])
                event.preventDefault()

    def move_focus(self, step: int) -> None:
        """Focus the next (``step`` 1) or previous (-1) available card, wrapping around."""
        cards = list(document.querySelectorAll("#board [data-available]"))
        if not cards:
            return
        current = document.activeElement
        codes = [str(c.getAttribute("data-card")) for c in cards]
        here = (
            str(current.getAttribute("data-card"))
            if not missing(current) and current.hasAttribute("data-card") else None
        )
        index = (codes.index(here) + step) % len(cards) if here in codes else 0
        cards[index].focus()

    def on_dialog_click(self, event: Any) -> None:
        """Dialog buttons: close, and the statistics reset (asks first)."""
        target = event.target.closest("[data-action]")
        if missing(target):
            return
        action = str(target.getAttribute("data-action"))
        dialog = event.currentTarget
        if action == "close":
            dialog.close()
        elif action in ("stats-reset", "stats-reset-confirm", "stats-reset-cancel"):
            self.stats_reset(action)

    def toggle_dialog(self, dialog: Any) -> None:
        """Open ``dialog`` as a modal, or close it if open."""
        if dialog.open:
            dialog.close()
        else:
            dialog.showModal()

    def show_stats(self) -> None:
        """Open the statistics dialog (filled by :meth:`render_stats`)."""
        self.render_stats()
        self.toggle_dialog(self.el["stats-dialog"])

    def render_stats(self, confirm_reset: bool = False) -> None:
        """Fill the statistics dialog (table, chart, reset control)."""
        self.el["stats-text"].innerHTML = stats_html(self.session, confirm_reset)

    def stats_reset(self, action: str) -> None:
        """Reset the statistics, after a confirmation step."""
        if action == "stats-reset-confirm":
            self.session.reset_stats()
        self.render_stats(confirm_reset=action == "stats-reset")
        focus = document.querySelector(
            '#stats-text [data-action="stats-reset-cancel"], '
            '#stats-text [data-action="stats-reset"]'
        )
        if not missing(focus):
            focus.focus()

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
        self.el["status"].textContent = _("Thinking…")
        start = time.perf_counter()
        solution = await self.run_sliced(self.session.analyse_steps())
        elapsed = (time.perf_counter() - start) * 1000
        document.body.setAttribute("data-hint-ms", f"{elapsed:.1f}")
        if self.session.game.position is position:
            self.session.show_hint(solution)
            self.session.announcement = self.session.hint_text
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
                played = [False]

                def step(solution: Any = solution, played: list[bool] = played) -> bool:
                    played[0] = self.session.play_solver_move(solution)
                    return played[0]

                self.act(step)  # animated like the player's own pairs
                if not played[0]:
                    self.session.show_hint(solution)  # says that no winning line remains
                    break
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
        self.el["status"].textContent = _("Looking for a winnable deal…")
        try:
            found = await self.run_sliced(
                winnable_deal_steps(VARIANTS[variant], self.session.rng)
            )
        except KeyError:
            found = None
        if found is None:
            self.session.new_deal(variant)
            self.session.notice = _("No winnable deal was found quickly; this one may not be.")
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
        document.getElementById("discard").setAttribute("data-count", str(52 - view.cards_left))
        el["moves-made"].textContent = str(view.moves_made)
        el["status"].textContent = (
            _("Solve is playing the winning line, one pair at a time: press Stop to take over.")
            if self.solving and view.outcome is None else view.status
        )
        if self.session.announcement:
            el["announce"].textContent = self.session.announcement
            self.session.announcement = None
        el["notice-text"].textContent = view.notice or ""
        el["notice"].hidden = view.notice is None
        el["indicator"].textContent = view.indicator or ""
        el["indicator"].hidden = view.indicator is None
        self.apply_settings()
        playing = view.outcome is None
        solve = document.querySelector('#controls [data-action="solve"]')
        solve.textContent = _("Stop") if self.solving else _("Solve")
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
            request, _problem = parse_query(shown)
            if request is not None and request.deal is not None:
                window.history.pushState(None, "", view.query)
            else:
                window.history.replaceState(None, "", view.query)
        document.title = _("Nestor – {variant}, deal {deal}").format(
            variant=view.variant_title, deal=view.deal
        )

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

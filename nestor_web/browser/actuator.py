"""The actuator: applies a view to the page, and animates what a move removed.

It only writes the DOM from what the view made (:mod:`nestor_web.view`); it never reads
or changes the session. It keeps the draw state, what it last drew, so that a redraw
touches only the parts of the board that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pyscript import document, window

from nestor import Pair

from ..app.events import DealChanged, Event, Moved, SettingChanged, TookBack, WentBack
from ..app.settings import ANIMATION_SCALE, Settings, shown_animations
from ..app.url import parse_query
from ..view.board import (
    BoardView,
    CardView,
    card_changes,
    play_area,
    region_cards,
)
from ..view.i18n import language
from ..view.markup import html, root_attributes
from ..view.texts import (
    keys_html,
    language_options_html,
    page_text,
    rules_html,
    variant_options_html,
)
from ..view.words import page_title
from .animation import Motion, measure
from .dom import js_object, missing
from .sound import Sounds

NEW_DEAL = '#controls [data-action="new"]'
"""The control that takes the keyboard focus when no card is left on the board."""

ELEMENTS = (
    "board", "controls", "variant", "status", "notice", "notice-text", "deal-number",
    "variant-title", "cards-left", "moves-made", "indicator", "settings", "announce",
    "keys-dialog", "stats-dialog", "settings-dialog", "rules-dialog", "stats-text",
    "rules-text", "keys-text", "opt-language", "review-dialog",
    "discard", "pairs", "timer", "deal-grade",
)
"""The ids of the page's elements the game uses."""


class Actuator:
    """Draws views on the page. Attributes: ``el``, the page's elements by id."""

    def __init__(self) -> None:
        self.el = {name: document.getElementById(name) for name in ELEMENTS}
        self._board: BoardView | None = None  # the board last drawn
        self._shown: dict[str, str] = {}
        self._drawn: dict[str, object] = {}  # the state last drawn by each _once
        self._parked = False  # focus was put on the New deal control when no card was left
        self.address_held = False  # the replay shows its own link: leave the address alone
        self._sounds_on = False
        self.sounds = Sounds()
        self.motion = Motion(self.el["discard"])

    # ---- the page's own texts and the settings ----------------------------------------

    def fill_texts(self) -> None:
        """Put the page's own texts in the current language (see nestor_web.view.texts)."""
        document.documentElement.lang = language()
        document.body.setAttribute("data-lang", language())
        for element in document.querySelectorAll("[data-text]"):
            element.textContent = page_text(str(element.getAttribute("data-text")))
        for element in document.querySelectorAll("[data-label]"):
            element.setAttribute("aria-label", page_text(str(element.getAttribute("data-label"))))
        self.el["rules-text"].innerHTML = rules_html()
        self.el["keys-text"].innerHTML = keys_html()
        self.el["variant"].innerHTML = variant_options_html()
        self.el["opt-language"].innerHTML = language_options_html()
        document.dispatchEvent(window.CustomEvent.new("nestor:texts"))  # static/js/pwa.js
        self._board = None  # every region holds words: draw them all again
        self._shown = {}
        self._drawn = {}

    def enable_controls(self) -> None:
        """Python is ready: the controls may be used."""
        for control in document.querySelectorAll(
            "#controls button, #counters button, #variant, #settings input, #settings select"
        ):
            control.disabled = False

    def apply_settings(self, settings: Settings) -> None:
        """Reflect the settings, when they changed, on the page's controls and on the root
        element's attributes the CSS follows (:func:`root_attributes`)."""
        reduced = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        motion = shown_animations(settings.animations, reduced)
        state = (tuple(getattr(settings, n) for n in settings.names()), motion)
        if self._drawn.get("settings", _NEVER) == state:
            return
        self._drawn["settings"] = state
        self._sounds_on = settings.sounds
        self.motion.scale = ANIMATION_SCALE[motion]
        for name, value in root_attributes(settings, motion).items():
            document.documentElement.setAttribute(name, value)
        for control in document.querySelectorAll("#settings [data-setting]"):
            name = str(control.getAttribute("data-setting"))
            value = motion if name == "animations" else getattr(settings, name)
            if control.type == "checkbox":
                control.checked = bool(value)
            else:
                control.value = value or ""

    # ---- the board -----------------------------------------------------------------------

    def measure(self) -> dict[str, tuple[Any, Any]] | None:
        """Where each card is drawn now, for the next draw's flights (:func:`measure`);
        ``None`` while the animations are off."""
        return measure() if self.motion.scale > 0 else None

    def draw(
        self,
        view: BoardView,
        settings: Settings,
        events: Iterable[Event] = (),
        announcement: str | None = None,
        drawn: dict[str, tuple[Any, Any]] | None = None,
    ) -> None:
        """Apply ``view``: the page's texts after a change of language, the ``settings``,
        the board (only the regions that changed), counters, controls, notice, status, the
        live region's ``announcement``; then fly the cards the ``events`` removed from where
        ``drawn`` (:meth:`measure`, taken before) had them."""
        events = tuple(events)
        if any(isinstance(e, SettingChanged) and e.name == "language" for e in events):
            self.fill_texts()
        self.apply_settings(settings)
        focus = document.activeElement
        focused: tuple[str, str | None] | None = None
        on_card = not missing(focus) and bool(focus.hasAttribute("data-card"))
        # Keyboard focus is kept on the board; a pointer's focus (not :focus-visible) is not
        # worth the layout that moving it costs.
        if on_card and focus.matches(":focus-visible"):
            column = focus.closest(".column")
            focused = (
                str(focus.getAttribute("data-card")),
                None if missing(column) else str(column.getAttribute("data-column")),
            )
        # Focus fell off the page (to <body>), or waits on New deal since the board emptied:
        # cards brought back (undo, restart, another deal) take it again.
        lost = missing(focus) or str(focus.tagName).lower() == "body"
        parked = self._parked and not missing(focus) and focus.matches(NEW_DEAL)
        self._parked = parked
        self._draw_board(view)
        if focused is not None:
            self.restore_focus(*focused)
        elif on_card and view.cards_left == 0:
            self.restore_focus("", None)  # the winning pair took the focused card
        elif (lost or parked) and view.cards_left:
            back = [e for e in events if isinstance(e, (TookBack, WentBack, DealChanged))]
            if back:
                taken = back[0].move if isinstance(back[0], (TookBack, WentBack)) else None
                self.restore_focus(taken.first if isinstance(taken, Pair) else "", None)
        el = self.el
        self._text("variant-title", view.variant_title)
        self._text("deal-number", str(view.deal))
        self._text("deal-grade", view.grade_text)
        self._once("grade", view.grade, lambda: _flag(document.body, "data-grade", view.grade))
        self._text("cards-left", str(view.cards_left))
        self._text("moves-made", str(view.moves_made))
        self._text("pairs", str(view.pairs))
        self._text("timer", view.timer)
        self._text("status", view.status)
        if announcement:
            el["announce"].textContent = announcement
        self._text("notice-text", view.notice or "")
        self._text("indicator", view.indicator or "")
        self._once("notice", view.notice is None, lambda: _hide(el["notice"], view.notice is None))
        self._once("indicator", view.indicator is None,
                   lambda: _hide(el["indicator"], view.indicator is None))
        self._once("discard", view.cards_left, lambda: el["discard"].setAttribute(
            "data-count", str(52 - view.cards_left)))
        self._once("deal", (view.variant, view.deal, view.query), lambda: self._show_deal(view))
        playing = view.outcome is None
        controls = (view.can_undo, view.can_redo, view.can_turn_stock, playing, view.solving,
                    view.has_stock, view.outcome, view.solve_label,
                    view.can_finish)
        self._once("controls", controls, lambda: self._show_controls(view))
        for event in events:
            if isinstance(event, Moved):
                if drawn:
                    self.motion.fly_away(event, drawn)
                    if event.outcome is not None and event.outcome.won:
                        self.motion.celebrate()
                if self._sounds_on:
                    outcome = event.outcome
                    self.sounds.play(
                        "pair" if outcome is None else "won" if outcome.won else "lost"
                    )
            elif isinstance(event, (TookBack, WentBack, DealChanged)):
                self.motion.end_celebration()

    def forget(self, name: str) -> None:
        """Draw the part ``name`` again next time (e.g. ``"settings"`` after a refused change,
        whose control shows a value the settings don't have)."""
        self._drawn.pop(name, None)

    def _once(self, name: str, state: object, apply: Callable[[], None]) -> None:
        """Run ``apply`` only when ``state`` differs from the last one drawn under ``name``."""
        if self._drawn.get(name, _NEVER) != state:
            apply()
            self._drawn[name] = state

    def _show_deal(self, view: BoardView) -> None:
        self.el["variant"].value = view.variant
        document.body.setAttribute("data-variant", view.variant)
        document.title = page_title(view.variant_title, view.deal)
        self._show_url(view.query)

    def _show_controls(self, view: BoardView) -> None:
        playing = view.outcome is None
        solve = document.querySelector('#controls [data-action="solve"]')
        solve.textContent = view.solve_label
        solve.setAttribute("aria-pressed", "true" if view.solving else "false")
        for action, enabled in (
            ("undo", view.can_undo), ("redo", view.can_redo), ("turn", view.can_turn_stock),
            ("hint", playing), ("solve", playing or view.solving),
        ):
            for button in document.querySelectorAll(f'#controls [data-action="{action}"]'):
                button.disabled = not enabled
        turn = document.querySelector('#controls [data-action="turn"]')
        if not missing(turn):
            turn.hidden = not view.has_stock
        finish = document.querySelector('#controls [data-action="finish"]')
        if not missing(finish):
            finish.hidden = finish.disabled = not view.can_finish
        body = document.body
        _flag(body, "data-outcome", view.outcome)
        _flag(body, "data-solving", "" if view.solving else None)

    def show_timer(self, text: str) -> None:
        """Show the timer's ``text`` (it ticks between draws)."""
        self._text("timer", text)

    def _text(self, name: str, text: str) -> None:
        """Set an element's text only when it changes (a write costs a layout)."""
        if self._shown.get(name) != text:
            self.el[name].textContent = text
            self._shown[name] = text

    def _draw_board(self, view: BoardView) -> None:
        """Draw the board: all of it for another deal's shape, else only the regions that
        changed, card by card where cards only left or changed state."""
        last, regions = self._board, view.regions
        area = play_area(view)
        if last is None or play_area(last)[1] != area[1] or last.regions.keys() != regions.keys():
            self.el["board"].innerHTML = html(area)
        else:
            old_cards, new_cards = region_cards(last), region_cards(view)
            for key, node in regions.items():
                if node == last.regions[key]:
                    continue
                old, new = old_cards.get(key), new_cards.get(key)
                element = self.el["board"].querySelector(
                    '[data-region="spare"]' if key == "spare"
                    else f'.column[data-column="{key[7:]}"]'
                )
                if old is None or new is None or not _patch(element, old, new):
                    element.outerHTML = html(node)
        self._board = view

    def _show_url(self, query: str) -> None:
        shown = str(window.location.search)
        if shown == query or self.address_held:
            return
        # A new deal gets its own history entry, so Back returns to the last one.
        request, _problem = parse_query(shown)
        if request is not None and request.deal is not None:
            window.history.pushState(None, "", query)
        else:
            window.history.replaceState(None, "", query)

    def restore_focus(self, card: str, column: str | None) -> None:
        """Keep keyboard focus on the board after a redraw.

        Focus returns to the same card if it is still available, else to the available
        card of the same column, else to the first available card; with no card left
        (the game is won), to the New deal control, until cards come back.
        """
        target = document.querySelector(f'#board [data-card="{card}"][data-available]')
        if missing(target) and column is not None:
            target = document.querySelector(
                f'#board .column[data-column="{column}"] [data-available]'
            )
        if missing(target):
            target = document.querySelector("#board [data-available]")
        self._parked = missing(target)
        if self._parked:
            target = document.querySelector(NEW_DEAL)
        if not missing(target) and target is not document.activeElement:
            target.focus()

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

    # ---- dialogs -------------------------------------------------------------------------

    def toggle_dialog(self, name: str) -> None:
        """Open the dialog ``name`` (one of :data:`DIALOGS`) as a modal, or close it. The
        dialog itself takes the focus (a scrolled content, like the rules, starts at its top;
        no control is framed before the player moves)."""
        dialog = self.el[f"{name}-dialog"]
        if dialog.open:
            dialog.close()
        else:
            dialog.showModal()
            dialog.setAttribute("tabindex", "-1")
            # showModal() focuses the dialog's first focusable control and scrolls it into
            # view, which may be the close button at the end (How to play opened on
            # its last table): the dialog takes the focus without scrolling, at its top.
            dialog.focus(js_object({"preventScroll": True}))
            dialog.scrollTop = 0

    def dialog_open(self, name: str | None = None) -> bool:
        """Is the dialog ``name`` (one of :data:`DIALOGS`) open; without ``name``, any of
        them or the install how-to of static/js/install.js (it handles its own keys)?"""
        if name is None:
            extra = document.getElementById("install-dialog")
            return any(bool(self.el[f"{n}-dialog"].open) for n in DIALOGS) or (
                not missing(extra) and bool(extra.open)
            )
        return bool(self.el[f"{name}-dialog"].open)

    def fill_stats(self, html: str, focus: str | None = None) -> None:
        """Put ``html`` in the statistics dialog; focus the control ``focus`` (a selector)."""
        self.el["stats-text"].innerHTML = html
        if focus is not None:
            target = document.querySelector(focus)
            if not missing(target):
                target.focus()

    def wake_up(self, wake: Any) -> tuple[str, list[tuple[str, str]]] | None:
        """End the waking state of static/js/wake.js (the live board is drawn). Returns the
        deal the waking board showed (``"variant/deal"``) and the taps recorded on it,
        ``("card", code)`` or ``("action", name)`` in order; ``None`` if there was none."""
        body = document.body
        if not body.hasAttribute("data-waking"):
            return None
        body.removeAttribute("data-waking")
        body.removeAttribute("aria-busy")
        for bar in document.querySelectorAll(".waking-bar"):
            bar.remove()
        if missing(wake) or missing(wake.taps):
            return None
        taps = []
        for tap in wake.taps:  # {card} or {action}: the other is absent (an AttributeError)
            card, action = getattr(tap, "card", None), getattr(tap, "action", None)
            if not missing(card):
                taps.append(("card", str(card)))
            elif not missing(action):
                taps.append(("action", str(action)))
        return str(wake.deal), taps

    def ready(self) -> None:
        """Mark the page as ready for input (the tests' hook ``data-ready``)."""
        document.body.setAttribute("data-ready", "")


DIALOGS = ("keys", "stats", "settings", "rules", "review")
"""The page's dialogs, by the name :meth:`Actuator.toggle_dialog` takes."""

_NEVER = object()
"""A state no view has: what :meth:`Actuator._once` compares with the first time."""


def _hide(element: Any, hidden: bool) -> None:
    element.hidden = hidden


def _patch(node: Any, old: tuple[CardView, ...], new: tuple[CardView, ...]) -> bool:
    """Bring the cards drawn in ``node`` from ``old`` to ``new`` in place: remove the cards
    that left, change what changed of the others (:func:`card_changes`). ``False`` (nothing
    done) when ``new`` is not ``old`` less some cards. Cards that stay keep their elements,
    so keyboard focus stays on them."""
    kept = {c.code for c in new}
    if not new or [c.code for c in old if c.code in kept] != [c.code for c in new]:
        return False
    before = {c.code: c for c in old}
    for card in old:
        if card.code not in kept:
            node.querySelector(f'[data-card="{card.code}"]').remove()
    for card in new:
        was = before[card.code]
        if was == card:
            continue
        element = node.querySelector(f'[data-card="{card.code}"]')
        changes = card_changes(was, card)
        if changes is None:
            element.outerHTML = html(card.node)
            continue
        for name, value in changes.items():
            _flag(element, name, value)
    return True


def _flag(element: Any, name: str, value: str | None) -> None:
    if value is None:
        element.removeAttribute(name)
    else:
        element.setAttribute(name, value)

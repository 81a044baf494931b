"""The actuator: writes a view (:mod:`nestor_web.view`) to the page and animates what a move
removed; it never reads the session. What it last drew keeps a redraw to what changed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pyscript import document, window

from nestor import Pair

from ..app.events import DealChanged, Event, Moved, SettingChanged, TookBack, WentBack
from ..app.settings import ANIMATION_SCALE, Settings, shown_animations
from ..app.url import parse_query
from ..view.board import (
    MARK,
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
from .animation import Motion, Sounds, measure
from .dom import flag, js_object, missing, set_disabled, set_hidden, set_text

NEW_DEAL = '#controls [data-action="new"]'  # has the focus while no card is left
DRAWN_CONTROLS = ("undo", "redo", "turn", "hint", "solve", "finish")
"""The controls' actions whose state each draw works out (:meth:`Actuator._show_controls`)."""

ELEMENTS = (
    "board", "controls", "variant", "status", "notice", "notice-text", "deal-number",
    "variant-title", "cards-left", "moves-made", "indicator", "settings", "announce",
    "keys-dialog", "stats-dialog", "settings-dialog", "rules-dialog", "stats-text",
    "rules-text", "keys-text", "opt-language", "review-dialog",
    "discard", "pairs", "timer", "deal-grade",
)  # the ids of the page's elements the game uses


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
        # The root's lang written again, unchanged, would have every element's style and
        # layout worked out again (:lang() may match anywhere).
        flag(document.documentElement, "lang", language())
        flag(document.body, "data-lang", language())
        for element in document.querySelectorAll("[data-text]"):
            set_text(element, page_text(str(element.getAttribute("data-text"))))
        for element in document.querySelectorAll("[data-label]"):
            flag(element, "aria-label", page_text(str(element.getAttribute("data-label"))))
        for name, markup in (("rules-text", rules_html()), ("keys-text", keys_html()),
                             ("variant", variant_options_html()),
                             ("opt-language", language_options_html())):
            if str(self.el[name].innerHTML) != markup:
                self.el[name].innerHTML = markup
        document.dispatchEvent(window.CustomEvent.new("nestor:texts"))  # static/js/pwa.js
        self._board = None  # every region holds words: draw them all again
        self._shown = {}
        self._drawn = {}

    def enable_controls(self) -> None:
        """Python is ready: the controls may be used (those the board's state enables, as
        :meth:`draw` does them, left to it)."""
        for control in document.querySelectorAll(
            "#controls button, #counters button, #variant, #settings input, #settings select"
        ):
            if str(control.getAttribute("data-action")) not in DRAWN_CONTROLS:
                set_disabled(control, False)

    def apply_settings(self, settings: Settings) -> None:
        """Show changed settings on their controls and the root's attributes for the CSS."""
        reduced = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        motion = shown_animations(settings.animations, reduced)
        state = (tuple(getattr(settings, n) for n in settings.names()), motion)
        if self._drawn.get("settings", _NEVER) == state:
            return
        self._drawn["settings"] = state
        self._sounds_on = settings.sounds
        self.motion.scale = ANIMATION_SCALE[motion]
        for name, value in root_attributes(settings, motion).items():
            flag(document.documentElement, name, value)
        for control in document.querySelectorAll("#settings [data-setting]"):
            name = str(control.getAttribute("data-setting"))
            value = motion if name == "animations" else getattr(settings, name)
            if control.type == "checkbox":
                control.checked = bool(value)
            else:
                control.value = value or ""

    # ---- the board -----------------------------------------------------------------------

    def measure(self) -> dict[str, tuple[Any, Any]] | None:
        """Where each card is drawn now (:func:`measure`); ``None`` while animations are off."""
        return measure() if self.motion.scale > 0 else None

    def draw(
        self,
        view: BoardView,
        settings: Settings,
        events: Iterable[Event] = (),
        announcement: str | None = None,
        drawn: dict[str, tuple[Any, Any]] | None = None,
    ) -> None:
        """Write ``view`` and ``settings`` (only what changed) and the live region's
        ``announcement``; fly the cards ``events`` removed from where ``drawn`` had them."""
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
            self.restore_focus()  # the winning pair took the focused card
        elif (lost or parked) and view.cards_left:
            back = [e for e in events if isinstance(e, (TookBack, WentBack, DealChanged))]
            if back:
                taken = back[0].move if isinstance(back[0], (TookBack, WentBack)) else None
                self.restore_focus(taken.first if isinstance(taken, Pair) else "")
        el = self.el
        for name, text in (
            ("variant-title", view.variant_title), ("deal-number", str(view.deal)),
            ("deal-grade", view.grade_text), ("cards-left", str(view.cards_left)),
            ("moves-made", str(view.moves_made)), ("pairs", str(view.pairs)),
            ("timer", view.timer), ("status", view.status),
            ("notice-text", view.notice or ""), ("indicator", view.indicator or ""),
        ):
            self.show_text(name, text)
        self._once("grade", view.grade, lambda: flag(document.body, "data-grade", view.grade))
        if announcement:
            el["announce"].textContent = announcement
        self._once("notice", view.notice is None,
                   lambda: set_hidden(el["notice"], view.notice is None))
        self._once("indicator", view.indicator is None,
                   lambda: set_hidden(el["indicator"], view.indicator is None))
        self._once("discard", view.cards_left,
                   lambda: flag(el["discard"], "data-count", str(52 - view.cards_left)))
        self._once("deal", (view.variant, view.deal, view.query), lambda: self._show_deal(view))
        controls = (view.can_undo, view.can_redo, view.can_turn_stock, view.solving,
                    view.has_stock, view.outcome, view.solve_label, view.can_finish)
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
        """Draw the part ``name`` again next time (``"settings"``: after a refused change)."""
        self._drawn.pop(name, None)

    def _once(self, name: str, state: object, apply: Callable[[], object]) -> None:
        """Run ``apply`` only when ``state`` differs from the last one drawn under ``name``."""
        if self._drawn.get(name, _NEVER) != state:
            apply()
            self._drawn[name] = state

    def _show_deal(self, view: BoardView) -> None:
        self.el["variant"].value = view.variant
        flag(document.body, "data-variant", view.variant)
        title = page_title(view.variant_title, view.deal)
        if str(document.title) != title:
            document.title = title
        self._show_url(view.query)

    def _show_controls(self, view: BoardView) -> None:
        playing = view.outcome is None
        solve = document.querySelector('#controls [data-action="solve"]')
        set_text(solve, view.solve_label)
        flag(solve, "aria-pressed", "true" if view.solving else "false")
        for action, enabled in (
            ("undo", view.can_undo), ("redo", view.can_redo), ("turn", view.can_turn_stock),
            ("hint", playing), ("solve", playing or view.solving),
        ):
            for button in document.querySelectorAll(f'#controls [data-action="{action}"]'):
                set_disabled(button, not enabled)
        turn = document.querySelector('#controls [data-action="turn"]')
        if not missing(turn):
            set_hidden(turn, not view.has_stock)
        finish = document.querySelector('#controls [data-action="finish"]')
        if not missing(finish):
            set_hidden(finish, not view.can_finish)
            set_disabled(finish, not view.can_finish)
        body = document.body
        flag(body, "data-outcome", view.outcome)
        flag(body, "data-solving", "" if view.solving else None)

    def show_text(self, name: str, text: str) -> None:
        """Set element ``name``'s text only when it changes (a write costs a layout), nor
        when the page shows it already (the first draw, over wake.js's)."""
        if self._shown.get(name) != text:
            set_text(self.el[name], text)
            self._shown[name] = text

    def _draw_board(self, view: BoardView) -> None:
        """Draw the board: all of it for another shape, else the regions that changed."""
        last, regions = self._board, view.regions
        area = play_area(view)
        if last is None or play_area(last)[1] != area[1] or last.regions.keys() != regions.keys():
            markup = html(area)
            if last is not None or not self._board_shows(markup):
                self.el["board"].innerHTML = markup
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

    def _board_shows(self, markup: str) -> bool:
        """Whether the board already shows ``markup``, as the waking board static/js/wake.js
        built from the same nodes does: both as the browser writes them out (``markup`` parsed
        in an inert template: no style, no layout), the guide's rings (:data:`MARK`, which it
        sets again) left out. Writing it again would lay the whole board out for nothing."""
        board = self.el["board"]
        if missing(board.firstElementChild):
            return False
        template = document.createElement("template")
        template.innerHTML = markup
        shown = str(board.innerHTML).replace(f' {MARK}=""', "")
        return str(template.innerHTML) == shown

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

    def restore_focus(self, card: str = "", column: str | None = None, scroll: bool = True) -> None:
        """Focus ``card`` if available, else an available card of ``column``, else the
        first available card; with none left, New deal until cards come back. The page is
        scrolled to show it only with ``scroll``."""
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
            target.focus(js_object({"preventScroll": not scroll}))

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
        """Open the dialog ``name`` (of :data:`DIALOGS`) as a modal, focused at its top, or
        close it."""
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
        """Is the dialog ``name`` open; without ``name``, any of them or the install how-to
        of static/js/install.js (it handles its own keys)?"""
        if name is None:
            extra = document.getElementById("install-dialog")
            return any(bool(self.el[f"{n}-dialog"].open) for n in DIALOGS) or (
                not missing(extra) and bool(extra.open)
            )
        return bool(self.el[f"{name}-dialog"].open)

    def ready(self) -> None:
        """Mark the page ready for input (the tests' hook ``data-ready``)."""
        document.body.setAttribute("data-ready", "")


DIALOGS = ("keys", "stats", "settings", "rules", "review")
_NEVER = object()  # a state no view has: what Actuator._once first compares with


def _patch(node: Any, old: tuple[CardView, ...], new: tuple[CardView, ...]) -> bool:
    """Bring ``node``'s cards from ``old`` to ``new`` in place, so focus stays on them;
    ``False`` (nothing done) when ``new`` is not ``old`` less some cards."""
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
            flag(element, name, value)
    return True

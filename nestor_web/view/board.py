"""What to draw: :func:`board_view` turns the session into a :class:`BoardView`, whose
:attr:`~BoardView.regions` are the board as nodes (:mod:`.markup`), made once per draw for
the page's HTML and the stored first paint."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any

from nestor import Pair, TurnStock
from nestor.cards import RED_SUITS, SUIT_SYMBOLS

from ..app.session import Session
from .i18n import _, card_name, language, ngettext, rank_label, variant_title
from .markup import Node, html
from .words import clock_text, grade_name, indicator_text, notice_text, status_text

MARK = "data-tutorial-target"
"""The attribute the guided first game puts on each element it points at (its ring: cards of
the board, a control), set on the page after a draw and never part of the board's markup."""


@dataclass(frozen=True)
class CardView:
    """One card face to draw: ``rank`` as printed (``"10"``), ``name`` accessible (``"ten of
    hearts, column 3"``), ``partners`` the available cards it pairs with, ``partner`` it pairs
    with the selection, ``last_move`` the last move freed it, ``turned`` from the stock."""

    code: str
    rank: str
    suit: str
    red: bool
    name: str
    available: bool
    selected: bool
    hinted: bool = False
    partners: tuple[str, ...] = ()
    partner: bool = False
    last_move: bool = False
    turned: bool = False

    @cached_property
    def node(self) -> list[Any]:
        """One face-up card as a node, made once: a button (``data-available``, ``data-partners``)
        when available, else a plain box; ``data-card`` always, and its flags when true."""
        court = f" court court-{self.code[0]}" if self.code[0] in COURT_RANKS else ""
        classes = f"card {'red' if self.red else 'black'}{court} suit-{self.code[1]}"
        face = face_nodes(self.code, self.rank, self.suit)
        if not self.available:
            attributes = {"class": f"{classes} covered", "data-card": self.code}
            if self.turned:
                attributes["data-turned"] = ""
            return ["div", {**attributes, "role": "img", "aria-label": self.name}, *face]
        attributes = {"type": "button", "class": classes, "data-card": self.code,
                      "data-partners": " ".join(self.partners), "data-available": ""}
        for name, on in (("data-selected", self.selected), ("data-hint", self.hinted),
                         ("data-partner", self.partner), ("data-last-move", self.last_move),
                         ("data-turned", self.turned)):
            if on:
                attributes[name] = ""
        pressed = "true" if self.selected else "false"
        return ["button", {**attributes, "aria-pressed": pressed, "aria-label": self.name}, *face]


@dataclass(frozen=True)
class BoardView:
    """Everything the page shows about the game: the deal, the cards (``columns`` deepest
    first), the variant's shape (``stock_open``: the stock turned up), the counters, the
    controls' states, ``outcome`` (``"won"``, ``"lost"``, ``None``), the texts, ``query``."""

    variant: str
    variant_title: str
    deal: int
    columns: tuple[tuple[CardView, ...], ...]
    reserve: tuple[CardView, ...]
    overlapping: bool
    spare: int
    has_stock: bool
    stock_count: int
    stock_open: bool
    unpaired: CardView | None
    cards_left: int
    moves_made: int
    can_undo: bool
    can_redo: bool
    can_turn_stock: bool
    outcome: str | None
    status: str
    notice: str | None
    query: str
    hint_stock: bool = False
    indicator: str | None = None
    grade: str | None = None
    grade_text: str = ""
    helped: bool = False
    solving: bool = False
    pairs: int = 0
    timer: str = "0:00"
    can_finish: bool = False
    turned: CardView | None = None
    solve_label: str = ""

    @cached_property
    def regions(self) -> dict[str, Node]:
        """The play area's parts, each one element (``"column-1"`` … and ``"spare"``), made once."""
        regions = {f"column-{i}": _column(i, column) for i, column in enumerate(self.columns, 1)}
        regions["spare"] = _spare(self)
        return regions


@lru_cache(maxsize=4096)
def _card(
    lang: str, code: str, where: str, available: bool, selected: bool, hinted: bool,
    partners: tuple[str, ...] = (), partner: bool = False, last_move: bool = False,
    turned: bool = False,
) -> CardView:
    """A card's view, made once for the same arguments (``lang``: its words' language)."""
    return CardView(
        code=code,
        rank=rank_label(code),
        suit=SUIT_SYMBOLS[code[1]],
        red=code[1] in RED_SUITS,
        name=_("{card}, {place}").format(card=card_name(code), place=where),
        available=available,
        selected=selected,
        hinted=hinted,
        partners=partners,
        partner=partner,
        last_move=last_move,
        turned=turned,
    )


def board_view(session: Session) -> BoardView:
    """Return what to draw for ``session`` (see :class:`BoardView`)."""
    game = session.game
    pos = game.position
    avail = pos.available()
    sel = session.selected if session.selected in avail else None
    hinted = session.hint.cards if isinstance(session.hint, Pair) else ()
    marked = pos.partners(sel) if sel is not None and session.settings.highlight_partners else ()
    uncovered = session.last_uncovered

    lang = language()

    def card(code: str, where: str, turned: bool = False) -> CardView:
        if code not in avail:
            return _card(lang, code, where, False, False, code in hinted, turned=turned)
        return _card(lang, code, where, True, code == sel, code in hinted, pos.partners(code),
                     code in marked, code in uncovered, turned)

    columns = tuple(
        tuple(card(c, where) for c in col)
        for i, col in enumerate(pos.columns, 1)
        for where in [_("column {number}").format(number=i)]
    )
    stock_open = pos.stock_turned_up
    if stock_open:
        reserve = tuple(card(c, _("stock"), turned=True) for c in pos.stock)
    else:
        reserve = tuple(card(c, _("reserve")) for c in pos.reserve)
    outcome = pos.outcome()
    unpaired = pos.unpaired
    last_turned = game.last_turned()
    turned = None
    if last_turned is not None and last_turned != unpaired and not stock_open:
        turned = card(last_turned, _("turned from the stock and paired"), turned=True)
    indicator = None
    if session.settings.winnable_indicator:
        indicator = indicator_text(session.analysis())
    return BoardView(
        variant=game.variant.name,
        variant_title=variant_title(game.variant.name),
        deal=game.deal,
        columns=columns,
        reserve=reserve,
        overlapping=game.variant.overlapping,
        spare=game.variant.spare,
        has_stock=game.variant.has_stock,
        stock_count=0 if stock_open else len(pos.stock),
        stock_open=stock_open,
        unpaired=card(unpaired, _("turned from the stock"), turned=True) if unpaired else None,
        cards_left=pos.cards_left(),
        moves_made=game.cursor,
        can_undo=session.can_undo(),
        can_redo=game.can_redo(),
        can_turn_stock=pos.can_turn_stock(),
        outcome=outcome.result if outcome else None,
        status=status_text(session),
        notice=notice_text(session.notices),
        query=session.query(),
        hint_stock=isinstance(session.hint, TurnStock),
        indicator=indicator,
        grade=session.grade,
        grade_text=grade_name(session.grade),
        helped=session.help.used,
        solving=session.solving,
        pairs=session.pairs_removed(),
        timer=clock_text(session.elapsed_ms()),
        can_finish=bool(session.finishable()) and not session.solving,
        turned=turned,
        solve_label=_("Stop") if session.solving else _("Solve"),
    )


def still(view: BoardView) -> BoardView:
    """``view`` as a picture: no card can be tapped, selected or marked."""

    def card(c: CardView) -> CardView:
        return replace(c, available=False, selected=False, partners=(), partner=False,
                       last_move=False)

    columns = tuple(tuple(card(c) for c in column) for column in view.columns)
    return replace(view, columns=columns, reserve=tuple(card(c) for c in view.reserve))


COURT_RANKS = frozenset("JQK")

_HIDDEN = {"aria-hidden": "true"}


def _circles(*circles: str) -> list[Node]:
    return [["circle", dict(zip(("cx", "cy", "r"), c.split(), strict=True))] for c in circles]


# Each motif in a 24 x 24 box in the card's colour: shapes that differ in outline, so they
# part at the small sizes of a phone.
_MOTIFS: dict[str, list[Node]] = {
    "K": [
        ["path", {"d": "M3 17 4.5 6.5 9 11 12 3.5 15 11 19.5 6.5 21 17z"}],
        ["path", {"d": "M3 18.5h18V21H3z"}],
        *_circles("4.5 5 1.6", "12 2.4 1.6", "19.5 5 1.6"),
    ],
    "Q": [
        *_circles("12 5.5 4", "18 10 4", "15.8 17 4", "8.2 17 4", "6 10 4"),
        ["circle", {"cx": "12", "cy": "12", "r": "3", "fill": "#fffdf7"}],
        *_circles("12 12 1.6"),
    ],
    "J": [
        ["path", {"d": "M11 1.5h2l.9 13.5h-3.8z"}],
        ["path", {"d": "M5.5 15h13v2.2h-13z"}],
        ["path", {"d": "M10.9 17.2h2.2v3.6h-2.2z"}],
        *_circles("12 22 1.7"),
    ],
}


def face_nodes(code: str, rank: str, suit: str) -> list[Node]:
    """The face of card ``code`` as nodes, decoration only (``aria-hidden``): its corner
    (``rank`` as printed, ``suit`` symbol), then the big pip, or a court card's frame and panel
    (its rank over a motif; static/css/faces.css draws the rest)."""
    corner: Node = ["span", {"class": "corner", **_HIDDEN},
                    ["span", {"class": "rank"}, rank], ["span", {"class": "suit"}, suit]]
    if code[0] not in COURT_RANKS:
        return [corner, ["span", {"class": "pip", **_HIDDEN}, suit]]
    motif = ["svg", {"class": "motif", "viewBox": "0 0 24 24", "focusable": "false",
                     **_HIDDEN, "fill": "currentColor"}, *_MOTIFS[code[0]]]
    return [
        ["span", {"class": "frame", **_HIDDEN}],
        corner,
        ["span", {"class": "court-panel", **_HIDDEN}, ["span", {"class": "court-rank"}, rank],
         motif],
    ]


def card_changes(was: CardView, now: CardView) -> dict[str, str | None] | None:
    """The attributes that turn card ``was`` into ``now`` (``None`` values: remove), or
    ``None`` when its element must be drawn again (a button became a box, or back)."""
    old, new = was.node, now.node
    if old[0] != new[0]:
        return None
    changes: dict[str, str | None] = {name: None for name in old[1].keys() - new[1].keys()}
    changes.update((name, value) for name, value in new[1].items() if old[1].get(name) != value)
    return changes


_SLOT: list[Any] = ["div", {"class": "slot", "aria-hidden": "true"}]
"""An empty place of the board."""


def _column(number: int, column: tuple[CardView, ...]) -> Node:
    """Tableau column ``number`` (1-based), deepest card first."""
    label = _("column {number}").format(number=number)
    return ["div", {"class": "column", "role": "group", "data-column": str(number),
                    "aria-label": label}, *([c.node for c in column] or [_SLOT])]


def _spare(view: BoardView) -> Node:
    """The reserve, or in Strict the stock area (the turned-up stock too)."""
    if view.has_stock and not view.stock_open:
        left = ngettext("{count} card left", "{count} cards left", view.stock_count).format(
            count=view.stock_count)
        parts: list[Node] = [_SLOT]
        if view.stock_count:
            stock = {"type": "button", "class": "card back", "data-action": "turn"}
            if view.hint_stock:
                stock["data-hint"] = ""
            stock["aria-label"] = _("Stock, {left}").format(left=left)
            if not view.can_turn_stock:
                stock["disabled"] = ""
            parts = [["button", stock, ["span", {"class": "count"}, str(view.stock_count)]]]
        parts.append(_label(_("Stock: {left}").format(left=left)))
        if view.turned is not None:
            parts += [_label(_("Turned and paired:")), view.turned.node]
        if view.unpaired is not None:
            parts += [_label(_("Turned, and no card to pair it with:")), view.unpaired.node]
        return ["section", {"class": "stock-area", "data-region": "spare",
                            "aria-label": _("Stock")}, *parts]
    title = _("Stock (turned up)") if view.stock_open else _("Reserve")
    kind = "overlapping" if view.overlapping else "open"
    cards = [c.node for c in view.reserve] or [_SLOT]
    return ["section", {"class": f"reserve {kind}", "data-region": "spare", "aria-label": title,
                        "data-spare": str(view.spare)},
            _label(title), ["div", {"class": "reserve-cards"}, *cards]]


def _label(text: str) -> Node:
    return ["span", {"class": "area-label"}, text]


def region_cards(view: BoardView) -> dict[str, tuple[CardView, ...]]:
    """The cards of each region that holds only cards, in drawing order."""
    cards = {f"column-{i}": column for i, column in enumerate(view.columns, 1)}
    if not view.has_stock or view.stock_open:
        cards["spare"] = view.reserve
    return cards


def play_area(view: BoardView) -> Node:
    """The play area as one node: the tableau's columns, then the reserve or the stock."""
    regions = view.regions
    columns = [node for key, node in regions.items() if key != "spare"]
    return ["div", {"class": "play", "data-cols": str(len(view.columns)),
                    "data-variant": view.variant},
            ["div", {"class": "tableau"}, *columns], regions["spare"]]


def render_board(view: BoardView) -> str:
    """HTML of the play area (:func:`play_area`)."""
    return html(play_area(view))


def mark_cards(board: str, cards: tuple[str, ...], attribute: str) -> str:
    """The HTML ``board`` with the bare ``attribute`` on the element of each card of ``cards``."""
    for card in cards:
        board = board.replace(f'data-card="{card}"', f'data-card="{card}" {attribute}', 1)
    return board


def first_paint(view: BoardView) -> tuple[list[object], dict[str, str]]:
    """What the next visit paints before Python runs (static/js/wake.js): the play area as
    nodes, and the counters' texts by element id."""
    return [play_area(view)], {
        "variant-title": view.variant_title, "deal-number": str(view.deal),
        "deal-grade": view.grade_text, "cards-left": str(view.cards_left),
        "moves-made": str(view.moves_made), "pairs": str(view.pairs), "timer": view.timer,
    }

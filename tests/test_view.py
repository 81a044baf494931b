"""The view model and HTML of the play area (nestor_web.view.board), and what the screen
reader hears about the cards a move uncovers."""

from __future__ import annotations

import random
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from webpage import Page

from nestor import (
    VARIANTS,
    Game,
    Move,
    Outcome,
    Pair,
    Position,
    card_name,
    deal_position,
    rank_of,
)
from nestor_web.app.session import Session
from nestor_web.view import markup
from nestor_web.view.board import (
    BoardView,
    CardView,
    board_view,
    card_changes,
    render_board,
)

SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


# ---- helpers -------------------------------------------------------------------------


class Element:
    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.text = ""


class Collector(HTMLParser):
    """Every start tag in document order, with its attributes and direct text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.stack: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})  # a bare one is "", as in the DOM
        self.elements.append(element)
        self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack, f"unexpected </{tag}>"
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1].text += data


def parse(html: str) -> list[Element]:
    collector = Collector()
    collector.feed(html)
    collector.close()
    assert collector.stack == [], "unclosed elements"
    return collector.elements


def cards_in(html: str) -> list[Element]:
    return [e for e in parse(html) if "data-card" in e.attrs]


def session_for(variant: str, deal: int) -> Session:
    """The session alone (no storage): the view reads only the session."""
    return Session(Game(variant, deal), rng=random.Random(0))


def all_cards(view: BoardView) -> list[CardView]:
    return [c for col in view.columns for c in col] + list(view.reserve)


def first_deal(variant: str, test: Callable[[Position], bool], limit: int = 2000) -> int:
    for deal in range(limit):
        if test(deal_position(variant, deal)):
            return deal
    raise AssertionError(f"no {variant} deal below {limit} fits")


def play_until(
    variant: str, stop: Callable[[Game], bool], limit: int = 3000
) -> Session:
    """Play deals with random legal moves until ``stop(game)``; return that session."""
    for deal in range(limit):
        session = session_for(variant, deal)
        rng = random.Random(deal)
        game = session.game
        while True:
            if stop(game):
                return session
            if game.outcome() is not None:
                break
            game.push(rng.choice(game.legal_moves()))
    raise AssertionError(f"no {variant} deal below {limit} reaches the state")


def check_html(view: BoardView, position: Position) -> list[Element]:
    """The invariants every rendered board keeps; returns the card elements."""
    html = render_board(view)
    elements = parse(html)
    cards = [e for e in elements if "data-card" in e.attrs]
    avail = position.available()
    shown = [c for col in position.columns for c in col]
    if view.stock_open:
        shown += list(position.stock)
    else:
        shown += list(position.reserve)
    if view.turned is not None:  # the stock card the last turn paired, shown face up
        shown.append(view.turned.code)
    if position.unpaired is not None:
        shown.append(position.unpaired)
    assert [e.attrs["data-card"] for e in cards] == shown
    face_down = 0 if view.stock_open else len(position.stock)
    extra = view.turned is not None
    assert len(cards) - extra == view.cards_left - face_down == position.cards_left() - face_down
    turned = [e.attrs["data-card"] for e in cards if "data-turned" in e.attrs]
    if view.stock_open:
        assert turned == list(position.stock)
    else:
        last = position.unpaired or (view.turned.code if view.turned else None)
        assert turned == ([last] if last else [])
    for e in cards:
        code = e.attrs["data-card"]
        if code in avail:
            assert e.tag == "button"
            assert "data-available" in e.attrs
        else:
            assert e.tag != "button"
            assert "data-available" not in e.attrs
            assert "data-selected" not in e.attrs
    assert sum("data-available" in e.attrs for e in cards) == len(avail)
    turn = [e for e in elements if e.attrs.get("data-action") == "turn"]
    if view.has_stock and view.stock_count:
        assert len(turn) == 1
        assert turn[0].tag == "button"
        assert ("disabled" in turn[0].attrs) == (not view.can_turn_stock)
    else:
        assert turn == []
    assert parse(html)[0].attrs["data-cols"] == str(len(position.columns))
    return cards


# ---- a fresh deal --------------------------------------------------------------------


def test_fresh_standard_deal():
    session = session_for("standard", 42)
    view = board_view(session)
    pos = session.game.position
    assert (view.variant, view.variant_title, view.deal) == ("standard", "Standard", 42)
    assert len(view.columns) == 8
    assert all(len(col) == 6 for col in view.columns)
    assert len(view.reserve) == 4
    assert [c.code for c in view.reserve] == list(pos.reserve)
    assert [[c.code for c in col] for col in view.columns] == [list(c) for c in pos.columns]
    assert {c.code for c in all_cards(view) if c.available} == set(pos.available())
    assert len([c for c in all_cards(view) if c.available]) == 12
    assert not any(c.selected for c in all_cards(view))
    assert view.cards_left == 52
    assert view.moves_made == 0
    assert (view.can_undo, view.can_redo, view.can_turn_stock) == (False, False, False)
    assert view.outcome is None
    assert view.status == "Tap two available cards of the same rank to remove them."
    assert (view.has_stock, view.stock_count, view.stock_open, view.overlapping) == (
        False, 0, False, False,
    )
    assert view.unpaired is None
    assert view.spare == 4
    assert view.notice is None
    assert view.query == "?variant=standard&deal=42"
    check_html(view, pos)


def test_card_faces_and_names():
    deal = first_deal("standard", lambda p: "TH" in p.columns[2])
    view = board_view(session_for("standard", deal))
    ten = next(c for c in view.columns[2] if c.code == "TH")
    assert (ten.rank, ten.suit, ten.red) == ("10", "\u2665", True)
    assert ten.name == "ten of hearts, column 3"
    for i, col in enumerate(view.columns, 1):
        for c in col:
            assert c.name == f"{card_name(c.code)}, column {i}"
            assert c.rank == ("10" if c.code[0] == "T" else c.code[0])
            assert c.suit == SYMBOLS[c.code[1]]
            assert c.red is (c.code[1] in "HD")
    for c in view.reserve:
        assert c.name == f"{card_name(c.code)}, reserve"
    spades = [c for c in all_cards(view) if c.code[1] == "S"]
    assert len(spades) == 13
    assert not any(c.red for c in spades)
    html = render_board(view)
    element = next(e for e in cards_in(html) if e.attrs["data-card"] == "TH")
    assert element.attrs["aria-label"] == "ten of hearts, column 3"
    assert "red" in (element.attrs["class"] or "").split()
    rank_spans = [e for e in parse(markup.html(ten.node)) if e.attrs.get("class") == "rank"]
    assert [e.text for e in rank_spans] == ["10"]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_renders_its_deal(variant):
    session = session_for(variant, 7)
    view = board_view(session)
    v = VARIANTS[variant]
    assert len(view.columns) == v.columns
    assert all(len(col) == v.depth for col in view.columns)
    assert view.cards_left == 52
    check_html(view, session.game.position)


# ---- selection and outcomes ----------------------------------------------------------


def test_selection_is_shown():
    session = session_for("standard", 42)
    card = list(session.game.position.available())[3]
    assert session.tap(card)
    view = board_view(session)
    chosen = [c for c in all_cards(view) if c.selected]
    assert [c.code for c in chosen] == [card]
    assert chosen[0].available
    assert view.status == (
        f"Selected the {card_name(card)}: now tap another card of the same rank."
    )
    elements = check_html(view, session.game.position)
    marked = [e for e in elements if "data-selected" in e.attrs]
    assert [e.attrs["data-card"] for e in marked] == [card]
    assert marked[0].attrs["aria-pressed"] == "true"
    others = [e for e in elements if e.tag == "button" and e.attrs["data-card"] != card]
    assert others
    assert all(e.attrs["aria-pressed"] == "false" for e in others)


def test_a_stale_selection_is_not_shown():
    session = session_for("standard", 42)
    session.selected = session.game.position.columns[0][0]  # covered
    view = board_view(session)
    assert not any(c.selected for c in all_cards(view))
    assert view.status.startswith("Tap two")
    assert "data-selected" not in render_board(view)


def test_after_a_pair():
    deal = first_deal("standard", lambda p: bool(p.pairs()))
    session = session_for("standard", deal)
    pair = session.game.position.pairs()[0]
    session.tap(pair.first)
    session.tap(pair.second)
    view = board_view(session)
    assert (view.cards_left, view.moves_made, view.can_undo, view.can_redo) == (50, 1, True, False)
    assert pair.first not in render_board(view)
    session.undo()
    view = board_view(session)
    assert (view.cards_left, view.moves_made, view.can_undo, view.can_redo) == (52, 0, False, True)


def test_won_game():
    session = play_until("overlapping", lambda g: g.outcome() is Outcome.WON)
    view = board_view(session)
    assert view.outcome == "won"
    # The session was built from a played game, so its statistics counted nothing.
    assert view.status == "You won! Every card is paired off. Streak: 0 (best 0)."
    assert view.cards_left == 0
    assert view.moves_made == 26
    assert all(col == () for col in view.columns)
    assert view.reserve == ()
    html = render_board(view)
    assert cards_in(html) == []
    assert html.count('class="slot"') == 9  # eight empty columns and the empty reserve
    check_html(view, session.game.position)


def test_lost_game_no_pair():
    session = play_until("standard", lambda g: g.outcome() is Outcome.NO_PAIR)
    view = board_view(session)
    assert view.outcome == "lost"
    assert view.status == "Game lost: no pair is left to remove. Streak: 0 (best 0)."
    available = [c.code for c in all_cards(view) if c.available]
    assert len({rank_of(c) for c in available}) == len(available)
    check_html(view, session.game.position)


def test_lost_game_stock_unpaired():
    session = play_until("strict", lambda g: g.outcome() is Outcome.STOCK_UNPAIRED)
    pos = session.game.position
    assert pos.unpaired is not None
    view = board_view(session)
    assert view.outcome == "lost"
    assert view.status == (
        f"Game lost: the stock card, the {card_name(pos.unpaired)}, "
        "can't pair with any available card. Streak: 0 (best 0)."
    )
    assert view.unpaired is not None
    assert view.unpaired.code == pos.unpaired
    assert view.unpaired.available is False
    assert view.unpaired.name == f"{card_name(pos.unpaired)}, turned from the stock"
    assert not any(c.available for c in all_cards(view))
    assert view.can_turn_stock is False
    assert view.stock_count == len(pos.stock)
    cards = check_html(view, pos)
    assert cards[-1].attrs["data-card"] == pos.unpaired
    assert cards[-1].tag == "div"
    assert len(cards) == view.cards_left - view.stock_count


# ---- strict and overlapping ----------------------------------------------------------


def test_strict_fresh_deal():
    deal = first_deal("strict", lambda p: bool(p.pairs()))
    session = session_for("strict", deal)
    view = board_view(session)
    assert (view.has_stock, view.stock_count, view.stock_open, view.reserve) == (True, 4, False, ())
    assert view.can_turn_stock is False
    assert view.unpaired is None
    assert view.cards_left == 52
    cards = check_html(view, session.game.position)
    assert len(cards) == 48
    turn = [e for e in parse(render_board(view)) if e.attrs.get("data-action") == "turn"]
    assert "disabled" in turn[0].attrs
    assert turn[0].attrs["aria-label"] == "Stock, 4 cards left"


def test_strict_stuck_can_turn_the_stock():
    session = play_until("strict", lambda g: g.position.can_turn_stock())
    view = board_view(session)
    assert view.can_turn_stock is True
    assert view.outcome is None
    assert view.status == "No pair is left: turn the next stock card."
    turn = [e for e in parse(render_board(view)) if e.attrs.get("data-action") == "turn"]
    assert len(turn) == 1
    assert "disabled" not in turn[0].attrs
    check_html(view, session.game.position)


def test_strict_with_empty_tableau_turns_the_stock_face_up():
    session = play_until(
        "strict", lambda g: bool(g.position.stock) and not any(g.position.columns)
    )
    pos = session.game.position
    view = board_view(session)
    assert view.stock_open is True
    assert view.stock_count == 0
    assert view.outcome is None
    assert [c.code for c in view.reserve] == list(pos.stock)
    assert all(c.available for c in view.reserve)
    assert all(c.name == f"{card_name(c.code)}, stock" for c in view.reserve)
    html = render_board(view)
    assert 'aria-label="Stock (turned up)"' in html
    cards = check_html(view, pos)
    assert len(cards) == len(pos.stock) == view.cards_left
    # The face-up stock cards are played like any others.
    pair = pos.pairs()[0]
    assert session.tap(pair.first) and session.tap(pair.second)
    assert board_view(session).cards_left == view.cards_left - 2


def test_overlapping_reserve_opens_only_the_top_card():
    session = session_for("overlapping", 42)
    view = board_view(session)
    assert view.overlapping is True
    assert [c.available for c in view.reserve] == [False, False, False, True]
    assert view.reserve[-1].code == session.game.position.reserve[-1]
    html = render_board(view)
    section = next(e for e in parse(html) if e.tag == "section")
    assert section.attrs["class"] == "reserve overlapping"
    check_html(view, session.game.position)


# ---- escaping ------------------------------------------------------------------------


def test_names_are_escaped():
    evil = CardView(
        code="AS", rank="A", suit="\u2660", red=False,
        name='ace" onclick="x()"><script>alert(1)</script>', available=True, selected=False,
    )
    for card in (evil, CardView(**{**evil.__dict__, "available": False})):
        html = markup.html(card.node)
        elements = parse(html)
        assert "<script" not in html
        assert [e.tag for e in elements if e.tag == "script"] == []
        assert "onclick" not in elements[0].attrs
        assert elements[0].attrs["aria-label"] == evil.name


def test_html_follows_the_position_through_play():
    for variant in VARIANTS:
        for deal in range(5):
            session = session_for(variant, deal)
            rng = random.Random(deal)
            game = session.game
            while True:
                view = board_view(session)
                check_html(view, game.position)
                assert view.moves_made == game.cursor
                assert view.can_turn_stock == game.position.can_turn_stock()
                if game.outcome() is not None:
                    break
                move = rng.choice(game.legal_moves())
                if isinstance(move, Pair):
                    assert session.tap(move.first)
                    marked = [e for e in cards_in(render_board(board_view(session)))
                              if "data-selected" in e.attrs]
                    assert [e.attrs["data-card"] for e in marked] == [move.first]
                    assert session.tap(move.second)
                else:
                    assert session.turn_stock()
            outcome = game.outcome()
            assert outcome is not None
            assert view.outcome == outcome.result


# ---- what the screen reader hears about uncovered cards ------------------------------


def play(page: Page, move: Move) -> None:
    """Play ``move`` as the player does: two taps, or the stock button."""
    if isinstance(move, Pair):
        assert page.tap(move.first) and page.tap(move.second)
    else:
        assert page.turn_stock()


def test_cards_uncovered_in_a_column_are_announced_in_their_column():
    page = Page(query="?variant=standard&deal=7", rng=random.Random(0))
    before = page.session.position
    move = before.pairs()[0]
    play(page, move)
    after = page.session.position
    places = [
        f"the {card_name(c)} in column {after.available()[c].slot + 1}"
        for c in after.available() if c not in before.available()
    ]
    assert places
    assert page.announcement == (
        f"Removed the {card_name(move.first)} and the {card_name(move.second)}. "
        f"Now available: {', '.join(places)}."
    )


def test_stock_cards_turned_up_are_announced_in_the_stock():
    """Regression: in Strict, the move that empties the tableau turns the stock's cards up;
    the announcement said they were "in the reserve" while the board says "Stock"."""
    for deal in range(3000):
        game = Game("strict", deal)
        rng = random.Random(deal)
        while game.outcome() is None and any(game.position.columns):
            game.push(rng.choice(game.legal_moves()))
        if game.position.stock_turned_up:
            break
    else:
        raise AssertionError("no strict deal empties its tableau with stock left")
    page = Page(query=f"?variant=strict&deal={deal}", rng=random.Random(0))
    for move in game.moves:
        before = page.session.position
        play(page, move)
    after = page.session.position
    assert after == game.position and not before.stock_turned_up
    stock = ", ".join(f"the {card_name(c)} in the stock" for c in after.stock)
    text = page.announcement or ""
    assert text.endswith(f" Now available: {stock}.")
    assert "reserve" not in text
    view = page.view()  # the board says the same
    assert [c.code for c in view.reserve] == list(after.stock)
    assert all(c.name == f"{card_name(c.code)}, stock" for c in view.reserve)
    assert 'aria-label="Stock (turned up)"' in render_board(view)


# ---- play feel (issue 11): partners, the last move, the pair command -------------------


def test_every_available_card_carries_its_partners_and_the_selection_marks_them():
    session = session_for("standard", 7)
    pos = session.game.position
    elements = check_html(board_view(session), pos)
    for e in elements:
        if "data-available" in e.attrs:
            assert e.attrs["data-partners"] == " ".join(pos.partners(e.attrs["data-card"] or ""))
        elif "data-card" in e.attrs:
            assert "data-partners" not in e.attrs
    assert not any("data-partner" in e.attrs for e in elements)
    pair = pos.pairs()[0]
    session.tap(pair.first)
    marked = [e.attrs["data-card"] for e in check_html(board_view(session), pos)
              if "data-partner" in e.attrs]
    assert marked == list(pos.partners(pair.first)) and marked
    session.set_setting("highlight_partners", False)
    assert "data-partner " not in render_board(board_view(session))
    assert not any(c.partner for c in all_cards(board_view(session)))


def test_the_cards_a_move_uncovered_are_marked_until_the_next_move_or_undo():
    session = session_for("standard", 7)
    before = session.game.position
    pair = before.pairs()[0]
    session.tap(pair.first)
    events = session.tap(pair.second)
    uncovered = tuple(c for c, _place in events[0].uncovered)  # type: ignore[union-attr]
    assert uncovered == session.game.position.newly_available(before) and uncovered

    def marked() -> list[str]:
        return [c.code for c in all_cards(board_view(session)) if c.last_move]
    assert sorted(marked()) == sorted(uncovered)
    assert render_board(board_view(session)).count("data-last-move") == len(uncovered)
    session.tap(next(iter(session.game.position.available())))  # a selection: still marked
    assert sorted(marked()) == sorted(uncovered)
    session.undo()
    assert marked() == []
    session.redo()
    assert sorted(marked()) == sorted(uncovered)
    session.restart()
    assert marked() == []


def test_pair_plays_only_a_pair_and_keeps_the_selection_otherwise():
    session = session_for("standard", 7)
    pos = session.game.position
    pair = pos.pairs()[0]
    stranger = next(c for c in pos.available() if rank_of(c) != rank_of(pair.first))
    session.tap(stranger)
    assert session.pair(pair.first, stranger) == ()
    assert session.pair(pair.first, pos.columns[0][0]) == ()  # covered
    assert session.selected == stranger and session.game.cursor == 0
    events = session.pair(pair.second, pair.first)
    assert events and list(session.game.moves) == [pair] and session.selected is None


def test_strict_turned_card_is_drawn_face_up_until_the_next_move():
    # Strict deal 4: three pairs, then the stock's 5S pairs with the 5H.
    session = session_for("strict", 4)
    for text in ("3H-3S", "6C-6H", "8C-8S", "stock"):
        session.game.push(text)
    assert session.game.last_turned() == "5S"
    view = board_view(session)
    assert view.turned is not None and view.turned.code == "5S" and view.turned.turned
    cards = check_html(view, session.game.position)
    shown = [e for e in cards if e.attrs["data-card"] == "5S"]
    assert len(shown) == 1 and "data-turned" in shown[0].attrs and shown[0].tag != "button"
    session.game.push(session.game.legal_moves()[0])
    assert board_view(session).turned is None
    session.game.undo()
    assert board_view(session).turned is not None  # undo brings the turn back, and its card


ADVICE = {
    "en": {"touch": ("Tap two available cards", ": now tap another card"),
           "mouse": ("Click two available cards", ": now click another card"),
           "keyboard": ("Choose two available cards", ": now choose another card")},
    "de": {"touch": ("Tippe zwei freie Karten", "gewählt: Tippe jetzt"),
           "mouse": ("Klicke zwei freie Karten", "gewählt: Klicke jetzt"),
           "keyboard": ("Wähle zwei freie Karten", "gewählt: Wähle jetzt")},
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("pointer", ["touch", "mouse", "keyboard"])
def test_the_advice_is_worded_for_the_way_the_player_points(
    pointer: str, language: str, request: pytest.FixtureRequest
) -> None:
    """Issue 22 (7): a mouse player was told to tap. The status line's advice follows
    :attr:`Session.pointer` (the browser sets it from each press), in both languages."""
    if language == "de":
        request.getfixturevalue("german")
    first, then = ADVICE[language][pointer]
    session = session_for("standard", 42)
    session.pointer = pointer
    assert board_view(session).status.startswith(first)
    assert session.tap(list(session.game.position.available())[3])
    assert then in board_view(session).status


def test_a_card_redrawn_in_place_gets_the_attributes_of_a_card_drawn_afresh() -> None:
    # The actuator changes a drawn card with card_changes: the result is the card's own node.
    rng = random.Random(5)
    changed = replaced = 0
    for variant in ("standard", "strict", "overlapping"):
        session = Page(query=f"?variant={variant}&deal={rng.randrange(100)}", rng=rng).session
        session.set_setting("highlight_partners", True)
        for _ in range(40):
            before = {c.code: c for c in all_cards(board_view(session))}
            available = sorted(session.position.available())
            if not available or session.position.outcome() is not None:
                break
            session.tap(rng.choice(available))
            for card in all_cards(board_view(session)):
                was = before.get(card.code)
                if was is None or was == card:
                    continue
                changes = card_changes(was, card)
                if changes is None:
                    replaced += 1
                    assert was.node[0] != card.node[0] and was.available != card.available
                    continue
                changed += 1
                attributes = {**was.node[1], **changes}
                assert {k: v for k, v in attributes.items() if v is not None} == card.node[1]
    assert changed > 20 and replaced > 5

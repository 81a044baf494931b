"""The game manager (nestor_web.app.session) through a page (tests/webpage.py): the URL,
opening, saving and the player's taps."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from webpage import Page

from nestor import (
    MAX_DEAL,
    VARIANTS,
    DealNumberError,
    Game,
    NestorError,
    Outcome,
    Pair,
    Position,
    TurnStock,
    VariantError,
    deal_position,
    get_variant,
    rank_of,
)
from nestor.solver import solve
from nestor_web.app.events import DealChanged, Moved, Problem, Selected, TookBack
from nestor_web.app.url import DealRequest, parse_query
from nestor_web.storage.codecs import SAVE_VERSION, game_from_text
from nestor_web.storage.keys import (
    ARCHIVE_KEY,
    SAVE_KEY,
    SEQ_KEY,
    SETTINGS_KEY,
    STATS_KEY,
    UNREADABLE,
    KeyValueStore,
    MemoryStore,
)
from nestor_web.view.words import problem_text

UNREADABLE_KEY = SAVE_KEY + UNREADABLE
"""Where an unreadable saved game is set aside."""

SETTINGS = ("another.app", '{"sound":false}')
"""An unrelated key that the game must never touch."""


# ---- helpers -------------------------------------------------------------------------


def first_deal(variant: str, test: Callable[[Position], bool], limit: int = 2000) -> int:
    """The first deal number whose dealt position passes ``test``."""
    for deal in range(limit):
        if test(deal_position(variant, deal)):
            return deal
    raise AssertionError(f"no {variant} deal below {limit} fits")


def saved(store: KeyValueStore) -> dict[str, Any]:
    """The saved game in ``store``, decoded."""
    text = store.get(SAVE_KEY)
    assert text is not None
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def assert_saved(page: Page) -> None:
    """The store holds exactly the session's game, and it reloads to the same state."""
    session = page.session
    game = session.game
    data = saved(page.store)
    assert data == {
        "version": 1,
        "variant": game.variant.name,
        "deal": game.deal,
        "moves": [str(m) for m in game.all_moves],
        "cursor": game.cursor,
        "hints": session.help.hints,
        "solver_moves": session.help.solver_moves,
        "elapsed_ms": session.saved().elapsed_ms,
    }
    again = game_from_text(page.store.get(SAVE_KEY) or "").game
    assert again.position == game.position
    assert again.all_moves == game.all_moves
    assert again.cursor == game.cursor


def new_page(variant: str, deal: int, seed: int = 0, **data: str) -> Page:
    """A page opened on ``variant``/``deal`` over a store holding ``data``."""
    return Page(MemoryStore(data), f"?variant={variant}&deal={deal}", random.Random(seed))


def play_pair(page: Page, pair: Pair) -> None:
    """Tap the pair's two cards: the first selects it, the second removes the pair."""
    assert page.tap(pair.first) == (Selected(pair.first),)
    assert page.session.selected == pair.first
    events = page.tap(pair.second)
    assert len(events) == 1 and isinstance(events[0], Moved)
    assert events[0].move == pair
    assert page.session.selected is None


def saved_text(variant: str, deal: int, moves: list[str], cursor: int) -> str:
    return json.dumps(
        {"version": 1, "variant": variant, "deal": deal, "moves": moves, "cursor": cursor}
    )


def game_with_history(variant: str = "standard", deal: int = 42) -> Game:
    """A game three pairs in, with the last one undone (so it can be redone)."""
    rng = random.Random(deal)
    for d in range(deal, deal + 500):
        game = Game(variant, d)
        while game.cursor < 3 and game.position.pairs():
            game.push(rng.choice(game.position.pairs()))
        if game.cursor == 3:
            game.undo()
            return game
    raise AssertionError("no deal gives three pairs")


# ---- parse_query ---------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "?", "?foo=bar", "utm=x&y=z"])
def test_parse_query_without_deal(query):
    assert parse_query(query) == (None, None)


def test_parse_query_variant_and_deal():
    assert parse_query("?variant=strict&deal=42") == (
        DealRequest(get_variant("strict"), 42),
        None,
    )
    # The leading "?" is optional and names are case-insensitive.
    assert parse_query("variant=Doublets&deal=0") == (DealRequest(VARIANTS["doublets"], 0), None)
    assert parse_query("?variant=vertical&deal=4294967295") == (
        DealRequest(VARIANTS["vertical"], MAX_DEAL - 1),
        None,
    )


def test_parse_query_deal_alone_is_standard():
    assert parse_query("?deal=42") == (DealRequest(VARIANTS["standard"], 42), None)


def test_parse_query_variant_alone_asks_for_any_deal():
    assert parse_query("?variant=strict") == (DealRequest(VARIANTS["strict"], None), None)


def test_parse_query_bad_variant():
    request, problem = parse_query("?variant=nope&deal=3")
    assert request is None  # a bad link asks for nothing
    assert problem is not None
    assert problem.code == "link.variant"
    assert isinstance(problem.error, VariantError)
    assert problem.error.details["value"] == "nope"
    text = problem_text(problem)
    assert "variant" in text
    assert "“nope”" in text


@pytest.mark.parametrize("deal", ["-5", "abc", "4294967296", "", "3.5"])
def test_parse_query_bad_deal(deal):
    request, problem = parse_query(f"?variant=vertical&deal={deal}")
    assert request is None  # a bad link asks for nothing
    assert problem is not None
    assert problem.code == "link.deal"
    assert isinstance(problem.error, DealNumberError)
    assert "deal number" in problem_text(problem)


# ---- opening the page ----------------------------------------------------------------


def test_open_fresh_starts_a_random_standard_deal_and_saves_it():
    store = MemoryStore(dict([SETTINGS]))
    page = Page(store, "", random.Random(5))
    session = page.session
    expected_deal = random.Random(5).randrange(MAX_DEAL)
    assert session.game.variant is VARIANTS["standard"]
    assert session.game.deal == expected_deal
    assert session.game.cursor == 0
    assert session.game.position == deal_position("standard", expected_deal)
    assert page.notice is None
    assert session.selected is None
    assert json.loads(store.data[SAVE_KEY]) == {
        "version": 1,
        "variant": "standard",
        "deal": expected_deal,
        "moves": [],
        "cursor": 0,
        "hints": 0,
        "solver_moves": 0,
        "elapsed_ms": 0,
    }
    assert SAVE_VERSION == 1
    # The first visit also saves the settings, with the language it chose.
    assert store.data == {
        SETTINGS[0]: SETTINGS[1], SAVE_KEY: store.data[SAVE_KEY],
        SETTINGS_KEY: store.data[SETTINGS_KEY], SEQ_KEY: store.data[SEQ_KEY],
    }
    assert json.loads(store.data[SETTINGS_KEY])["language"] == "en"
    assert store.data[SEQ_KEY].isdigit()  # the save's number: other tabs catch up by it


def test_open_url_deal():
    store = MemoryStore()
    page = Page(store, "?variant=vertical&deal=42", random.Random(0))
    game = page.session.game
    assert (game.variant.name, game.deal, game.cursor) == ("vertical", 42, 0)
    assert game.position == deal_position("vertical", 42)
    assert page.notice is None
    assert saved(store)["deal"] == 42
    assert saved(store)["variant"] == "vertical"


def test_open_url_of_saved_deal_resumes_exactly():
    game = game_with_history("standard", 42)
    store = MemoryStore(
        {SAVE_KEY: json.dumps({"version": 1, **game.to_json()}), SETTINGS[0]: SETTINGS[1]}
    )
    page = Page(store, f"?variant=standard&deal={game.deal}", random.Random(0))
    session = page.session
    assert page.notice is None
    assert session.game.deal == game.deal
    assert session.game.all_moves == game.all_moves
    assert len(session.game.all_moves) == 3
    assert session.game.cursor == 2
    assert session.game.position == game.position
    assert page.redo()
    game.redo()
    assert session.game.position == game.position
    assert session.game.cursor == 3
    assert store.data[SETTINGS[0]] == SETTINGS[1]


def test_open_url_of_another_deal_starts_it_fresh():
    game = game_with_history("standard", 42)
    text = json.dumps({"version": 1, **game.to_json()})
    for query, variant, deal in [
        (f"?variant=standard&deal={game.deal + 1}", "standard", game.deal + 1),
        (f"?variant=overlapping&deal={game.deal}", "overlapping", game.deal),
    ]:
        store = MemoryStore({SAVE_KEY: text})
        page = Page(store, query, random.Random(0))
        session = page.session
        assert (session.game.variant.name, session.game.deal) == (variant, deal)
        assert session.game.all_moves == ()
        assert session.game.position == deal_position(variant, deal)
        assert page.notice is None
        assert saved(store) == {
            "version": 1, "variant": variant, "deal": deal, "moves": [], "cursor": 0,
            "hints": 0, "solver_moves": 0, "elapsed_ms": 0,
        }


def test_open_without_url_resumes_the_saved_game():
    game = game_with_history("doublets", 7)
    text = json.dumps({"version": 1, **game.to_json()})
    store = MemoryStore({SAVE_KEY: text})
    page = Page(store, "", random.Random(0))
    session = page.session
    assert page.notice is None
    assert session.game.variant is VARIANTS["doublets"]
    assert session.game.deal == game.deal
    assert session.game.all_moves == game.all_moves
    assert session.game.cursor == game.cursor == 2
    assert session.game.position == game.position
    assert session.game.can_redo()


def test_open_variant_only_url_starts_a_random_deal_of_that_variant():
    page = Page(MemoryStore(), "?variant=strict", random.Random(9))
    assert page.session.game.variant is VARIANTS["strict"]
    assert page.session.game.deal == random.Random(9).randrange(MAX_DEAL)
    assert page.notice is None


def _illegal_move_text() -> str:
    """A pair of equal rank that is not playable at the start of standard deal 0."""
    start = deal_position("standard", 0)
    covered = start.columns[0][0]
    other = next(
        c for col in start.columns for c in col if rank_of(c) == rank_of(covered) and c != covered
    )
    return str(Pair(covered, other))


CORRUPT = {
    "bad json": '{"version": 1, "variant": "standard", ',
    "json list": "[1, 2, 3]",
    # Regression: json.loads raised RecursionError, which crashed opening the page.
    "nested too deep": "[" * 100_000,
    "json string": '"standard 4"',
    "wrong version": saved_text("standard", 4, [], 0).replace('"version": 1', '"version": 2'),
    "no version": json.dumps({"variant": "standard", "deal": 4, "moves": [], "cursor": 0}),
    "unknown variant": saved_text("spider", 4, [], 0),
    "bad deal": saved_text("standard", -4, [], 0),
    "unreadable move": saved_text("standard", 4, ["XX-YY"], 1),
    "illegal move": saved_text("standard", 0, [_illegal_move_text()], 1),
    "cursor too big": saved_text("standard", 0, [], 1),
    "negative cursor": saved_text("standard", 0, [], -1),
    "missing moves": json.dumps({"version": 1, "variant": "standard", "deal": 4}),
}


@pytest.mark.parametrize("text", CORRUPT.values(), ids=CORRUPT.keys())
def test_open_with_unreadable_save_sets_it_aside(text):
    with pytest.raises(NestorError):
        game_from_text(text)
    store = MemoryStore({SAVE_KEY: text, SETTINGS[0]: SETTINGS[1]})
    page = Page(store, "", random.Random(3))
    session = page.session
    assert page.notice is not None
    assert "saved game could not be read" in page.notice
    assert session.game.variant is VARIANTS["standard"]
    assert session.game.deal == random.Random(3).randrange(MAX_DEAL)
    assert session.game.cursor == 0
    assert store.data[UNREADABLE_KEY] == text
    assert store.data[SETTINGS[0]] == SETTINGS[1]
    assert set(store.data) == {SAVE_KEY, UNREADABLE_KEY, SETTINGS[0], SETTINGS_KEY, SEQ_KEY}
    assert saved(store) == {
        "version": 1, "variant": "standard", "deal": session.game.deal, "moves": [], "cursor": 0,
        "hints": 0, "solver_moves": 0, "elapsed_ms": 0,
    }


def test_open_with_unreadable_save_and_url_plays_the_url_deal():
    store = MemoryStore({SAVE_KEY: "nonsense"})
    page = Page(store, "?variant=strict&deal=12", random.Random(0))
    assert (page.session.game.variant.name, page.session.game.deal) == ("strict", 12)
    assert page.notice is not None
    assert "saved game could not be read" in page.notice
    assert store.data[UNREADABLE_KEY] == "nonsense"


@pytest.mark.parametrize(
    ("query", "variant", "word"),
    [
        ("?variant=nope&deal=3", "standard", "variant"),
        ("?variant=vertical&deal=-5", "standard", "deal number"),
        ("?deal=abc", "standard", "deal number"),
    ],
)
def test_open_with_bad_url_reports_and_deals_at_random(query, variant, word):
    # Nothing saved: the page starts as with no link (a random standard deal), and says why.
    store = MemoryStore(dict([SETTINGS]))
    page = Page(store, query, random.Random(11))
    session = page.session
    assert page.notice is not None
    assert word in page.notice
    assert session.game.variant is VARIANTS[variant]
    assert session.game.deal == random.Random(11).randrange(MAX_DEAL)
    assert session.game.cursor == 0
    assert store.data[SETTINGS[0]] == SETTINGS[1]
    assert UNREADABLE_KEY not in store.data
    assert saved(store)["deal"] == session.game.deal


BAD_LINKS = [
    "?variant=standard&deal=abc", "?variant=standard&deal=-1",
    "?variant=standard&deal=99999999999999999999", "?variant=standard&deal=4294967296",
    "?variant=standard&deal=\uff17", "?variant=%3Cscript%3Ealert(1)%3C/script%3E&deal=3",
    "?variant=nope&deal=20", "?variant=nope",
]


@pytest.mark.parametrize("query", BAD_LINKS)
def test_a_bad_link_changes_nothing_but_the_notice(query: str) -> None:
    # Issue 19: deal 1 won, three pairs made on deal 20; a bad link opened next resumed a
    # random deal, counted deal 20 as lost and broke the streak.
    store = MemoryStore(dict([SETTINGS]))
    page = Page(store, "?variant=standard&deal=1", random.Random(1))
    for move in solve(page.session.position).line:
        page.tap(move.cards[0])
        page.tap(move.cards[1])
    assert page.session.game.outcome() is Outcome.WON
    page = Page(store, "?variant=standard&deal=20", random.Random(2))
    for _ in range(3):
        move = page.session.position.pairs()[0]
        page.tap(move.first)
        page.tap(move.second)
    game, stats = store.data[SAVE_KEY], store.data[STATS_KEY]
    page = Page(store, query, random.Random(3))
    assert page.notice is not None and ("deal number" in page.notice or "variant" in page.notice)
    assert page.session.key == ("standard", 20) and page.session.game.cursor == 3
    assert page.session.can_undo()
    assert page.session.query() == "?variant=standard&deal=20"  # the address the page shows
    assert store.data[SAVE_KEY] == game and store.data[STATS_KEY] == stats
    summary = page.session.stats.summary("standard")
    assert (summary.played, summary.won, summary.streak) == (2, 1, 1)


# ---- a link resumes the deal's archived progress (regression) --------------------------


def archived(variant: str, deal: int, moves: int = 2) -> tuple[Game, str]:
    """A game of ``variant``/``deal`` with ``moves`` pairs made, and the archive holding it
    (the stored shape ``{"variant/deal": saved-game text}``)."""
    game = Game(variant, deal)
    for _ in range(moves):
        game.push(game.position.pairs()[0])
    text = json.dumps({"version": 1, **game.to_json(), "hints": 0, "solver_moves": 0})
    return game, json.dumps({f"{variant}/{deal}": text})


@pytest.mark.parametrize("deal", [0, 5])
@pytest.mark.parametrize("save", [None, "nonsense"], ids=["no save", "unreadable save"])
def test_a_link_resumes_the_archived_progress_of_its_deal(deal: int, save: str | None) -> None:
    """Regression: with no save (or an unreadable one), deal 0's link started it afresh: the
    placeholder game was standard deal 0, so opening it looked like "already in play"."""
    game, archive = archived("standard", deal)
    data = {ARCHIVE_KEY: archive} if save is None else {ARCHIVE_KEY: archive, SAVE_KEY: save}
    store = MemoryStore(data)
    page = Page(store, f"?variant=standard&deal={deal}", random.Random(0))
    assert page.session.key == ("standard", deal)
    assert page.session.game.moves == game.moves and page.session.game.cursor == 2
    assert page.session.game.position == game.position
    assert json.loads(store.data[ARCHIVE_KEY]) == {}  # taken out of the archive
    assert saved(store)["moves"] == [str(m) for m in game.moves]
    assert ("saved game could not be read" in (page.notice or "")) == (save is not None)


def test_a_link_to_the_deal_the_random_draw_would_pick_resumes_too() -> None:
    """The same fault without deal 0: nothing saved, and the link names the very deal the
    page's first random draw gives. Opening it must still take it from the archive."""
    deal = random.Random(4).randrange(MAX_DEAL)
    game, archive = archived("standard", deal, moves=1)
    page = Page(MemoryStore({ARCHIVE_KEY: archive}), f"?deal={deal}", random.Random(4))
    assert page.session.game.moves == game.moves


# ---- tap -----------------------------------------------------------------------------


def test_tap_unavailable_card_does_nothing():
    page = new_page("standard", 3)
    session = page.session
    covered = session.game.position.columns[0][0]
    assert covered not in session.game.position.available()
    before = page.store.get(SAVE_KEY)
    assert page.tap(covered) == ()
    assert session.selected is None
    assert page.tap("ZZ") == ()
    assert session.selected is None
    assert session.game.cursor == 0
    assert page.store.get(SAVE_KEY) == before


def test_tap_selects_deselects_and_moves_the_selection():
    deal = first_deal("standard", lambda p: len({rank_of(c) for c in p.available()}) >= 2)
    page = new_page("standard", deal)
    session = page.session
    avail = list(session.game.position.available())
    a = avail[0]
    b = next(c for c in avail if rank_of(c) != rank_of(a))
    assert page.tap(a) == (Selected(a),)
    assert session.selected == a
    assert page.tap(a) == (Selected(None),)
    assert session.selected is None
    assert page.tap(a)
    assert page.tap(b) == (Selected(b),)
    assert session.selected == b
    assert session.game.cursor == 0
    # A covered card leaves the selection alone.
    assert page.tap(session.game.position.columns[0][0]) == ()
    assert session.selected == b


def test_tap_two_cards_of_a_rank_removes_the_pair():
    deal = first_deal("standard", lambda p: bool(p.pairs()))
    page = new_page("standard", deal, **dict([SETTINGS]))
    session = page.session
    pair = session.game.position.pairs()[0]
    assert page.tap(pair.second)
    assert page.tap(pair.first)
    assert session.selected is None
    assert session.game.cursor == 1
    assert session.game.moves == (pair,)
    assert session.game.position.cards_left() == 50
    assert pair.first not in session.game.position.available()
    assert pair.second not in session.game.position.available()
    assert saved(page.store) == {
        "version": 1, "variant": "standard", "deal": deal, "moves": [str(pair)], "cursor": 1,
        "hints": 0, "solver_moves": 0, "elapsed_ms": 0,
    }
    assert page.store.get(SETTINGS[0]) == SETTINGS[1]


def test_tap_does_nothing_once_the_game_is_over():
    # A lost standard game still shows available cards; tapping them does nothing.
    for deal in range(200):
        page = new_page("standard", deal, seed=deal)
        rng = random.Random(deal)
        while page.session.game.outcome() is None:
            play_pair(page, rng.choice(page.session.game.position.pairs()))
        if page.session.game.outcome() is Outcome.NO_PAIR:
            break
    else:
        raise AssertionError("no lost game found")
    avail = list(page.session.game.position.available())
    assert avail
    before = page.store.get(SAVE_KEY)
    for card in avail:
        assert page.tap(card) == ()
        assert page.session.selected is None
    assert page.store.get(SAVE_KEY) == before


# ---- other actions -------------------------------------------------------------------


def test_undo_redo_save_and_report():
    page = new_page("standard", first_deal("standard", lambda p: bool(p.pairs())))
    session = page.session
    assert page.undo() == ()
    assert page.redo() == ()
    pair = session.game.position.pairs()[0]
    play_pair(page, pair)
    after = session.game.position
    page.tap(next(iter(after.available())))
    assert session.selected is not None
    assert page.undo() == (TookBack(pair),)
    assert session.selected is None
    assert session.game.cursor == 0
    assert session.game.position == deal_position("standard", session.game.deal)
    assert saved(page.store)["cursor"] == 0
    assert saved(page.store)["moves"] == [str(pair)]
    assert_saved(page)
    assert page.undo() == ()
    redone = page.redo()
    assert len(redone) == 1 and isinstance(redone[0], Moved) and redone[0].move == pair
    assert session.game.position == after
    assert saved(page.store)["cursor"] == 1
    assert_saved(page)
    assert page.redo() == ()


def test_restart_returns_to_the_deal():
    game = game_with_history("vertical", 30)
    store = MemoryStore({SAVE_KEY: json.dumps({"version": 1, **game.to_json()})})
    page = Page(store, "", random.Random(0))
    page.run(page.session.notice(Problem("winnable.not_found")))
    assert page.notice is not None
    assert page.restart() == (DealChanged("vertical", game.deal, restarted=True, left=True),)
    session = page.session
    assert session.game.variant is VARIANTS["vertical"]
    assert session.game.deal == game.deal
    assert session.game.cursor == 0
    assert session.game.all_moves == ()
    assert session.game.position == deal_position("vertical", game.deal)
    assert page.notice is None
    assert saved(store) == {
        "version": 1, "variant": "vertical", "deal": game.deal, "moves": [], "cursor": 0,
        "hints": 0, "solver_moves": 0, "elapsed_ms": 0,
    }
    # A new deal clears the notices too; going to a deal by its link does not.
    page.run(page.session.notice(Problem("winnable.not_found")))
    page.open_deal("vertical", game.deal + 1)
    assert page.notice is not None
    page.new_deal()
    assert page.notice is None


def test_new_deal_draws_from_the_session_rng():
    page = new_page("standard", 5, seed=7)
    draws = random.Random(7)
    page.new_deal("doublets")
    game = page.session.game
    assert game.variant is VARIANTS["doublets"]
    assert game.deal == draws.randrange(MAX_DEAL)
    assert game.position == deal_position("doublets", game.deal)
    assert_saved(page)
    page.new_deal()
    assert page.session.game.variant is VARIANTS["doublets"]
    assert page.session.game.deal == draws.randrange(MAX_DEAL)
    assert_saved(page)


def test_new_deal_with_unknown_variant_changes_nothing():
    page = new_page("strict", 5, seed=7)
    before = page.store.get(SAVE_KEY)
    with pytest.raises(VariantError):
        page.new_deal("klondike")
    assert page.session.key == ("strict", 5)
    assert page.store.get(SAVE_KEY) == before


def test_open_deal():
    page = new_page("standard", 5)
    page.tap(next(iter(page.session.position.available())))
    assert page.session.selected is not None
    page.open_deal("overlapping", "17")
    game = page.session.game
    assert (game.variant.name, game.deal, game.cursor) == ("overlapping", 17, 0)
    assert page.session.selected is None
    assert_saved(page)
    with pytest.raises(DealNumberError):
        page.open_deal("standard", -1)
    with pytest.raises(VariantError):
        page.open_deal("nope", 3)
    assert page.session.key == ("overlapping", 17)


def test_turn_stock_only_when_stuck_in_strict():
    rng = random.Random(1)
    for deal in range(100):
        page = new_page("strict", deal)
        while page.session.game.position.pairs():
            assert page.turn_stock() == ()
            play_pair(page, rng.choice(page.session.game.position.pairs()))
        if page.session.game.position.can_turn_stock():
            break
    else:
        raise AssertionError("no strict deal gets stuck")
    session = page.session
    cursor = session.game.cursor
    stock = session.game.position.stock
    assert session.game.legal_moves() == [TurnStock()]
    page.tap(next(iter(session.game.position.available())))
    events = page.turn_stock()
    assert len(events) == 1 and isinstance(events[0], Moved)
    assert events[0].turned == stock[0]
    assert session.selected is None
    assert session.game.cursor == cursor + 1
    assert session.game.position.stock == stock[1:]
    assert saved(page.store)["moves"][-1] == "stock"
    assert_saved(page)


def test_turn_stock_never_without_a_stock():
    page = new_page("standard", 0)
    assert page.turn_stock() == ()
    assert page.session.game.cursor == 0


@pytest.mark.parametrize(("variant", "deal"), [("standard", 0), ("overlapping", 4294967295)])
def test_query(variant, deal):
    page = new_page(variant, deal)
    assert page.session.query() == f"?variant={variant}&deal={deal}"
    assert parse_query(page.session.query()) == (DealRequest(VARIANTS[variant], deal), None)


# ---- whole games ---------------------------------------------------------------------


def test_whole_games_through_the_session():
    outcomes: Counter[tuple[str, Outcome]] = Counter()
    for variant in VARIANTS:
        for deal in range(60):
            store = MemoryStore(dict([SETTINGS]))
            page = Page(
                store, f"?variant={variant}&deal={deal}", random.Random(0), keep_board=False
            )
            rng = random.Random(deal)
            game = page.session.game
            while game.outcome() is None:
                assert game.cursor < 52
                moves = game.legal_moves()
                move = rng.choice(moves)
                if isinstance(move, Pair):
                    play_pair(page, move)
                else:
                    assert moves == [TurnStock()]
                    assert page.turn_stock()
                text = store.get(SAVE_KEY)
                assert text is not None
                again = game_from_text(text).game
                assert again.position == game.position
                assert again.cursor == game.cursor
                if game.cursor % 7 == 3:
                    here = game.position
                    assert page.undo()
                    assert game_from_text(store.get(SAVE_KEY) or "").game.position == (
                        game.position
                    )
                    assert page.redo()
                    assert game.position == here
            outcome = game.outcome()
            assert outcome is not None
            assert (game.position.cards_left() == 0) == (outcome is Outcome.WON)
            outcomes[variant, outcome] += 1
            assert store.data[SETTINGS[0]] == SETTINGS[1]
            reopened = Page(store, "", random.Random(0))
            assert reopened.notice is None
            assert reopened.session.game.position == game.position
            assert reopened.session.game.outcome() is outcome
    assert sum(outcomes.values()) == 300
    assert outcomes["doublets", Outcome.WON] > 0
    assert outcomes["standard", Outcome.NO_PAIR] > 0
    assert outcomes["strict", Outcome.STOCK_UNPAIRED] > 0


def test_auto_pair_removes_a_pair_with_a_single_partner_at_once():
    # Find a deal whose start has a rank with exactly two available cards.
    for deal in range(200):
        start = deal_position("standard", deal)
        avail = list(start.available())
        ranks = Counter(rank_of(c) for c in avail)
        single = [c for c in avail if ranks[rank_of(c)] == 2]
        triple = [c for c in avail if ranks[rank_of(c)] == 3]
        if single and triple:
            break
    else:
        raise AssertionError("no suitable deal")
    page = new_page("standard", deal)
    page.set_setting("auto_pair", True)
    assert json.loads(page.store.get(SETTINGS_KEY) or "")["auto_pair"] is True
    events = page.tap(single[0])
    assert len(events) == 1 and isinstance(events[0], Moved)
    assert set(events[0].removed) == {single[0], *start.partners(single[0])}
    assert page.session.game.cursor == 1 and page.session.selected is None
    # With two possible partners, the tap only selects.
    assert page.tap(triple[0]) == (Selected(triple[0]),)
    assert page.session.game.cursor == 1 and page.session.selected == triple[0]
    # Off (the default): a tap only selects.
    plain = new_page("standard", deal)
    plain.tap(single[0])
    assert plain.session.game.cursor == 0 and plain.session.selected == single[0]

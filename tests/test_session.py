"""The game manager (nestor_web.session): URL parsing, opening, saving and the player's taps."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

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
from nestor_web.session import (
    SAVE_KEY,
    SAVE_VERSION,
    SETTINGS_KEY,
    UNREADABLE_KEY,
    DealRequest,
    MemoryStorage,
    Session,
    Storage,
    load_saved,
    parse_query,
)

SETTINGS = ("another.app", '{"sound":false}')
"""An unrelated key that the session must never touch."""


# ---- helpers -------------------------------------------------------------------------


def first_deal(variant: str, test: Callable[[Position], bool], limit: int = 2000) -> int:
    """The first deal number whose dealt position passes ``test``."""
    for deal in range(limit):
        if test(deal_position(variant, deal)):
            return deal
    raise AssertionError(f"no {variant} deal below {limit} fits")


def saved(storage: Storage) -> dict[str, Any]:
    """The saved game in ``storage``, decoded."""
    text = storage.get(SAVE_KEY)
    assert text is not None
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def assert_saved(session: Session) -> None:
    """The storage holds exactly the session's game, and it reloads to the same state."""
    game = session.game
    data = saved(session.storage)
    assert data == {
        "version": 1,
        "variant": game.variant.name,
        "deal": game.deal,
        "moves": [str(m) for m in game.all_moves],
        "cursor": game.cursor,
        "hints": session.hints,
        "solver_moves": session.solver_moves,
    }
    again = load_saved(session.storage.get(SAVE_KEY) or "")
    assert again.position == game.position
    assert again.all_moves == game.all_moves
    assert again.cursor == game.cursor


def new_session(variant: str, deal: int, seed: int = 0, **data: str) -> Session:
    return Session(Game(variant, deal), MemoryStorage(data), random.Random(seed))


def play_pair(session: Session, pair: Pair) -> None:
    assert session.tap(pair.first) is True
    assert session.selected == pair.first
    assert session.tap(pair.second) is True
    assert session.selected is None


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
    assert request == DealRequest(VARIANTS["standard"], None)
    assert problem is not None
    assert "variant" in problem
    assert "'nope'" in problem


@pytest.mark.parametrize("deal", ["-5", "abc", "4294967296", "", "3.5"])
def test_parse_query_bad_deal(deal):
    request, problem = parse_query(f"?variant=vertical&deal={deal}")
    assert request == DealRequest(VARIANTS["vertical"], None)
    assert problem is not None
    assert "deal number" in problem


# ---- Session.open --------------------------------------------------------------------


def test_open_fresh_starts_a_random_standard_deal_and_saves_it():
    storage = MemoryStorage(dict([SETTINGS]))
    session = Session.open(storage, "", random.Random(5))
    expected_deal = random.Random(5).randrange(MAX_DEAL)
    assert session.game.variant is VARIANTS["standard"]
    assert session.game.deal == expected_deal
    assert session.game.cursor == 0
    assert session.game.position == deal_position("standard", expected_deal)
    assert session.notice is None
    assert session.selected is None
    assert json.loads(storage.data[SAVE_KEY]) == {
        "version": 1,
        "variant": "standard",
        "deal": expected_deal,
        "moves": [],
        "cursor": 0,
        "hints": 0,
        "solver_moves": 0,
    }
    assert SAVE_VERSION == 1
    # The first visit also saves the settings, with the language it chose.
    assert storage.data == {
        SETTINGS[0]: SETTINGS[1], SAVE_KEY: storage.data[SAVE_KEY],
        SETTINGS_KEY: storage.data[SETTINGS_KEY],
    }
    assert json.loads(storage.data[SETTINGS_KEY])["language"] == "en"


def test_open_url_deal():
    storage = MemoryStorage()
    session = Session.open(storage, "?variant=vertical&deal=42", random.Random(0))
    assert (session.game.variant.name, session.game.deal, session.game.cursor) == (
        "vertical",
        42,
        0,
    )
    assert session.game.position == deal_position("vertical", 42)
    assert session.notice is None
    assert saved(storage)["deal"] == 42
    assert saved(storage)["variant"] == "vertical"


def test_open_url_of_saved_deal_resumes_exactly():
    game = game_with_history("standard", 42)
    storage = MemoryStorage(
        {SAVE_KEY: json.dumps({"version": 1, **game.to_json()}), SETTINGS[0]: SETTINGS[1]}
    )
    session = Session.open(storage, f"?variant=standard&deal={game.deal}", random.Random(0))
    assert session.notice is None
    assert session.game.deal == game.deal
    assert session.game.all_moves == game.all_moves
    assert len(session.game.all_moves) == 3
    assert session.game.cursor == 2
    assert session.game.position == game.position
    assert session.redo() is True
    game.redo()
    assert session.game.position == game.position
    assert session.game.cursor == 3
    assert storage.data[SETTINGS[0]] == SETTINGS[1]


def test_open_url_of_another_deal_starts_it_fresh():
    game = game_with_history("standard", 42)
    text = json.dumps({"version": 1, **game.to_json()})
    for query, variant, deal in [
        (f"?variant=standard&deal={game.deal + 1}", "standard", game.deal + 1),
        (f"?variant=overlapping&deal={game.deal}", "overlapping", game.deal),
    ]:
        storage = MemoryStorage({SAVE_KEY: text})
        session = Session.open(storage, query, random.Random(0))
        assert (session.game.variant.name, session.game.deal) == (variant, deal)
        assert session.game.all_moves == ()
        assert session.game.position == deal_position(variant, deal)
        assert session.notice is None
        assert saved(storage) == {
            "version": 1, "variant": variant, "deal": deal, "moves": [], "cursor": 0,
            "hints": 0, "solver_moves": 0,
        }


def test_open_without_url_resumes_the_saved_game():
    game = game_with_history("doublets", 7)
    text = json.dumps({"version": 1, **game.to_json()})
    storage = MemoryStorage({SAVE_KEY: text})
    session = Session.open(storage, "", random.Random(0))
    assert session.notice is None
    assert session.game.variant is VARIANTS["doublets"]
    assert session.game.deal == game.deal
    assert session.game.all_moves == game.all_moves
    assert session.game.cursor == game.cursor == 2
    assert session.game.position == game.position
    assert session.game.can_redo()


def test_open_variant_only_url_starts_a_random_deal_of_that_variant():
    storage = MemoryStorage()
    session = Session.open(storage, "?variant=strict", random.Random(9))
    assert session.game.variant is VARIANTS["strict"]
    assert session.game.deal == random.Random(9).randrange(MAX_DEAL)
    assert session.notice is None


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
    # Regression: json.loads raised RecursionError, which crashed Session.open.
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
        load_saved(text)
    storage = MemoryStorage({SAVE_KEY: text, SETTINGS[0]: SETTINGS[1]})
    session = Session.open(storage, "", random.Random(3))
    assert session.notice is not None
    assert "saved game could not be read" in session.notice
    assert session.game.variant is VARIANTS["standard"]
    assert session.game.deal == random.Random(3).randrange(MAX_DEAL)
    assert session.game.cursor == 0
    assert storage.data[UNREADABLE_KEY] == text
    assert storage.data[SETTINGS[0]] == SETTINGS[1]
    assert set(storage.data) == {SAVE_KEY, UNREADABLE_KEY, SETTINGS[0], SETTINGS_KEY}
    assert saved(storage) == {
        "version": 1, "variant": "standard", "deal": session.game.deal, "moves": [], "cursor": 0,
        "hints": 0, "solver_moves": 0,
    }


def test_open_with_unreadable_save_and_url_plays_the_url_deal():
    storage = MemoryStorage({SAVE_KEY: "nonsense"})
    session = Session.open(storage, "?variant=strict&deal=12", random.Random(0))
    assert (session.game.variant.name, session.game.deal) == ("strict", 12)
    assert session.notice is not None
    assert "saved game could not be read" in session.notice
    assert storage.data[UNREADABLE_KEY] == "nonsense"


@pytest.mark.parametrize(
    ("query", "variant", "word"),
    [
        ("?variant=nope&deal=3", "standard", "variant"),
        ("?variant=vertical&deal=-5", "vertical", "deal number"),
        ("?deal=abc", "standard", "deal number"),
    ],
)
def test_open_with_bad_url_reports_and_deals_at_random(query, variant, word):
    storage = MemoryStorage(dict([SETTINGS]))
    session = Session.open(storage, query, random.Random(11))
    assert session.notice is not None
    assert word in session.notice
    assert session.game.variant is VARIANTS[variant]
    assert session.game.deal == random.Random(11).randrange(MAX_DEAL)
    assert session.game.cursor == 0
    assert storage.data[SETTINGS[0]] == SETTINGS[1]
    assert UNREADABLE_KEY not in storage.data
    assert saved(storage)["deal"] == session.game.deal


# ---- tap -----------------------------------------------------------------------------


def test_tap_unavailable_card_does_nothing():
    session = new_session("standard", 3)
    covered = session.game.position.columns[0][0]
    assert covered not in session.game.position.available()
    before = session.storage.get(SAVE_KEY)
    assert session.tap(covered) is False
    assert session.selected is None
    assert session.tap("ZZ") is False
    assert session.selected is None
    assert session.game.cursor == 0
    assert session.storage.get(SAVE_KEY) == before


def test_tap_selects_deselects_and_moves_the_selection():
    deal = first_deal("standard", lambda p: len({rank_of(c) for c in p.available()}) >= 2)
    session = new_session("standard", deal)
    avail = list(session.game.position.available())
    a = avail[0]
    b = next(c for c in avail if rank_of(c) != rank_of(a))
    assert session.tap(a) is True
    assert session.selected == a
    assert session.tap(a) is True
    assert session.selected is None
    assert session.tap(a) is True
    assert session.tap(b) is True
    assert session.selected == b
    assert session.game.cursor == 0
    # A covered card leaves the selection alone.
    assert session.tap(session.game.position.columns[0][0]) is False
    assert session.selected == b


def test_tap_two_cards_of_a_rank_removes_the_pair():
    deal = first_deal("standard", lambda p: bool(p.pairs()))
    storage = MemoryStorage(dict([SETTINGS]))
    session = Session(Game("standard", deal), storage, random.Random(0))
    pair = session.game.position.pairs()[0]
    assert session.tap(pair.second) is True
    assert session.tap(pair.first) is True
    assert session.selected is None
    assert session.game.cursor == 1
    assert session.game.moves == (pair,)
    assert session.game.position.cards_left() == 50
    assert pair.first not in session.game.position.available()
    assert pair.second not in session.game.position.available()
    assert saved(storage) == {
        "version": 1, "variant": "standard", "deal": deal, "moves": [str(pair)], "cursor": 1,
        "hints": 0, "solver_moves": 0,
    }
    assert storage.data[SETTINGS[0]] == SETTINGS[1]


def test_tap_does_nothing_once_the_game_is_over():
    # A lost standard game still shows available cards; tapping them does nothing.
    for deal in range(200):
        session = new_session("standard", deal, seed=deal)
        rng = random.Random(deal)
        while session.game.outcome() is None:
            play_pair(session, rng.choice(session.game.position.pairs()))
        if session.game.outcome() is Outcome.NO_PAIR:
            break
    else:
        raise AssertionError("no lost game found")
    avail = list(session.game.position.available())
    assert avail
    before = session.storage.get(SAVE_KEY)
    for card in avail:
        assert session.tap(card) is False
        assert session.selected is None
    assert session.storage.get(SAVE_KEY) == before


# ---- other actions -------------------------------------------------------------------


def test_undo_redo_save_and_report():
    session = new_session("standard", first_deal("standard", lambda p: bool(p.pairs())))
    assert session.undo() is False
    assert session.redo() is False
    pair = session.game.position.pairs()[0]
    play_pair(session, pair)
    after = session.game.position
    session.tap(next(iter(after.available())))
    assert session.selected is not None
    assert session.undo() is True
    assert session.selected is None
    assert session.game.cursor == 0
    assert session.game.position == deal_position("standard", session.game.deal)
    assert saved(session.storage)["cursor"] == 0
    assert saved(session.storage)["moves"] == [str(pair)]
    assert_saved(session)
    assert session.undo() is False
    assert session.redo() is True
    assert session.game.position == after
    assert saved(session.storage)["cursor"] == 1
    assert_saved(session)
    assert session.redo() is False


def test_restart_returns_to_the_deal():
    game = game_with_history("vertical", 30)
    storage = MemoryStorage({SAVE_KEY: json.dumps({"version": 1, **game.to_json()})})
    session = Session.open(storage, "", random.Random(0))
    session.notice = "old problem"
    session.restart()
    assert session.game.variant is VARIANTS["vertical"]
    assert session.game.deal == game.deal
    assert session.game.cursor == 0
    assert session.game.all_moves == ()
    assert session.game.position == deal_position("vertical", game.deal)
    assert session.notice is None
    assert saved(storage) == {
        "version": 1, "variant": "vertical", "deal": game.deal, "moves": [], "cursor": 0,
        "hints": 0, "solver_moves": 0,
    }


def test_new_deal_draws_from_the_session_rng():
    session = new_session("standard", 5, seed=7)
    draws = random.Random(7)
    session.new_deal("doublets")
    assert session.game.variant is VARIANTS["doublets"]
    assert session.game.deal == draws.randrange(MAX_DEAL)
    assert session.game.position == deal_position("doublets", session.game.deal)
    assert_saved(session)
    session.new_deal()
    assert session.game.variant is VARIANTS["doublets"]
    assert session.game.deal == draws.randrange(MAX_DEAL)
    assert_saved(session)


def test_new_deal_with_unknown_variant_changes_nothing():
    session = new_session("strict", 5, seed=7)
    before = session.storage.get(SAVE_KEY)
    with pytest.raises(VariantError):
        session.new_deal("klondike")
    assert (session.game.variant.name, session.game.deal) == ("strict", 5)
    assert session.storage.get(SAVE_KEY) == before


def test_open_deal():
    session = new_session("standard", 5)
    session.selected = "AS"
    session.open_deal("overlapping", "17")
    assert (session.game.variant.name, session.game.deal, session.game.cursor) == (
        "overlapping",
        17,
        0,
    )
    assert session.selected is None
    assert_saved(session)
    with pytest.raises(DealNumberError):
        session.open_deal("standard", -1)
    with pytest.raises(VariantError):
        session.open_deal("nope", 3)
    assert (session.game.variant.name, session.game.deal) == ("overlapping", 17)


def test_turn_stock_only_when_stuck_in_strict():
    rng = random.Random(1)
    for deal in range(100):
        session = new_session("strict", deal)
        while session.game.position.pairs():
            assert session.turn_stock() is False
            play_pair(session, rng.choice(session.game.position.pairs()))
        if session.game.position.can_turn_stock():
            break
    else:
        raise AssertionError("no strict deal gets stuck")
    cursor = session.game.cursor
    stock = session.game.position.stock
    assert session.game.legal_moves() == [TurnStock()]
    session.tap(next(iter(session.game.position.available())))
    assert session.turn_stock() is True
    assert session.selected is None
    assert session.game.cursor == cursor + 1
    assert session.game.position.stock == stock[1:]
    assert saved(session.storage)["moves"][-1] == "stock"
    assert_saved(session)


def test_turn_stock_never_without_a_stock():
    session = new_session("standard", 0)
    assert session.turn_stock() is False
    assert session.game.cursor == 0


@pytest.mark.parametrize(("variant", "deal"), [("standard", 0), ("overlapping", 4294967295)])
def test_query(variant, deal):
    session = new_session(variant, deal)
    assert session.query() == f"?variant={variant}&deal={deal}"
    assert parse_query(session.query()) == (DealRequest(VARIANTS[variant], deal), None)


# ---- whole games ---------------------------------------------------------------------


def test_whole_games_through_the_session():
    outcomes: Counter[tuple[str, Outcome]] = Counter()
    for variant in VARIANTS:
        for deal in range(60):
            storage = MemoryStorage(dict([SETTINGS]))
            session = Session.open(storage, f"?variant={variant}&deal={deal}", random.Random(0))
            rng = random.Random(deal)
            game = session.game
            while game.outcome() is None:
                assert game.cursor < 52
                moves = game.legal_moves()
                move = rng.choice(moves)
                if isinstance(move, Pair):
                    play_pair(session, move)
                else:
                    assert moves == [TurnStock()]
                    assert session.turn_stock() is True
                text = storage.get(SAVE_KEY)
                assert text is not None
                again = load_saved(text)
                assert again.position == game.position
                assert again.cursor == game.cursor
                if game.cursor % 7 == 3:
                    here = game.position
                    assert session.undo() is True
                    assert load_saved(storage.get(SAVE_KEY) or "").position == game.position
                    assert session.redo() is True
                    assert game.position == here
            outcome = game.outcome()
            assert outcome is not None
            assert (game.position.cards_left() == 0) == (outcome is Outcome.WON)
            outcomes[variant, outcome] += 1
            assert storage.data[SETTINGS[0]] == SETTINGS[1]
            reopened = Session.open(storage, "", random.Random(0))
            assert reopened.notice is None
            assert reopened.game.position == game.position
            assert reopened.game.outcome() is outcome
    assert sum(outcomes.values()) == 300
    assert outcomes["doublets", Outcome.WON] > 0
    assert outcomes["standard", Outcome.NO_PAIR] > 0
    assert outcomes["strict", Outcome.STOCK_UNPAIRED] > 0


def test_auto_pair_removes_a_pair_with_a_single_partner_at_once():
    # Find a deal whose start has a rank with exactly two available cards.
    for deal in range(200):
        session = new_session("standard", deal)
        avail = list(session.game.position.available())
        ranks = Counter(rank_of(c) for c in avail)
        single = [c for c in avail if ranks[rank_of(c)] == 2]
        triple = [c for c in avail if ranks[rank_of(c)] == 3]
        if single and triple:
            break
    else:
        raise AssertionError("no suitable deal")
    session.set_setting("auto_pair", True)
    assert session.tap(single[0]) is True
    assert session.game.cursor == 1 and session.selected is None
    # With two possible partners, the tap only selects.
    assert session.tap(triple[0]) is True
    assert session.game.cursor == 1 and session.selected == triple[0]
    # Off (the default): a tap only selects.
    plain = new_session("standard", deal)
    plain.tap(single[0])
    assert plain.game.cursor == 0 and plain.selected == single[0]

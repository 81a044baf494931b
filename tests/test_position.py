"""Positions: the rules of play on hand-made positions, and the position/move notation."""

from __future__ import annotations

import json

import pytest

from nestor import (
    DECK,
    CardError,
    IllegalMoveError,
    MoveError,
    Outcome,
    Pair,
    Place,
    Position,
    PositionError,
    TurnStock,
    VariantError,
    deal_position,
    get_variant,
    parse_move,
)


def pos(variant: str, *columns: str, reserve: str = "-", stock: str = "-",
        unpaired: str = "-") -> Position:
    """Read a position from its text, the columns not given being empty."""
    n = get_variant(variant).columns
    tableau = "/".join(list(columns) + ["-"] * (n - len(columns)))
    return Position.from_text(f"{variant} {tableau} {reserve} {stock} {unpaired}")


def illegal(position: Position, move: Pair | TurnStock) -> str:
    """Assert that ``move`` is illegal in ``position`` and return the reason."""
    assert not position.is_legal(move)
    assert move not in position.legal_moves()
    with pytest.raises(IllegalMoveError) as info:
        position.apply(move)
    return str(info.value)


def play_out(position: Position, *moves: str) -> Position:
    for move in moves:
        parsed = parse_move(move)
        assert parsed in position.legal_moves(), (move, position.to_text())
        position = position.apply(parsed)
    return position


# ---- pairing ------------------------------------------------------------------------------


def test_available_cards_and_their_places():
    p = pos("standard", "9C5H", "5D", reserve="KCKD9D")
    assert dict(p.available()) == {
        "5H": Place("column", 0),
        "5D": Place("column", 1),
        "KC": Place("reserve", 0),
        "KD": Place("reserve", 1),
        "9D": Place("reserve", 2),
    }
    assert list(p.available()) == ["5H", "5D", "KC", "KD", "9D"]


def test_standard_pairs_two_reserve_cards():
    p = pos("standard", "5H", "5D", reserve="KCKD")
    assert set(p.legal_moves()) == {Pair("5H", "5D"), Pair("KC", "KD")}
    after = p.apply(Pair("KD", "KC"))
    assert after.reserve == ()
    assert after.columns == p.columns
    assert after.to_text() == "standard 5H/5D/-/-/-/-/-/- - - -"
    assert after.cards_left() == 2


def test_column_card_pairs_with_reserve_card_and_frees_the_card_above():
    p = pos("standard", "KC7H", "9S", "KD", reserve="9D7S")
    assert set(p.legal_moves()) == {Pair("7H", "7S"), Pair("9S", "9D")}
    after = p.apply(Pair("7H", "7S"))
    assert after.columns[0] == ("KC",)
    assert after.reserve == ("9D",)
    assert after.available()["KC"] == Place("column", 0)
    assert set(after.legal_moves()) == {Pair("KC", "KD"), Pair("9S", "9D")}
    assert play_out(after, "9S-9D", "KD-KC").outcome() is Outcome.WON


def test_covered_card_is_illegal():
    p = pos("standard", "7H5H", "5D7S", "KC", "KD")
    assert p.legal_moves() == [Pair("KC", "KD")]
    reason = illegal(p, Pair("7H", "7S"))
    assert reason == "7H is not available: it is covered in column 1"
    assert "5D is not available: it is covered in column 2" in illegal(p, Pair("5H", "5D"))


def test_card_already_removed_is_illegal():
    p = pos("standard", "7H5H", "5D7S", "KC", "KD", "QC", "QD").apply(Pair("KC", "KD"))
    assert p.legal_moves() == [Pair("QC", "QD")]
    assert "KC is not available: it is no longer in play" in illegal(p, Pair("KC", "KD"))


def test_apply_leaves_the_position_unchanged_and_positions_hash():
    p = pos("standard", "KC7H", "7S", "KD")
    text = p.to_text()
    after = p.apply(Pair("7H", "7S"))
    assert p.to_text() == text
    assert after != p
    again = pos("standard", "KC7H", "7S", "KD")
    again.available()  # fill one cache only: the cache must not affect equality
    assert again == p
    assert hash(again) == hash(p)
    assert len({p, again, after}) == 2


# ---- overlapping reserve ----------------------------------------------------------------


def test_overlapping_only_the_top_reserve_card_is_available():
    p = pos("overlapping", "KC", "KD", "9C", "9D", reserve="KHKS")
    assert "KH" not in p.available()
    assert p.available()["KS"] == Place("reserve", 1)
    assert set(p.legal_moves()) == {
        Pair("KC", "KD"), Pair("KC", "KS"), Pair("KD", "KS"), Pair("9C", "9D"),
    }
    reason = illegal(p, Pair("KH", "KS"))
    assert reason == "KH is not available: it lies under the top reserve card"
    # Once the top card is paired away, the one below becomes available.
    after = p.apply(Pair("KC", "KS"))
    assert after.reserve == ("KH",)
    assert after.available()["KH"] == Place("reserve", 0)
    assert Pair("KD", "KH") in after.legal_moves()
    assert play_out(after, "KD-KH", "9C-9D").outcome() is Outcome.WON


def test_overlapping_two_reserve_cards_never_pair_directly():
    overlapping = play_out(pos("overlapping", "9C", "9D", reserve="KHKS"), "9C-9D")
    assert overlapping.outcome() is Outcome.NO_PAIR
    assert overlapping.cards_left() == 2
    assert overlapping.legal_moves() == []
    # The same cards in the standard game: both reserve cards are available.
    standard = play_out(pos("standard", "9C", "9D", reserve="KHKS"), "9C-9D")
    assert standard.legal_moves() == [Pair("KH", "KS")]
    assert standard.apply(Pair("KH", "KS")).outcome() is Outcome.WON


# ---- strict: the stock ---------------------------------------------------------------------


def test_strict_turn_stock_illegal_while_a_pair_exists():
    p = pos("strict", "7H", "7S", "5C", stock="5D")
    assert p.legal_moves() == [Pair("7H", "7S")]
    assert not p.can_turn_stock()
    assert "only when no pair is left, and 7H-7S is" in illegal(p, TurnStock())
    # Stock cards are face down while the tableau holds cards.
    assert "5D is not available: it is face down in the stock" in illegal(p, Pair("5C", "5D"))
    stuck = p.apply(Pair("7H", "7S"))
    assert stuck.legal_moves() == [TurnStock()]
    assert stuck.can_turn_stock()
    assert stuck.outcome() is None
    # The turned 5D pairs with the available 5C.
    won = stuck.apply(TurnStock())
    assert won.is_empty()
    assert won.outcome() is Outcome.WON


def test_strict_turned_card_removes_the_available_card_of_its_rank():
    p = pos("strict", "9S7H", "7S9H", stock="9C9D")
    assert p.legal_moves() == [TurnStock()]
    after = p.apply(TurnStock())
    assert after.to_text() == "strict 9S7H/7S/-/-/-/-/-/- - 9D -"
    assert after.unpaired is None
    assert after.cards_left() == p.cards_left() - 2
    assert after.legal_moves() == [Pair("7H", "7S")]
    end = play_out(after, "7H-7S", "stock")
    assert end.outcome() is Outcome.WON


def test_strict_turned_card_without_a_match_loses():
    p = pos("strict", "9S7H", "7S9H", stock="5C5D")
    after = p.apply(TurnStock())
    assert after.unpaired == "5C"
    assert after.stock == ("5D",)
    assert after.columns == p.columns
    assert after.cards_left() == 6 == p.cards_left()
    assert after.outcome() is Outcome.STOCK_UNPAIRED
    assert after.outcome().result == "lost"
    assert after.legal_moves() == []
    assert dict(after.available()) == {}
    assert not after.can_turn_stock()
    assert "the game is over (stock card can't pair)" in illegal(after, TurnStock())
    assert "the game is over" in illegal(after, Pair("7H", "7S"))
    assert after.to_text() == "strict 9S7H/7S9H/-/-/-/-/-/- - 5D 5C"
    assert Position.from_text(after.to_text()) == after
    assert after.to_json()["unpaired"] == "5C"
    assert Position.from_json(after.to_json()) == after


def test_strict_empty_tableau_opens_the_stock_and_wins():
    p = pos("strict", stock="5C5DKHKS")
    assert dict(p.available()) == {
        "5C": Place("stock", 0), "5D": Place("stock", 1),
        "KH": Place("stock", 2), "KS": Place("stock", 3),
    }
    assert set(p.legal_moves()) == {Pair("5C", "5D"), Pair("KH", "KS")}
    assert not p.can_turn_stock()
    assert p.outcome() is None
    assert "the tableau is empty" in illegal(p, TurnStock())
    after = p.apply(Pair("KS", "KH"))
    assert after.stock == ("5C", "5D")
    assert after.apply(Pair("5C", "5D")).outcome() is Outcome.WON


def test_strict_last_column_card_paired_by_the_stock_then_the_stock_pairs_itself():
    p = pos("strict", "7H", stock="7S5C5D")
    after = p.apply(TurnStock())
    assert after.to_text() == "strict -/-/-/-/-/-/-/- - 5C5D -"
    assert after.legal_moves() == [Pair("5C", "5D")]
    assert after.apply(Pair("5C", "5D")).outcome() is Outcome.WON


def test_turn_stock_reasons():
    assert "standard has no stock to turn" in illegal(pos("standard", "7H", "7S"), TurnStock())
    assert "the stock is empty" in illegal(pos("strict", "7H", "7S"), TurnStock())


# ---- outcomes -------------------------------------------------------------------------------


def test_no_pair_loses():
    p = pos("standard", "9S7H", "7S9H")
    assert p.outcome() is Outcome.NO_PAIR
    assert p.outcome().result == "lost"
    assert not p.outcome().won
    assert p.legal_moves() == []
    assert "the game is over (no pair left)" in illegal(p, Pair("7H", "7S"))
    # Strict with an empty stock is stuck the same way.
    assert pos("strict", "9S7H", "7S9H").outcome() is Outcome.NO_PAIR


@pytest.mark.parametrize("variant", ["standard", "strict", "vertical", "doublets", "overlapping"])
def test_empty_position_is_won_before_any_loss_check(variant):
    # No pair and nothing to turn would be "no pair left"; the win comes first.
    p = pos(variant)
    assert p.pairs() == ()
    assert not p.can_turn_stock()
    assert p.outcome() is Outcome.WON
    assert p.outcome().won and p.outcome().result == "won"
    assert p.is_empty()
    assert p.cards_left() == 0
    assert p.legal_moves() == []
    assert "the game is over (won)" in illegal(p, Pair("7H", "7S"))


def test_outcome_values():
    assert [o.value for o in Outcome] == ["won", "no pair left", "stock card can't pair"]


# ---- position text -------------------------------------------------------------------------


def test_to_text_of_a_deal():
    assert deal_position("standard", 0).to_text() == (
        "standard 8S3D5HADKD4H/JHAC2CQH7SKC/9CJC3HTS7D8H/2S7C5CQCJS8D/2D9HAHJD6H4D/"
        "QD8C6C3SKSAS/6SQS4S2H7H9S/TCKH5D9D6D4C 5STHTD3C - -"
    )
    assert deal_position("strict", 0).to_text().endswith(" - 5STHTD3C -")


def test_from_text_reads_any_case_tens_and_blanks():
    p = Position.from_text("  STANDARD\t10hkc/10s/kd/-/-/-/-/-  -  -  - ")
    assert p == pos("standard", "THKC", "TS", "KD")
    assert p.columns[0] == ("TH", "KC")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "a position has 5 fields (variant tableau reserve stock unpaired), found 0"),
        ("standard 7H/7S/-/-/-/-/-/- - -", "found 4"),
        ("standard 7H/7S/-/-/-/-/-/- - - - -", "found 6"),
        ("standard 7X/7S/-/-/-/-/-/- - - -", "column 1: cannot read a card at '7X'"),
        ("standard 7H/5H7X/-/-/-/-/-/- - - -", "column 2: cannot read a card at '7X' "
                                               "(character 3 of '5H7X')"),
        ("standard 7H//-/-/-/-/-/- - - -", "column 2: empty; write '-' for no cards"),
        ("standard 7H/7S/-/-/-/-/-/- 5X - -", "reserve: cannot read a card at '5X'"),
        ("standard 7H/7H/-/-/-/-/-/- - - -", "card 7H appears twice"),
        ("standard 7H/-/-/-/-/-/-/- 7H7S - -", "card 7H appears twice"),
        ("standard 7H/-/-/-/-/-/-/- - - -", "rank 7 has 1 cards left"),
        ("standard 7H/7S/7D/-/-/-/-/- - - -", "rank 7 has 3 cards left"),
        ("standard 7H/7S/-/-/-/-/-/-/- - - -", "standard has 8 columns, but the position has 9"),
        ("standard 7H/7S/-/-/-/-/- - - -", "standard has 8 columns, but the position has 7"),
        ("vertical 7H/7S/-/-/-/-/-/- - - -", "vertical has 7 columns, but the position has 8"),
        ("standard AC2C3C4C5C6C7C/-/-/-/-/-/-/- - - -",
         "column 1 holds 7 cards; standard deals only 6"),
        ("doublets -/AC2C3C4C5C/-/-/-/-/-/-/-/-/-/- - - -",
         "column 2 holds 5 cards; doublets deals only 4"),
        ("standard 7H7S/-/-/-/-/-/-/- - - -", "column 1 holds two cards of rank 7"),
        ("standard 7H/7S/-/-/-/-/-/- - 5C5D -", "standard has no stock: stock must be empty"),
        ("overlapping 7H/7S/-/-/-/-/-/- - 5C5D -", "overlapping has no stock"),
        ("standard 7H/7S/-/-/-/-/-/- 5C - 5D", "standard has no stock, so no turned stock card"),
        ("strict 7H/7S/-/-/-/-/-/- 5C5D - -", "strict has a stock, not a reserve"),
        ("strict 7H/7S/-/-/-/-/-/- - 5C5D9C9D 5H", "the stock holds at most 4 cards"),
        ("strict 7H/7S/-/-/-/-/-/- - 5C 5D9C", "at most one unpaired stock card"),
        ("standard 7H/7S/-/-/-/-/-/- 5C5D9C9DKCKD - -",
         "the reserve holds 6 cards; standard has only 4"),
    ],
)
def test_from_text_errors(text, fragment):
    with pytest.raises(PositionError) as info:
        Position.from_text(text)
    assert fragment in str(info.value)


def test_from_text_unknown_variant():
    with pytest.raises(VariantError, match="unknown variant 'nestor'"):
        Position.from_text("nestor 7H/7S/-/-/-/-/-/- - - -")


def test_from_text_needs_text():
    with pytest.raises(PositionError, match="must be text, not list"):
        Position.from_text(["standard"])


def test_vertical_reserve_of_ten_is_valid():
    p = pos("vertical", "7H", "7S", reserve="ACAD2C2D3C3D4C4D5C5D")
    assert len(p.reserve) == 10
    assert len(p.legal_moves()) == 6


def test_checked_takes_card_texts_and_rejects_bad_codes():
    v = get_variant("standard")
    p = Position.checked(v, [["th"], ["10s"]] + [[]] * 6)
    assert p.columns[:2] == (("TH",), ("TS",))
    with pytest.raises(CardError):
        Position.checked(v, [["7X"]] + [[]] * 7)


# ---- position JSON -------------------------------------------------------------------------


def test_json_round_trip_of_a_deal_and_the_deal_key_is_ignored():
    start = deal_position("overlapping", 7)
    data = json.loads(json.dumps(start.to_json()))
    assert set(data) == {"variant", "columns", "reserve", "stock"}
    assert Position.from_json(data) == start
    assert Position.from_json({"deal": 7, **data}) == start


def test_from_json_defaults_reserve_and_stock_to_empty():
    p = Position.from_json({"variant": "standard", "columns": [["7H"], ["7S"]] + [[]] * 6})
    assert p == pos("standard", "7H", "7S")


def _json(**changes: object) -> dict:
    data: dict = {"variant": "standard", "columns": [["7H"], ["7S"]] + [[]] * 6,
                  "reserve": ["5C", "5D"], "stock": []}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ([], "a position must be a JSON object, not list"),
        ("standard", "a position must be a JSON object, not str"),
        (_json(foo=1), "unknown key 'foo' in position"),
        (_json(columns=...), "needs the keys 'variant' and 'columns'"),
        (_json(variant=...), "needs the keys 'variant' and 'columns'"),
        (_json(columns="7H/7S"), "'columns' must be a list of lists of card codes"),
        (_json(columns=[["7H"], "7S"] + [[]] * 6), "column 2 must be a list of card codes"),
        (_json(columns=[["7H"], [7]] + [[]] * 6), "column 2 must be a list of card codes"),
        (_json(columns=[["7X"], ["7S"]] + [[]] * 6), "column 1: bad card '7X'"),
        (_json(reserve="5C5D"), "reserve must be a list of card codes"),
        (_json(reserve=["5C", "1D"]), "reserve: bad card '1D'"),
        (_json(stock=["QQ"]), "stock: bad card 'QQ'"),
        (_json(variant=5), "'variant' must be a variant name"),
        (_json(unpaired=5), "'unpaired' must be a card code or null"),
        (_json(unpaired="ZZ"), "bad card 'ZZ'"),
        (_json(reserve=["7H", "7S"]), "card 7H appears twice"),
        (_json(reserve=["5C"]), "rank 5 has 1 cards left"),
        (_json(columns=[["7H"], ["7S"]] + [[]] * 7), "standard has 8 columns"),
        (_json(stock=["9C", "9D"]), "standard has no stock"),
    ],
)
def test_from_json_errors(data, fragment):
    with pytest.raises(PositionError) as info:
        Position.from_json(data)
    assert fragment in str(info.value)


def test_from_json_unknown_variant():
    with pytest.raises(VariantError, match="unknown variant 'nestor'"):
        Position.from_json(_json(variant="nestor"))


# ---- moves ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("7H-7S", Pair("7H", "7S")),
        ("7S-7H", Pair("7H", "7S")),
        ("7h 7s", Pair("7H", "7S")),
        (" 7h , 7s ", Pair("7H", "7S")),
        ("7H+7S", Pair("7H", "7S")),
        ("10H-10S", Pair("TH", "TS")),
        ("10h-ts", Pair("TH", "TS")),
        ("stock", TurnStock()),
        (" STOCK ", TurnStock()),
    ],
)
def test_parse_move_accepts(text, move):
    assert parse_move(text) == move


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("7H-8S", "bad move '7H-8S': 7H and 8S are not a pair: their ranks differ"),
        ("7H-7H", "a pair needs two different cards, got 7H twice"),
        ("7h-7H", "got 7H twice"),
        ("7H", "bad move '7H': write a pair as '7H-7S', or 'stock'"),
        ("", "bad move ''"),
        ("7H-7S-7D", "bad move '7H-7S-7D'"),
        ("xx-yy", "bad move 'xx-yy': bad card 'xx'"),
        ("7H-7X", "unknown suit 'X'"),
        ("stocks", "bad move 'stocks'"),
    ],
)
def test_parse_move_rejects(text, fragment):
    with pytest.raises(MoveError) as info:
        parse_move(text)
    assert fragment in str(info.value)


def test_parse_move_needs_text():
    with pytest.raises(MoveError, match="must be text, not int"):
        parse_move(7)


def test_pair_is_normalised_and_prints_its_notation():
    pair = Pair("7s", "7h")
    assert pair.cards == ("7H", "7S")
    assert str(pair) == "7H-7S"
    assert str(Pair("TS", "TC")) == "TC-TS"
    assert str(TurnStock()) == "stock"
    assert sorted([Pair("KS", "KD"), Pair("2H", "2C")]) == [Pair("2C", "2H"), Pair("KD", "KS")]
    assert hash(Pair("7S", "7H")) == hash(Pair("7H", "7S"))
    with pytest.raises(CardError):
        Pair("7X", "7H")


def test_every_pair_notation_reads_back():
    from nestor import DECK

    pairs = [Pair(a, b) for a in DECK for b in DECK if a < b and a[0] == b[0]]
    assert len(pairs) == 13 * 6
    for pair in pairs:
        assert parse_move(str(pair)) == pair
        assert parse_move(str(pair).lower().replace("-", " ")) == pair


# ---- answers for the interface: partners, newly available, stock turned up, in play -------


def test_partners_are_the_available_cards_of_the_same_rank_in_available_order():
    p = pos("standard", "9C5H", "5D", "KS", "9D", reserve="5S5CKD")
    assert list(p.available()) == ["5H", "5D", "KS", "9D", "5S", "5C", "KD"]
    assert p.partners("5D") == ("5H", "5S", "5C")
    assert p.partners("5C") == ("5H", "5D", "5S")
    assert p.partners("KD") == ("KS",)
    assert p.partners("9C") == ()  # covered
    assert p.partners("9D") == ()  # its partner is covered
    assert p.partners("7H") == ()  # not in play
    assert set(p.pairs()) == {
        Pair(a, b) for a in p.available() for b in p.partners(a) if a < b
    }


def test_partners_in_the_overlapping_reserve_and_the_turned_up_stock():
    p = pos("overlapping", "KC", "KD", reserve="KHKS")
    assert p.partners("KC") == ("KD", "KS")  # KH lies under KS
    assert p.partners("KH") == ()
    strict = pos("strict", stock="5C5DKHKS")
    assert strict.partners("KS") == ("KH",)
    lost = pos("strict", "9S7H", "7S9H", stock="5C5D").apply(TurnStock())
    assert lost.partners("7H") == ()  # the game is over: nothing is available


def test_newly_available_is_what_a_move_uncovers():
    p = pos("standard", "KC7H", "9S", "KD", reserve="9D7S")
    after = p.apply(Pair("7H", "7S"))
    assert after.newly_available(p) == ("KC",)
    assert p.newly_available(after) == ("7H", "7S")
    assert after.newly_available(after) == ()
    below = pos("overlapping", "KC", "KD", "9C", reserve="9HKHKS")
    assert below.apply(Pair("KC", "KS")).newly_available(below) == ("KH",)


def test_newly_available_after_the_last_column_card_turns_up_the_stock():
    p = pos("strict", "7H", stock="7S5C5D")
    after = p.apply(TurnStock())
    assert after.newly_available(p) == ("5C", "5D")


def test_stock_turned_up_only_in_strict_with_the_tableau_empty():
    assert pos("strict", stock="5C5DKHKS").stock_turned_up
    assert not pos("strict", "7H", stock="7S5C5D").stock_turned_up
    assert not pos("strict").stock_turned_up  # no stock left
    assert not pos("standard", reserve="KCKD").stock_turned_up
    assert not deal_position("strict", 7).stock_turned_up
    # An unpaired card ends the game: the stock stays face down and nothing is available.
    lost = Position.checked(get_variant("strict"), [()] * 8, (), ("7H", "7C", "8H"), "8S")
    assert not lost.stock_turned_up
    assert dict(lost.available()) == {}


def test_in_play_covers_columns_reserve_stock_and_the_unpaired_card():
    p = pos("strict", "9S7H", "7S9H", stock="5C5D")
    for card in ("9S", "7H", "7S", "9H", "5C", "5D"):
        assert card in p
    assert "KC" not in p
    assert "9s" not in p  # canonical codes only
    assert 5 not in p and [] not in p
    lost = p.apply(TurnStock())
    assert "5C" in lost and lost.unpaired == "5C"
    reserve = pos("standard", "KC7H", "7S", "KD", reserve="9D9C")
    assert "9D" in reserve and "KC" in reserve
    after = reserve.apply(Pair("7H", "7S"))
    assert "7H" not in after and "7S" not in after and "KC" in after
    assert [c for c in DECK if c in after] == sorted(
        ["KC", "KD", "9D", "9C"], key=DECK.index
    )


def test_answers_are_worked_out_once_per_position(monkeypatch):
    p = pos("standard", "9C5H", "5D", "9D", reserve="KCKD")
    expected = (Pair("5H", "5D"), Pair("KC", "KD"))
    calls = {"is_empty": 0, "__post_init__": 0}
    for cls, name in ((Position, "is_empty"), (Pair, "__post_init__")):
        real = getattr(cls, name)

        def counted(self, _real=real, _name=name):
            calls[_name] += 1
            return _real(self)

        monkeypatch.setattr(cls, name, counted)
    for _ in range(3):
        assert p.outcome() is None
        assert p.pairs() == expected
        assert len(p.legal_moves()) == 2
        assert not p.can_turn_stock()
    # One emptiness check for the outcome, and each of the two pairs built once.
    assert calls == {"is_empty": 1, "__post_init__": 2}
    assert p.pairs() is p.pairs()
    fresh = pos("standard", "9C5H", "5D", "9D", reserve="KCKD")
    fresh.pairs()
    assert calls["__post_init__"] == 4  # the cache belongs to the position, not the class


def test_cached_answers_cannot_be_corrupted_by_callers():
    p = pos("standard", "9C5H", "5D", "9D", reserve="KCKD")
    pairs = p.pairs()
    assert isinstance(pairs, tuple)
    with pytest.raises(TypeError):
        p.available()["7H"] = Place("column", 0)  # type: ignore[index]
    moves = p.legal_moves()
    moves.clear()
    assert p.legal_moves() == [Pair("5H", "5D"), Pair("KC", "KD")]
    assert p.pairs() == (Pair("5H", "5D"), Pair("KC", "KD"))


def test_cached_positions_copy_pickle_and_compare_like_fresh_ones():
    import copy
    import pickle

    p = pos("strict", "9S7H", "7S9H", stock="5C5D")
    p.outcome(), p.pairs(), p.partners("7H"), "7H" in p
    for twin in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert twin == p and hash(twin) == hash(p)
        assert twin.legal_moves() == p.legal_moves()
        assert dict(twin.available()) == dict(p.available())

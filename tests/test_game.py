"""Games: push, undo and redo, records, and saving a game with its undo cursor."""

from __future__ import annotations

import json

import pytest

from nestor import (
    DealNumberError,
    Game,
    HistoryError,
    IllegalMoveError,
    MoveError,
    Outcome,
    Pair,
    Record,
    RecordError,
    TurnStock,
    VariantError,
    deal_position,
    get_variant,
    parse_move,
)

# Standard deal 7 (see test_deal.GOLDEN_DEALS): tops QD 4S TC 7S 3C 3D 3H 9H,
# reserve 5S KC QC 6C. So 3C-3D and QD-QC are legal at the start; 3C is
# covered by nothing, 8C lies under it.
FIRST = Pair("3C", "3D")
SECOND = Pair("QC", "QD")


def test_new_game_starts_at_the_deal():
    game = Game("standard", 7)
    assert game.start == deal_position("standard", 7)
    assert game.position == game.start
    assert game.variant is get_variant("standard")
    assert game.deal == 7
    assert game.cursor == 0
    assert game.moves == () and game.all_moves == ()
    assert not game.can_undo() and not game.can_redo()
    assert game.outcome() is None
    assert FIRST in game.legal_moves() and SECOND in game.legal_moves()
    assert Game(get_variant("standard"), "7").start == game.start


def test_new_game_errors():
    with pytest.raises(VariantError):
        Game("nope", 7)
    with pytest.raises(DealNumberError):
        Game("standard", -1)
    with pytest.raises(DealNumberError):
        Game("standard", 2**32)


def test_push_returns_the_new_position_and_accepts_notation():
    game = Game("standard", 7)
    after = game.push("3c-3d")
    assert after == game.start.apply(FIRST)
    assert game.position == after
    assert game.moves == (FIRST,)
    assert game.cursor == 1
    assert game.push(SECOND) == after.apply(SECOND)
    assert game.moves == (FIRST, SECOND)


def test_illegal_push_changes_nothing():
    game = Game("standard", 7)
    game.push(FIRST)
    game.undo()
    with pytest.raises(IllegalMoveError, match="covered in column"):
        game.push("8C-8D")  # 8C lies under the 3C that went away only in the undone move
    with pytest.raises(MoveError):
        game.push("8C-9D")
    assert game.cursor == 0
    assert game.all_moves == (FIRST,)  # the redo branch survives a refused move
    assert game.can_redo()


def test_undo_redo_and_history_errors():
    game = Game("standard", 7)
    with pytest.raises(HistoryError, match="nothing to undo"):
        game.undo()
    with pytest.raises(HistoryError, match="nothing to redo"):
        game.redo()
    p1 = game.push(FIRST)
    p2 = game.push(SECOND)
    assert game.undo() == SECOND
    assert game.position == p1
    assert game.moves == (FIRST,)
    assert game.all_moves == (FIRST, SECOND)
    assert game.can_undo() and game.can_redo()
    assert game.undo() == FIRST
    assert game.position == game.start
    with pytest.raises(HistoryError):
        game.undo()
    assert game.redo() == FIRST
    assert game.redo() == SECOND
    assert game.position == p2
    with pytest.raises(HistoryError, match="nothing to redo"):
        game.redo()


def test_a_new_move_after_undo_drops_the_redo_branch():
    game = Game("standard", 7)
    game.push(FIRST)
    game.push(SECOND)
    game.undo()
    game.undo()
    other = next(m for m in game.legal_moves() if m not in (FIRST, SECOND))
    game.push(other)
    assert game.all_moves == (other,)
    assert game.moves == (other,)
    assert not game.can_redo()
    assert game.position == game.start.apply(other)


def test_pushing_the_next_redo_move_keeps_the_branch():
    game = Game("standard", 7)
    game.push(FIRST)
    end = game.push(SECOND)
    game.undo()
    game.undo()
    assert game.push(str(FIRST)) == game.start.apply(FIRST)
    assert game.all_moves == (FIRST, SECOND)
    assert game.cursor == 1
    assert game.can_redo()
    assert game.redo() == SECOND
    assert game.position == end


# ---- records -------------------------------------------------------------------------------


def test_record_holds_the_moves_in_effect():
    game = Game("standard", 7)
    game.push(FIRST)
    game.push(SECOND)
    game.undo()
    record = game.record()
    assert record == Record(get_variant("standard"), 7, (FIRST,))
    assert record.to_text() == "standard 7 3C-3D"
    assert record.to_json() == {"variant": "standard", "deal": 7, "moves": ["3C-3D"]}


def test_record_text_and_json_round_trip_and_replay():
    record = Record(get_variant("standard"), 7, (FIRST, SECOND))
    text = record.to_text()
    assert text == "standard 7 3C-3D QC-QD"
    assert Record.from_text(text) == record
    assert Record.from_text("  Standard  007\t3d-3c\n") == Record(
        get_variant("standard"), 7, (FIRST,)
    )
    assert Record.from_json(json.loads(json.dumps(record.to_json()))) == record
    game = record.replay()
    assert game.moves == (FIRST, SECOND)
    assert game.position == deal_position("standard", 7).apply(FIRST).apply(SECOND)
    assert Record.from_text("strict 12").moves == ()


def test_record_with_a_stock_turn():
    record = Record.from_text("strict 7 stock")
    assert record.moves == (TurnStock(),)
    assert record.to_text() == "strict 7 stock"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "starts with the variant and the deal number"),
        ("standard", "starts with the variant and the deal number"),
        ("nestor 7", "unknown variant 'nestor'"),
        ("standard abc", "bad deal number 'abc'"),
        ("standard 4294967296", "out of range"),
        ("standard 7 xx", "move 1: bad move 'xx'"),
        ("standard 7 3C-3D 7H-8S", "move 2: bad move '7H-8S': 7H and 8S are not a pair"),
        ("standard 7 3C-3D QC-QD 9H9H", "move 3:"),
    ],
)
def test_record_from_text_errors(text, fragment):
    with pytest.raises(RecordError) as info:
        Record.from_text(text)
    assert fragment in str(info.value)


def test_record_from_text_needs_text():
    with pytest.raises(RecordError, match="must be text, not dict"):
        Record.from_text({"variant": "standard"})


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ("standard 7", "must be a JSON object, not str"),
        ({"deal": 7, "moves": []}, "needs the key 'variant'"),
        ({"variant": "standard", "moves": []}, "needs the key 'deal'"),
        ({"variant": "standard", "deal": 7}, "needs the key 'moves'"),
        ({"variant": "standard", "deal": 7, "moves": "3C-3D"}, "'moves' must be a list"),
        ({"variant": "nestor", "deal": 7, "moves": []}, "unknown variant 'nestor'"),
        ({"variant": 3, "deal": 7, "moves": []}, "must be text"),
        ({"variant": "standard", "deal": -1, "moves": []}, "out of range"),
        ({"variant": "standard", "deal": 7.0, "moves": []}, "not float"),
        ({"variant": "standard", "deal": True, "moves": []}, "not a boolean"),
        ({"variant": "standard", "deal": 7, "moves": ["3C-3D", 5]}, "move 2: a move must be text"),
        ({"variant": "standard", "deal": 7, "moves": ["3C-3D", "QC-QD", "7H"]},
         "move 3: bad move '7H'"),
    ],
)
def test_record_from_json_errors(data, fragment):
    with pytest.raises(RecordError) as info:
        Record.from_json(data)
    assert fragment in str(info.value)


def test_record_replay_names_the_illegal_move():
    record = Record.from_text("standard 7 3C-3D 3C-3D")
    with pytest.raises(RecordError) as info:
        record.replay()
    assert "move 2 (3C-3D) is illegal: 3C is not available" in str(info.value)


# ---- saving a game --------------------------------------------------------------------------


def test_game_json_keeps_the_cursor():
    game = Game("standard", 7)
    game.push(FIRST)
    end = game.push(SECOND)
    game.undo()
    data = json.loads(json.dumps(game.to_json()))
    assert data == {"variant": "standard", "deal": 7, "moves": ["3C-3D", "QC-QD"], "cursor": 1}
    loaded = Game.from_json(data)
    assert loaded.cursor == 1
    assert loaded.moves == (FIRST,)
    assert loaded.all_moves == (FIRST, SECOND)
    assert loaded.position == game.position
    assert loaded.redo() == SECOND
    assert loaded.position == end
    assert Game.from_json_text(json.dumps(data)).cursor == 1


def test_game_json_without_a_cursor_is_at_the_end():
    loaded = Game.from_json({"variant": "standard", "deal": 7, "moves": ["3C-3D", "QC-QD"]})
    assert loaded.cursor == 2
    assert not loaded.can_redo()


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"variant": "standard", "deal": 7, "moves": ["3C-3D", "3C-3D"], "cursor": 1},
         "move 2 (3C-3D) is illegal"),
        ({"variant": "standard", "deal": 7, "moves": ["8C-8D"]}, "move 1 (8C-8D) is illegal"),
        ({"variant": "standard", "deal": 7, "moves": ["stock"]},
         "standard has no stock to turn"),
        ({"variant": "standard", "deal": 7, "moves": ["3C-3D"], "cursor": 2},
         "cursor 2 is out of range: use 0 to 1"),
        ({"variant": "standard", "deal": 7, "moves": ["3C-3D"], "cursor": -1},
         "cursor -1 is out of range: use 0 to 1"),
        ({"variant": "standard", "deal": 7, "moves": [], "cursor": "0"},
         "cursor must be a whole number, not str"),
        ({"variant": "standard", "deal": 7, "moves": [], "cursor": True},
         "cursor must be a whole number, not a boolean"),
        ({"variant": "nestor", "deal": 7, "moves": [], "cursor": 0}, "unknown variant 'nestor'"),
        ([1, 2], "must be a JSON object, not list"),
    ],
)
def test_game_from_json_errors(data, fragment):
    with pytest.raises(RecordError) as info:
        Game.from_json(data)
    assert fragment in str(info.value)


def test_game_from_json_text_rejects_bad_json():
    with pytest.raises(RecordError, match="saved game is not valid JSON"):
        Game.from_json_text("{not json")
    with pytest.raises(RecordError, match="saved game is not valid JSON"):
        Game.from_json_text(None)


# ---- a whole game ---------------------------------------------------------------------------


def test_play_a_strict_game_to_the_end():
    game = Game("strict", 7)
    turns = 0
    while game.outcome() is None:
        moves = game.legal_moves()
        if moves == [TurnStock()]:
            turns += 1
        game.push(moves[0])
    assert game.outcome() is not None
    assert (game.outcome() is Outcome.WON) == (game.position.cards_left() == 0)
    assert game.legal_moves() == []
    assert turns >= 1
    replayed = Record.from_text(game.record().to_text()).replay()
    assert replayed.position == game.position
    assert sum(isinstance(m, TurnStock) for m in game.moves) == turns
    assert all(parse_move(str(m)) == m for m in game.moves)

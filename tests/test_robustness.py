"""Regression tests for hostile or broken input, and for never losing a game in progress."""

from __future__ import annotations

import json
import random

import pytest

from nestor import (
    DealNumberError,
    Game,
    MoveError,
    RecordError,
    check_deal_number,
    parse_move,
)
from nestor.cli import main
from nestor.jsontext import MAX_DEPTH, loads
from nestor_web.session import (
    ARCHIVE_KEY,
    SAVE_KEY,
    UNREADABLE_KEY,
    MemoryStorage,
    Session,
)

HUGE = "9" * 5000


# ---- nesting and size --------------------------------------------------------------------


def test_json_nesting_is_refused_before_parsing() -> None:
    assert loads('{"a": [[1, "[[[["]]}') == {"a": [[1, "[[[["]]}
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(ValueError, match="levels deep"):
        loads("[" * 100_000)
    with pytest.raises(ValueError, match="levels deep"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_deeply_nested_saved_game_is_set_aside() -> None:
    with pytest.raises(RecordError, match="levels deep"):
        Game.from_json_text("[" * 100_000)
    text = "[" * 100_000
    storage = MemoryStorage({SAVE_KEY: text, "nestor.settings": "[" * 50_000})
    session = Session.open(storage, "", random.Random(1))
    assert session.notice is not None and "saved game could not be read" in session.notice
    assert "settings could not be read" in session.notice
    assert storage.data[UNREADABLE_KEY] == text
    assert session.game.cursor == 0


@pytest.mark.parametrize("text", [HUGE, f"0{HUGE}", "  " + HUGE])
def test_huge_deal_numbers_are_out_of_range(text: str) -> None:
    with pytest.raises(DealNumberError, match="out of range") as info:
        check_deal_number(text)
    assert len(str(info.value)) < 200
    with pytest.raises(DealNumberError, match="out of range"):
        check_deal_number(int(HUGE[:4000]))
    assert check_deal_number("0000000042") == 42


def test_huge_deal_numbers_in_records_saves_links_and_cli(capsys) -> None:
    with pytest.raises(RecordError, match="out of range"):
        Game.from_json_text(json.dumps({"variant": "standard", "deal": HUGE, "moves": []}))
    saved = json.dumps({"version": 1, "variant": "standard", "deal": HUGE, "moves": [],
                        "cursor": 0})
    session = Session.open(MemoryStorage({SAVE_KEY: saved}), f"?deal={HUGE}", random.Random(2))
    assert session.notice is not None and "out of range" in session.notice
    assert len(session.notice) < 600
    assert main(["replay", f"standard {HUGE}"]) == 2
    assert "out of range" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["deal", "--deal", HUGE])
    assert info.value.code == 2
    assert "out of range" in capsys.readouterr().err


def test_long_inputs_are_clipped_in_messages() -> None:
    with pytest.raises(MoveError) as info:
        parse_move("Q" * 20_000)
    assert len(str(info.value)) < 200
    session = Session.open(
        MemoryStorage({SAVE_KEY: json.dumps({"version": 1, "variant": "standard", "deal": 7,
                                             "moves": ["Q" * 20_000], "cursor": 1})}),
        "", random.Random(3),
    )
    assert session.notice is not None and len(session.notice) < 600


def test_solve_command_refuses_deep_json(monkeypatch, capsys) -> None:
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("[" * 100_000 + "\n"))
    assert main(["solve"]) == 2
    assert "line 1" in capsys.readouterr().err


# ---- storage that fails -------------------------------------------------------------------


class FullStorage(MemoryStorage):
    """Storage that starts refusing writes once ``full`` is set (as a full quota does)."""

    full = False

    def set(self, key: str, value: str) -> None:
        if self.full:
            raise RuntimeError("QuotaExceededError: the quota has been exceeded")
        super().set(key, value)


def test_a_failing_save_is_reported_and_play_goes_on() -> None:
    storage = FullStorage()
    session = Session.open(storage, "?variant=standard&deal=7", random.Random(0))
    storage.full = True
    move = session.game.legal_moves()[0]
    session.tap(move.cards[0])  # type: ignore[union-attr]
    session.tap(move.cards[1])  # type: ignore[union-attr]
    assert session.game.cursor == 1
    assert session.notice is not None and "could not be saved" in session.notice
    assert session.undo() and session.game.cursor == 0
    assert session.notice.count("could not be saved") == 1


# ---- games left in progress are kept -------------------------------------------------------


def play_some(session: Session, moves: int) -> list[str]:
    for _ in range(moves):
        move = session.game.legal_moves()[0]
        session.tap(move.cards[0])  # type: ignore[union-attr]
        session.tap(move.cards[1])  # type: ignore[union-attr]
    return [str(m) for m in session.game.moves]


def test_opening_another_link_keeps_the_game_in_progress() -> None:
    storage = MemoryStorage({"another.app": "{}"})
    first = Session.open(storage, "?variant=standard&deal=7", random.Random(0))
    moves = play_some(first, 3)
    second = Session.open(storage, "?variant=standard&deal=8", random.Random(0))
    assert second.game.deal == 8 and second.game.cursor == 0
    assert set(json.loads(storage.data[ARCHIVE_KEY])) == {"standard/7"}
    # A broken link, then the old link again: the game resumes where it was.
    Session.open(storage, "?variant=standard&deal=banana", random.Random(0))
    back = Session.open(storage, "?variant=standard&deal=7", random.Random(0))
    assert [str(m) for m in back.game.moves] == moves
    assert "standard/7" not in json.loads(storage.data[ARCHIVE_KEY])
    assert storage.data["another.app"] == "{}"


def test_new_deal_and_variant_switch_keep_the_game_for_open_deal() -> None:
    storage = MemoryStorage()
    session = Session.open(storage, "?variant=vertical&deal=3", random.Random(5))
    moves = play_some(session, 2)
    session.new_deal("doublets")
    assert session.game.variant.name == "doublets"
    session.open_deal("vertical", 3)
    assert [str(m) for m in session.game.moves] == moves
    # A game without moves is not archived.
    session.new_deal()
    session.open_deal("doublets", 1)
    assert set(json.loads(storage.data[ARCHIVE_KEY])) <= {"vertical/3"}


def test_two_tabs_do_not_erase_each_other() -> None:
    storage = MemoryStorage()
    tab_a = Session.open(storage, "?variant=standard&deal=7", random.Random(0))
    tab_b = Session.open(storage, "?variant=strict&deal=9", random.Random(0))
    moves_a = play_some(tab_a, 2)
    play_some(tab_b, 1)  # overwrites the current slot: tab A's game goes to the archive
    again = Session.open(storage, "?variant=standard&deal=7", random.Random(0))
    assert [str(m) for m in again.game.moves] == moves_a


def test_archive_is_capped_and_an_unreadable_one_is_set_aside() -> None:
    storage = MemoryStorage()
    session = Session.open(storage, "?variant=standard&deal=0", random.Random(0))
    for deal in range(1, 30):
        if session.game.legal_moves():
            play_some(session, 1)
        session.open_deal("standard", deal)
    assert len(json.loads(storage.data[ARCHIVE_KEY])) <= 20
    storage.data[ARCHIVE_KEY] = "{broken"
    play_some(session, 1) if session.game.legal_moves() else None
    session.open_deal("standard", 2)
    assert storage.data[ARCHIVE_KEY + ".unreadable"] == "{broken"
    assert session.notice is not None and "could not be read" in session.notice


def test_a_boolean_version_is_not_version_1() -> None:
    from nestor import NestorError
    from nestor_web.session import load_saved

    text = json.dumps({"version": True, "variant": "standard", "deal": 7, "moves": [],
                       "cursor": 0})
    with pytest.raises(NestorError, match="unknown format version"):
        load_saved(text)

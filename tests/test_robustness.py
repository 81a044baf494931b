"""Regression tests for hostile or broken input, and for never losing a game in progress."""

from __future__ import annotations

import json
import random

import pytest
from webpage import Page, SharedStore

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
from nestor_web.storage.codecs import game_from_text
from nestor_web.storage.keys import ARCHIVE_KEY, SAVE_KEY, SETTINGS_KEY, UNREADABLE, MemoryStore

UNREADABLE_KEY = SAVE_KEY + UNREADABLE

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
    store = MemoryStore({SAVE_KEY: text, SETTINGS_KEY: "[" * 50_000})
    page = Page(store, "", random.Random(1))
    assert page.notice is not None and "saved game could not be read" in page.notice
    assert "settings could not be read" in page.notice
    assert page.notice.count("the text is nested too deeply") == 2
    assert store.data[UNREADABLE_KEY] == text
    assert store.data[SETTINGS_KEY + UNREADABLE] == "[" * 50_000
    assert page.session.game.cursor == 0


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
    page = Page(MemoryStore({SAVE_KEY: saved}), f"?deal={HUGE}", random.Random(2))
    # Worded by the view from the error's code: the range, and the number clipped.
    assert page.notice is not None
    assert page.notice.count("a deal number runs from 0 to 4294967295, not 99999") == 2
    assert len(page.notice) < 600
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
    page = Page(
        MemoryStore({SAVE_KEY: json.dumps({"version": 1, "variant": "standard", "deal": 7,
                                           "moves": ["Q" * 20_000], "cursor": 1})}),
        "", random.Random(3),
    )
    assert page.notice is not None and len(page.notice) < 600
    assert "move 1 cannot be read" in page.notice


def test_solve_command_refuses_deep_json(monkeypatch, capsys) -> None:
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("[" * 100_000 + "\n"))
    assert main(["solve"]) == 2
    assert "line 1" in capsys.readouterr().err


# ---- storage that fails -------------------------------------------------------------------


class FullStore(MemoryStore):
    """A store that starts refusing writes once ``full`` is set (as a full quota does)."""

    full = False

    def set(self, key: str, value: str) -> None:
        if self.full:
            raise RuntimeError("QuotaExceededError: the quota has been exceeded")
        super().set(key, value)


def test_a_failing_save_is_reported_and_play_goes_on() -> None:
    store = FullStore()
    page = Page(store, "?variant=standard&deal=7", random.Random(0))
    store.full = True
    move = page.session.game.legal_moves()[0]
    page.tap(move.cards[0])  # type: ignore[union-attr]
    page.tap(move.cards[1])  # type: ignore[union-attr]
    assert page.session.game.cursor == 1
    assert page.notice is not None and "could not be saved" in page.notice
    assert "(RuntimeError)" in page.notice  # the error's name, not its English message
    assert page.undo() and page.session.game.cursor == 0
    assert page.notice.count("could not be saved") == 1


# ---- games left in progress are kept -------------------------------------------------------


def test_opening_another_link_keeps_the_game_in_progress() -> None:
    store = MemoryStore({"another.app": "{}"})
    first = Page(store, "?variant=standard&deal=7", random.Random(0))
    moves = first.play_pairs(3)
    second = Page(store, "?variant=standard&deal=8", random.Random(0))
    assert second.session.key == ("standard", 8) and second.session.game.cursor == 0
    assert set(json.loads(store.data[ARCHIVE_KEY])) == {"standard/7"}
    # A broken link, then the old link again: the game resumes where it was.
    Page(store, "?variant=standard&deal=banana", random.Random(0))
    back = Page(store, "?variant=standard&deal=7", random.Random(0))
    assert [str(m) for m in back.session.game.moves] == moves
    assert "standard/7" not in json.loads(store.data[ARCHIVE_KEY])
    assert store.data["another.app"] == "{}"


def test_new_deal_and_variant_switch_keep_the_game_for_open_deal() -> None:
    store = MemoryStore()
    page = Page(store, "?variant=vertical&deal=3", random.Random(5))
    moves = page.play_pairs(2)
    page.new_deal("doublets")
    assert page.session.game.variant.name == "doublets"
    page.open_deal("vertical", 3)
    assert [str(m) for m in page.session.game.moves] == moves
    # A game without moves is not archived.
    page.new_deal()
    page.open_deal("doublets", 1)
    assert set(json.loads(store.data[ARCHIVE_KEY])) <= {"vertical/3"}


def test_two_tabs_do_not_erase_each_other() -> None:
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=7", random.Random(0))
    tab_b = Page(store.tab(), "?variant=strict&deal=9", random.Random(0))
    moves_a = tab_a.play_pairs(2)
    tab_b.play_pairs(1)  # overwrites the current slot: tab A's game goes to the archive
    again = Page(store, "?variant=standard&deal=7", random.Random(0))
    assert [str(m) for m in again.session.game.moves] == moves_a


def test_archive_is_capped_and_an_unreadable_one_is_set_aside() -> None:
    store = MemoryStore()
    page = Page(store, "?variant=standard&deal=0", random.Random(0))
    for deal in range(1, 30):
        if page.session.game.legal_moves():
            page.play_pairs(1)
        page.open_deal("standard", deal)
    assert len(json.loads(store.data[ARCHIVE_KEY])) == 20
    store.data[ARCHIVE_KEY] = "{broken"
    if page.session.game.legal_moves():
        page.play_pairs(1)
    page.open_deal("standard", 2)
    assert store.data[ARCHIVE_KEY + UNREADABLE] == "{broken"
    assert page.notice is not None and "could not be read" in page.notice


def test_a_boolean_version_is_not_version_1() -> None:
    from nestor import NestorError

    text = json.dumps({"version": True, "variant": "standard", "deal": 7, "moves": [],
                       "cursor": 0})
    with pytest.raises(NestorError, match="unknown format version") as info:
        game_from_text(text)
    assert info.value.code == "json.version"

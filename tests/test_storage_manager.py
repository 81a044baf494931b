"""The storage manager (nestor_web.storage.manager): what one tap costs the store, two tabs
over one store, finished games, unreadable values and refused writes."""

from __future__ import annotations

import json
import random

from webpage import Page, QuotaStore, RefusingStore, SharedStore

from nestor import Game, Pair, deal_position
from nestor.solver import solve
from nestor_web.app.events import Problem
from nestor_web.app.saved import SavedGame
from nestor_web.storage.codecs import game_from_text, game_to_text
from nestor_web.storage.keys import (
    ARCHIVE_KEY,
    BOARD_KEY,
    SAVE_KEY,
    SEQ_KEY,
    STATS_KEY,
    UNREADABLE,
    MemoryStore,
    StoreRefused,
)
from nestor_web.storage.manager import StorageManager


class CountingStore(MemoryStore):
    """A :class:`MemoryStore` that records every key read and written."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        super().__init__(data)
        self.gets: list[str] = []
        self.sets: list[str] = []

    def get(self, key: str) -> str | None:
        self.gets.append(key)
        return super().get(key)

    def set(self, key: str, value: str) -> None:
        self.sets.append(key)
        super().set(key, value)

    def forget(self) -> None:
        """Start counting afresh."""
        self.gets.clear()
        self.sets.clear()


def pair_by_taps(page: Page, pair: Pair) -> None:
    """Select one card, then pair it with the other: one pairing, two taps."""
    assert page.tap(pair.first)
    assert page.tap(pair.second)


def test_a_pairing_tap_writes_the_game_once_and_reads_only_the_sequence_number() -> None:
    deal = next(d for d in range(200) if solve(deal_position("doublets", d)).line)
    line = solve(deal_position("doublets", deal)).line
    store = CountingStore()
    page = Page(store, f"?variant=doublets&deal={deal}", random.Random(0))
    assert store.gets  # opening the page reads what is stored
    page.run(())  # the page's start: its first draw, and the save after it (root.App)
    for number, move in enumerate(line, 1):
        assert isinstance(move, Pair)
        store.forget()
        pair_by_taps(page, move)
        # Only nestor.seq, before each tap and the save: has another tab saved since?
        assert set(store.gets) == {SEQ_KEY}, f"move {number} read the store"
        # The game once, and the board for the next visit's first paint (the page's loop
        # saves it after the game, tests/webpage.py runs that loop).
        if number == 1 or number == len(line):  # a deal's first move, and the win
            assert store.sets == [SAVE_KEY, STATS_KEY, SEQ_KEY, BOARD_KEY], f"move {number}"
        else:
            assert store.sets == [SAVE_KEY, SEQ_KEY, BOARD_KEY], f"move {number}"
    assert page.session.position.is_empty()
    assert game_from_text(store.data[SAVE_KEY]).game.position.is_empty()
    # Selecting alone, or a tap that does nothing, writes nothing either.
    store.forget()
    page.undo()
    assert store.sets == [SAVE_KEY, SEQ_KEY, BOARD_KEY] and set(store.gets) == {SEQ_KEY}
    store.forget()
    card = next(iter(page.session.position.available()))
    page.tap(card)
    page.tap(card)
    page.tap("ZZ")
    assert store.sets == [] and set(store.gets) == {SEQ_KEY}


def test_another_tab_moving_on_another_deal_archives_this_tabs_game() -> None:
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=7", random.Random(0))
    tab_b = Page(store.tab(), "?variant=strict&deal=9", random.Random(0))
    assert json.loads(store.data[SAVE_KEY])["deal"] == 9  # B wrote the slot last
    for _ in range(2):
        pair_by_taps(tab_a, tab_a.session.position.pairs()[0])
    moves_a = [str(m) for m in tab_a.session.game.moves]
    assert json.loads(store.data[SAVE_KEY])["moves"] == moves_a
    assert ARCHIVE_KEY not in store.data  # B's game had no moves: nothing to keep
    pair_by_taps(tab_b, tab_b.session.position.pairs()[0])
    # B's move took the slot; A's game, another deal with moves, went to the archive.
    archive = json.loads(store.data[ARCHIVE_KEY])
    assert set(archive) == {"standard/7"}
    assert [str(m) for m in game_from_text(archive["standard/7"]).game.moves] == moves_a
    assert game_from_text(store.data[SAVE_KEY]).key == ("strict", 9)
    # And back: A's next move archives B's game.
    pair_by_taps(tab_a, tab_a.session.position.pairs()[0])
    moves_b = [str(m) for m in tab_b.session.game.moves]
    archive = json.loads(store.data[ARCHIVE_KEY])
    assert [str(m) for m in game_from_text(archive["strict/9"]).game.moves] == moves_b
    # Each deal's link resumes the latest state of its game.
    again_a = Page(MemoryStore(dict(store.data)), "?variant=standard&deal=7")
    assert again_a.session.game.moves == tab_a.session.game.moves
    again_b = Page(MemoryStore(dict(store.data)), "?variant=strict&deal=9")
    assert [str(m) for m in again_b.session.game.moves] == moves_b



def test_the_board_is_kept_for_the_saved_game_only_when_the_game_or_language_changes() -> None:
    store = MemoryStore()
    manager = StorageManager(store)
    manager.save_board("en", lambda: ([["b", {}]], {}))
    assert BOARD_KEY not in store.data  # no game saved yet: nothing to bind the board to
    # The page's own board saves left out: this test makes every save_board call itself.
    page = Page(store, "?variant=standard&deal=7", random.Random(0), keep_board=False)
    drawn: list[str] = []

    def draw() -> tuple[list[object], dict[str, str]]:
        drawn.append("x")
        return [["div", {"data-board": str(len(drawn))}]], {"cards-left": "52"}

    page.storage.save_board("en", draw)
    kept = json.loads(store.data[BOARD_KEY])
    assert kept["game"] == store.data[SAVE_KEY] and kept["board"] == [["div", {"data-board": "1"}]]
    move = next(m for m in page.session.position.pairs())
    page.tap(move.first)  # a selection: the saved game is the same
    page.storage.save_board("en", draw)
    assert drawn == ["x"]
    page.tap(move.second)
    page.storage.save_board("en", draw)
    kept = json.loads(store.data[BOARD_KEY])
    assert kept["game"] == store.data[SAVE_KEY] and kept["board"] == [["div", {"data-board": "2"}]]
    page.storage.save_board("de", draw)
    assert drawn == ["x", "x", "x"]
    kept = json.loads(store.data[BOARD_KEY])
    assert kept["game"] == store.data[SAVE_KEY] and kept["language"] == "de"


# ---- issue 10: finished games, unreadable archives, refusals -----------------------------


def finish(page: Page, win: bool) -> None:
    """Play the deal to its end: the solver's winning line, or a losing one."""
    while page.session.position.outcome() is None:
        position = page.session.position
        if win:
            move = solve(position).line[0]
        else:
            move = next(
                (m for m in position.pairs() if solve(position.apply(m)).status.value == "lost"),
                position.pairs()[0],
            )
        assert isinstance(move, Pair)
        pair_by_taps(page, move)
    assert page.session.position.outcome().won is win  # type: ignore[union-attr]


def test_finished_games_are_not_kept_as_games_in_progress() -> None:
    """Issue 10: a won or lost game left for another deal went to the archive of games left
    in progress; only an unfinished game with moves does."""
    won = next(d for d in range(50) if solve(deal_position("doublets", d)).line)
    store = MemoryStore()
    page = Page(store, f"?variant=doublets&deal={won}", random.Random(0))
    finish(page, win=True)
    page.open_deal("standard", 0)  # deal 0 of standard is lost from its start
    assert json.loads(store.data.get(ARCHIVE_KEY, "{}")) == {}
    finish(page, win=False)
    page.open_deal("vertical", 3)
    assert json.loads(store.data.get(ARCHIVE_KEY, "{}")) == {}
    # Undo after the end: in progress again, and kept.
    page.open_deal("standard", 0)
    assert page.session.game.cursor == 0  # the lost game was not kept: it starts afresh
    finish(page, win=False)
    assert page.undo()
    page.open_deal("vertical", 3)
    assert set(json.loads(store.data[ARCHIVE_KEY])) == {"standard/0"}


def saved_text(variant: str, deal: int, moves: int) -> str:
    game = Game(variant, deal)
    for _ in range(moves):
        game.push(game.legal_moves()[0])
    return game_to_text(SavedGame(game))


ARCHIVE_UNREADABLE = "The games you left in progress could not be read; they were set aside."


def test_an_unreadable_archive_is_reported_once() -> None:
    """Issue 10: each read of a broken archive reported it again (the session's notice then
    repeated it), and it stayed broken until a game was archived."""
    data = {ARCHIVE_KEY: "{broken", SAVE_KEY: saved_text("standard", 7, 1)}
    page = Page(MemoryStore(data), "?variant=standard&deal=9")  # reads it twice: take, keep
    assert page.session.notices == [Problem("archive.unreadable")]
    # A link to a deal, with nothing saved: the archive stays as it was until a game is
    # kept; reading it again after the notices were cleared says nothing more.
    store = MemoryStore({ARCHIVE_KEY: "{broken"})
    page = Page(store, "?variant=standard&deal=9", random.Random(0))
    assert page.notice == ARCHIVE_UNREADABLE
    assert store.data[ARCHIVE_KEY + UNREADABLE] == "{broken"
    pair_by_taps(page, page.session.position.pairs()[0])
    page.new_deal()  # clears the notices; keeps deal 9's game in the archive
    assert page.notice is None
    assert set(json.loads(store.data[ARCHIVE_KEY])) == {"standard/9"}
    page.open_deal("standard", 9)
    assert page.session.game.cursor == 1 and page.notice is None


def test_an_unreadable_archived_game_is_set_aside() -> None:
    """Issue 10: an archived game that could not be read was dropped, with no copy."""
    broken = '{"version": 1, "variant": "standard", "deal": 7, "moves": ["QC-KD"]'
    keep = saved_text("standard", 8, 2)
    store = MemoryStore({ARCHIVE_KEY: json.dumps({"standard/7": broken, "standard/8": keep}),
                         ARCHIVE_KEY + UNREADABLE: "{an older broken archive"})
    page = Page(store, "?variant=standard&deal=7", random.Random(0))
    assert page.notice == (
        "Your earlier game of this deal could not be read (the text is not valid JSON). It "
        "was set aside, and the deal starts afresh."
    )
    assert page.session.key == ("standard", 7) and page.session.game.cursor == 0
    assert json.loads(store.data[ARCHIVE_KEY + UNREADABLE]) == {
        "": "{an older broken archive", "standard/7": broken,
    }
    assert json.loads(store.data[ARCHIVE_KEY]) == {"standard/8": keep}
    # Another one: added to those set aside before.
    store.data[ARCHIVE_KEY] = json.dumps({"standard/8": keep, "vertical/2": "[]"})
    page.open_deal("vertical", 2)
    assert set(json.loads(store.data[ARCHIVE_KEY + UNREADABLE])) == {
        "", "standard/7", "vertical/2",
    }
    page.open_deal("standard", 8)
    assert page.session.game.cursor == 2  # the readable one resumes


def test_when_the_copy_of_an_unreadable_value_finds_no_room_the_notice_says_so() -> None:
    """Issue 10: when the store refused the ``.unreadable`` copy, the notice said it was set
    aside, and that progress could not be saved (it was)."""
    broken = "{" + "x" * 3000
    store = QuotaStore(5000, {ARCHIVE_KEY: json.dumps({"standard/7": broken})})
    page = Page(store, "?variant=standard&deal=7", random.Random(0))
    assert page.notice == (
        "Your earlier game of this deal could not be read (the text is not valid JSON). No "
        "copy of it could be kept, as the browser's storage refused one (the storage is "
        "full). The deal starts afresh."
    )
    assert ARCHIVE_KEY + UNREADABLE not in store.data
    assert json.loads(store.data[ARCHIVE_KEY]) == {}
    pair_by_taps(page, page.session.position.pairs()[0])
    assert game_from_text(store.data[SAVE_KEY]).game.cursor == 1  # progress is saved
    # The same for the saved game, and for a whole archive.
    store = QuotaStore(5000, {SAVE_KEY: broken, ARCHIVE_KEY: "[" + "y" * 1500})
    page = Page(store, "?variant=standard&deal=7", random.Random(0))
    assert page.notice == (
        "Your saved game could not be read: the text is not valid JSON. No copy of it could "
        "be kept, as the browser's storage refused one (the storage is full). A new game "
        "started. The games you left in progress could not be read. No copy of them could "
        "be kept, as the browser's storage refused one (the storage is full)."
    )
    assert game_from_text(store.data[SAVE_KEY]).key == ("standard", 7)
    assert not any(key.endswith(UNREADABLE) for key in store.data)


def test_a_refused_write_names_the_stores_own_error() -> None:
    page = Page(RefusingStore(StoreRefused("QuotaExceededError", "The quota has been exceeded.")))
    assert page.notice == (
        "Your progress could not be saved: the browser's storage refused it (the storage is "
        "full). The game goes on, but it may be lost when the page closes."
    )
    page = Page(RefusingStore(StoreRefused("NotReadableError", "Disk trouble.")))
    assert page.notice is not None and "(NotReadableError)" in page.notice
    page = Page(RefusingStore(StoreRefused("Error", "the disk is on fire")))
    assert page.notice is not None and "(the disk is on fire)" in page.notice
    page = Page(RefusingStore(OSError("no")))
    assert page.notice is not None and "(OSError)" in page.notice

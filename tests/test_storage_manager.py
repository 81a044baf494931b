"""The storage manager (nestor_web.storage.manager): what one tap costs the store, and two
tabs over one store."""

from __future__ import annotations

import json
import random

from webpage import Page, SharedStore

from nestor import Pair, deal_position
from nestor.solver import solve
from nestor_web.storage.codecs import game_from_text
from nestor_web.storage.manager import ARCHIVE_KEY, SAVE_KEY, STATS_KEY, MemoryStore


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


def test_a_pairing_tap_writes_the_game_once_and_reads_nothing() -> None:
    deal = next(d for d in range(200) if solve(deal_position("doublets", d)).line)
    line = solve(deal_position("doublets", deal)).line
    store = CountingStore()
    page = Page(store, f"?variant=doublets&deal={deal}", random.Random(0))
    assert store.gets  # opening the page reads what is stored
    for number, move in enumerate(line, 1):
        assert isinstance(move, Pair)
        store.forget()
        pair_by_taps(page, move)
        assert store.gets == [], f"move {number} read the store"
        if number == 1 or number == len(line):  # a deal's first move, and the win
            assert store.sets == [SAVE_KEY, STATS_KEY], f"move {number}"
        else:
            assert store.sets == [SAVE_KEY], f"move {number}"
    assert page.session.position.is_empty()
    assert game_from_text(store.data[SAVE_KEY]).game.position.is_empty()
    # Selecting alone, or a tap that does nothing, writes nothing either.
    store.forget()
    page.undo()
    assert store.sets == [SAVE_KEY] and store.gets == []
    store.forget()
    card = next(iter(page.session.position.available()))
    page.tap(card)
    page.tap(card)
    page.tap("ZZ")
    assert store.sets == [] and store.gets == []


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
    from nestor_web.storage.manager import BOARD_KEY, StorageManager

    store = MemoryStore()
    manager = StorageManager(store)
    manager.save_board("en", lambda: ("<b>", {}))
    assert BOARD_KEY not in store.data  # no game saved yet: nothing to bind the board to
    page = Page(store, "?variant=standard&deal=7", random.Random(0))
    drawn: list[str] = []

    def draw() -> tuple[str, dict[str, str]]:
        drawn.append("x")
        return f"<board {len(drawn)}>", {"cards-left": "52"}

    page.storage.save_board("en", draw)
    kept = json.loads(store.data[BOARD_KEY])
    assert kept["game"] == store.data[SAVE_KEY] and kept["html"] == "<board 1>"
    move = next(m for m in page.session.position.pairs())
    page.tap(move.first)  # a selection: the saved game is the same
    page.storage.save_board("en", draw)
    assert drawn == ["x"]
    page.tap(move.second)
    page.storage.save_board("en", draw)
    page.storage.save_board("de", draw)
    assert drawn == ["x", "x", "x"]
    kept = json.loads(store.data[BOARD_KEY])
    assert kept["game"] == store.data[SAVE_KEY] and kept["language"] == "de"

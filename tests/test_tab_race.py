"""The stale-tab tap race (issue 10): a tab showing a game that another tab has moved on
taps before it heard of it; the newer line must not be overwritten, and no move is lost.

Two ways a tab can be behind: it has not heard the other tab's storage event but its
localStorage already reads the newer save (a frozen tab, the event still queued): it
catches up before the tap (``StorageManager.catch_up``); or its localStorage is behind too
(Chromium delivers another tab's write and its event in one later task: tests/webpage.py's
``LaggingStore``): it saves its line, and the two lines are joined when the tabs hear each
other (``StorageManager.follow``, ``nestor_web.app.saved.join``).
"""

from __future__ import annotations

import json
import random

import pytest
from webpage import LaggingStore, Page, SharedStore, clock

from nestor import Game, Pair, deal_position
from nestor_web.app.saved import Help, SavedGame, descends, join
from nestor_web.storage.codecs import game_from_text
from nestor_web.storage.keys import DIVERGED_KEY, SAVE_KEY, STATS_KEY
from nestor_web.storage.stats_codec import stats_from_text


def first_pairs(variant: str, deal: int, count: int) -> list[Pair]:
    game = Game(variant, deal)
    out = []
    for _ in range(count):
        move = game.position.pairs()[0]
        game.push(move)
        out.append(move)
    return out


def moves_of(text: str) -> list[str]:
    return [str(m) for m in game_from_text(text).game.moves]


def a_deal_with(joinable: bool) -> tuple[int, list[Pair], Pair]:
    """A standard deal, A's four first pairs, and a pair of the deal's start position that B
    plays on it: still legal after A's four (``joinable``), or using a card they removed."""
    for deal in range(200):
        four = first_pairs("standard", deal, 4)
        after = Game("standard", deal)
        for move in four:
            after.push(move)
        gone = {c for m in four for c in m.cards}
        for y in deal_position("standard", deal).pairs():
            if y in four:
                continue
            if joinable and after.position.is_legal(y):
                return deal, four, y
            if not joinable and gone & set(y.cards):
                return deal, four, y
    raise AssertionError("no such deal in 0..199")


def two_tabs(store: SharedStore | LaggingStore, query: str) -> tuple[Page, Page]:
    tab_a = Page(store, query, random.Random(0), clock=clock(1_000_000))
    tab_b = Page(store.tab(), query, random.Random(1), clock=clock(2_000_000))
    return tab_a, tab_b


def play(page: Page, move: Pair, hear: bool = True) -> None:
    """Tap the two cards of ``move``; without ``hear`` the page takes nothing in first (the
    taps come before the other tab's write reaches it)."""
    for card in move.cards:
        if hear:
            assert page.tap(card)
        else:
            assert page.run(page.session.tap(card))


def test_a_tab_that_never_heard_the_other_taps_on_the_newer_game_it_catches_up_first() -> None:
    store = SharedStore()
    tab_a, tab_b = two_tabs(store, "?variant=standard&deal=7")
    tab_b.store.on_change = None  # B is frozen: no storage event reaches it
    four = first_pairs("standard", 7, 4)
    for move in four:
        play(tab_a, move)
    assert tab_b.session.game.moves == ()  # B still shows the deal as dealt
    fifth = tab_a.session.position.pairs()[0]
    assert tab_b.tap(fifth.first)  # its localStorage has A's save: B follows, then taps
    assert tab_b.session.game.moves == tuple(four)
    assert tab_b.notice is not None and "another tab" in tab_b.notice
    assert tab_b.tap(fifth.second)
    assert [str(m) for m in tab_b.session.game.moves] == [str(m) for m in [*four, fifth]]
    assert moves_of(store.data[SAVE_KEY]) == [str(m) for m in [*four, fifth]]


@pytest.mark.parametrize("a_hears_first", [True, False])
def test_a_tab_behind_plays_a_pair_before_it_hears_both_lines_are_joined(
    a_hears_first: bool,
) -> None:
    deal, four, y = a_deal_with(joinable=True)
    store = LaggingStore()
    tab_a, tab_b = two_tabs(store, f"?variant=standard&deal={deal}")
    for move in four:
        play(tab_a, move)
    play(tab_b, y, hear=False)  # B's copy is behind: its save overwrites A's four
    assert moves_of(store.backend[SAVE_KEY]) == [str(y)]
    order = (tab_a, tab_b) if a_hears_first else (tab_b, tab_a)
    for _ in range(3):
        for tab in order:
            tab.receive()
    joined = [str(m) for m in [*four, y]]
    assert moves_of(store.backend[SAVE_KEY]) == joined
    for tab in (tab_a, tab_b):
        assert [str(m) for m in tab.session.game.moves] == joined
        assert tab.receive() == ()  # settled: nothing more to take in
    assert DIVERGED_KEY not in store.backend
    stats = stats_from_text(store.backend[STATS_KEY])
    assert stats.summary("standard").played == 1


def test_a_line_that_cannot_follow_the_other_is_kept_aside_whole() -> None:
    deal, four, y = a_deal_with(joinable=False)
    store = LaggingStore()
    tab_a, tab_b = two_tabs(store, f"?variant=standard&deal={deal}")
    for move in four:
        play(tab_a, move)
    play(tab_b, y, hear=False)
    for _ in range(3):
        tab_a.receive()
        tab_b.receive()
    # The longer line is the game of both tabs; B's pair, which needs a card A's removed,
    # is kept in nestor.diverged as B's whole line.
    assert moves_of(store.backend[SAVE_KEY]) == [str(m) for m in four]
    for tab in (tab_a, tab_b):
        assert tab.session.game.moves == tuple(four)
    kept = json.loads(store.backend[DIVERGED_KEY])
    assert [moves_of(text) for text in kept] == [[str(y)]]


def test_descends_and_join() -> None:
    four = first_pairs("standard", 7, 4)

    def saved(moves: list[Pair], cursor: int | None = None, hints: int = 0) -> SavedGame:
        game = Game("standard", 7)
        for m in moves:
            game.push(m)
        for _ in range(len(moves) - (len(moves) if cursor is None else cursor)):
            game.undo()
        return SavedGame(game, Help(hints=hints))

    base = saved(four[:2])
    assert descends(saved(four), base)  # played on
    assert descends(saved(four, cursor=1), base)  # undid within its line
    assert descends(saved([]), base)  # restarted
    assert not descends(saved(four[:1]), base)  # without base's second move
    assert not descends(SavedGame(Game("standard", 8)), base)
    # Joining is the same both ways round, and holds the moves of both.
    mine, theirs = saved(four[:2] + [four[3]], hints=1), saved(four[:3])
    # (mine plays the fourth pair without the third: on deal 7 it is available from the start)
    assert Game("standard", 7).position.is_legal(four[3])
    (one, one_left), (two, two_left) = join(mine, theirs), join(theirs, mine)
    assert one.game.moves == two.game.moves
    assert one_left is None and two_left is None
    assert set(one.game.moves) == set(four)
    assert one.help == Help(hints=1)
    with pytest.raises(ValueError):
        join(base, SavedGame(Game("standard", 8)))

"""Games left in progress in tabs that were closed (issue 10): the statistics promise that a
game settles as lost when the player leaves it unwon; a closed tab left it. The page that
opens with no other tab of the game open (static/js/durable.js counts the holders of a
shared Web Lock) settles them; while another tab is open, nothing it may show is settled."""

from __future__ import annotations

import random

import pytest
from webpage import Page, SharedStore, clock

from nestor_web.app.statistics.record import Stats
from nestor_web.storage.keys import STATS_KEY, MemoryStore
from nestor_web.storage.stats_codec import stats_from_text


def pair(page: Page) -> None:
    first = page.session.position.pairs()[0]
    assert page.tap(first.first)
    assert page.tap(first.second)


def stored(store: MemoryStore) -> Stats:
    return stats_from_text(store.data[STATS_KEY])


def a_tab_closed_in_progress() -> SharedStore:
    """Tab A plays deal 1, tab B deal 20 (B saved last), then both are closed."""
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=1", random.Random(0), clock=clock(10**6))
    tab_b = Page(store.tab(), "?variant=standard&deal=20", random.Random(1), clock=clock(2 * 10**6))
    pair(tab_a)
    pair(tab_b)
    tab_a.receive()
    stats = stored(store)
    assert stats.deal_result("standard", 1) == stats.deal_result("standard", 20) == "playing"
    return store


def test_the_only_tab_open_settles_the_games_closed_tabs_left_in_progress_as_lost() -> None:
    store = a_tab_closed_in_progress()
    page = Page(MemoryStore(store.data), "?variant=standard&deal=1", alone=True)
    stats = stored(page.store)  # type: ignore[arg-type]
    assert stats.deal_result("standard", 20) == "lost"  # B's, closed: left
    assert stats.deal_result("standard", 1) == "playing"  # shown here: still in play
    assert [(h.deal, h.result) for h in stats.history()] == [(20, "lost")]
    s = stats.summary("standard")
    assert (s.played, s.won, s.streak) == (2, 0, 0)
    assert page.session.stats.playing() == ("standard", 1)
    pair(page)  # a move here settles nothing more
    assert [(h.deal, h.result) for h in stored(page.store).history()] == [(20, "lost")]  # type: ignore[arg-type]


def test_with_another_tab_open_a_new_page_settles_nothing_that_tab_may_show() -> None:
    store = a_tab_closed_in_progress()
    # B saved last (deal 20 is the stored game); a page opened on deal 1 while another
    # tab is open must not leave deal 20, which that tab may be showing.
    page = Page(MemoryStore(store.data), "?variant=standard&deal=1", alone=False)
    stats = stored(page.store)  # type: ignore[arg-type]
    assert stats.deal_result("standard", 20) == "playing"
    assert stats.history() == []
    # Nor is it kept for Undo (to settle when Undo no longer brings it back): it is dropped.
    assert page.session.left is None
    while page.session.game.can_undo():
        page.session.undo()
    assert page.session.undo() == ()
    assert page.session.key == ("standard", 1)


def test_not_knowing_whether_another_tab_is_open_leaves_the_stored_game_as_before() -> None:
    store = a_tab_closed_in_progress()
    page = Page(MemoryStore(store.data), "?variant=standard&deal=1", alone=None)
    stats = stored(page.store)  # type: ignore[arg-type]
    assert stats.deal_result("standard", 20) == "lost"  # the stored game, left for deal 1


def test_settle_others_keeps_the_deal_shown_and_a_later_win_of_a_settled_deal_counts() -> None:
    stats = Stats()
    stats.record_move("standard", 1, 1000, won=False, helped=False, first=True)
    other = Stats()
    other.record_move("standard", 2, 2000, won=False, helped=False, first=True)
    stats.merge(other)
    assert stats.settle_others("standard", 1, 3000)
    assert stats.deal_result("standard", 2) == "lost"
    assert stats.playing() == ("standard", 1)
    assert not stats.settle_others("standard", 1, 4000)  # nothing left to settle
    stats.record_move("standard", 2, 5000, won=True, helped=False, first=False)
    s = stats.summary("standard")
    assert (s.played, s.won, s.streak) == (2, 1, 1)
    assert stats.deal_result("standard", 1) == "lost"  # its move in deal 2 left deal 1


def test_a_deal_whose_first_move_the_other_tab_made_settles_when_this_tab_leaves_it() -> None:
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=7", random.Random(0), clock=clock(10**6))
    tab_b = Page(store.tab(), "?variant=standard&deal=7", random.Random(1), clock=clock(2 * 10**6))
    pair(tab_b)  # B makes the deal's first move; A follows it
    tab_a.receive()
    assert tab_a.session.game.cursor == 1
    tab_a.new_deal("standard")  # A leaves deal 7 unwon; Undo could still bring it back
    assert stored(store).deal_result("standard", 7) == "playing"
    pair(tab_a)  # the first move of the new deal: deal 7 settles as lost now
    stats = stored(store)
    assert stats.deal_result("standard", 7) == "lost"
    assert [(h.deal, h.result) for h in stats.history()] == [(7, "lost")]


@pytest.mark.parametrize("stats_first", [False, True])
def test_a_game_left_for_undo_settles_when_the_other_tabs_moves_in_the_new_deal_come_in(
    stats_first: bool,
) -> None:
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=1", random.Random(0), clock=clock(10**6))
    tab_b = Page(store.tab(), "?variant=standard&deal=2", random.Random(1), clock=clock(2 * 10**6))
    pair(tab_a)
    tab_b.receive()
    tab_a.open_deal("standard", 2)  # A leaves deal 1 (Undo could bring it back) for deal 2
    assert tab_a.session.left is not None
    pair(tab_b)  # B makes deal 2's first move; A takes it in (its statistics first, or not)
    heard = tab_a._heard
    assert STATS_KEY in heard and len(heard) > 1
    heard.sort(key=lambda key: (key != STATS_KEY) if stats_first else (key == STATS_KEY))
    tab_a.receive()
    assert tab_a.session.game.cursor == 1
    # Undo now takes back that move: deal 1 can no longer come back, so it settles as lost.
    assert tab_a.session.left is None
    assert tab_a.session.stats.deal_result("standard", 1) == "lost"
    pair(tab_a)
    stats = stored(store)
    assert stats.deal_result("standard", 1) == "lost"
    assert stats.deal_result("standard", 2) == "playing"
    assert tab_a.session.stats.playing() == ("standard", 2)  # A's game now, which leaving settles

"""Two tabs over one store (tests/webpage.py's SharedStore, storage events delivered between
tasks as the browser does): issue 10's "two tabs, one truth" scenarios."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from webpage import LaggingStore, Page, SharedStore, clock

from nestor import Pair, deal_position
from nestor.solver import solve
from nestor_web.app.events import FromOtherTab
from nestor_web.storage.codecs import game_from_text
from nestor_web.storage.keys import ARCHIVE_KEY, SAVE_KEY, STATS_KEY, MemoryStore
from nestor_web.storage.stats_codec import stats_from_text
from nestor_web.view import i18n


def winnable(variant: str, start: int) -> int:
    return next(d for d in range(start, start + 200) if solve(deal_position(variant, d)).line)


def win(page: Page, hear: bool = True) -> None:
    """Play the winning line of the game in play, by taps (without ``hear``, the page takes
    in nothing another tab wrote before them: its storage events are still on their way)."""
    for move in solve(page.session.game.position).line:
        assert isinstance(move, Pair)
        for card in move.cards:
            assert page.tap(card) if hear else page.run(page.session.tap(card))
    assert page.session.game.position.is_empty()


def pair(page: Page) -> None:
    first = page.session.position.pairs()[0]
    assert page.tap(first.first)
    assert page.tap(first.second)


def stored_summary(
    store: SharedStore | LaggingStore, variant: str = "standard"
) -> tuple[int, int, int]:
    data = store.backend if isinstance(store, LaggingStore) else store.data
    s = stats_from_text(data[STATS_KEY]).summary(variant)
    return s.played, s.won, s.streak


def two_tabs(query_a: str, query_b: str) -> tuple[SharedStore, Page, Page]:
    store = SharedStore()
    tab_a = Page(store, query_a, random.Random(0), clock=clock(1_000_000))
    tab_b = Page(store.tab(), query_b, random.Random(1), clock=clock(2_000_000))
    return store, tab_a, tab_b


def test_tab_a_wins_deal_1_then_tab_b_not_reloaded_wins_deal_20_both_wins_count() -> None:
    one, twenty = winnable("standard", 1), winnable("standard", 20)
    store, tab_a, tab_b = two_tabs(
        f"?variant=standard&deal={one}", f"?variant=standard&deal={twenty}"
    )
    win(tab_a)
    assert stored_summary(store) == (1, 1, 1)
    win(tab_b)  # B never reloaded: it merged A's statistics before its first move
    assert stored_summary(store) == (2, 2, 2)
    events = tab_a.receive()  # B's writes reach A: merged, A's statistics redraw
    assert FromOtherTab("stats") in events
    for tab in (tab_a, tab_b):
        s = tab.session.stats.summary("standard")
        assert (s.played, s.won, s.streak) == (2, 2, 2)
        assert {h.deal for h in tab.session.stats.history()} == {one, twenty}
    # A fresh page reads both wins.
    again = Page(MemoryStore(dict(store.data)), "")
    assert again.session.stats.summary("standard").won == 2


def test_a_result_merged_from_the_other_tab_survives_the_next_save_of_each_tab() -> None:
    one, twenty = winnable("standard", 1), winnable("standard", 20)
    store, tab_a, tab_b = two_tabs(
        f"?variant=standard&deal={one}", f"?variant=standard&deal={twenty}"
    )
    win(tab_a)
    win(tab_b)
    for tab in (tab_a, tab_b, tab_a, tab_b):  # each saves again, twice, on new deals
        tab.new_deal("standard")
        pair(tab)
        history = stats_from_text(store.data[STATS_KEY]).history()
        assert {one, twenty} <= {h.deal for h in history if h.result == "won"}
        assert stored_summary(store)[1] == 2
    tab_a.receive()
    tab_b.receive()
    a, b = tab_a.session.stats.snapshot(), tab_b.session.stats.snapshot()
    assert (a.counts, a.history) == (b.counts, b.history)
    assert sorted(a.deals, key=str) == sorted(b.deals, key=str)  # (each in its own order)
    s = tab_a.session.stats.summary("standard")
    assert (s.played, s.won) == (6, 2)  # two wins, four new deals


def test_statistics_written_at_once_by_both_tabs_lose_nothing_once_each_tab_hears_the_other():
    one, twenty = winnable("standard", 1), winnable("standard", 20)
    store = LaggingStore()  # each tab reads its own copy, behind until it hears the other
    tab_a = Page(store, f"?variant=standard&deal={one}", random.Random(0), clock=clock(1_000_000))
    tab_b = Page(
        store.tab(), f"?variant=standard&deal={twenty}", random.Random(1), clock=clock(2_000_000)
    )
    win(tab_a)
    win(tab_b, hear=False)  # B overwrote A's statistics with its own
    assert stored_summary(store) == (1, 1, 1)
    events = tab_a.receive()  # A merges B's, finds them lacking its win, writes the union
    assert FromOtherTab("stats") in events
    assert stored_summary(store) == (2, 2, 2)
    assert tab_b.receive()  # B takes the union in: nothing left to write back
    sets = len(store.data)
    assert tab_a.receive() == () and tab_b.receive() == () and len(store.data) == sets
    assert tab_b.session.stats.summary("standard").won == 2


def test_the_same_deal_in_two_tabs_the_stale_tab_shows_the_newer_game_and_no_move_is_lost():
    store, tab_a, tab_b = two_tabs("?variant=standard&deal=7", "?variant=standard&deal=7")
    for _ in range(4):
        pair(tab_a)
    four = tab_a.session.game.moves
    assert len(four) == 4
    events = tab_b.receive()  # the stale tab follows: A's position, redrawn, with a notice
    assert FromOtherTab("game") in events
    assert tab_b.session.game.moves == four
    assert tab_b.session.last_uncovered == ()  # the last move's flash is the moving tab's own
    tab_a.session.last_uncovered = ()
    assert dataclasses.replace(tab_b.view(), notice=None) == tab_a.view()
    i18n.set_language("en")
    assert tab_b.notice == (
        "This game was played on in another tab; its newer position is shown here."
    )
    i18n.set_language("de")
    assert tab_b.notice == (
        "Dieses Spiel wurde in einem anderen Tab weitergespielt; hier steht jetzt sein "
        "neuerer Stand."
    )
    i18n.set_language("en")
    pair(tab_b)  # B's one move comes after A's four
    assert [str(m) for m in tab_b.session.game.moves[:4]] == [str(m) for m in four]
    assert game_from_text(store.data[SAVE_KEY]).game.moves == tab_b.session.game.moves
    assert len(tab_b.session.game.moves) == 5
    tab_a.receive()
    assert tab_a.session.game.moves == tab_b.session.game.moves
    assert tab_a.notice is not None and tab_b.notice is not None
    assert ARCHIVE_KEY not in store.data  # one game of one deal: nothing set aside
    played = stats_from_text(store.data[STATS_KEY]).summary("standard").played
    assert played == 1  # the moves of both tabs are one game


def test_the_stale_tab_taps_before_it_heard_the_move_its_tap_goes_to_the_newer_game():
    store, tab_a, tab_b = two_tabs("?variant=standard&deal=7", "?variant=standard&deal=7")
    for _ in range(4):
        pair(tab_a)
    # B's taps come with A's storage events queued: the page takes them in first
    # (events are delivered between tasks), so the board tapped is A's position.
    newer = tab_a.session.position.pairs()[0]
    assert tab_b.tap(newer.first)
    assert tab_b.tap(newer.second)
    assert len(tab_b.session.game.moves) == 5
    assert json.loads(store.data[SAVE_KEY])["moves"][:4] == [
        str(m) for m in tab_a.session.game.moves
    ]


def test_another_deal_in_the_other_tab_is_not_adopted_and_nothing_is_written_back() -> None:
    store, tab_a, tab_b = two_tabs("?variant=standard&deal=7", "?variant=strict&deal=9")
    pair(tab_a)
    slot = store.data[SAVE_KEY]
    # A's game is another deal: B keeps its own and writes it nowhere (A's first move
    # counted as played in A's statistics, which B merges).
    assert tab_b.receive() == (FromOtherTab("stats"),)
    assert tab_b.session.stats.summary("standard").played == 1
    assert tab_b.session.key == ("strict", 9)
    assert store.data[SAVE_KEY] == slot


def test_unreadable_statistics_from_the_other_tab_are_set_aside_and_replaced_by_this_tabs():
    one = winnable("standard", 1)
    store, tab_a, tab_b = two_tabs(f"?variant=standard&deal={one}", "?variant=strict&deal=9")
    win(tab_a)
    tab_b.store.set(STATS_KEY, "{broken")  # as if B had written it
    tab_a.receive()
    assert store.data[STATS_KEY + ".unreadable"] == "{broken"
    tab_a.new_deal("standard")
    pair(tab_a)
    assert stored_summary(store) == (2, 1, 1)  # A's statistics replaced it, nothing lost


def test_a_setting_changed_in_one_tab_is_taken_by_the_other_and_not_written_back() -> None:
    """Another tab's settings come in (a change there, or a backup restored there): before,
    the other tab forgot what it had written and its next save wrote its own older settings
    back over them."""
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=1", random.Random(0))
    tab_b = Page(store.tab(), "?variant=standard&deal=2", random.Random(1))
    assert tab_a.set_setting("theme", "dark")
    tab_b.receive()
    assert tab_b.session.settings.theme == "dark"
    pair(tab_b)  # a save of tab B's
    assert json.loads(store.data["nestor.settings"])["theme"] == "dark"
    assert tab_b.set_setting("sounds", True)  # and its own change keeps tab A's
    saved = json.loads(store.data["nestor.settings"])
    assert (saved["theme"], saved["sounds"]) == ("dark", True)
    tab_a.receive()
    assert (tab_a.session.settings.theme, tab_a.session.settings.sounds) == ("dark", True)


def test_back_in_one_tab_keeps_the_longer_line_another_tab_played_of_the_game_left() -> None:
    """Back after New deal brings the game left as it was, unless another tab played on
    from it meanwhile (review of the Back mend): then that tab's longer line, which the
    archive holds, comes back, not the shorter one."""
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=3", random.Random(0))
    pair(tab_a)
    tab_a.new_deal()
    tab_b = Page(store.tab(), "?variant=standard&deal=3", random.Random(1))
    assert len(tab_b.session.game.moves) == 1  # the archive's copy of tab A's game
    pair(tab_b)
    tab_b.new_deal()
    tab_a.receive()
    tab_a.open_deal("standard", 3)  # Back in tab A
    assert len(tab_a.session.game.moves) == 2


class Writes(dict[str, str]):
    """The store's data, counting the writes of the game slot."""

    games = 0

    def __setitem__(self, key: str, value: str) -> None:
        if key == SAVE_KEY:
            self.games += 1
        super().__setitem__(key, value)


class Timer:
    """The pages' steady clock (ms), moved by hand."""

    def __init__(self) -> None:
        self.now = 5_000_000

    def __call__(self) -> int:
        return self.now


@pytest.mark.parametrize("switch", [False, True])
def test_one_game_timed_differently_in_two_tabs_is_not_written_back_and_forth(
    switch: bool,
) -> None:
    """The tab the player leaves saves its time as it is hidden; the other tab timed the
    same moves differently (shown meanwhile, or hidden): both take the longer time, and
    neither writes its own back over the other's, so the slot is written twice at most.
    ``switch``: the other tab was hidden, and is shown as the player turns to it."""
    store = SharedStore()
    store.data = writes = Writes(store.data)
    timer = Timer()
    tab_a = Page(store, "?variant=standard&deal=7", random.Random(0), clock=clock(1_000_000),
                 timer_clock=timer)
    tab_b = Page(store.tab(), "?variant=standard&deal=7", random.Random(1),
                 clock=clock(2_000_000), timer_clock=timer)
    if switch:
        tab_b.set_visible(False)
    pair(tab_a)
    tab_b.receive()
    timer.now += 12_000
    before = writes.games
    tab_a.set_visible(False)  # A saves its time: 12 s
    if switch:
        tab_b.set_visible(True)
    for _ in range(4):
        tab_b.receive()
        tab_a.receive()
    assert writes.games - before <= 2
    assert {tab.session.saved().elapsed_ms for tab in (tab_a, tab_b)} == {12_000}
    assert game_from_text(store.data[SAVE_KEY]).elapsed_ms == 12_000
    assert tab_a.session.game.moves == tab_b.session.game.moves
    timer.now += 3_000
    assert tab_b.session.elapsed_ms() == 15_000  # B's timer goes on from there

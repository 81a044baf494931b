"""Two tabs of the game in one browser profile (two pages of one context: one localStorage,
storage events between them), issue 10's "two tabs, one truth"."""

from __future__ import annotations

import json

import pytest
from conftest import control, saves_done, stored
from helpers import open_tab, play_in_front
from lines import find_winnable
from playwright.sync_api import BrowserContext, expect

from nestor import Game, Pair


@pytest.mark.slow  # make test-slow: the merge of two wins is also tests/test_stats_merge.py's
def test_a_win_in_each_tab_both_count(context: BrowserContext, wait_ready) -> None:
    # Its own context: two tabs of one profile.
    one, line_one = find_winnable("standard", 1)
    twenty, line_twenty = find_winnable("standard", 20)
    assert one != twenty
    tab_a = open_tab(context, wait_ready, f"?variant=standard&deal={one}")
    tab_b = open_tab(context, wait_ready, f"?variant=standard&deal={twenty}")
    for move in line_one:
        play_in_front(tab_a, move)
    expect(tab_a.locator("body")).to_have_attribute("data-outcome", "won")
    assert json.loads(stored(tab_a, "nestor.stats") or "")["variants"]["standard"]["won"] == 1
    for move in line_twenty:  # B was never reloaded
        play_in_front(tab_b, move)
    expect(tab_b.locator("body")).to_have_attribute("data-outcome", "won")
    saves_done(tab_b)
    saves_done(tab_a)
    stats = json.loads(stored(tab_b, "nestor.stats") or "")
    assert stats["variants"]["standard"]["played"] == 2
    assert stats["variants"]["standard"]["won"] == 2
    assert {row[2] for row in stats["history"] if row[3] == "won"} == {one, twenty}
    # Each tab's statistics dialog counts both wins (A merged B's when B saved).
    for tab in (tab_a, tab_b):
        control(tab, "stats").click()
        row = tab.locator("#stats-dialog tbody tr", has_text="Standard")
        expect(row.locator("td").nth(1)).to_have_text("2")
        tab.click('#stats-dialog [data-action="close"]')


def test_the_same_deal_in_two_tabs_loses_no_move(context: BrowserContext, wait_ready) -> None:
    # Its own context: two tabs of one profile. A plays four pairs, B (opened on the same
    # deal before) follows, then plays one more; no move is lost, in either tab or in storage.
    tab_a = open_tab(context, wait_ready, "?variant=standard&deal=7")
    tab_b = open_tab(context, wait_ready, "?variant=standard&deal=7")
    game = Game("standard", 7)
    for _ in range(4):
        move = game.legal_moves()[0]
        assert isinstance(move, Pair)
        play_in_front(tab_a, move)
        game.push(move)
    saves_done(tab_a)
    notice = tab_b.locator("#notice")
    expect(notice).to_contain_text("This game was played on in another tab")
    for card in game.position.available():  # B shows A's position
        expect(tab_b.locator(f'[data-card="{card}"][data-available]')).to_have_count(1)
    move = game.legal_moves()[0]
    assert isinstance(move, Pair)
    play_in_front(tab_b, move)
    game.push(move)
    saved = json.loads(stored(tab_b, "nestor.game") or "")
    assert saved["moves"] == [str(m) for m in game.moves]
    assert len(saved["moves"]) == 5
    for card in move.cards:  # and A follows B's move
        expect(tab_a.locator(f'[data-card="{card}"]')).to_have_count(0)

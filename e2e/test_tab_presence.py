"""Two tabs of one profile (two pages of one context), issue 10's rest: a tab that has not
heard the other's moves taps on the newer game; a game left in progress in a closed tab
settles as lost once the game opens with no other tab of it open (Web Locks)."""

from __future__ import annotations

import json

from conftest import stored
from helpers import open_tab, play_in_front
from playwright.sync_api import BrowserContext, expect

from nestor import Game, deal_position

DEAF = """window.addEventListener("storage", (event) => {
  if (window.__deaf) event.stopImmediatePropagation();  // as a frozen tab: no event comes
}, true);"""


def test_a_tab_that_did_not_hear_the_other_taps_on_the_newer_game_and_no_move_is_lost(
    context: BrowserContext, wait_ready
) -> None:
    # Its own context: two tabs of one profile, and an init script for both.
    context.add_init_script(DEAF)
    tab_a = open_tab(context, wait_ready, "?variant=standard&deal=0")
    tab_b = open_tab(context, wait_ready, "?variant=standard&deal=0")
    tab_b.evaluate("() => { window.__deaf = true; }")
    game = Game("standard", 0)
    for _ in range(4):
        move = game.position.pairs()[0]
        play_in_front(tab_a, move)
        game.push(move)
    stored(tab_a, "nestor.game")
    # B still shows the deal as dealt; it taps a pair of that board that A left in play.
    start = deal_position("standard", 0).pairs()
    y = next(m for m in start if m not in game.moves and game.position.is_legal(m))
    expect(tab_b.locator("#moves-made")).to_have_text("0")
    play_in_front(tab_b, y)
    game.push(y)
    expect(tab_b.locator("#moves-made")).to_have_text("5")
    saved = json.loads(stored(tab_b, "nestor.game") or "")
    assert saved["moves"] == [str(m) for m in game.moves]  # A's four, then B's pair
    expect(tab_b.locator("#notice")).to_contain_text("another tab")
    expect(tab_a.locator("#moves-made")).to_have_text("5")  # and A follows B's move


def test_a_game_left_in_a_closed_tab_settles_as_lost_when_the_game_opens_alone(
    context: BrowserContext, wait_ready
) -> None:
    # Its own context: two tabs of one profile.
    tab_a = open_tab(context, wait_ready, "?variant=standard&deal=1")
    tab_b = open_tab(context, wait_ready, "?variant=standard&deal=20")
    assert tab_b.evaluate("() => window.nestorDurable.alone") is False
    play_in_front(tab_a, deal_position("standard", 1).pairs()[0])
    play_in_front(tab_b, deal_position("standard", 20).pairs()[0])
    stats = json.loads(stored(tab_b, "nestor.stats") or "")
    assert {tuple(d[:2]) for d in stats["deals"]} >= {("standard", 1), ("standard", 20)}
    tab_a.reload()  # B still open: nothing of B's is settled
    wait_ready(tab_a)
    assert tab_a.evaluate("() => window.nestorDurable.alone") is False
    stats = json.loads(stored(tab_a, "nestor.stats") or "")
    assert stats["history"] == []
    tab_b.close()
    tab_a.reload()  # alone now: B's game, left in progress, settles as lost
    wait_ready(tab_a)
    assert tab_a.evaluate("() => window.nestorDurable.alone") is True
    stats = json.loads(stored(tab_a, "nestor.stats") or "")
    assert [(row[1], row[2], row[3]) for row in stats["history"]] == [("standard", 20, "lost")]
    expect(tab_a.locator("#deal-number")).to_have_text("1")
    expect(tab_a.locator("#moves-made")).to_have_text("1")

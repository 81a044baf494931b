"""Back to the game from another page: the browser's back/forward cache shows the page again as
it was left, Python still running (no second start), and the game plays on; what another tab
played meanwhile is shown at once, and the two tabs then leave each other's saves alone."""

from __future__ import annotations

import json
from typing import Any

from conftest import BETWEEN_TESTS, saves_done, stored
from helpers import play_pairs
from playwright.sync_api import BrowserContext, Page, expect

from nestor import Game

ELSEWHERE = BETWEEN_TESTS
"""Another page of the site, where the player goes before coming Back: the test server's plain
page (docs/odds.md, a text page, has no icon, and the browser's ask for /favicon.ico would be
a console error)."""

WATCH = """addEventListener("pageshow", (event) => {
  (window.__nestorShown ||= []).push(event.persisted);
});
window.__nestorGameWrites = 0;
window.__nestorGameHeard = 0;
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (key === "nestor.game") window.__nestorGameWrites += 1;
  return setItem.call(this, key, value);
};
addEventListener("storage", (event) => {
  if (event.key === "nestor.game") window.__nestorGameHeard += 1;
});"""
"""An init script: each ``pageshow`` of the document, ``persisted`` (shown from the
back/forward cache) or not, in ``window.__nestorShown``; how many times the page wrote the
game slot (``__nestorGameWrites``) and heard another tab write it (``__nestorGameHeard``)."""

HOLDERS = """() => navigator.locks.query().then((state) => new Set(state.held
  .filter((lock) => lock.name === "nestor.open").map((lock) => lock.clientId)).size)"""
"""How many pages hold "nestor.open", the lock each open page of the game holds
(static/js/durable.js)."""


def saved_moves(page: Page) -> list[str]:
    saved = json.loads(stored(page, "nestor.game") or "{}")
    moves: list[str] = saved["moves"]
    return moves


def leave(page: Page) -> None:
    """Go from the game to another page of the site."""
    page.evaluate("window.__nestorShown = []")  # in the game's document, before it is left
    page.goto(ELSEWHERE)


def come_back(page: Page, reasons: list[str]) -> None:
    """Go Back to the game and wait until it is shown: assert that it came from the
    back/forward cache, the very document left (so Python did not start again), ready at
    once (``reasons``: why Chromium did not keep it, if it did not)."""
    page.go_back(wait_until="commit")
    page.wait_for_function("() => (window.__nestorShown || []).length > 0")
    shown = page.evaluate("window.__nestorShown")
    assert shown == [True], f"loaded again, not kept: {reasons or 'no reason given'}"
    assert page.evaluate("window.__nestorKept") is True
    assert page.evaluate("document.body.hasAttribute('data-ready')")


def not_kept(context: BrowserContext, page: Page) -> list[str]:
    """What Chromium says (over CDP) each time it could not show ``page`` from its cache."""
    reasons: list[str] = []
    cdp = context.new_cdp_session(page)
    cdp.send("Page.enable")

    def heard(event: dict[str, Any]) -> None:
        reasons.extend(e["reason"] for e in event.get("notRestoredExplanations", []))

    cdp.on("Page.backForwardCacheNotUsed", heard)
    return reasons


def test_back_to_the_game_shows_it_still_running_and_another_tabs_moves(
    bfcache_context: BrowserContext, wait_ready
) -> None:
    # A Chromium that keeps pages in its back/forward cache; two tabs of one profile.
    bfcache_context.add_init_script(WATCH)
    page = bfcache_context.new_page()
    reasons = not_kept(bfcache_context, page)
    page.goto("/?variant=standard&deal=7")
    wait_ready(page)
    page.evaluate("window.__nestorKept = true")
    game = Game("standard", 7)
    play_pairs(page, game)
    saves_done(page)
    # A first visit's page is taken by the service worker once it has installed; a page left
    # before that is thrown out of the cache when the worker takes it (ServiceWorkerClaim), once.
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)

    leave(page)
    come_back(page, reasons)
    expect(page.locator("#moves-made")).to_have_text("1")
    play_pairs(page, game)  # it plays on, and saves
    expect(page.locator("#moves-made")).to_have_text("2")
    assert saved_moves(page) == [str(m) for m in game.moves]

    # While it is kept, the player opens the game in another tab and plays a pair there:
    # the page kept counts as closed (the new tab is alone), and is not thrown away.
    leave(page)
    other = bfcache_context.new_page()
    other.goto("/?variant=standard&deal=7")
    wait_ready(other)
    expect(other.locator("#moves-made")).to_have_text("2")
    play_pairs(other, game)
    expect(other.locator("#moves-made")).to_have_text("3")
    saves_done(other)
    come_back(page, reasons)
    expect(page.locator("#moves-made")).to_have_text("3")  # the other tab's pair is shown
    assert other.evaluate("() => window.nestorDurable.alone") is True  # it opened alone
    assert other.evaluate(HOLDERS) == 2  # the page shown again is open again

    play_pairs(page, game)
    expect(page.locator("#moves-made")).to_have_text("4")
    assert saved_moves(page) == [str(m) for m in game.moves]
    expect(other.locator("#moves-made")).to_have_text("4")
    # Once more: the page saves its time as it is left; the other tab, on the same game,
    # takes that time and writes nothing back, nor does the page once shown again.
    heard = other.evaluate("window.__nestorGameHeard")
    before = [tab.evaluate("window.__nestorGameWrites") for tab in (page, other)]
    leave(page)
    other.wait_for_function(f"() => window.__nestorGameHeard > {heard}")
    saves_done(other)
    come_back(page, reasons)
    saves_done(page)
    saves_done(other)
    after = [tab.evaluate("window.__nestorGameWrites") for tab in (page, other)]
    assert [b - a for a, b in zip(before, after, strict=True)] == [1, 0]
    assert stored(page, "nestor.seq") == stored(other, "nestor.seq")
    assert saved_moves(other) == [str(m) for m in game.moves]
    expect(page.locator("#moves-made")).to_have_text("4")

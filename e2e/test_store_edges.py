"""The game's two stores at their edges: localStorage all but full when a deal is won, and an
IndexedDB database "nestor" without the game's object store."""

from __future__ import annotations

import json

import pytest
from conftest import BETWEEN_TESTS, control, saves_done, stored
from helpers import open_game, play
from lines import find_winnable
from playwright.sync_api import BrowserContext, Page, expect

from nestor import Game

KEPT = (
    "The browser's storage refused part of your progress (the storage is full). Nothing is "
    "lost: the game keeps it in its second store, and saves it in both again once the "
    "browser takes it."
)

# Fills localStorage under keys of another app of the origin until only `room` characters
# are left: whole chunks while they fit, then one character at a time, then `room` given back.
FILL = """(room) => {
  let n = 0;
  for (let size = 1 << 20; size >= 1; size >>= 2) {
    const chunk = "x".repeat(size);
    try { for (;;) { localStorage.setItem("another.app." + n, chunk); n++; } } catch (e) {}
  }
  const last = "another.app." + (n - 1);
  try { for (;;) localStorage.setItem(last, localStorage.getItem(last) + "x"); }
  catch (e) { if (e.name !== "QuotaExceededError") throw e; }
  localStorage.setItem(last, localStorage.getItem(last).slice(room));
  return n;
}"""

FREE = """() => Object.keys(localStorage).filter((key) => key.startsWith("another.app."))
  .forEach((key) => localStorage.removeItem(key))"""

# Everything in IndexedDB's "nestor" at whatever version it has: its stores and version, and
# the game's store's records.
DURABLE = """(store) => new Promise((resolve, reject) => {
  const name = store || "kv";
  const request = indexedDB.open("nestor");
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const db = request.result, stores = Array.from(db.objectStoreNames), kv = {};
    if (!stores.includes(name)) { db.close(); resolve({stores, version: db.version, kv}); return; }
    const cursor = db.transaction(name).objectStore(name).openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (at) { kv[at.key] = at.value; at.continue(); return; }
      db.close();
      resolve({stores, version: db.version, kv});
    };
    cursor.onerror = () => reject(cursor.error);
  };
})"""

# A database "nestor" at `version` without the game's store "kv": empty at version 1 (an
# upgrade interrupted), or another script's at a higher version, with a store of its own.
WITHOUT_KV = """(version) => new Promise((resolve, reject) => {
  const request = indexedDB.open("nestor", version);
  request.onupgradeneeded = () => {
    if (version > 1) request.result.createObjectStore("theirs").put("keep me", "mine");
  };
  request.onsuccess = () => { request.result.close(); resolve(); };
  request.onerror = () => reject(request.error);
})"""


def test_a_win_in_an_all_but_full_store_counts_after_a_reload(page: Page, wait_ready) -> None:
    # Another app had filled localStorage to within a few characters: the winning pair's
    # game fitted, its statistics did not, and the reload read 1 played, 0 won, with no
    # notice ever shown; the next move wrote that over the IndexedDB copy's win.
    deal, line = find_winnable("standard")
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    for move in line[:-1]:
        play(page, move)
    saves_done(page)
    assert page.evaluate(FILL, 12) > 0
    play(page, line[-1])
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    expect(page.locator("#notice-text")).to_have_text(KEPT)
    saved = json.loads(stored(page, "nestor.game") or "")
    assert saved["moves"][-1] == str(line[-1])  # the store took the winning game...
    stats = json.loads(stored(page, "nestor.stats") or "")
    assert stats["variants"]["standard"]["won"] == 0  # ...and refused the statistics
    page.evaluate(FILL, 0)  # the other app takes the room the smaller board gave back

    open_game(page, wait_ready)
    control(page, "stats").click()
    expect(page.locator("#stats-dialog svg[role=img]")).to_have_attribute(
        "aria-label", "Recent games, Standard: 1 games: 1 won, 0 won with help, 0 lost; "
        "win rate 100%."
    )
    page.keyboard.press("Escape")
    expect(page.locator("#notice-text")).to_have_text(KEPT)  # the store refused the repair
    saves_done(page)
    durable = page.evaluate(DURABLE)["kv"]
    assert int(stored(page, "nestor.seq") or "0") < int(durable["nestor.seq"])

    page.evaluate(FREE)  # the other app's data is gone: the next save completes the store
    page.click('#notice [data-action="dismiss"]')
    stats = json.loads(stored(page, "nestor.stats") or "")
    assert stats["variants"]["standard"]["won"] == 1
    assert stored(page, "nestor.seq") == page.evaluate(DURABLE)["kv"]["nestor.seq"]


@pytest.mark.parametrize("version", [
    # make test-slow: the empty one too (make test repairs another script's, at a version of
    # its own, by the same path)
    pytest.param(1, id="empty", marks=pytest.mark.slow),
    pytest.param(3, id="another script's"),
])
def test_a_durable_copy_without_its_store_is_repaired_without_a_word(
    page: Page, wait_ready, version: int
) -> None:
    page.goto(BETWEEN_TESTS)  # no page of the game runs while the database is made
    page.evaluate(WITHOUT_KV, version)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("#notice")).to_be_hidden()  # nothing was lost: nothing to say
    move = Game("standard", 7).position.pairs()[0]
    play(page, move)
    expect(page.locator("#moves-made")).to_have_text("1")
    saves_done(page)
    durable = page.evaluate(DURABLE)
    assert "kv" in durable["stores"] and durable["version"] == version + 1
    assert ("theirs" in durable["stores"]) == (version > 1)  # another script's store is kept
    assert json.loads(durable["kv"]["nestor.game"])["moves"] == [str(move)]
    # The copy is durable again: localStorage lost (a browser killed after the move), the
    # move comes back from it.
    page.goto(BETWEEN_TESTS)
    page.evaluate("localStorage.clear()")
    open_game(page, wait_ready)
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator("#deal-number")).to_have_text("7")
    expect(page.locator("#notice")).to_be_hidden()



# Another script's "nestor" at version 1 whose "kv" keeps its keys in its records ("id"): the
# game's records cannot go in it.
THEIR_KV = """() => new Promise((resolve, reject) => {
  const gone = indexedDB.deleteDatabase("nestor");
  gone.onerror = () => reject(gone.error);
  gone.onsuccess = () => resolve();
}).then(() => new Promise((resolve, reject) => {
  const request = indexedDB.open("nestor", 1);
  request.onupgradeneeded = () => {
    request.result.createObjectStore("kv", {keyPath: "id"}).put({id: 1, note: "keep me"});
  };
  request.onsuccess = () => { request.result.close(); resolve(); };
  request.onerror = () => reject(request.error);
}))"""


def test_another_scripts_kv_is_left_alone_and_the_copy_kept_beside_it(
    context: BrowserContext, wait_ready
) -> None:
    # A profile of its own: the shared one's site data is cleared between tests, and an
    # IndexedDB deletion still pending there could take the other script's database away.
    page = context.new_page()
    page.goto(BETWEEN_TESTS)
    page.evaluate(THEIR_KV)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    move = Game("standard", 7).position.pairs()[0]
    play(page, move)
    expect(page.locator("#moves-made")).to_have_text("1")
    saves_done(page)
    expect(page.locator("#notice")).to_be_hidden()
    theirs, mine = page.evaluate(DURABLE), page.evaluate(DURABLE, "nestor-kv")
    assert theirs["kv"] == {"1": {"id": 1, "note": "keep me"}}, (theirs, mine)
    assert json.loads(mine["kv"]["nestor.game"])["moves"] == [str(move)]
    page.goto(BETWEEN_TESTS)
    page.evaluate("localStorage.clear()")
    open_game(page, wait_ready)
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator("#deal-number")).to_have_text("7")


def test_the_copy_deleted_under_the_page_is_made_again_at_the_next_save(
    page: Page, wait_ready
) -> None:
    open_game(page, wait_ready, "?variant=standard&deal=7")
    game = Game("standard", 7)
    for _ in range(2):
        move = game.position.pairs()[0]
        play(page, move)
        game.push(move)
        if game.cursor == 1:  # another page of the origin deletes the database meanwhile
            saves_done(page)
            other = page.context.new_page()
            other.goto(BETWEEN_TESTS)
            other.evaluate("""() => new Promise((resolve, reject) => {
              const request = indexedDB.deleteDatabase("nestor");
              request.onsuccess = () => resolve();
              request.onerror = () => reject(request.error);
            })""")
            other.close()
    expect(page.locator("#moves-made")).to_have_text("2")
    saves_done(page)
    expect(page.locator("#notice")).to_be_hidden()
    durable = page.evaluate(DURABLE)
    assert json.loads(durable["kv"]["nestor.game"])["moves"] == [str(m) for m in game.moves]

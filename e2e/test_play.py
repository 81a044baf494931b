"""Playing Nestor in a real Chromium, by tapping cards as a player would."""

from __future__ import annotations

import json
import os
import re

import pytest
from conftest import BETWEEN_TESTS, READY_TIMEOUT_MS, ROOT, control, saves_done, stored
from helpers import cards_on_page, open_game, play, shown_codes
from lines import find_winnable, losing_line
from playwright.sync_api import BrowserContext, Page, Route, expect

from nestor import Game, Pair, TurnStock

SHOTS = os.environ.get("NESTOR_SCREENSHOT_DIR")


def test_boot_pair_undo_redo_and_resume(page: Page, wait_ready, base_url, page_log) -> None:
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    # The runtime and the engine came from this server: nothing from anywhere else.
    paths = {u.removeprefix(base_url) for u in page_log.requests}
    for needed in (
        "/static/vendor/pyscript/core.js",
        "/static/js/interpreter.js",  # PyScript's interpreter: the vendored Pyodide, started early
        "/static/vendor/pyodide/pyodide.mjs",
        "/static/vendor/pyodide/pyodide.asm.wasm",
        "/static/vendor/pyodide/python_stdlib.zip",
        "/static/nestor.zip.gz",  # the engine and the browser layer, in one archive
    ):
        assert needed in paths, f"{needed} not requested; got {sorted(paths)}"
    assert page_log.external_requests() == []
    # Each runtime file the page asked for is one sw.js precaches (of PyScript's chunks only
    # those the page imports, scripts/build_sw.mjs): offline, one left out would be missing.
    precached = set(re.findall(r'\{url:"([^"]+)"', (ROOT / "sw.js").read_text()))
    runtime = {p.removeprefix("/") for p in paths if p.startswith("/static/vendor/")}
    assert runtime <= precached, sorted(runtime - precached)
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=7$"))
    expect(page.locator("#deal-number")).to_have_text("7")
    assert cards_on_page(page) == shown_codes(game)
    available = page.locator("[data-available]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert sorted(available) == sorted(game.position.available())

    # A covered card does not react.
    covered = game.position.columns[0][0]
    page.click(f'[data-card="{covered}"]', force=True)
    expect(page.locator("[data-selected]")).to_have_count(0)

    # Select, move the selection, then complete a pair.
    move = game.legal_moves()[0]
    assert isinstance(move, Pair)
    first, second = move.cards
    other = next(c for c in game.position.available() if c[0] != first[0])
    # A mouse player is told to click, not to tap (issue 22 (7)).
    expect(page.locator("#status")).to_have_text(
        "Click two available cards of the same rank to remove them.")
    page.click(f'[data-card="{first}"]')
    expect(page.locator(f'[data-card="{first}"]')).to_have_attribute("data-selected", "")
    expect(page.locator("#status")).to_contain_text(": now click another card of the same rank.")
    page.click(f'[data-card="{other}"]')
    expect(page.locator("[data-selected]")).to_have_attribute("data-card", other)
    page.click(f'[data-card="{first}"]')
    page.click(f'[data-card="{second}"]')
    game.push(move)
    expect(page.locator("#cards-left")).to_have_text("50")
    expect(page.locator("#moves-made")).to_have_text("1")
    assert cards_on_page(page) == shown_codes(game)

    page.click('[data-action="undo"]')
    expect(page.locator("#cards-left")).to_have_text("52")
    expect(page.locator('[data-action="redo"]')).to_be_enabled()
    page.click('[data-action="redo"]')
    expect(page.locator("#cards-left")).to_have_text("50")

    # A second move, undo it, then reload: same position, and the redo is still there.
    second_move = game.legal_moves()[0]
    play(page, second_move)
    expect(page.locator("#cards-left")).to_have_text("48")
    page.click('[data-action="undo"]')
    saved = json.loads(stored(page, "nestor.game"))
    assert isinstance(saved.pop("elapsed_ms"), int)  # the timer's time (test_leave_flow.py)
    assert saved == {
        "version": 1, "variant": "standard", "deal": 7,
        "moves": [str(move), str(second_move)], "cursor": 1,
        "hints": 0, "solver_moves": 0,
    }
    page.reload()
    wait_ready(page)
    expect(page.locator("#cards-left")).to_have_text("50")
    assert cards_on_page(page) == shown_codes(game)
    page.click('[data-action="redo"]')
    expect(page.locator("#cards-left")).to_have_text("48")

    # Opening the page without a query resumes the saved game, and the URL shows it.
    page.goto("/")
    wait_ready(page)
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=7$"))
    expect(page.locator("#cards-left")).to_have_text("48")

    # Restart: same deal, from the start.
    control(page, "restart").click()
    expect(page.locator("#cards-left")).to_have_text("52")
    expect(page.locator("#deal-number")).to_have_text("7")
    # Undo would bring the game back (e2e/test_leave_flow.py); Redo has nothing to redo.
    expect(page.locator('[data-action="undo"]')).to_be_enabled()
    expect(page.locator('[data-action="redo"]')).to_be_disabled()
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "game.png"))


# make test-slow: make test wins a standard deal by tapping in test_end_screen.py, with
# these checks.
@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "doublets"])
def test_win_by_tapping(page: Page, wait_ready, variant: str) -> None:
    deal, line = find_winnable(variant)
    open_game(page, wait_ready, f"?variant={variant}&deal={deal}")
    for move in line:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    expect(page.locator("#status")).to_contain_text("You won")
    expect(page.locator("#cards-left")).to_have_text("0")
    assert cards_on_page(page) == []
    # The last card tapped is gone: focus is on the end screen, not lost to <body>.
    expect(page.locator("[data-end-screen]")).to_be_focused()
    page.keyboard.press("u")
    expect(page.locator("#cards-left")).to_have_text("2")
    assert page.evaluate("document.activeElement.dataset.card || ''") in line[-1].cards


def test_strict_turns_stock_and_wins(page: Page, wait_ready) -> None:
    deal, line = find_winnable("strict")
    assert any(isinstance(m, TurnStock) for m in line), "pick a deal whose line turns the stock"
    open_game(page, wait_ready, f"?variant=strict&deal={deal}")
    turn = page.locator('#controls [data-action="turn"]')
    expect(turn).to_be_visible()
    expect(turn).to_be_disabled()
    expect(page.locator(".stock-area")).to_contain_text("4 cards left")
    game = Game("strict", deal)
    for move in line:
        if isinstance(move, TurnStock):
            expect(turn).to_be_enabled()
        play(page, move)
        game.push(move)
        expect(page.locator("#cards-left")).to_have_text(str(game.position.cards_left()))
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")


def test_loss_is_reported(page: Page, wait_ready) -> None:
    line = losing_line("standard", 2)
    open_game(page, wait_ready, "?variant=standard&deal=2")
    for move in line:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "lost")
    expect(page.locator("#status")).to_contain_text("no pair is left")
    # Cards no longer react once the game is over.
    expect(page.locator("[data-available]")).to_have_count(
        len(Game.from_json({"variant": "standard", "deal": 2,
                            "moves": [str(m) for m in line]}).position.available())
    )
    page.locator("[data-available]").first.click()
    expect(page.locator("[data-selected]")).to_have_count(0)


def test_strict_stock_card_that_cannot_pair_loses(page: Page, wait_ready) -> None:
    for deal in range(100):
        game = Game("strict", deal)
        while game.outcome() is None:
            game.push(game.legal_moves()[0])
        if game.position.unpaired:
            break
    else:
        raise AssertionError("no strict deal loses on a stock card in 0..99")
    open_game(page, wait_ready, f"?variant=strict&deal={deal}")
    for move in game.moves:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "lost")
    expect(page.locator("#status")).to_contain_text("can't pair")
    expect(page.locator(f'.stock-area [data-card="{game.position.unpaired}"]')).to_be_visible()


def test_variants_new_deal_and_links(page: Page, wait_ready) -> None:
    open_game(page, wait_ready, "?variant=standard&deal=11")
    page.select_option("#variant", "doublets")
    expect(page).to_have_url(re.compile(r"\?variant=doublets&deal=\d+$"))
    expect(page.locator(".tableau .column")).to_have_count(12)
    expect(page.locator("#board [data-card]")).to_have_count(52)
    for variant, columns in (("vertical", 7), ("overlapping", 8), ("strict", 8)):
        page.select_option("#variant", variant)
        expect(page.locator(".tableau .column")).to_have_count(columns)
    # Overlapping: only the top reserve card is available.
    page.select_option("#variant", "overlapping")
    expect(page.locator(".reserve [data-available]")).to_have_count(1)
    before = page.locator("#deal-number").inner_text()
    control(page, "new").click()
    expect(page.locator("#deal-number")).not_to_have_text(before)
    deal = page.locator("#deal-number").inner_text()
    expect(page).to_have_url(re.compile(rf"\?variant=overlapping&deal={deal}$"))
    # The shared link of this deal, opened elsewhere, shows the same cards.
    assert cards_on_page(page) == shown_codes(Game("overlapping", int(deal)))


@pytest.mark.service_worker
def test_bad_link_is_reported_while_loading_is_shown(
    context: BrowserContext, page: Page, wait_ready
) -> None:
    # Its own context: the loading line counts the service worker's download.
    # Hold back the interpreter until the page has been seen saying that it is loading. The
    # context's route sees the service worker's requests too (it precaches the wasm first).
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.context.route("**/pyodide.asm.wasm", hold)
    wasm = re.compile(r"/pyodide\.asm\.wasm$")
    with page.context.expect_event(
        "request", lambda r: wasm.search(r.url) is not None, timeout=READY_TIMEOUT_MS
    ):
        page.goto("/?variant=standard&deal=banana")
    # The service worker is precaching (the wasm held back): the line counts the download.
    expect(page.locator("#loading")).to_contain_text(re.compile(r"Downloading the game: \d"))
    expect(page.locator("body")).not_to_have_attribute("data-ready", "")
    assert held  # the page waits for the wasm: it cannot boot before the checks
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide.asm.wasm", hold)
    wait_ready(page)
    expect(page.locator("#loading")).to_have_count(0)
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("#notice-text")).to_contain_text("deal number")
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=\d+$"))
    expect(page.locator("#board [data-card]")).to_have_count(52)
    page.click('#notice [data-action="dismiss"]')
    expect(page.locator("#notice")).to_be_hidden()


BAD_LINKS = [
    "?variant=standard&deal=abc", "?variant=standard&deal=-1",
    "?variant=standard&deal=99999999999999999999", "?variant=standard&deal=4294967296",
    "?variant=standard&deal=%EF%BC%97", "?variant=%3Cscript%3Ealert(1)%3C/script%3E&deal=3",
    "?variant=nope&deal=20", "?variant=nope",
]
"""Every bad link the page is tried with (make test-slow); the session reads each of them
the same way in tests/test_session.py, without a browser."""

SOME_BAD_LINKS = [BAD_LINKS[0], BAD_LINKS[3], BAD_LINKS[5]]
"""One of each kind for make test: not a number, out of range, a variant that is markup."""


def same_game(text: str | None, other: str) -> bool:
    """Whether two saved-game texts hold the same game (the timer's time aside: leaving the
    page keeps the time it was shown)."""
    if text is None:
        return False
    a, b = json.loads(text), json.loads(other)
    return {**a, "elapsed_ms": 0} == {**b, "elapsed_ms": 0}


def test_a_bad_link_changes_nothing_but_the_notice(page: Page, wait_ready) -> None:
    bad_links_change_nothing(page, wait_ready, SOME_BAD_LINKS)


@pytest.mark.slow
def test_every_bad_link_changes_nothing_but_the_notice(page: Page, wait_ready) -> None:
    bad_links_change_nothing(page, wait_ready, BAD_LINKS)


def bad_links_change_nothing(page: Page, wait_ready, links: list[str]) -> None:
    # Issue 19: three pairs on a deal; each bad link opened next must keep that game (moves,
    # Undo, the address) and the statistics (a game counted lost would change them: the
    # streak a bad link broke is tests/test_session.py's), and say why.
    other = 20
    open_game(page, wait_ready, f"?variant=standard&deal={other}")
    game = Game("standard", other)
    for _ in range(3):
        move = game.position.pairs()[0]
        play(page, move)
        game.push(move)
    expect(page.locator("#moves-made")).to_have_text("3")
    saves_done(page)
    stats, saved = stored(page, "nestor.stats"), stored(page, "nestor.game")
    assert stats is not None and saved is not None
    for link in links:
        open_game(page, wait_ready, link)
        expect(page.locator("#notice-text")).to_contain_text(re.compile("deal number|variant"))
        expect(page.locator("#moves-made")).to_have_text("3")
        expect(page).to_have_url(re.compile(rf"\?variant=standard&deal={other}$"))
        assert cards_on_page(page) == shown_codes(game), link
        expect(page.locator('#controls [data-action="undo"]')).to_be_enabled()
        assert stored(page, "nestor.stats") == stats, link
        assert same_game(stored(page, "nestor.game"), saved), link
    page.click('#controls [data-action="undo"]')
    expect(page.locator("#moves-made")).to_have_text("2")


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        # make test-slow: an unknown variant and nesting too deep (tests/test_session.py sets
        # every kind aside; make test keeps bad JSON and an illegal move in the browser)
        pytest.param(json.dumps({"version": 1, "variant": "klondike", "deal": 3, "moves": [],
                                 "cursor": 0}), marks=pytest.mark.slow),
        json.dumps({"version": 1, "variant": "standard", "deal": 7, "moves": ["2C-2S"],
                    "cursor": 1}),
        pytest.param("[" * 100_000, marks=pytest.mark.slow),
    ],
    ids=["bad-json", "unknown-variant", "illegal-move", "nested-too-deep"],
)
@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_corrupted_save_is_reported_and_kept(page: Page, wait_ready, text: str) -> None:
    page.add_init_script(
        "if (!sessionStorage.getItem('seeded')) {"
        f"  localStorage.setItem('nestor.game', {json.dumps(text)});"
        "  localStorage.setItem('another.app', 'keep me');"
        "  sessionStorage.setItem('seeded', '1');"
        "}"
    )
    open_game(page, wait_ready)
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("#notice-text")).to_contain_text("saved game could not be read")
    expect(page.locator("#board [data-card]")).to_have_count(52)
    assert page.evaluate("localStorage.getItem('another.app')") == "keep me"
    assert stored(page, "nestor.game.unreadable") == text
    saved = json.loads(stored(page, "nestor.game"))
    assert saved["moves"] == [] and saved["version"] == 1


QUOTA_NOTICE = (
    "Your progress could not be saved: the browser's storage refused it (the storage is full). "
    "The game goes on, but it may be lost when the page closes."
)
QUOTA_KEPT = (
    "The browser's storage refused part of your progress (the storage is full). Nothing is "
    "lost: the game keeps it in its second store, and saves it in both again once the "
    "browser takes it."
)


def test_a_refused_write_names_the_browsers_own_error(page: Page, wait_ready) -> None:
    """Issue 10: a script's setItem wrapper that throws a DOMException showed Pyodide's
    conversion ("Error") instead of the error; the browser's own full storage too. A write
    only localStorage refuses is no loss (the IndexedDB copy has it): told as such, once;
    as a loss once IndexedDB refuses too."""
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    page.evaluate("""() => {
      window.nativeSetItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function () {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      };
    }""")
    move = game.legal_moves()[0]
    play(page, move)
    game.push(move)
    saves_done(page)
    expect(page.locator("#notice-text")).to_have_text(QUOTA_KEPT)
    assert json.loads(page.evaluate(DURABLE_GAME))["moves"] == [str(move)]
    page.click('#notice [data-action="dismiss"]')
    # IndexedDB refuses as well: now the move is not kept anywhere, and the notice says why.
    page.evaluate("""() => {
      window.nativeTransaction = IDBDatabase.prototype.transaction;
      IDBDatabase.prototype.transaction = function (names, mode, options) {
        if (mode !== "readwrite") return window.nativeTransaction.call(this, names, mode, options);
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      };
    }""")
    move = game.legal_moves()[0]
    play(page, move)
    game.push(move)
    expect(page.locator("#notice-text")).to_have_text(QUOTA_NOTICE)
    # The wrapper gone, dismissing saves (the refused moves are saved now).
    page.evaluate("() => { Storage.prototype.setItem = window.nativeSetItem; }")
    page.click('#notice [data-action="dismiss"]')
    expect(page.locator("#notice")).to_be_hidden()
    assert json.loads(stored(page, "nestor.game") or "")["moves"] == [str(m) for m in game.moves]
    # The browser's own refusal: fill the storage, then play on.
    filled = page.evaluate("""() => {
      let n = 0, error = null;
      for (let size = 1 << 20; size >= 1; size >>= 2) {
        const chunk = "x".repeat(size);
        try { for (;;) { localStorage.setItem("filler." + n, chunk); n++; } }
        catch (e) { error = e.name; }
      }
      // The room left may still hold a few characters, too few for another key but enough
      // for the game's text to grow by a move (as it did once the guide's key took some):
      // the last filler grows by one character until nothing more fits.
      const last = "filler." + (n - 1);
      try { for (;;) localStorage.setItem(last, localStorage.getItem(last) + "x"); }
      catch (e) { error = e.name; }
      return [n, error];
    }""")
    assert filled[0] > 0 and filled[1] == "QuotaExceededError", filled
    play(page, game.legal_moves()[0])
    expect(page.locator("#notice-text")).to_have_text(QUOTA_NOTICE)


# The saved game in the page's IndexedDB copy (static/js/durable.js), as text.
DURABLE_GAME = """() => new Promise((resolve, reject) => {
  const request = indexedDB.open("nestor", 1);
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const get = request.result.transaction("kv").objectStore("kv").get("nestor.game");
    get.onsuccess = () => { resolve(get.result); request.result.close(); };
    get.onerror = () => reject(get.error);
  };
})"""


# Writes values into the page's IndexedDB copy (database nestor, store kv), as a damaged or
# tampered-with browser profile would hold them.
DURABLE_PUT = """(entries) => new Promise((resolve, reject) => {
  const request = indexedDB.open("nestor", 1);
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const db = request.result;
    const tx = db.transaction("kv", "readwrite");
    for (const [key, value] of Object.entries(entries)) tx.objectStore("kv").put(value, key);
    tx.oncomplete = () => { db.close(); resolve(); };
    tx.onerror = () => reject(tx.error);
  };
})"""


@pytest.mark.parametrize("key", [  # make test: the game's; make test-slow: both
    "nestor.game", pytest.param("nestor.stats", marks=pytest.mark.slow),
])
def test_an_unreadable_newer_durable_copy_keeps_the_readable_game(
    page: Page, wait_ready, key: str
) -> None:
    # Issue 19: the IndexedDB copy, 1000 saves ahead, holds an unreadable game (or 4 MiB of
    # unreadable statistics); the readable ones in localStorage must win.
    game = Game("standard", 20)
    open_game(page, wait_ready, "?variant=standard&deal=20")
    for _ in range(3):
        move = game.position.pairs()[0]
        play(page, move)
        game.push(move)
    saves_done(page)
    good, stats = stored(page, key), stored(page, "nestor.stats")
    seq = int(stored(page, "nestor.seq") or "0")
    page.goto(BETWEEN_TESTS)  # no page of the game runs while the copy is written
    damaged = "{x" if key == "nestor.game" else "x" * (4 << 20)
    page.evaluate(DURABLE_PUT, {key: damaged, "nestor.seq": str(seq + 1000)})
    open_game(page, wait_ready)
    expect(page.locator("#moves-made")).to_have_text("3")
    expect(page.locator("#deal-number")).to_have_text("20")
    assert cards_on_page(page) == shown_codes(game)
    expect(page.locator("#notice")).to_be_hidden()  # nothing was lost
    saves_done(page)
    assert stored(page, "nestor.stats") == stats
    if key == "nestor.game":
        assert same_game(stored(page, key), good or "")
        assert stored(page, key + ".unreadable") == damaged
    assert page.evaluate(DURABLE_GAME) == stored(page, "nestor.game")  # the copy repaired


def test_back_returns_to_the_game_left_in_progress(page: Page, wait_ready) -> None:
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    for move in game.legal_moves()[:1]:
        play(page, move)
    expect(page.locator("#moves-made")).to_have_text("1")
    control(page, "new").click()
    expect(page.locator("#deal-number")).not_to_have_text("7")
    expect(page.locator("#moves-made")).to_have_text("0")
    page.go_back()
    expect(page.locator("#deal-number")).to_have_text("7")
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=7$"))
    # A different link and back to this one: still resumed.
    page.goto("/?variant=vertical&deal=3")
    wait_ready(page)
    page.goto("/?variant=standard&deal=7")
    wait_ready(page)
    expect(page.locator("#moves-made")).to_have_text("1")


def test_keyboard_focus_stays_on_the_board(page: Page, wait_ready) -> None:
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    move = game.legal_moves()[0]
    assert isinstance(move, Pair)
    first, second = move.cards
    page.focus(f'[data-card="{first}"]')
    page.keyboard.press("Enter")
    expect(page.locator(f'[data-card="{first}"]')).to_be_focused()
    page.focus(f'[data-card="{second}"]')
    page.keyboard.press("Enter")
    expect(page.locator("#moves-made")).to_have_text("1")
    focused = page.evaluate("document.activeElement.dataset.card || ''")
    game.push(move)
    assert focused in game.position.available()

"""A browser that refuses the game's storage still gets a game that plays (issue 19).

PyScript's core opens an IndexedDB store of its own at boot and stopped with an
``InvalidStateError`` where IndexedDB is refused: the page said it was loading for ever. Now
static/js/pwa.js gives PyScript an IndexedDB in memory there (static/js/durable.js found the
browser's unusable), and the game's own storage says what is true: nothing kept (both stores
refused), or kept in the one store the browser allows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, _watch, saves_done
from helpers import open_game, play
from playwright.sync_api import BrowserContext, Page, Playwright, expect

from nestor import Game

# Ways a browser refuses IndexedDB, as init scripts (each runs before the page's own).
IDB_REFUSED = {
    "missing": (
        'Object.defineProperty(window, "indexedDB", '
        "{ value: undefined, configurable: true, writable: true });"
    ),
    "reading it throws": (
        'Object.defineProperty(window, "indexedDB", { configurable: true, get() {'
        ' throw new DOMException("The operation is insecure.", "SecurityError"); } });'
    ),
    "open() throws": (
        "IDBFactory.prototype.open = function () {"
        ' throw new DOMException("refused", "InvalidStateError"); };'
    ),
    # A request that fails later: the same database asked for at a lower version than it has
    # (VersionError, once the first request has opened it).
    "open() fails later": (
        "const realOpen = IDBFactory.prototype.open;"
        " IDBFactory.prototype.open = function (name) {"
        '   const refused = "refused-" + name;'
        "   realOpen.call(this, refused, 2).onsuccess = (e) => e.target.result.close();"
        "   return realOpen.call(this, refused, 1); };"
    ),
}
LOCAL_REFUSED = (
    'Object.defineProperty(window, "localStorage", { configurable: true, get() {'
    ' throw new DOMException("The operation is insecure.", "SecurityError"); } });'
)
NOTHING_KEPT = "This browser does not let the game save: progress will be lost."
ONE_STORE = "This browser lets the game save in only one of its two stores"


def plays_a_pair(page: Page) -> Game:
    """The board is there and takes a pair; the game after it."""
    game = Game("standard", 7)
    expect(page.locator("#board [data-card]")).to_have_count(52)
    move = game.position.pairs()[0]
    play(page, move)
    game.push(move)
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator("#cards-left")).to_have_text("50")
    return game


@pytest.fixture
def blocked_profile(
    playwright: Playwright, base_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[BrowserContext]:
    """A profile on disk with Chromium's own "block site data" setting (cookies: 2, what a
    player sets under Privacy, Site settings): no localStorage, IndexedDB, service worker."""
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    preferences = {"profile": {"default_content_setting_values": {"cookies": 2}}}
    (profile / "Default" / "Preferences").write_text(json.dumps(preferences))
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=list(CHROMIUM_ARGS), headless=True,
        base_url=base_url, reduced_motion="reduce",
    )
    _watch(request.node, context, base_url)
    yield context
    context.close()


def test_a_profile_that_blocks_site_data_plays(blocked_profile: BrowserContext) -> None:
    page = blocked_profile.pages[0] if blocked_profile.pages else blocked_profile.new_page()
    page.goto("/?variant=standard&deal=7")
    page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_TIMEOUT_MS)
    expect(page.locator("#notice-text")).to_have_text(NOTHING_KEPT)
    assert page.evaluate("() => { try { localStorage; return 'allowed'; }"
                         " catch (e) { return e.name; } }") == "SecurityError"
    plays_a_pair(page)


@pytest.mark.own_page  # adds init scripts to its page
# make test-slow: every way (make test: IndexedDB missing, and a request that fails later;
# the two that throw at once end as the missing one does: no copy, static/js/durable.js)
@pytest.mark.parametrize("way", [
    pytest.param(way, marks=() if way in ("missing", "open() fails later") else pytest.mark.slow)
    for way in IDB_REFUSED
])
def test_without_any_storage_the_game_plays_and_says_so(
    page: Page, wait_ready, way: str
) -> None:
    page.add_init_script(IDB_REFUSED[way])
    page.add_init_script(LOCAL_REFUSED)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("#notice-text")).to_have_text(NOTHING_KEPT)
    plays_a_pair(page)


@pytest.mark.own_page  # adds an init script to its page
def test_without_indexeddb_the_game_keeps_its_progress_in_localstorage(
    page: Page, wait_ready
) -> None:
    page.add_init_script(IDB_REFUSED["open() fails later"])
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("#notice")).to_be_hidden()  # nothing is lost: nothing to say
    plays_a_pair(page)
    saves_done(page)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("#moves-made")).to_have_text("1")


@pytest.mark.own_page  # adds an init script to its page
def test_without_localstorage_the_game_keeps_its_progress_in_indexeddb(
    page: Page, wait_ready
) -> None:
    # Issue 19 (5): the notice said progress would be lost, yet every move came back.
    page.add_init_script(LOCAL_REFUSED)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("#notice-text")).to_contain_text(ONE_STORE)
    plays_a_pair(page)
    saves_done(page)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator("#notice-text")).to_contain_text(ONE_STORE)

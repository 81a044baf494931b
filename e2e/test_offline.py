"""Offline play and updates: the service worker (sw.js) and static/js/pwa.js, in Chromium.

Each test serves its own copy of the site (``site_copy``, built as ``make site`` builds dist/)
so that it can stop the server or deploy a new version under a page that stays open.
"""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
from conftest import control, new_deal_with_a_pair, serve, stored
from helpers import cards_on_page, deploy, play_pairs, shown_codes
from playwright.sync_api import BrowserContext, Page, expect

from nestor import Game

WASM = "/static/vendor/pyodide/pyodide.asm.wasm"
SAVED_KEYS = ("nestor.game", "nestor.archive", "nestor.settings")
ON_DEMAND = ["static/icons/icon-192.png", "docs/odds.md"]
"""Files the worker does not precache (a game needs none of them) but keeps once asked for."""
FETCHED = """(paths) => Promise.all(paths.map((path) =>
  fetch(path).then((response) => response.status, (error) => String(error))))"""
"""The statuses of the page's fetches of ``paths`` (or the error of each that failed)."""
FIRST_FRAME = """requestAnimationFrame(() => { window.__nestorFirstFrame = performance.now(); });"""
"""An init script: ``window.__nestorFirstFrame``, when the page's first frame began (ms from
navigation): the shell painted (and at ``/`` the first visit's board)."""
FRAME_THEN_WASM = """() => {
  const entries = performance.getEntriesByType("resource");
  const painting = new Set([...document.querySelectorAll(
    'link[rel="stylesheet"], script[src][blocking~="render"]')].map((e) => e.href || e.src));
  return [window.__nestorFirstFrame ?? null,
    entries.find((entry) => entry.name.endsWith("/pyodide.asm.wasm"))?.startTime ?? null,
    Math.max(...entries.filter((entry) => painting.has(entry.name)).map((e) => e.responseEnd)),
    painting.size];
}"""
"""When the page's first frame began, when its request for the wasm began, and when the last
of the files the first paint waits for (stylesheets, render-blocking scripts) arrived."""
WASM_CALLS = """window.__wasm = {compiled: 0, streamed: 0};
const counted = [["compileStreaming", "compiled"], ["instantiateStreaming", "streamed"]];
for (const [name, key] of counted) {
  const own = WebAssembly[name];
  WebAssembly[name] = function (...args) { window.__wasm[key] += 1; return own.apply(this, args); };
}"""
"""An init script: ``window.__wasm``, how often the browser was asked to compile a wasm as it
streams, and to compile and instantiate one as it streams."""
ASKED_AGAIN = {"/sw.js", "/static/icons/icon.svg"}
"""What a first visit asks the server for twice by design: sw.js (the page reads the download's
total from it, then the browser fetches it to register the worker) and the page's icon (the
browser may ask for it again, with a 304, as it shows it)."""


def controlled(page: Page) -> bool:
    return bool(page.evaluate("navigator.serviceWorker.controller !== null"))


def saved(page: Page) -> dict[str, object]:
    """What the page keeps; the game in play without its timer's time, which goes on while
    the page shows the game (across an update too)."""
    out: dict[str, object] = {key: stored(page, key) for key in SAVED_KEYS}
    text = out.get("nestor.game")
    if isinstance(text, str):
        out["nestor.game"] = {k: v for k, v in json.loads(text).items() if k != "elapsed_ms"}
    return out


def first_visit(
    context: BrowserContext, wait_ready, query: str = "", worker: bool = True
) -> Page:
    """A first visit, ready, and (``worker``) once the service worker it registers when ready
    controls it."""
    page = context.new_page()
    page.goto("/" + query)
    wait_ready(page)
    if worker:
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    return page


def test_first_visit_then_offline_reload_resumes_and_plays(
    site_copy, site_context, wait_ready
) -> None:
    context = site_context(site_copy.origin, service_workers="allow")
    context.add_init_script(FIRST_FRAME)
    context.add_init_script(WASM_CALLS)
    page = first_visit(context, wait_ready, "?variant=standard&deal=7")
    # The wasm was compiled once, as it arrived (wake.js), and Pyodide instantiated that
    # module rather than stream and compile it again (boot.js).
    assert page.evaluate("window.__wasm") == {"compiled": 1, "streamed": 0}

    # The worker took the page once the game was ready, and the wasm crossed the network once:
    # the worker's install took the page's own copy.
    assert controlled(page)
    assert [path for path, _ in site_copy.sent].count(WASM) == 1, site_copy.sent
    # Every file crossed the network once: the install took the rest of what the page loaded
    # (the page itself, opened as ./?variant=..., its stylesheets and modules) from the
    # browser's HTTP cache without asking the server again, not even for a 304; and the PNG
    # icons, which a game never needs, were not asked for at all.
    asked = [path for path, _ in site_copy.answered]
    twice = sorted({path for path in asked if asked.count(path) > 1} - ASKED_AGAIN)
    assert twice == [] and "/index.html" not in asked, site_copy.answered
    assert not [path for path in asked if path.endswith(".png")], asked
    # Pyodide's big file was asked for once every file the first paint needs had arrived
    # (its bulk would have queued them on a slow link), and before the first frame.
    frame, wasm, painting_in, painting = page.evaluate(FRAME_THEN_WASM)
    # PyScript's core.css, and the page's stylesheets and render-blocking scripts joined
    # (scripts/build_site.py).
    assert painting == 3 and frame is not None and wasm is not None, (painting, frame, wasm)
    assert painting_in <= wasm < frame, (painting_in, wasm, frame)
    print(f"\nfirst visit with the service worker: {site_copy.bytes_sent():,} bytes")

    game = Game("standard", 7)
    play_pairs(page, game)
    play_pairs(page, game)
    # Those the worker did not precache it keeps once something asks for them.
    assert page.evaluate(FETCHED, ON_DEMAND) == [200] * len(ON_DEMAND)

    # No server, no network: the reload comes from the worker's cache.
    site_copy.stop()
    context.set_offline(True)
    start = time.monotonic()
    page.reload()
    wait_ready(page)
    print(f"offline reload: ready in {time.monotonic() - start:.2f} s")
    # The page the worker served keeps the headers it was precached with: still isolated.
    assert page.evaluate("crossOriginIsolated") is True
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=7$"))
    assert page.evaluate(FETCHED, ON_DEMAND) == [200] * len(ON_DEMAND)
    assert cards_on_page(page) == shown_codes(game)
    play_pairs(page, game)
    assert json.loads(stored(page, "nestor.game"))["moves"] == [
        str(m) for m in game.moves
    ]

    # A new deal is made and played offline too.
    deal = new_deal_with_a_pair(page)  # one deal in 260 has none
    fresh = Game("standard", deal)
    assert cards_on_page(page) == shown_codes(fresh)
    play_pairs(page, fresh)


def test_plays_without_service_workers(site_copy, site_context, wait_ready) -> None:
    # A browser that refuses service workers (here: Playwright blocks them) still plays online.
    context = site_context(site_copy.origin, service_workers="block")
    page = first_visit(context, wait_ready, "?variant=doublets&deal=3", worker=False)
    assert not controlled(page)
    assert [path for path, _ in site_copy.sent].count(WASM) == 1
    print(f"\nfirst visit without a service worker: {site_copy.bytes_sent():,} bytes")
    game = Game("doublets", 3)
    play_pairs(page, game)
    assert cards_on_page(page) == shown_codes(game)


@pytest.mark.slow  # make test-slow: make test keeps the offline reload, test_sw_build
def test_update_takes_over_and_keeps_the_game(site_copy, site_context, wait_ready) -> None:
    context = site_context(site_copy.origin, service_workers="allow")
    page = first_visit(context, wait_ready, "?variant=standard&deal=7")
    assert controlled(page)

    # A game left in progress (archived), a setting changed, and a game in progress.
    standard = Game("standard", 7)
    play_pairs(page, standard)
    page.select_option("#variant", "doublets")
    expect(page).to_have_url(re.compile(r"\?variant=doublets&deal=\d+$"))
    doublets = Game("doublets", int(page.locator("#deal-number").inner_text()))
    play_pairs(page, doublets)
    control(page, "settings").click()
    page.check('[data-setting="winnable_indicator"]')
    page.keyboard.press("Escape")  # the settings panel is modal: close it
    before = saved(page)
    assert all(before.values()), before

    # Version 2 is deployed while the game runs: the page finds it (as it does when it comes
    # back into view) and offers it; the player accepts.
    deploy(site_copy, 2)
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    notice = page.locator("#pwa-update")
    expect(notice).to_be_visible(timeout=30_000)
    expect(notice).to_contain_text("new version")
    notice.locator('[data-pwa="reload"]').click()
    page.wait_for_selector('body[data-build="2"]', state="attached", timeout=60_000)
    wait_ready(page)
    assert saved(page) == before
    assert cards_on_page(page) == shown_codes(doublets)
    play_pairs(page, doublets)
    before = saved(page)

    # Version 3 is deployed; the player just reloads: the version in hand starts at once, finds
    # the new one beside the boot and offers it; the next load offers it again, at once.
    deploy(site_copy, 3)
    page.reload()
    wait_ready(page)
    assert page.locator("body").get_attribute("data-build") == "2"
    expect(notice).to_be_visible(timeout=30_000)
    page.reload()
    wait_ready(page)
    assert page.locator("body").get_attribute("data-build") == "2"
    expect(notice).to_be_visible(timeout=30_000)
    notice.locator('[data-pwa="reload"]').click()
    page.wait_for_selector('body[data-build="3"]', state="attached", timeout=60_000)
    wait_ready(page)
    expect(page.locator("#pwa-update")).to_have_count(0)
    assert saved(page) == before
    assert cards_on_page(page) == shown_codes(doublets)


def test_a_hanging_update_check_does_not_delay_a_return_visit(
    site_copy, site_context, wait_ready, monkeypatch
) -> None:
    context = site_context(site_copy.origin, service_workers="allow")
    page = first_visit(context, wait_ready, "?variant=standard&deal=7")
    assert controlled(page)

    # The same page again, on a network that never answers a request for sw.js: the site's
    # server holds it (Playwright's routes do not see a service worker's update check).
    asked: list[float] = []  # time.monotonic() of each request for sw.js, held unanswered
    checking = threading.Event()  # set once the first of them came
    release = threading.Event()
    send_head = serve.Handler.send_head

    def holding_send_head(handler):  # type: ignore[no-untyped-def]
        if handler.server.server_address[1] == site_copy.port and handler.path == "/sw.js":
            asked.append(time.monotonic())
            checking.set()
            release.wait(120)
        return send_head(handler)

    monkeypatch.setattr(serve.Handler, "send_head", holding_send_head)
    started: list[float] = []  # when the page asked for PyScript (its boot began)
    page.on(
        "request",
        lambda r: r.url.endswith("/static/vendor/pyscript/core.js")
        and started.append(time.monotonic()),
    )
    try:
        page.reload()
        wait_ready(page)
        # The update check was made (the game may well be ready before it even began) and
        # is still unanswered, yet the game booted.
        assert checking.wait(60), "no update check of sw.js"
        assert asked and not release.is_set() and started
        # PyScript was asked for at once, not after the old 5 s wait for the check: the bound
        # is well below it (the boot itself is not timed).
        lag = started[0] - asked[0]
        print(f"\nPyScript requested {lag:+.2f} s after the update check began")
        assert lag < 2.5, lag
        game = Game("standard", 7)
        play_pairs(page, game)
    finally:
        release.set()


# Records, on every change, the first visit's download bar: (aria-valuenow, the loading line,
# the bar's label), each state once.
DOWNLOAD_PROBE = """
window.__download = [];
window.__lineWritten = 0;  // how often the loading line's words were replaced while downloading
new MutationObserver((records) => {
  if (document.querySelector(".download-bar") && !document.body.hasAttribute("data-ready"))
    window.__lineWritten += records.filter(
    (r) => r.type === "childList"
    && r.target.matches && r.target.matches('#loading [data-text="loading"]')).length;
  const bar = document.querySelector(".download-bar");
  const line = document.querySelector('#loading [data-text="loading"]');
  if (!bar || !line) return;
  const entry = [Number(bar.getAttribute("aria-valuenow")), line.textContent,
                 bar.getAttribute("aria-label")];
  const last = window.__download[window.__download.length - 1];
  if (!last || last[0] !== entry[0] || last[1] !== entry[1]) window.__download.push(entry);
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def test_the_download_bar_goes_when_the_last_bytes_are_a_sliver(
    site_copy, site_context
) -> None:
    """The last bytes of a first visit's download arrive in pieces smaller than half a
    percent: the bar, already reading 100%, still goes, and the loading line says Python is
    starting (it stayed at 100% until the game was ready). PyScript held: only the download's
    end takes the bar away here."""
    site_copy.chunk_bytes, site_copy.chunk_delay = 16 * 1024, 0.001
    context = site_context(site_copy.origin, service_workers="allow")
    context.route("**/static/vendor/pyscript/core.js", lambda route: None)  # held for good
    context.add_init_script(DOWNLOAD_PROBE)
    page = context.new_page()
    page.goto("/", wait_until="domcontentloaded")
    page.wait_for_function("window.__download.some(([share]) => share === 100)", timeout=30_000)
    expect(page.locator(".download-bar")).to_have_count(0)
    expect(page.locator("#loading")).to_contain_text("Loading the game")
    assert not page.evaluate("document.body.hasAttribute('data-ready')")


def test_a_first_visit_shows_its_download_in_the_browsers_language(
    site_copy, site_context, wait_ready
) -> None:
    site_copy.chunk_delay = 0.04  # about 2 s more for the 12 MB: several reports on the way
    context = site_context(site_copy.origin, locale="de-DE", service_workers="allow")
    context.add_init_script(DOWNLOAD_PROBE)
    page = context.new_page()
    page.goto("/")
    wait_ready(page)
    expect(page.locator(".download-bar")).to_have_count(0)  # gone once the game is ready

    total = int(re.search(r"NESTOR_BOOT=\{bytes:(\d+)\}", (site_copy.root / "sw.js")
                          .read_text()).group(1))
    mb = f"{total / 1e6:.1f}".replace(".", ",")
    seen = page.evaluate("window.__download")
    while seen and seen[0][1] == "Das Spiel wird geladen…":
        seen.pop(0)  # the loading line, until the total is known
    shares = [share for share, _, _ in seen]
    assert shares == sorted(shares), seen  # it only goes forward
    assert any(0 < share < 100 for share in shares), seen  # it moved on the way
    assert shares[-1] == 100, seen  # every byte counted: decoded, they are the sizes on disk
    for _, line, label in seen:
        assert re.fullmatch(rf"Das Spiel wird geladen: \d+,\d von {mb} MB", line), line
        assert label == "Herunterladen des Spiels zum Spielen ohne Netz"
    assert seen[-1][1] == f"Das Spiel wird geladen: {mb} von {mb} MB"
    # Until the game was ready (Python then writes its texts), the line's words were written
    # once: at each percent only the count changed, in a box laid out apart (a change of the
    # whole line laid the page out again at each percent).
    assert len(shares) > 3 and page.evaluate("window.__lineWritten") == 1, seen
    contain = page.evaluate("""() => {
      const count = document.createElement("span");
      count.className = "download-count";
      document.body.append(count);
      return getComputedStyle(count).contain;
    }""")
    assert "size" in contain and "layout" in contain, contain

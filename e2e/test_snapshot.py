"""Start-up snapshots (static/js/snapshot.js, static/js/snapshot-worker.js) in Chromium.

After a normal boot under the service worker, once the game is ready and idle, a Worker makes a
Pyodide memory snapshot and keeps it in Cache Storage ("nestor-snapshot"); the next visit
restores it. Hooks: ``window.nestorBoot`` / ``<body data-boot>`` ("snapshot" or "normal") and
``window.nestorSnapshot`` ("making", "stored", "failed", "skipped"). Every problem with a stored
snapshot must mean a normal boot with the game playable and no console error (conftest fails
the test on any console error, page error or policy violation; the fallback only warns).
"""

from __future__ import annotations

import json
import re

from conftest import ROOT
from playwright.sync_api import Page, expect
from test_play import play

from nestor import Game, Pair

SNAPSHOT_DONE = "['stored', 'failed', 'skipped'].includes(window.nestorSnapshot)"
SNAPSHOT_TIMEOUT_MS = 240_000  # the Worker boots a second Pyodide: slow on a busy machine
DEAL_7 = "/?variant=standard&deal=7"
BUILD = json.loads((ROOT / "static" / "nestor-build.json").read_text())

# The entries of the snapshot cache: [{url, bytes, digest}] (bytes: the body's length).
ENTRIES = """async () => {
  const cache = await caches.open("nestor-snapshot");
  const out = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    out.push({ url: request.url, bytes: (await response.arrayBuffer()).byteLength,
               digest: response.headers.get("x-nestor-sha256") });
  }
  return out.sort((a, b) => a.url < b.url ? -1 : 1);
}"""

# Spoil the one stored snapshot in one way; returns the key it is now stored under.
#   corrupt  bytes in the middle of the heap changed, the stored digest kept (it no longer fits)
#   build    the build id in its header changed, the digest made to fit
#   magic    the magic number changed, digest fitting: Pyodide itself refuses it (the restore
#            throws inside loadPyodide; the page must then boot a second, normal Pyodide)
#   code     moved to the key of other code (as a snapshot kept from an older version)
SPOIL = r"""async (kind) => {
  const hex = async (b) => Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", b)),
                                      (x) => x.toString(16).padStart(2, "0")).join("");
  const cache = await caches.open("nestor-snapshot");
  const keys = (await cache.keys()).filter((k) => !/\/(failures|pending)$/.test(k.url));
  if (keys.length !== 1) throw new Error(`expected one snapshot, found ${keys.length}`);
  const response = await cache.match(keys[0]);
  const bytes = new Uint8Array(await response.arrayBuffer());
  let url = keys[0].url, digest = response.headers.get("x-nestor-sha256");
  if (kind === "corrupt") {
    const middle = bytes.length >> 1;
    for (let i = middle; i < middle + 4096; i++) bytes[i] ^= 0x5a;
  } else if (kind === "build") {
    bytes[16] ^= 0xff; digest = await hex(bytes);
  } else if (kind === "magic") {
    bytes[0] ^= 0xff; digest = await hex(bytes);
  } else if (kind === "code") {
    url = url.replace(/[0-9a-f]{64}$/, "0".repeat(64));
    await cache.delete(keys[0]);
  } else throw new Error(kind);
  await cache.put(url, new Response(bytes, { headers: { "x-nestor-sha256": digest } }));
  return url;
}"""


def key(build: dict[str, str], base_url: str) -> str:
    return f"{base_url}/nestor-snapshot/{build['pyodide']}/{build['code']}"


def boot(page: Page, wait_ready, url: str = DEAL_7) -> str:
    """Load ``url``, wait for the game; how it booted ("snapshot" or "normal")."""
    page.goto(url)
    wait_ready(page)
    how = page.evaluate("window.nestorBoot")
    expect(page.locator("body")).to_have_attribute("data-boot", how)
    return str(how)


def snapshot_status(page: Page) -> str:
    """What became of this page's snapshot, once something did."""
    page.wait_for_function(SNAPSHOT_DONE, timeout=SNAPSHOT_TIMEOUT_MS, polling=250)
    return str(page.evaluate("window.nestorSnapshot"))


def plays_deal_7(page: Page) -> None:
    """The board is deal 7 and a pair, an undo and a redo work."""
    game = Game("standard", 7)
    move = next(m for m in game.legal_moves() if isinstance(m, Pair))
    expect(page.locator("#deal-number")).to_have_text("7")
    play(page, move)
    expect(page.locator("#cards-left")).to_have_text("50")
    page.click('[data-action="undo"]')
    expect(page.locator("#cards-left")).to_have_text("52")
    for card in move.cards:
        expect(page.locator(f'[data-card="{card}"][data-available]')).to_have_count(1)
    page.click('[data-action="redo"]')
    expect(page.locator("#cards-left")).to_have_text("50")
    page.click('[data-action="restart"]')
    expect(page.locator("#cards-left")).to_have_text("52")


def new_deal(page: Page) -> str:
    before = page.locator("#deal-number").text_content()
    page.click('[data-action="new"]')
    expect(page.locator("#deal-number")).not_to_have_text(before or "")
    expect(page.locator("#cards-left")).to_have_text("52")
    return str(page.locator("#deal-number").text_content())


def test_a_second_visit_boots_from_the_snapshot_and_plays_the_same(
    page: Page, wait_ready, base_url
) -> None:
    assert boot(page, wait_ready) == "normal"
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    assert snapshot_status(page) == "stored"
    entries = page.evaluate(ENTRIES)
    # One entry, under this Pyodide build and this code, at least the 30 MiB initial heap.
    assert [e["url"] for e in entries] == [key(BUILD, base_url)]
    assert entries[0]["bytes"] >= 31457280 and re.fullmatch(r"[0-9a-f]{64}", entries[0]["digest"])

    deals = []
    for _ in range(2):
        assert boot(page, wait_ready) == "snapshot"
        assert page.evaluate("window.nestorSnapshot") == "skipped"  # a valid one is kept
        plays_deal_7(page)
        deals.append(new_deal(page))
    # Each restored boot deals afresh: the seeds frozen in the heap are not reused.
    assert deals[0] != deals[1], deals
    assert [e["url"] for e in page.evaluate(ENTRIES)] == [key(BUILD, base_url)]


def test_a_damaged_snapshot_means_a_normal_boot_and_two_failures_stop_new_ones(
    page: Page, wait_ready, base_url
) -> None:
    assert boot(page, wait_ready) == "normal"
    assert snapshot_status(page) == "stored"
    own = key(BUILD, base_url)
    for refusals, kind in enumerate(("corrupt", "build"), start=1):
        assert page.evaluate(SPOIL, kind) == own
        assert boot(page, wait_ready) == "normal", kind
        plays_deal_7(page)
        # The refused entry is gone and counted.
        entries = {e["url"]: e for e in page.evaluate(ENTRIES)}
        assert own not in entries or refusals == 1, (kind, entries)
        count = page.evaluate(
            "async (u) => (await (await caches.open('nestor-snapshot')).match(u)).text()",
            own + "/failures",
        )
        assert count == str(refusals)
        if refusals == 1:
            assert snapshot_status(page) == "stored"  # one refusal: made again
            assert own in {e["url"] for e in page.evaluate(ENTRIES)}
    # After two refusals for this build, no more are made (no failed restore on every visit).
    assert snapshot_status(page) == "skipped"
    assert [e["url"] for e in page.evaluate(ENTRIES)] == [own + "/failures"]


def test_a_refused_restore_other_code_a_hung_restore_and_no_cache_storage_boot_normally(
    page: Page, wait_ready, base_url, context
) -> None:
    own = key(BUILD, base_url)
    assert boot(page, wait_ready) == "normal"
    assert snapshot_status(page) == "stored"

    # Pyodide itself refuses it (bad magic number): its failed loadPyodide, then a normal one.
    page.evaluate(SPOIL, "magic")
    assert boot(page, wait_ready) == "normal"
    plays_deal_7(page)
    assert snapshot_status(page) == "stored"

    # A snapshot of other code (an older version's) is never restored, and is replaced.
    other = page.evaluate(SPOIL, "code")
    assert other != own and other.startswith(f"{base_url}/nestor-snapshot/{BUILD['pyodide']}/")
    assert boot(page, wait_ready) == "normal"
    plays_deal_7(page)
    assert snapshot_status(page) == "stored"
    urls = [e["url"] for e in page.evaluate(ENTRIES)]
    assert own in urls and other not in urls, urls
    assert boot(page, wait_ready) == "snapshot"
    assert own + "/pending" not in [e["url"] for e in page.evaluate(ENTRIES)]  # it got ready

    # A restore whose game never became ready leaves its marker: the next visit refuses it
    # (the second failure for this build: no more are made).
    page.evaluate(
        "async (u) => (await caches.open('nestor-snapshot')).put(u, new Response('1'))",
        own + "/pending",
    )
    assert boot(page, wait_ready) == "normal"
    plays_deal_7(page)
    assert snapshot_status(page) == "skipped"
    assert [e["url"] for e in page.evaluate(ENTRIES)] == [own + "/failures"]

    # No Cache Storage at all (an insecure origin; some private windows): a normal boot.
    context.add_init_script("Object.defineProperty(globalThis, 'caches', {value: undefined})")
    assert boot(page, wait_ready) == "normal"
    plays_deal_7(page)
    assert snapshot_status(page) == "skipped"

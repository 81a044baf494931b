#!/usr/bin/env python3
"""Benchmark: does a localStorage write reach the other tab, and how fast, beside a
BroadcastChannel message (issue 10: is BroadcastChannel needed beside ``storage`` events?).

Usage: .venv/bin/python bench/tab_events.py [--writes 500] [--gap-ms 10] [--game-pairs 15]
       (``make bench-tabs``)

Two pages of one browser context (one profile: one localStorage), in Debian's chromium
(scripts/chromium.py), on a blank page of the local site's origin. Page A writes
``--writes`` values to localStorage, each also posted on a BroadcastChannel, ``--gap-ms``
apart (then as one burst, no gap); page B records when each arrives by either way. A value
carries its sending time (``performance.timeOrigin + performance.now()``, one clock for the
two pages of one browser), so the latency is receive time minus send time, in ms.

Then the cases where a tab cannot hear: page B frozen (CDP ``Page.setWebLifecycleState``
"frozen", as Chromium freezes background tabs) while A writes 10 values, then made active
again: which of the 20 messages arrive, and whether B's localStorage reads the newest value.

With ``--game-pairs`` > 0, the game itself: two tabs on one deal, A plays that many pairs by
clicks, and the time from A's click to B's board showing the pair gone (B's Python follows the
storage event: ``StorageManager.follow``) is printed too.

Prints delivered counts and median, p95 and max latency. It only reports; it never fails.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from serve import serve_in_thread  # noqa: E402

from nestor import Game, Pair  # noqa: E402

LISTEN = """() => {
  window.got = { storage: {}, channel: {} };
  const now = () => performance.timeOrigin + performance.now();
  addEventListener("storage", (e) => {
    if (e.key === "bench") window.got.storage[e.newValue.split(" ")[0]] = now();
  });
  const channel = new BroadcastChannel("bench");
  channel.onmessage = (e) => { window.got.channel[e.data.split(" ")[0]] = now(); };
  window.benchChannel = channel;
}"""

SEND = """async ([count, gap, prefix]) => {
  const channel = window.benchChannel;
  const sent = {};
  for (let i = 0; i < count; i++) {
    const id = prefix + i;
    const t = performance.timeOrigin + performance.now();
    localStorage.setItem("bench", id + " " + t);
    channel.postMessage(id + " " + t);
    sent[id] = t;
    if (gap > 0) await new Promise((r) => setTimeout(r, gap));
  }
  return sent;
}"""


def figures(name: str, sent: dict[str, float], got: dict[str, float]) -> str:
    late = sorted(got[k] - sent[k] for k in sent if k in got)
    if not late:
        return f"{name:<28} delivered 0/{len(sent)}"
    p95 = late[min(len(late) - 1, int(0.95 * len(late)))]
    return (f"{name:<28} delivered {len(late)}/{len(sent)}  median {statistics.median(late):6.2f}"
            f"  p95 {p95:6.2f}  max {late[-1]:6.2f} ms")


def raw(a: Page, b: Page, writes: int, gap: float) -> None:
    for page in (a, b):
        page.evaluate(LISTEN)
    for label, count, wait in (("spaced", writes, gap), ("burst", writes, 0)):
        b.evaluate("() => { window.got = { storage: {}, channel: {} }; }")
        sent = a.evaluate(SEND, [count, wait, label])
        b.wait_for_timeout(1000)
        got = b.evaluate("() => window.got")
        print(figures(f"storage event, {label}", sent, got["storage"]))
        print(figures(f"BroadcastChannel, {label}", sent, got["channel"]))
    # B frozen while A writes, then active again.
    cdp = b.context.new_cdp_session(b)
    b.evaluate("() => { window.got = { storage: {}, channel: {} }; }")
    cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
    sent = a.evaluate(SEND, [10, 20, "frozen"])
    a.wait_for_timeout(500)
    cdp.send("Page.setWebLifecycleState", {"state": "active"})
    b.wait_for_timeout(1500)
    got = b.evaluate("() => window.got")
    newest = b.evaluate("() => localStorage.getItem('bench').split(' ')[0]")
    print(f"frozen tab: storage events {len(got['storage'])}/10, "
          f"BroadcastChannel {len(got['channel'])}/10 after it was active again; "
          f"its localStorage reads {newest!r} (newest written: 'frozen9')")


def game(a: Page, b: Page, pairs: int) -> None:
    for page in (a, b):
        page.goto("/?variant=standard&deal=7")
        page.wait_for_selector("body[data-ready]", state="attached", timeout=120_000)
    b.evaluate("""() => {
      window.gone = {};
      new MutationObserver(() => {
        for (const el of [...(window.watch || [])]) {
          if (!document.querySelector(`#board [data-card="${el}"]`) && !(el in window.gone))
            window.gone[el] = performance.timeOrigin + performance.now();
        }
      }).observe(document.getElementById("board"), { childList: true, subtree: true,
                                                      attributes: true });
    }""")
    model = Game("standard", 7)
    late = []
    for _ in range(pairs):
        move = next((m for m in model.legal_moves() if isinstance(m, Pair)), None)
        if move is None:
            break
        second = move.cards[1]
        b.evaluate("c => { window.watch = [c]; }", second)
        a.click(f'[data-card="{move.cards[0]}"][data-available]')
        a.evaluate("""c => {
          document.querySelector(`[data-card="${c}"]`).addEventListener("click", () => {
            window.clickedAt = performance.timeOrigin + performance.now(); }, { capture: true,
            once: true });
        }""", second)
        a.click(f'[data-card="{second}"][data-available]')
        model.push(move)
        b.wait_for_function("c => c in window.gone", arg=second, timeout=30_000)
        late.append(b.evaluate("c => window.gone[c]", second) - a.evaluate("window.clickedAt"))
        a.wait_for_function("() => !window.nestorSavePending")
    late.sort()
    print(f"game, A's pairing click -> B's board without the pair: {len(late)} pairs, median "
          f"{statistics.median(late):.1f}, p95 {late[int(0.95 * (len(late) - 1))]:.1f}, max "
          f"{late[-1]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=500)
    parser.add_argument("--gap-ms", type=float, default=10)
    parser.add_argument("--game-pairs", type=int, default=15)
    args = parser.parse_args()
    server, origin = serve_in_thread(ROOT, quiet=True)
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium)
            context = browser.new_context(base_url=origin, service_workers="block")
            context.route(origin + "/blank.html", lambda route: route.fulfill(
                status=200, content_type="text/html", body="<!doctype html><title>b</title>"))
            a, b = context.new_page(), context.new_page()
            for page in (a, b):
                page.goto("/blank.html")
            raw(a, b, args.writes, args.gap_ms)
            if args.game_pairs > 0:
                game(a, b, args.game_pairs)
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()

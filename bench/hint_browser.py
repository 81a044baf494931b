#!/usr/bin/env python3
"""Benchmark: how long the Hint takes in the browser, over positions from real play.

Usage: .venv/bin/python bench/hint_browser.py [--positions 200] [--seed 1]

Serves the site on 127.0.0.1, opens it in Debian's chromium (offline), and plays
games in every variant by tapping cards, choosing moves at random among the
legal ones (seeded). At each position it presses Hint and reads the time the
page measured for it (``body[data-hint-ms]``: from the press until the solver's
answer, including the pauses in which the page stays responsive). It prints the
median, p99 and worst time in the browser, and the same positions solved by
CPython in this process for comparison. Target: worst case under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from serve import serve_in_thread  # noqa: E402

from nestor import VARIANTS, Game, Pair, TurnStock  # noqa: E402
from nestor.solver import solve  # noqa: E402


def hint_ms(page: Page) -> float:
    page.evaluate("document.body.removeAttribute('data-hint-ms')")
    page.click('[data-action="hint"]')
    page.wait_for_function("document.body.hasAttribute('data-hint-ms')", timeout=60_000)
    return float(page.get_attribute("body", "data-hint-ms") or "nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    browser_ms: list[tuple[float, str]] = []
    cpython_ms: list[float] = []
    server, origin = serve_in_thread(ROOT, quiet=True)
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            variants = list(VARIANTS)
            page.goto(f"{origin}/?variant=standard&deal=0")
            page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
            while len(browser_ms) < args.positions:
                variant = variants[len(browser_ms) % len(variants)]
                deal = rng.randrange(2**32)
                page.evaluate(f"history.replaceState(null, '', '?variant={variant}&deal={deal}')")
                page.reload()
                page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
                game = Game(variant, deal)
                while game.outcome() is None and len(browser_ms) < args.positions:
                    browser_ms.append((hint_ms(page), game.position.to_text()))
                    start = time.perf_counter()
                    solve(game.position)
                    cpython_ms.append((time.perf_counter() - start) * 1000)
                    move = rng.choice(game.legal_moves())
                    if isinstance(move, TurnStock):
                        page.click('#controls [data-action="turn"]')
                    else:
                        assert isinstance(move, Pair)
                        for card in move.cards:
                            page.click(f'[data-card="{card}"][data-available]')
                    game.push(move)
            browser.close()
    finally:
        server.shutdown()
    times = sorted(t for t, _ in browser_ms)
    worst = max(browser_ms)
    p99 = times[max(0, round(0.99 * len(times)) - 1)]
    print(f"hint in the browser over {len(times)} positions from play (ms): median "
          f"{statistics.median(times):.1f}, p99 {p99:.1f}, worst {worst[0]:.1f}")
    print(f"  worst position: {worst[1]}")
    cp = sorted(cpython_ms)
    print(f"same positions in CPython (ms): median {statistics.median(cp):.2f}, "
          f"worst {cp[-1]:.2f}")
    print(f"target: worst under 100 ms -> {'met' if worst[0] < 100 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

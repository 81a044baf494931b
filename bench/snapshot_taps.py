#!/usr/bin/env python3
"""Benchmark: do taps slow down while the page's Worker makes its start-up snapshot?

Usage: .venv/bin/python bench/snapshot_taps.py [--rounds 5] [--before 10] [--after 20]
       (``make bench-snapshot-taps``)

After a normal boot under the service worker, static/js/snapshot.js waits until the game is
ready and idle, then starts a module Worker that boots a second Pyodide, imports our modules and
stores a memory snapshot (``window.nestorSnapshot`` goes ``"making"`` -> ``"stored"``). That
Worker runs on a thread of its own, but it shares the machine's cores with the page.

The page starts the Worker only once the player has paused (5 s without a tap or key): this
bench times the worst case, taps that come while it runs anyway. Each round opens a fresh
profile (service worker allowed, animations and the winnable indicator off, through the page's
own settings) and the first winnable Standard deal, plays its first pair and undoes it
``--before`` times, pauses until the Worker starts, then goes on pairing and undoing until
``--after`` taps after the snapshot is stored. Each pairing tap is timed as
``bench/move_latency.py`` times it (click, in a capturing listener, to the board updated: a
MutationObserver sees both cards gone) and filed by ``window.nestorSnapshot`` at the click:
**making** (the Worker is running) or **idle** (before it started, or after it stored). Both
kinds happen in every round, so they share whatever else the machine does.

Prints median, p95 and max in ms per kind and the ratios making / idle. Never fails on a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
from move_latency import (  # noqa: E402
    PROBE,
    Timings,
    apply_settings,
    p95,
    settle,
    summary,
    tap_pair,
    wait_ready,
    winning_deals,
)
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from serve import serve_in_thread  # noqa: E402

from nestor import Pair  # noqa: E402

MAKING_TIMEOUT_S = 300


def run_round(
    page: Page, deal: int, move: Pair, before: int, after: int, kinds: dict[str, Timings]
) -> None:
    page.goto(f"/?variant=standard&deal={deal}")
    wait_ready(page)
    if page.evaluate("window.nestorBoot") != "normal":
        raise RuntimeError("a fresh profile restored a snapshot")
    apply_settings(page, {"animations": False, "winnable_indicator": False})
    started = time.monotonic()
    left_before, left_after = before, after
    while left_after > 0:
        if left_before == 0:  # the player's pause: the page starts the Worker
            page.wait_for_function("window.nestorSnapshot !== undefined",
                                   timeout=MAKING_TIMEOUT_S * 1000, polling=50)
        left_before -= 1
        status = page.evaluate("window.nestorSnapshot ?? null")
        if status in ("failed", "skipped"):
            raise RuntimeError(f"no snapshot was made: {status}")
        probe = tap_pair(page, move)
        kind = "making" if status == "making" else "idle"
        kinds[kind].add(probe)
        if status == "stored":
            left_after -= 1
        page.click('[data-action="undo"]')
        page.wait_for_selector(f'#board [data-card="{move.cards[0]}"][data-available]',
                               state="attached")
        settle(page)
        if time.monotonic() - started > MAKING_TIMEOUT_S:
            raise RuntimeError("the snapshot took too long")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--before", type=int, default=10, help="taps before the player's pause")
    ap.add_argument("--after", type=int, default=20, help="taps after the snapshot is stored")
    args = ap.parse_args(argv)
    variant, deal, line = next(w for w in winning_deals(4) if w[0] == "standard")
    move = line[0]
    kinds = {"making": Timings(), "idle": Timings()}
    server, origin = serve_in_thread(ROOT, quiet=True)
    loads = [os.getloadavg()]
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium)
            for r in range(args.rounds):
                context = browser.new_context(base_url=origin, service_workers="allow")
                context.add_init_script(PROBE)
                page = context.new_page()
                before = {k: len(t.board) for k, t in kinds.items()}
                run_round(page, deal, move, args.before, args.after, kinds)
                context.close()
                counts = ", ".join(f"{k} {len(t.board) - before[k]}" for k, t in kinds.items())
                print(f"  round {r + 1}/{args.rounds}: {counts} taps", file=sys.stderr,
                      flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    loads.append(os.getloadavg())
    print(f"pairing taps while the start-up snapshot is made, {args.rounds} rounds, {variant} "
          f"deal {deal}, animations off; load average "
          f"{' -> '.join('/'.join(f'{x:.1f}' for x in la) for la in loads)}")
    print(f"{'kind':8} {'taps':>5}  {'board updated: median p95 max (ms)':>36}"
          f"  {'next frame: median p95 max':>28}")
    for name, t in kinds.items():
        print(f"{name:8} {len(t.board):5}  {summary(t.board):>36}  {summary(t.frame):>28}")
    making, idle = kinds["making"], kinds["idle"]
    if making.board and idle.board:
        medians = statistics.median(making.board) / statistics.median(idle.board)
        tails = p95(making.board) / p95(idle.board)
        print(f"ratio making/idle median {medians:.2f} p95 {tails:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

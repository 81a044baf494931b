#!/usr/bin/env python3
"""Benchmark: how long a pairing tap takes in Chromium, from the release to the board updated.

Usage: .venv/bin/python bench/move_latency.py [--deals 20] [--floor-clicks 3] [--root DIR]
       (``make bench-move``)

Serves the site on 127.0.0.1 with scripts/serve.py (as ``make play`` and the e2e tests do),
opens it in Debian's chromium (scripts/chromium.py) and plays the winning lines of ``--deals``
deals, found by the solver in CPython: the first winnable deals of the open variants in turn
(standard, vertical, doublets, overlapping; Strict is left out, its stock order is hidden).
Every pair is played by two real clicks (Playwright's mouse, through Chromium's input
pipeline); the second one, the pairing tap, is timed inside the page. The game plays a tap
when the press is released (``pointerup``, nestor_web/browser/drag.py), before the click:

* start: ``performance.now()`` in a capturing ``pointerup`` listener on ``window``, the
  first listener the release reaches, before the game's own handler (a ``click`` without a
  press, as the keyboard makes, starts it too);
* **board updated**: a MutationObserver on ``#board`` sees that neither card of the pair is on
  the board any more (no ``#board [data-card=...]`` left). Its callback runs at the first
  microtask checkpoint after the change, so a handler that goes on working synchronously
  after changing the board is counted to its end; work it defers to a later task is not;
* next frame: from that callback, the next ``requestAnimationFrame`` and then a message
  posted from it, which runs once that frame has been produced (style, layout, paint). It
  adds the wait for the display's next frame (up to ~17 ms), so it is shown, not targeted;
* input: the same end, counted from the release event's ``timeStamp`` (when Chromium took
  the input), so a tap that had to wait for a solver slice to finish shows that wait too.

Each setting gets a fresh profile and page (service workers blocked, so nothing but the game
runs): animations off, animations on, the winnable indicator on (animations off); each deal
is played in the three pages in turn, so the settings share whatever else the machine does.
The deals are opened in each page through the address and a ``popstate`` event, as Back and
Forward do, so Pyodide boots once per page; if the page does not follow, it is reloaded.
Settings are set with the page's own controls (``[data-setting=...]``).

The floor, in the same pages: a no-op Python ``pointerup`` handler on the same interpreter
(a ``<script type="py">`` added to the page binds it to a button of its own; it writes one
number into one element), clicked ``--floor-clicks`` times after every deal and timed the same
way (end: the MutationObserver sees that element's new text).

Prints median, p95 and max in ms per setting and for the floor, and p95 / floor p95.
Target (issue 8), animations and indicator off: p95 <= 8 ms and <= 3x the floor. The bench
only reports; it never fails on a time.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from serve import serve_in_thread  # noqa: E402

from nestor import Pair, TurnStock, deal_position  # noqa: E402
from nestor.solver import solve  # noqa: E402

OPEN_VARIANTS = ("standard", "vertical", "doublets", "overlapping")
"""The variants whose winning lines are played: every card face up, no stock to turn."""

SETTINGS = {
    "animations off": {"animations": False, "winnable_indicator": False},
    "animations on": {"animations": True, "winnable_indicator": False},
    "indicator on": {"animations": False, "winnable_indicator": True},
}
"""The settings timed, each in a page of its own, by their ``data-setting`` names."""

TARGET_P95_MS = 8.0
TARGET_FLOOR_RATIO = 3.0
READY_TIMEOUT_MS = 120_000
UPDATE_TIMEOUT_MS = 10_000

# Installed before any script of the page: the timing probe (window.__nestorBench).
PROBE = """
(() => {
  const UPDATE_TIMEOUT_MS = __UPDATE_TIMEOUT_MS__;
  const bench = window.__nestorBench = { pending: null, result: null };
  const start = (event) => {
    const p = bench.pending;
    if (p && p.tapAt === null) { p.tapAt = performance.now(); p.inputAt = event.timeStamp; }
  };
  addEventListener("pointerup", start, { capture: true });
  addEventListener("click", start, { capture: true });
  // Arm for the next click: `target` is observed, `done()` says the update is on the page.
  bench.arm = (targetSelector, done) => {
    const target = document.querySelector(targetSelector);
    const p = { tapAt: null, inputAt: null, domAt: null, frameAt: null };
    bench.pending = p;
    bench.result = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error(`no update of ${targetSelector} within ${UPDATE_TIMEOUT_MS} ms`));
      }, UPDATE_TIMEOUT_MS);
      const observer = new MutationObserver(() => {
        if (p.domAt !== null || p.tapAt === null || !done()) return;
        p.domAt = performance.now();
        observer.disconnect();
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            p.frameAt = performance.now();
            clearTimeout(timer);
            bench.pending = null;
            resolve(p);
          };
          channel.port2.postMessage(null);
        });
      });
      observer.observe(target, { childList: true, subtree: true, attributes: true,
                                 characterData: true });
    });
  };
  bench.armGone = (cards) => bench.arm("#board", () => cards.every(
    (card) => !document.querySelector(`#board [data-card="${card}"]`)));
  bench.armText = (selector, text) => bench.arm(selector, () =>
    document.querySelector(selector).textContent === text);
  // Resolves once the page has produced a frame after everything queued so far.
  bench.settle = () => new Promise((resolve) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  }));
})();
""".replace("__UPDATE_TIMEOUT_MS__", str(UPDATE_TIMEOUT_MS))

# The floor: a button bound (on pointerup, as the game's taps) to a Python handler that only
# writes a counter into one element, in the page's own (main-thread) interpreter, which
# PyScript shares among its py scripts.
FLOOR_SCRIPT = """
from pyodide.ffi import create_proxy
from pyscript import document

_floor_out = document.getElementById("bench-floor-out")
_floor_count = [0]


def _floor_click(event):
    _floor_count[0] += 1
    _floor_out.textContent = str(_floor_count[0])


_floor_proxy = create_proxy(_floor_click)
document.getElementById("bench-floor").addEventListener("pointerup", _floor_proxy)
document.getElementById("bench-floor").setAttribute("data-bound", "")
"""

ADD_FLOOR = """(code) => {
  const box = document.createElement("div");
  box.id = "bench-floor-box";
  box.innerHTML = '<button type="button" id="bench-floor">floor</button>'
                + ' <span id="bench-floor-out">0</span>';
  document.body.prepend(box);
  const script = document.createElement("script");
  script.type = "py";
  script.textContent = code;
  document.body.append(script);
}"""


@dataclass
class Timings:
    """Times of one kind of tap, in ms: to the board updated, to the next frame, from input."""

    board: list[float] = field(default_factory=list)
    frame: list[float] = field(default_factory=list)
    input: list[float] = field(default_factory=list)

    def add(self, probe: dict[str, float]) -> None:
        """Add one probe result (``tapAt``, ``inputAt``, ``domAt``, ``frameAt``, ms)."""
        self.board.append(probe["domAt"] - probe["tapAt"])
        self.frame.append(probe["frameAt"] - probe["tapAt"])
        self.input.append(probe["domAt"] - probe["inputAt"])

    def extend(self, other: Timings) -> None:
        """Add every time of ``other``."""
        self.board += other.board
        self.frame += other.frame
        self.input += other.input


def p95(values: list[float]) -> float:
    """The 95th percentile, nearest rank (``nan`` for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def summary(values: list[float]) -> str:
    """``median / p95 / max`` of ``values`` in ms, aligned."""
    if not values:
        return f"{'-':>6} {'-':>6} {'-':>6}"
    return f"{statistics.median(values):6.1f} {p95(values):6.1f} {max(values):6.1f}"


def winnable(solution: object) -> bool:
    """Did the solver prove a win? (``Solution.status``; trees before issue 8: ``winnable``.)"""
    status = getattr(solution, "status", None)
    if status is not None:
        return getattr(status, "name", None) == "WINNABLE"
    return getattr(solution, "winnable", None) is True


def winning_deals(count: int) -> Iterator[tuple[str, int, tuple[Pair, ...]]]:
    """``(variant, deal, line)`` for the first ``count`` winnable deals, variants in turn."""
    next_deal = dict.fromkeys(OPEN_VARIANTS, 0)
    for i in range(count):
        variant = OPEN_VARIANTS[i % len(OPEN_VARIANTS)]
        while True:
            deal = next_deal[variant]
            next_deal[variant] += 1
            solution = solve(deal_position(variant, deal))
            if winnable(solution):
                break
        line = solution.line
        assert not any(isinstance(m, TurnStock) for m in line), "open variants have no stock"
        yield variant, deal, tuple(m for m in line if isinstance(m, Pair))


def wait_ready(page: Page, timeout_ms: int = READY_TIMEOUT_MS) -> None:
    page.wait_for_selector("body[data-ready]", state="attached", timeout=timeout_ms)


def settle(page: Page) -> None:
    page.evaluate("() => window.__nestorBench.settle()")


def open_deal(
    page: Page,
    origin: str,
    variant: str,
    deal: int,
    *,
    floor: bool = True,
    ready_timeout_ms: int = READY_TIMEOUT_MS,
) -> bool:
    """Show ``variant``/``deal`` afresh: through the address and popstate, else a reload.

    ``floor``: after a reload, put the no-op floor button back. Returns ``True`` if the page
    had to be reloaded.
    """
    query = f"?variant={variant}&deal={deal}"
    fresh = (
        "([deal, variant]) => document.getElementById('deal-number').textContent === deal"
        " && document.body.dataset.variant === variant"
        " && document.getElementById('moves-made').textContent === '0'"
    )
    page.evaluate(
        "(query) => { history.pushState(null, '', query);"
        " dispatchEvent(new PopStateEvent('popstate', { state: null })); }",
        query,
    )
    try:
        page.wait_for_function(fresh, arg=[str(deal), variant], timeout=5_000)
        reloaded = False
    except PlaywrightTimeout:
        page.goto(f"{origin.rstrip('/')}/{query}")
        wait_ready(page, ready_timeout_ms)
        if floor:
            add_floor(page)
        page.wait_for_function(fresh, arg=[str(deal), variant], timeout=10_000)
        reloaded = True
    settle(page)
    return reloaded


def apply_settings(page: Page, values: dict[str, bool]) -> None:
    """Set the settings through the page's own controls, then close the settings again
    (the Animations menu: ``True`` is its normal speed, ``False`` off)."""
    page.click('#controls [data-action="settings"]')
    for name, value in values.items():
        if name == "animations":
            page.select_option('[data-setting="animations"]', "normal" if value else "off")
        else:
            page.set_checked(f'[data-setting="{name}"]', value)
    page.keyboard.press("Escape")
    settle(page)


def add_floor(page: Page) -> None:
    page.evaluate(ADD_FLOOR, FLOOR_SCRIPT)
    page.wait_for_selector("#bench-floor[data-bound]", state="attached", timeout=60_000)


def time_floor(page: Page, clicks: int, out: Timings) -> None:
    for _ in range(clicks):
        shown = int(page.text_content("#bench-floor-out") or "0")
        page.evaluate(
            "(text) => window.__nestorBench.armText('#bench-floor-out', text)", str(shown + 1)
        )
        page.click("#bench-floor")
        out.add(page.evaluate("() => window.__nestorBench.result"))
        settle(page)


def tap_pair(page: Page, move: Pair) -> dict[str, float]:
    """Play ``move`` by two clicks; the probe's result for the second (the pairing tap)."""
    first, second = move.cards
    page.click(f'#board [data-card="{first}"][data-available]')
    page.wait_for_selector(f'#board [data-card="{first}"][data-selected]', state="attached")
    settle(page)
    page.evaluate("(cards) => window.__nestorBench.armGone(cards)", [first, second])
    page.click(f'#board [data-card="{second}"][data-available]')
    result: dict[str, float] = page.evaluate("() => window.__nestorBench.result")
    settle(page)
    return result


def play_line(page: Page, line: tuple[Pair, ...], out: Timings) -> None:
    """Play ``line`` by clicks; time each pairing tap into ``out``."""
    for move in line:
        out.add(tap_pair(page, move))
    page.wait_for_selector('body[data-outcome="won"]', state="attached", timeout=10_000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="winning lines played per setting")
    parser.add_argument("--floor-clicks", type=int, default=3,
                        help="no-op handler clicks after each deal")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="tree to serve (default: this one), e.g. a clone of an older commit")
    args = parser.parse_args()
    deals = list(winning_deals(args.deals))
    taps = sum(len(line) for _, _, line in deals)
    results = {name: Timings() for name in SETTINGS}
    floors = {name: Timings() for name in SETTINGS}
    reloads = 0
    server, origin = serve_in_thread(args.root.resolve(), quiet=True)
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium)
            pages: dict[str, Page] = {}
            for name, values in SETTINGS.items():
                context = browser.new_context(
                    viewport={"width": 1280, "height": 800}, service_workers="block"
                )
                context.add_init_script(PROBE)
                page = pages[name] = context.new_page()
                variant, deal, _line = deals[0]
                page.goto(f"{origin}/?variant={variant}&deal={deal}")
                wait_ready(page)
                apply_settings(page, values)
                add_floor(page)
            for number, (variant, deal, line) in enumerate(deals, 1):
                for name, page in pages.items():  # in turn, so the settings share the noise
                    reloads += open_deal(page, origin, variant, deal)
                    play_line(page, line, results[name])
                    time_floor(page, args.floor_clicks, floors[name])
                print(f"  deal {number}/{len(deals)}: {variant} {deal}, {len(line)} pairs",
                      file=sys.stderr, flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()

    floor = Timings()
    for timings in floors.values():
        floor.extend(timings)
    kinds = ", ".join(OPEN_VARIANTS)
    print(f"pairing tap in Chromium, {len(deals)} winning lines ({kinds}), {taps} taps per setting")
    print(f"served from {args.root.resolve()}; deals opened by popstate, "
          f"{reloads} of {len(deals) * len(SETTINGS)} by a reload")
    print(f"{'':32} {'tap -> board (ms)':>20}   {'tap -> next frame':>20}   "
          f"{'input -> board':>20}")
    print(f"{'':32} {'median    p95    max':>20}   {'median    p95    max':>20}   "
          f"{'median    p95    max':>20}")
    rows = [*results.items(), (f"floor: no-op Python handler ({len(floor.board)})", floor)]
    for name, t in rows:
        print(f"{name:32} {summary(t.board):>20}   {summary(t.frame):>20}   "
              f"{summary(t.input):>20}")
    floor_p95 = p95(floor.board)
    ratios = ", ".join(f"{name} {p95(t.board) / floor_p95:.1f}x" for name, t in results.items())
    print(f"p95 / floor p95 (tap -> board): {ratios}")
    off = results["animations off"].board
    met = p95(off) <= TARGET_P95_MS and p95(off) <= TARGET_FLOOR_RATIO * floor_p95
    print(f"target, animations and indicator off: p95 <= {TARGET_P95_MS:g} ms and <= "
          f"{TARGET_FLOOR_RATIO:g}x the floor -> {'met' if met else 'NOT met'} "
          f"(p95 {p95(off):.1f} ms, floor p95 {floor_p95:.1f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Benchmark: how fast the game starts, beside a bare Pyodide boot (the floor).

Usage: .venv/bin/python bench/boot.py [--rounds 5] [--cpu 4] [--profile memory]
(``make bench-boot``; ``BENCH_ARGS="--cpu 4"`` for a phone)

Serves the repo root on 127.0.0.1 with scripts/serve.py's ``serve_in_thread`` (netlify.toml's
headers, as ``make play`` and the e2e tests do) and opens pages in Debian's chromium
(scripts/chromium.py's ``launch``). Each round runs every case once, in an order rotated from
round to round (interleaved: all cases share whatever else the machine does):

* **floor**: ``bench/floor/index.html``, the game's own vendored Pyodide
  (``static/vendor/pyodide/``): ``loadPyodide()`` then ``runPython("1+1")``, from the very
  files the game loads (the wasm, and the standard library trimmed and compiled by the setup
  step). Cold: a fresh profile, service workers blocked. Warm: a second visit in that profile
  (the HTTP cache).
* **game** at ``/`` and at ``/?variant=standard&deal=7``. Cold: a fresh context, service
  workers blocked. First visit: a fresh context with the service worker allowed (what a new
  player downloads). Warm: a second visit in that same context, once the first one has
  installed the worker and ``navigator.serviceWorker.controller`` is set.

Profiles: by default each fresh profile is a temporary folder on disk (Playwright's
``launch_persistent_context``, a browser of its own), as a player's browser keeps its caches:
the HTTP cache keeps the 9.6 MB wasm for the floor's warm visit, and the service worker's Cache
Storage is on disk. ``--profile memory`` uses contexts of one browser instead (in-memory
profiles, labelled so in the report): quicker, but their HTTP cache keeps no entry as big as the
wasm, so the floor's warm visit downloads it again.

``--cpu N`` slows every page's main thread N times (CDP ``Emulation.setCPUThrottlingRate``, set
before the first navigation; the floor and the game alike), a phone's CPU for N = 4.

Measured in each visit, by an init script (``context.add_init_script``) that runs before any
script of the page:

* **board**: ms from navigation start (``performance.now()``) until the first
  ``#board [data-card]`` element is in the DOM (a MutationObserver on the document);
* **input**: ms until ``body[data-ready]`` appears (same observer); for the floor, the moment
  ``1+1`` returned (``window.__floor.ready``, set by ``bench/floor/floor.mjs``);
* **bytes**: the sum of the response body sizes that came from the network: Playwright's
  ``requestfinished`` events on the context, ``request.sizes()["responseBodySize"]`` (Chromium's
  encoded, on-the-wire body length), leaving out responses the service worker answered
  (``response.from_service_worker``) and counting the worker's own fetches (its precaching).
  For a first visit with the worker, counted once the worker controls the page and the
  network has been quiet for a moment;
* **phases** of the game's boot: every PyScript ``py:progress`` event (listened to on
  ``window``), timestamped, the first of each text; the game's own ``nestor:`` performance
  marks (``static/js/pwa.js``, ``durable.js``: each start-up step before PyScript; ``main.py``
  and ``root.py``: our imports); the page's own arrival (Navigation Timing: the service worker
  started, the response, the document parsed); when
  ``main.py``, the wasm and the standard library zip had arrived (``responseEnd`` of their
  Resource Timing entries).

Prints, per case, median and range of each figure and its ratio to the floor of the same run
(cold and first-visit cases over the floor's cold boot, warm ones over its warm boot), then the
ratio lines (``ratio warm-input/floor X.XX`` ...; each a ratio of medians) and issue 20's
targets beside them, then the phase table (median ms per phase). It never fails on a time.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
from playwright.sync_api import (  # noqa: E402
    BrowserContext,
    Page,
    Playwright,
    Request,
    sync_playwright,
)
from serve import serve_in_thread  # noqa: E402

FLOOR_URL = "/bench/floor/index.html"
VENDORED = ROOT / "static" / "vendor" / "pyodide" / "python_stdlib.zip"
"""One of the files the floor and the game share: without it, make vendor has not run."""
GAME_URLS = {"game /": "/", "game deal 7": "/?variant=standard&deal=7"}
"""The game's pages timed, by the name printed for them."""

READY_TIMEOUT_MS = 240_000
QUIET_MS = 500
"""How long the network must have been quiet before a first visit's bytes are summed."""

TARGETS = (
    # (ratio line, target text, limit): issue 20's, for disk profiles and no CPU slowdown
    ("warm-input/floor", "warm input at / <= 1.3x the floor's warm boot", 1.30),
    ("warm-input-deal7/floor", "warm input at deal 7 <= 1.3x the floor's warm boot", 1.30),
    ("warm-input/cold-input", "warm input at / never slower than its cold visit", 1.00),
    ("cold-input/floor", "cold input <= 1.3x the floor's cold boot", 1.30),
    ("warm-board/floor-warm", "stored board painted <= 0.1x the floor's warm boot", 0.10),
)
CPU_TARGET = ("warm-input/floor", "warm input at / <= 1.2x the floor, CPU slowed alike", 1.20)
"""The target with ``--cpu 4`` (issue 20), in place of the others."""

# Installed before any script of the page: window.__boot, the board, input and phase times.
PROBE = """
(() => {
  if (window.__boot) return;
  const boot = window.__boot = { board: null, ready: null, progress: [], long: [] };
  try {  // the main thread's long tasks (over 50 ms), for the blocking time
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) boot.long.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (error) { /* no Long Tasks API: blocking stays unknown */ }
  addEventListener("py:progress", (event) => {
    boot.progress.push([performance.now(), String(event.detail)]);
  });
  const observer = new MutationObserver(() => {
    if (boot.board === null && document.querySelector("#board [data-card]")) {
      boot.board = performance.now();
    }
    if (boot.ready === null && document.body && document.body.hasAttribute("data-ready")) {
      boot.ready = performance.now();
    }
    if (boot.board !== null && boot.ready !== null) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true,
                               attributeFilter: ["data-ready"] });
})();
"""

# Read at the end of a visit: the probe's figures and the arrival of the files named.
COLLECT = """
(names) => {
  const arrived = {};
  for (const entry of performance.getEntriesByType("resource")) {
    const path = new URL(entry.name).pathname;
    for (const name of names) {
      if (path.endsWith("/" + name) && !(name in arrived)) arrived[name] = entry.responseEnd;
    }
  }
  const marks = performance.getEntriesByType("mark")
    .filter((entry) => entry.name.startsWith("nestor:"))
    .map((entry) => [entry.name, entry.startTime]);
  const nav = performance.getEntriesByType("navigation")[0];
  const document_ = nav ? [["document: service worker started", nav.workerStart],
    ["document: response started", nav.responseStart],
    ["document: response ended", nav.responseEnd],
    ["document: parsed (domInteractive)", nav.domInteractive]] : [];
  return { boot: window.__boot, floor: window.__floor || null, arrived, marks,
           document: document_ };
}
"""
FILES_TIMED = ("pyodide.asm.wasm", "python_stdlib.zip", "main.py")


@dataclass
class Visit:
    """One page load: times in ms from navigation start, bytes from the network."""

    board: float | None
    input: float
    bytes: int
    phases: dict[str, float] = field(default_factory=dict)
    blocking: float | None = None


@dataclass
class Case:
    """Every visit of one case, over the rounds."""

    name: str
    kind: str  # "cold", "warm" or "first": which of the floor's boots it is compared with
    visits: list[Visit] = field(default_factory=list)

    def values(self, key: str) -> list[float]:
        out = [getattr(v, key) for v in self.visits]
        return [float(x) for x in out if x is not None]

    def median(self, key: str) -> float | None:
        vals = self.values(key)
        return statistics.median(vals) if vals else None


class Traffic:
    """The requests a context finished, to sum what came from the network."""

    def __init__(self, context: BrowserContext) -> None:
        self.requests: list[Request] = []
        self.last_at = time.monotonic()
        context.on("requestfinished", self._finished)
        context.on("request", self._seen)

    def _seen(self, request: Request) -> None:
        self.last_at = time.monotonic()

    def _finished(self, request: Request) -> None:
        self.requests.append(request)
        self.last_at = time.monotonic()

    def take(self) -> int:
        """Bytes of the response bodies from the network since the last call; resets."""
        total = 0
        for request in self.requests:
            response = request.response()
            if response is None or response.from_service_worker:
                continue
            total += max(0, request.sizes()["responseBodySize"])
        self.requests = []
        return total


def wait_quiet(page: Page, traffic: Traffic) -> None:
    """Wait until no request started or finished for QUIET_MS."""
    while (time.monotonic() - traffic.last_at) * 1000 < QUIET_MS:
        page.wait_for_timeout(100)


def visit(page: Page, traffic: Traffic, url: str, floor: bool, until_sw: bool = False) -> Visit:
    """Load ``url`` in ``page`` and measure it; ``until_sw``: also wait for the worker."""
    traffic.take()
    page.goto(url, wait_until="commit")
    if floor:
        page.wait_for_function(
            "window.__floor && (window.__floor.ready !== null || window.__floor.error !== null)",
            timeout=READY_TIMEOUT_MS,
            polling=100,
        )
    else:
        page.wait_for_function(
            "window.__boot && window.__boot.ready !== null", timeout=READY_TIMEOUT_MS, polling=100
        )
    if until_sw:
        page.wait_for_function(
            "navigator.serviceWorker.controller !== null", timeout=READY_TIMEOUT_MS
        )
    wait_quiet(page, traffic)
    got: dict[str, Any] = page.evaluate(COLLECT, list(FILES_TIMED))
    size = traffic.take()
    ready_at = got["floor"]["ready"] if floor else got["boot"]["ready"]
    blocking = sum(
        max(0.0, duration - 50) for start, duration in got["boot"]["long"] if start < ready_at
    )
    if floor:
        result = got["floor"]
        if result["error"] is not None or result["result"] != 2:
            raise RuntimeError(f"the floor page failed: {result}")
        return Visit(board=None, input=result["ready"], bytes=size, blocking=blocking)
    boot = got["boot"]
    phases: dict[str, float] = {}
    for at, text in boot["progress"]:
        phases.setdefault(f"py:progress {text}", at)
    for name, at in got["arrived"].items():
        phases[f"{name} arrived"] = at
    for name, at in got["marks"]:
        phases.setdefault(f"mark {name}", at)
    for name, at in got["document"]:
        if at:  # 0: no such step (no service worker)
            phases[name] = at
    if boot["board"] is not None:
        phases["first board in the DOM"] = boot["board"]
    phases["body[data-ready]"] = boot["ready"]
    return Visit(
        board=boot["board"], input=boot["ready"], bytes=size, phases=phases, blocking=blocking
    )


class Profiles:
    """Fresh profiles: Playwright contexts of one browser, or (``disk``) browsers of their own.

    A context of :func:`chromium.launch`'s browser is an in-memory profile: its HTTP cache
    keeps no entry as big as Pyodide's 9.6 MB wasm, so the floor's second visit downloads the
    wasm again. ``disk`` gives each profile a temporary folder (a persistent context, its own
    browser process) whose disk cache keeps it, as a player's browser does.
    """

    def __init__(self, playwright: Playwright, origin: str, disk: bool, cpu: float = 1) -> None:
        self.playwright, self.origin, self.disk, self.cpu = playwright, origin, disk, cpu
        self.browser = None if disk else chromium.launch(playwright.chromium)

    def new(self, service_workers: Literal["allow", "block"]) -> BrowserContext:
        """A fresh profile with the probe installed; close it with :meth:`close`."""
        if self.browser is not None:
            context = self.browser.new_context(
                base_url=self.origin, service_workers=service_workers
            )
        else:
            folder = tempfile.mkdtemp(prefix="bench-boot-")
            context = self.playwright.chromium.launch_persistent_context(
                folder,
                executable_path=chromium.CHROMIUM,
                args=list(chromium.CHROMIUM_ARGS),
                headless=True,
                base_url=self.origin,
                service_workers=service_workers,
            )
            context.on("close", lambda _: shutil.rmtree(folder, ignore_errors=True))
        context.add_init_script(PROBE)
        return context

    def page(self, context: BrowserContext) -> Page:
        """A new page of ``context``, its main thread slowed ``cpu`` times (before it loads)."""
        page = context.new_page()
        if self.cpu != 1:
            session = context.new_cdp_session(page)
            session.send("Emulation.setCPUThrottlingRate", {"rate": self.cpu})
        return page

    def shutdown(self) -> None:
        if self.browser is not None:
            self.browser.close()


def run_floor(profiles: Profiles, cases: dict[str, Case]) -> None:
    """The floor, cold then warm, in one fresh profile."""
    context = profiles.new("block")
    traffic = Traffic(context)
    page = profiles.page(context)
    cases["floor cold"].visits.append(visit(page, traffic, FLOOR_URL, floor=True))
    cases["floor warm"].visits.append(visit(page, traffic, FLOOR_URL, floor=True))
    context.close()


def run_game_cold(profiles: Profiles, name: str, cases: dict[str, Case]) -> None:
    """The game in a fresh profile, service workers blocked."""
    context = profiles.new("block")
    traffic = Traffic(context)
    page = profiles.page(context)
    cases[f"{name} cold"].visits.append(visit(page, traffic, GAME_URLS[name], floor=False))
    context.close()


def run_game_sw(profiles: Profiles, name: str, cases: dict[str, Case]) -> None:
    """The game's first visit with its service worker, then a second visit under it."""
    context = profiles.new("allow")
    traffic = Traffic(context)
    page = profiles.page(context)
    url = GAME_URLS[name]
    cases[f"{name} first visit"].visits.append(
        visit(page, traffic, url, floor=False, until_sw=True)
    )
    cases[f"{name} warm"].visits.append(visit(page, traffic, url, floor=False))
    context.close()


def fmt_ms(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values):6.0f} [{min(values):.0f}–{max(values):.0f}]"


def fmt_mb(values: list[float]) -> str:
    if not values:
        return "—"
    return (
        f"{statistics.median(values) / 1e6:6.2f} [{min(values) / 1e6:.2f}–{max(values) / 1e6:.2f}]"
    )


def ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or not b else f"{a / b:.2f}"


def floor_medians(cases: dict[str, Case], key: str) -> dict[str, float | None]:
    """The floor's median ``key`` for each kind of case: cold and first visits are compared with
    its cold boot, warm visits with its warm boot."""
    cold, warm = cases["floor cold"].median(key), cases["floor warm"].median(key)
    return {"cold": cold, "first": cold, "warm": warm}


def print_report(
    cases: dict[str, Case],
    rounds: int,
    loads: list[tuple[float, ...]],
    profile: str,
    cpu: float = 1,
) -> None:
    floor_input = floor_medians(cases, "input")
    floor_blocking = floor_medians(cases, "blocking")
    floor_bytes = cases["floor cold"].median("bytes")
    print(
        f"start-up in Chromium, {rounds} rounds interleaved, {profile} profiles"
        f"{f', CPU slowed {cpu:g}x' if cpu != 1 else ''}; load average "
        f"{' -> '.join('/'.join(f'{x:.1f}' for x in la) for la in loads)} (1/5/15 min)"
    )
    print("times: ms from navigation start, median [min–max]; bytes: response bodies from the")
    print("network (Playwright request.sizes(), service-worker answers left out), MB = 10^6 bytes")
    print("ratios: medians over the floor's boot of the same run (cold and first visit: over its")
    print("cold boot, warm: over its warm boot; bytes: over its cold bytes); blocking: the main")
    print("thread's long tasks before input, each one's time over 50 ms, summed (as Lighthouse's")
    print("total blocking time counts them), over the floor's of the same kind")
    print()
    head = (
        f"{'case':30} {'first board (ms)':>20} {'input (ms)':>20} {'bytes (MB)':>20}"
        f" {'blocking (ms)':>18} {'board/fl':>8} {'input/fl':>8} {'bytes/fl':>8} {'block/fl':>8}"
    )
    print(head)
    print("-" * len(head))
    for case in cases.values():
        base = floor_input[case.kind]
        print(
            f"{case.name:30} {fmt_ms(case.values('board')):>20} {fmt_ms(case.values('input')):>20}"
            f" {fmt_mb(case.values('bytes')):>20} {fmt_ms(case.values('blocking')):>18}"
            f" {ratio(case.median('board'), base):>8} {ratio(case.median('input'), base):>8}"
            f" {ratio(case.median('bytes'), floor_bytes):>8}"
            f" {ratio(case.median('blocking'), floor_blocking[case.kind]):>8}"
        )
    warm_floor_bytes = cases["floor warm"].median("bytes")
    if warm_floor_bytes:
        print(
            f"note: the floor's warm visit fetched {warm_floor_bytes / 1e6:.2f} MB again (with"
            f" {profile} profiles); an in-memory profile's HTTP cache keeps no entry as big as"
            " the wasm: the default, disk profiles, keeps it"
        )
    print()
    game = "game /"
    figures = {
        "warm-input/floor": (cases[f"{game} warm"].median("input"), floor_input["warm"]),
        "warm-input-deal7/floor": (
            cases["game deal 7 warm"].median("input"),
            floor_input["warm"],
        ),
        "warm-input/cold-input": (
            cases[f"{game} warm"].median("input"),
            cases[f"{game} cold"].median("input"),
        ),
        "cold-input/floor": (cases[f"{game} cold"].median("input"), floor_input["cold"]),
        "warm-board/floor-warm": (cases[f"{game} warm"].median("board"), floor_input["warm"]),
        "first-visit-bytes/floor": (cases[f"{game} first visit"].median("bytes"), floor_bytes),
    }
    print(f"the ratio lines ({game}):")
    for name, (a, b) in figures.items():
        print(f"ratio {name} {ratio(a, b)}")
    print()
    targets = TARGETS if cpu == 1 else (CPU_TARGET,)
    where = "disk profiles" + (f", CPU slowed {cpu:g}x" if cpu != 1 else "")
    caveat = "" if profile == "disk" else f": this run used {profile} profiles, not comparable"
    print(f"targets (issue 20, for {where}{caveat}; reported, not asserted):")
    for name, text, limit in targets:
        a, b = figures[name]
        if a is None or not b:
            verdict, value = "not measured", "—"
        else:
            value = f"{a / b:.2f}"
            verdict = "met" if a / b <= limit else "missed"
        print(f"  {text:52} {value:>6}  {verdict}")
    print()
    print_phases([c for c in cases.values() if not c.name.startswith("floor")])


def print_phases(cases: list[Case]) -> None:
    """Median ms from navigation start of each boot phase, per game case."""
    order: dict[str, float] = {}
    for case in cases:
        for v in case.visits:
            for name, at in v.phases.items():
                order.setdefault(name, at)
    names = sorted(
        order,
        key=lambda n: statistics.median(
            [v.phases[n] for c in cases for v in c.visits if n in v.phases]
        ),
    )
    width = max((len(n) for n in names), default=10)
    short = [c.name.replace("game ", "").replace("first visit", "first") for c in cases]
    print("boot phases of the game, median ms from navigation start (n < rounds: seen in n)")
    print(f"{'phase':{width}} " + " ".join(f"{s:>14}" for s in short))
    for n in names:
        cells = []
        for case in cases:
            vals = [v.phases[n] for v in case.visits if n in v.phases]
            cell = "—" if not vals else f"{statistics.median(vals):.0f}"
            if vals and len(vals) < len(case.visits):
                cell += f" (n={len(vals)})"
            cells.append(f"{cell:>14}")
        print(f"{n:{width}} " + " ".join(cells))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="default 5, the least issue 9 asks")
    ap.add_argument(
        "--profile",
        choices=("memory", "disk"),
        default="disk",
        help="disk: a temporary profile folder each, as browsers keep caches (default); memory:"
        " contexts of one browser, in-memory profiles (the HTTP cache keeps no wasm)",
    )
    ap.add_argument(
        "--cpu",
        type=float,
        default=1,
        help="slow each page's main thread this many times (4: a phone); default 1",
    )
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if args.cpu < 1:
        ap.error("--cpu must be at least 1")

    cases: dict[str, Case] = {
        "floor cold": Case("floor cold", "cold"),
        "floor warm": Case("floor warm", "warm"),
    }
    for name in GAME_URLS:
        cases[f"{name} cold"] = Case(f"{name} cold", "cold")
        cases[f"{name} first visit"] = Case(f"{name} first visit (sw)", "first")
        cases[f"{name} warm"] = Case(f"{name} warm (sw)", "warm")

    if not VENDORED.is_file():
        ap.error(f"no {VENDORED.relative_to(ROOT)}: run make vendor first")
    server, origin = serve_in_thread(ROOT)
    loads: list[tuple[float, ...]] = [os.getloadavg()]
    units: list[tuple[str, Callable[[Profiles], None]]] = [
        ("floor", functools.partial(run_floor, cases=cases))
    ]
    for name in GAME_URLS:
        units.append((f"{name} cold", functools.partial(run_game_cold, name=name, cases=cases)))
        units.append((f"{name} sw", functools.partial(run_game_sw, name=name, cases=cases)))
    try:
        with sync_playwright() as p:
            profiles = Profiles(p, origin, disk=args.profile == "disk", cpu=args.cpu)
            for r in range(args.rounds):
                shift = r % len(units)
                for label, run in units[shift:] + units[:shift]:
                    started = time.monotonic()
                    run(profiles)
                    print(
                        f"  round {r + 1}/{args.rounds}: {label} "
                        f"({time.monotonic() - started:.0f} s)",
                        file=sys.stderr,
                        flush=True,
                    )
            profiles.shutdown()
    finally:
        server.shutdown()
        server.server_close()
    loads.append(os.getloadavg())
    print_report(cases, args.rounds, loads, args.profile, args.cpu)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Benchmark: the game with Python in PyScript's worker mode, beside the normal page.

Usage: .venv/bin/python bench/worker_mode.py [--rounds 5] [--deals 4] [--smoke]
       (``make bench-worker``)

Issue 9 asks whether running ``main.py`` in a worker (``<script type="py" worker>``) would cut
the main thread's blocking time during boot, and what it costs a tap, whose DOM calls then
cross PyScript's synchronous bridge (coincident: ``Atomics.wait`` on a SharedArrayBuffer in
the worker, so the page must be cross-origin isolated).

The worker variant is built at the start of each run in a temporary folder, never in the tree:
every top-level entry of the tree is a symbolic link, except

* ``index.html``: the game's ``<script type="py">`` gets the ``worker`` attribute;
* ``netlify.toml`` (the headers scripts/serve.py sends): ``Cross-Origin-Embedder-Policy:
  require-corp`` beside the ``Cross-Origin-Opener-Policy: same-origin`` already sent (the pair
  makes ``crossOriginIsolated`` true, which SharedArrayBuffer needs), and ``blob:`` in
  ``worker-src`` (polyscript starts its worker from a Blob URL).

Both pages are served by scripts/serve.py (each on its own port, each with its own headers) and
opened in Debian's chromium (scripts/chromium.py), service workers blocked.

* **boot**, ``--rounds`` rounds, the two pages in an order alternating from round to round,
  each a cold load in a fresh browser context (a fresh profile): ms from navigation start to
  ``body[data-ready]``; the main thread's long tasks (a ``PerformanceObserver`` for
  ``longtask``, buffered, installed by an init script before any script of the page): their
  count and the total blocking time (the sum of each task's time over 50 ms) up to
  ``data-ready``, and again up to ``--settle`` seconds later (the solver and dialogs are
  imported just after start-up); whether the page was ``crossOriginIsolated``; page errors
  and console errors; then the **first tap**: ms from a click on the first available card
  until the page shows it selected.
* **tap**: the pairing tap of bench/move_latency.py (its probe: capturing ``click`` listener
  on ``window`` to a MutationObserver seeing both cards gone from ``#board``), animations and
  the indicator off, playing the solver's winning lines of ``--deals`` deals in both pages in
  turn (each deal opened through the address and ``popstate``, else a reload).

* **bridge**: a page of its own (``bridge-worker.html`` / ``bridge-main.html`` in the variant,
  one ``<script type="py">`` with or without ``worker`` that first imports the game's view
  modules) times ``--calls`` DOM calls of each kind from Python (``getElementById``,
  ``getAttribute``, ``setAttribute``, a ``textContent`` write, ``closest()``), ``--rounds`` cold
  loads each: µs per call.

Prints medians, ranges and worker/main ratios of medians; never fails on a time. ``--smoke``
only boots each page once and prints what it logged, the first tap, whether the game's
``keydown`` handler prevented the default of an arrow key in time (a handler in the worker runs
after the event has been dispatched), and the saves found in localStorage and IndexedDB.

Found when this was written (PyScript 0.7.31): the game boots and plays in worker mode with no
change to its Python; ``worker-src`` must allow ``blob:`` (polyscript's worker is a Blob URL),
and an inline worker script would also need ``blob:`` in ``connect-src``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import chromium  # noqa: E402
from move_latency import (  # noqa: E402
    PROBE,
    Timings,
    apply_settings,
    open_deal,
    p95,
    play_line,
    winning_deals,
)
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from serve import Server, make_server, origin  # noqa: E402

READY_TIMEOUT_MS = 240_000

GAME_SCRIPT = '<script type="py" src="./main.py" config="./pyscript.toml"></script>'
WORKER_SCRIPT = '<script type="py" worker src="./main.py" config="./pyscript.toml"></script>'
COOP = 'Cross-Origin-Opener-Policy = "same-origin"'
COEP = 'Cross-Origin-Embedder-Policy = "require-corp"'
WORKER_SRC = "worker-src 'self';"
WORKER_SRC_BLOB = "worker-src 'self' blob:;"

# Before any script of the page: long tasks of the main thread, and the moment of data-ready.
BOOT_PROBE = """
(() => {
  const boot = window.__workerBench = { tasks: [], ready: null, isolated: crossOriginIsolated };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) boot.tasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) { boot.tasks = null; }
  const look = () => {
    if (boot.ready === null && document.body && document.body.hasAttribute("data-ready")) {
      boot.ready = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(look);
  observer.observe(document, { subtree: true, childList: true, attributes: true,
                               attributeFilter: ["data-ready"] });
})();
"""


def build_variant(root: Path, into: Path) -> tuple[Path, Path]:
    """Write the worker variant of ``root`` into ``into``: its site folder and headers file.

    Returns ``(site, netlify_toml)``. Raises ValueError if ``index.html`` or ``netlify.toml``
    no longer hold the text this variant edits (the game's script tag, the COOP header, the
    ``worker-src`` directive).
    """
    site = into / "site"
    site.mkdir()
    for entry in root.iterdir():
        if entry.name in ("index.html", "netlify.toml") or entry.name.startswith("."):
            continue
        (site / entry.name).symlink_to(entry)
    html = (root / "index.html").read_text(encoding="utf-8")
    if html.count(GAME_SCRIPT) != 1:
        raise ValueError(f"index.html: expected one {GAME_SCRIPT!r}")
    (site / "index.html").write_text(html.replace(GAME_SCRIPT, WORKER_SCRIPT), encoding="utf-8")
    toml = (root / "netlify.toml").read_text(encoding="utf-8")
    if toml.count(COOP) != 1 or toml.count(WORKER_SRC) != 1:
        raise ValueError(f"netlify.toml: expected one {COOP!r} and one {WORKER_SRC!r}")
    indent = toml.split(COOP)[0].rsplit("\n", 1)[1]
    toml = toml.replace(COOP, f"{COOP}\n{indent}{COEP}").replace(WORKER_SRC, WORKER_SRC_BLOB)
    headers = into / "netlify.toml"
    headers.write_text(toml, encoding="utf-8")
    return site, headers


# The bridge alone: one py script (worker or main thread) that times N calls of each kind from
# Python to the page's DOM, after importing the game's modules (from the config's archive).
BRIDGE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bridge</title>
<link rel="icon" href="./static/icons/icon.svg" type="image/svg+xml">
<script type="module" src="./static/vendor/pyscript/core.js"></script></head>
<body><p id="probe" data-x="1">probe</p><pre id="out"></pre>
<script type="py" __MODE__ src="./bridge.py" config="./pyscript.toml"></script>
</body></html>
"""

# An inline worker script would be fetched from a Blob URL, which connect-src refuses.
BRIDGE_CODE = """import json, time
from pyscript import document
import nestor_web.view.board  # noqa: F401  (the game's modules load as in the game)
N = __N__
el = document.getElementById("probe")
def timed(fn):
    start = time.perf_counter()
    for i in range(N):
        fn(i)
    return (time.perf_counter() - start) * 1e6 / N
out = {
    "getElementById": timed(lambda i: document.getElementById("probe")),
    "getAttribute": timed(lambda i: el.getAttribute("data-x")),
    "setAttribute": timed(lambda i: el.setAttribute("data-x", str(i))),
    "textContent =": timed(lambda i: setattr(el, "textContent", str(i))),
    "closest()": timed(lambda i: el.closest("body")),
}
document.getElementById("out").textContent = json.dumps(out)
document.body.setAttribute("data-done", "")
"""


def write_bridge_pages(site: Path, calls: int) -> None:
    """bridge-worker.html and bridge-main.html in the variant ``site`` (see BRIDGE_PAGE)."""
    (site / "bridge.py").write_text(BRIDGE_CODE.replace("__N__", str(calls)), encoding="utf-8")
    for mode, attr in (("worker", "worker"), ("main", "")):
        html = BRIDGE_PAGE.replace("__MODE__", attr)
        (site / f"bridge-{mode}.html").write_text(html, encoding="utf-8")


def run_bridge(
    browser: Browser, origin_url: str, rounds: int
) -> dict[str, list[dict[str, float]]]:
    """µs per DOM call from Python, worker and main thread, ``rounds`` cold loads each."""
    got: dict[str, list[dict[str, float]]] = {"main thread": [], "worker": []}
    for r in range(rounds):
        order = ["worker", "main"] if r % 2 == 0 else ["main", "worker"]
        for mode in order:
            context = browser.new_context(service_workers="block")
            page = context.new_page()
            page.goto(f"{origin_url}/bridge-{mode}.html")
            page.wait_for_selector("body[data-done]", state="attached",
                                   timeout=READY_TIMEOUT_MS)
            text = page.text_content("#out") or "{}"
            got["worker" if mode == "worker" else "main thread"].append(json.loads(text))
            context.close()
        print(f"  bridge round {r + 1}/{rounds}", file=sys.stderr, flush=True)
    return got


def serve(directory: Path, headers: Path) -> tuple[Server, str]:
    """scripts/serve.py's server for ``directory`` with the headers of ``headers``, started."""
    import threading

    server = make_server(directory=directory, quiet=True, headers_file=headers)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    return server, origin(server)


@dataclass
class Boot:
    """One cold load: ms to data-ready, long tasks, what went wrong."""

    ready: float
    isolated: bool
    tasks: list[tuple[float, float]]
    first_tap: float
    errors: list[str] = field(default_factory=list)

    def blocking(self, until: float) -> tuple[int, float]:
        """Long tasks starting before ``until`` ms: their count and total blocking time (ms)."""
        chosen = [d for start, d in self.tasks if start < until]
        return len(chosen), sum(max(0.0, d - 50.0) for d in chosen)


def collect_errors(page: Page, into: list[str]) -> None:
    """Append page errors and console errors/warnings of ``page`` to ``into``."""
    page.on("pageerror", lambda exc: into.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda msg: into.append(f"console.{msg.type}: {msg.text}")
        if msg.type in ("error", "warning")
        else None,
    )


def boot_once(browser: Browser, url: str, settle_s: float) -> Boot:
    """A cold load of ``url`` in a fresh context; long tasks up to ``settle_s`` after ready."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  service_workers="block")
    context.add_init_script(BOOT_PROBE)
    page = context.new_page()
    errors: list[str] = []
    collect_errors(page, errors)
    try:
        page.goto(url)
        page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_TIMEOUT_MS)
        time.sleep(settle_s)
        got: dict[str, Any] = page.evaluate("() => window.__workerBench")
        first_tap = time_first_tap(page)
    finally:
        context.close()
    tasks = [(float(s), float(d)) for s, d in (got["tasks"] or [])]
    return Boot(float(got["ready"]), bool(got["isolated"]), tasks, first_tap, errors)


def time_first_tap(page: Page) -> float:
    """ms from a click on the first available card until the page shows it selected."""
    card = page.eval_on_selector_all("#board [data-card][data-available]",
                                     "(els) => els.map((e) => e.dataset.card)")[0]
    page.evaluate(
        """(card) => {
          let clickAt = null;
          addEventListener("click", () => { clickAt ??= performance.now(); }, { capture: true });
          const selector = `#board [data-card="${card}"][data-selected]`;
          new MutationObserver((_, observer) => {
            if (clickAt !== null && document.querySelector(selector)) {
              observer.disconnect();
              window.__workerBench.firstTap = performance.now() - clickAt;
            }
          }).observe(document.getElementById("board"), { subtree: true, childList: true,
                                                        attributes: true });
        }""",
        card,
    )
    page.click(f'#board [data-card="{card}"]')
    page.wait_for_function("() => window.__workerBench.firstTap !== undefined", timeout=60_000)
    return float(page.evaluate("() => window.__workerBench.firstTap"))


def spread(values: list[float], unit: str = "", digits: int = 0) -> str:
    """``median (min–max)`` of ``values``."""
    if not values:
        return "-"
    f = f"{{:.{digits}f}}"
    return (f"{f.format(statistics.median(values))}{unit} "
            f"({f.format(min(values))}–{f.format(max(values))})")


def ratio(a: list[float], b: list[float]) -> str:
    """Ratio of the medians of ``a`` over ``b``."""
    mb = statistics.median(b) if b else 0.0
    return f"{statistics.median(a) / mb:.2f}" if a and mb else "-"


def tap_page(browser: Browser, url: str, errors: list[str]) -> Page:
    """A page of ``url`` with the tap probe, booted, animations and indicator off."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  service_workers="block")
    context.add_init_script(PROBE)
    page = context.new_page()
    collect_errors(page, errors)
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_TIMEOUT_MS)
    apply_settings(page, {"animations": False, "winnable_indicator": False})
    return page


CHECKS = """async () => {
  const keys = Object.keys(localStorage).filter((k) => k.startsWith("nestor"));
  const db = await new Promise((ok, no) => { const r = indexedDB.open("nestor", 1);
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const count = await new Promise((ok) => {
    const r = db.transaction("kv").objectStore("kv").count();
    r.onsuccess = () => ok(r.result); });
  return { localStorage: keys.length, indexedDB: count,
           savePending: window.nestorSavePending, prevented: window.__keyPrevented };
}"""

# After the game's own keydown listener (on document): did it call preventDefault in time?
KEY_PROBE = """() => { window.__keyPrevented = [];
  window.addEventListener("keydown",
    (e) => window.__keyPrevented.push([e.key, e.defaultPrevented])); }"""


def smoke(browser: Browser, name: str, url: str) -> None:
    """Boot ``url`` once; print what it logged, whether it took a tap, saved, handled keys."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  service_workers="block")
    context.add_init_script(BOOT_PROBE)
    page = context.new_page()
    page.on("console", lambda msg: print(f"  {name} console.{msg.type}: {msg.text}"))
    page.on("pageerror", lambda exc: print(f"  {name} pageerror: {exc}"))
    page.goto(url)
    try:
        page.wait_for_selector("body[data-ready]", state="attached", timeout=120_000)
    except PlaywrightTimeout:
        print(f"{name}: no data-ready within 120 s: "
              + page.evaluate("() => document.getElementById('status').textContent"))
        context.close()
        return
    got = page.evaluate("() => window.__workerBench")
    print(f"{name}: ready at {got['ready']:.0f} ms, crossOriginIsolated {got['isolated']}")
    card = page.eval_on_selector_all("#board [data-card][data-available]",
                                     "(els) => els.map((e) => e.dataset.card)")[0]
    start = time.perf_counter()
    page.click(f'#board [data-card="{card}"]')
    try:
        page.wait_for_selector(f'#board [data-card="{card}"][data-selected]',
                               state="attached", timeout=30_000)
        print(f"{name}: the first tap, on {card}, selected it after "
              f"{time.perf_counter() - start:.2f} s")
    except PlaywrightTimeout:
        print(f"{name}: a tap on {card}: not selected within 30 s")
    page.evaluate(KEY_PROBE)
    page.focus(f'#board [data-card="{card}"]')
    for key in ("ArrowRight", "u"):
        page.keyboard.press(key)
    time.sleep(2)
    print(f"{name}: {page.evaluate(CHECKS)}")
    context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="cold loads of each page")
    parser.add_argument("--deals", type=int, default=4, help="winning lines played per page")
    parser.add_argument("--settle", type=float, default=2.0,
                        help="seconds after data-ready that long tasks are still counted")
    parser.add_argument("--calls", type=int, default=50,
                        help="DOM calls of each kind timed on the bridge page")
    parser.add_argument("--root", type=Path, default=ROOT, help="tree to serve (default: this)")
    parser.add_argument("--smoke", action="store_true", help="boot the worker page once, verbose")
    args = parser.parse_args()
    root = args.root.resolve()
    with tempfile.TemporaryDirectory(prefix="nestor-worker-") as tmp:
        site, headers = build_variant(root, Path(tmp))
        write_bridge_pages(site, args.calls)
        main_server, main_origin = serve(root, root / "netlify.toml")
        worker_server, worker_origin = serve(site, headers)
        urls = {"main thread": f"{main_origin}/", "worker": f"{worker_origin}/"}
        try:
            with sync_playwright() as p:
                browser = chromium.launch(p.chromium)
                if args.smoke:
                    for name, url in urls.items():
                        smoke(browser, name, url)
                    return 0
                boots = run_boots(browser, urls, args.rounds, args.settle)
                taps, tap_errors, reloads = run_taps(browser, urls, args.deals)
                bridge = run_bridge(browser, worker_origin, args.rounds)
                browser.close()
        finally:
            for server in (main_server, worker_server):
                server.shutdown()
                server.server_close()
    report(boots, taps, tap_errors, reloads, args)
    report_bridge(bridge, args)
    return 0


def run_boots(
    browser: Browser, urls: dict[str, str], rounds: int, settle_s: float
) -> dict[str, list[Boot]]:
    """``rounds`` cold loads of each page, the order alternating round by round."""
    boots: dict[str, list[Boot]] = {name: [] for name in urls}
    names = list(urls)
    for r in range(rounds):
        order = names if r % 2 == 0 else names[::-1]
        for name in order:
            b = boot_once(browser, urls[name], settle_s)
            boots[name].append(b)
            count, tbt = b.blocking(b.ready)
            print(f"  boot round {r + 1}/{rounds} {name}: ready {b.ready:.0f} ms, "
                  f"{count} long tasks, blocking {tbt:.0f} ms, first tap {b.first_tap:.0f} ms",
                  file=sys.stderr, flush=True)
    return boots


def run_taps(
    browser: Browser, urls: dict[str, str], deals: int
) -> tuple[dict[str, Timings], dict[str, list[str]], int]:
    """Play ``deals`` winning lines in each page, in turn; the pairing taps' times."""
    lines = list(winning_deals(deals))
    errors: dict[str, list[str]] = {name: [] for name in urls}
    results = {name: Timings() for name in urls}
    pages = {name: tap_page(browser, url, errors[name]) for name, url in urls.items()}
    reloads = 0
    for number, (variant, deal, line) in enumerate(lines, 1):
        for name, page in pages.items():
            reloads += open_deal(
                page, urls[name], variant, deal, floor=False, ready_timeout_ms=READY_TIMEOUT_MS
            )
            play_line(page, line, results[name])
        print(f"  taps: deal {number}/{len(lines)} ({variant} {deal}, {len(line)} pairs)",
              file=sys.stderr, flush=True)
    return results, errors, reloads


def report(
    boots: dict[str, list[Boot]],
    taps: dict[str, Timings],
    tap_errors: dict[str, list[str]],
    reloads: int,
    args: argparse.Namespace,
) -> None:
    """Print the tables and the worker/main ratios."""
    load = os.getloadavg()
    print(f"worker mode vs main thread, {args.rounds} cold loads each (interleaved), "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores")
    print(f"{'':12} {'isolated':>8}  {'to data-ready (ms)':>24}  {'long tasks to ready':>20}"
          f"  {'blocking to ready (ms)':>24}  {'blocking to +' + str(args.settle) + ' s':>24}"
          f"  {'first tap (ms)':>24}")
    figures: dict[str, dict[str, list[float]]] = {}
    for name, runs in boots.items():
        ready = [b.ready for b in runs]
        counts = [float(b.blocking(b.ready)[0]) for b in runs]
        tbt = [b.blocking(b.ready)[1] for b in runs]
        tbt_late = [b.blocking(b.ready + args.settle * 1000)[1] for b in runs]
        first = [b.first_tap for b in runs]
        figures[name] = {"ready": ready, "count": counts, "tbt": tbt, "late": tbt_late,
                         "first": first}
        isolated = "yes" if all(b.isolated for b in runs) else "no"
        print(f"{name:12} {isolated:>8}  {spread(ready):>24}  {spread(counts):>20}  "
              f"{spread(tbt):>24}  {spread(tbt_late):>24}  {spread(first):>24}")
    w, m = figures["worker"], figures["main thread"]
    print(f"ratio worker/main ready {ratio(w['ready'], m['ready'])}, "
          f"blocking to ready {ratio(w['tbt'], m['tbt'])}, "
          f"blocking to +{args.settle} s {ratio(w['late'], m['late'])}, "
          f"first tap {ratio(w['first'], m['first'])}")
    taps_n = {name: len(t.board) for name, t in taps.items()}
    print(f"pairing tap, animations and indicator off, {args.deals} winning lines, "
          f"{taps_n} taps, {reloads} deals opened by a reload")
    print(f"{'':12} {'click -> board (ms): median':>28} {'p95':>7} {'max':>7}")
    for name, t in taps.items():
        if t.board:
            print(f"{name:12} {statistics.median(t.board):28.1f} {p95(t.board):7.1f} "
                  f"{max(t.board):7.1f}")
    if taps["worker"].board and taps["main thread"].board:
        w_taps, m_taps = taps["worker"].board, taps["main thread"].board
        print(f"ratio worker/main tap median {ratio(w_taps, m_taps)}, "
              f"p95 {p95(w_taps) / p95(m_taps):.2f}")
    for name in boots:
        errors = [e for b in boots[name] for e in b.errors] + tap_errors.get(name, [])
        unique = sorted(set(errors))
        print(f"{name}: {len(errors)} console errors/warnings and page errors"
              + "".join(f"\n    {e[:300]}" for e in unique[:12]))



def report_bridge(bridge: dict[str, list[dict[str, float]]], args: argparse.Namespace) -> None:
    """Print µs per DOM call from Python, worker and main thread, and their ratio."""
    print(f"one DOM call from Python (bridge page, {args.calls} calls of each kind, "
          f"{args.rounds} cold loads each), µs: median (range)")
    print(f"{'':16} {'main thread':>22} {'worker':>26} {'worker/main':>12}")
    for kind in bridge["main thread"][0]:
        m = [r[kind] for r in bridge["main thread"]]
        w = [r[kind] for r in bridge["worker"]]
        print(f"{kind:16} {spread(m, digits=1):>22} {spread(w):>26} {ratio(w, m):>12}")


if __name__ == "__main__":
    raise SystemExit(main())

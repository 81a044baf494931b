#!/usr/bin/env python3
"""Lighthouse on the game, mobile and desktop presets: ``make lighthouse``.

Usage: .venv/bin/python bench/lighthouse.py [--runs 1] [--path PATH]... [--preset P]...
[--mode M]... [--hosted] [--keep DIR [--traces]]

Serves the repo root on 127.0.0.1 with scripts/serve.py's ``serve_in_thread`` (netlify.toml's
headers) and runs the npm package ``lighthouse`` (pinned in bench/package.json, installed into
bench/node_modules by ``make lighthouse``; its Node API in bench/lighthouse.mjs) on Debian's
chromium (``CHROME_PATH``, default ``/usr/bin/chromium``: scripts/chromium.py's ``CHROMIUM``)
with ``--headless=new --no-sandbox`` and the flags of scripts/chromium.py (nothing but 127.0.0.1
resolves). Lighthouse starts each run in a fresh profile and clears the origin's storage: every
run is a first visit.

``--hosted`` serves instead the site as a host publishes it, the floor beside it, from
Debian's nginx with gzip, as ``make bench-first-visit`` does (bench/first_visit.py's build and
configuration, no link held back): the same server for the game and the floor.

Each preset runs in two modes. "preset": Lighthouse's preset as it is. A first visit waits for
the service worker to precache the game before PyScript starts (static/js/pwa.js), and
Lighthouse does not count the worker's own fetches as the page's network: it may see the
network quiet and end its trace on the page shell, before Python starts, leaving the boot's
blocking time and layout shift out ("python" says whether main.py was fetched in the trace).
"whole boot": the same preset with ``pauseAfterLoadMs`` (default 30 s, ``--hold``), so the
trace goes on after the load event, through the Python boot, until the page is quiet.

Each run is made on every game page (``--path``, repeatable; by default ``/``, a new player's
first visit, and the deal link ``/?variant=standard&deal=7``) and on the floor of ``make
bench-boot`` (``bench/floor/index.html``: the game's own vendored Pyodide booted bare, ``1+1``),
interleaved, so the game's blocking time reads against the runtime's own: the ratio lines give
each game page's TBT over the floor's per preset and mode (target: at most 1.15 on both presets).

Prints, per page, preset and mode, the four category scores (0-100) and LCP, TBT (ms) and CLS; with
``--runs`` above 1, the median of each and every run. The full JSON reports go to ``--keep``
(default: a temporary folder, removed), with ``--traces`` each run's trace beside its report
(the events Lantern simulates from: which tasks, layouts and requests the scores come from).
It never fails on a score; it fails if Lighthouse could not run or reported a runtime error
(after the other runs, their figures printed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
import first_visit  # noqa: E402
import serve  # noqa: E402
from serve import serve_in_thread  # noqa: E402

GAME_PATHS = ("/", "/?variant=standard&deal=7")
"""The game's pages audited by default: a first visit at the root, and a deal link."""
FLOOR_PATH = "/bench/floor/index.html"
TBT_TARGET = 1.15
"""The game's total blocking time at most this many times the floor's."""
PRESETS = ("mobile", "desktop")
MODES = ("preset", "whole boot")
FLAGS = ("--headless=new", *dict.fromkeys(("--no-sandbox", *chromium.CHROMIUM_ARGS)))
"""Chromium flags for Lighthouse's browser: headless, no sandbox, scripts/chromium.py's flags."""

SCORES = ("performance", "accessibility", "best_practices", "seo")
METRICS = (("lcp_ms", "LCP", "ms"), ("tbt_ms", "TBT", "ms"), ("cls", "CLS", ""))


def run_once(
    url: str, preset: str, report: Path, settings: dict[str, int], retried: bool = False
) -> dict[str, Any]:
    """One Lighthouse run; its summary (bench/lighthouse.mjs's JSON line). A run whose trace
    Lighthouse could not read (its NO_NAVSTART, which asks to run it again), or whose browser
    answered a protocol call too late (a busy machine), runs once more.

    Raises:
        RuntimeError: Lighthouse exited with an error or reported a runtime error.
    """
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", chromium.CHROMIUM)}
    cmd = ["node", str(ROOT / "bench" / "lighthouse.mjs"), url, preset, str(report)]
    done = subprocess.run(
        [*cmd, json.dumps(FLAGS), json.dumps(settings)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse {preset} failed ({done.returncode}):\n{done.stderr}")
    summary: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    error = summary["runtime_error"] or ""
    transient = "NO_NAVSTART" in error or "exceeded the allotted time" in error
    if transient and not retried:
        # Lighthouse's own trace flake ("Please run Lighthouse again"), or its protocol
        # timeout (Network.getResponseBody of a big script under load): once more
        print(f"  lighthouse {preset}: {error[:80]}; run again", file=sys.stderr, flush=True)
        return run_once(url, preset, report, settings, retried=True)
    if summary["runtime_error"]:
        raise RuntimeError(f"lighthouse {preset}: {summary['runtime_error']}")
    return summary


def hosted(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """nginx serving the built site and the floor in ``folder`` on a free port; its origin."""
    first_visit.build(folder / "site")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    conf = folder / "nginx.conf"
    rules = serve.load_header_rules()
    conf.write_text(first_visit.nginx_conf(folder / "site", folder, rules, port))
    cmd = [first_visit.NGINX, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)]
    process = subprocess.Popen(cmd)
    deadline = time.monotonic() + 10
    while not (folder / "nginx.pid").exists():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"nginx did not start: {(folder / 'error.log').read_text()}")
        time.sleep(0.1)
    return process, f"http://127.0.0.1:{port}"


def fmt(key: str, values: list[float | None]) -> str:
    """The median of ``values`` as printed: "—" when Lighthouse gave none."""
    known = [v for v in values if v is not None]
    if not known:
        return "—"
    med = statistics.median(known)
    if key == "cls":
        return f"{med:.3f}"
    if key.endswith("_ms"):
        return f"{med / 1000:.1f} s" if med >= 1000 else f"{med:.0f} ms"
    return f"{med:.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="runs per preset (default 1)")
    ap.add_argument(
        "--path",
        action="append",
        help="a game page to audit, repeatable (default: / and /?variant=standard&deal=7)",
    )
    ap.add_argument("--preset", action="append", choices=PRESETS, help="default: both")
    ap.add_argument("--mode", action="append", choices=MODES, help="default: both")
    ap.add_argument("--hosted", action="store_true", help="the built site from nginx, gzip on")
    ap.add_argument("--keep", type=Path, help="folder for the JSON reports (default: none kept)")
    ap.add_argument(
        "--traces", action="store_true",
        help="with --keep: each run's trace too (NAME.trace.json, as Lighthouse recorded it)",
    )
    ap.add_argument(
        "--lantern", action="store_true",
        help="with --keep: each run's simulated graphs too (NAME.lantern.json: when Lighthouse's"
             " simulation starts and ends each request and task, and what each waited for)",
    )
    ap.add_argument(
        "--hold", type=float, default=30.0, help="whole boot: s to trace after load (default 30)"
    )
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.traces and not args.keep:
        ap.error("--traces needs --keep")
    if args.traces:
        os.environ["NESTOR_LH_TRACE"] = "1"  # bench/lighthouse.mjs writes each trace
    if args.lantern and not args.keep:
        ap.error("--lantern needs --keep")
    if args.lantern:
        os.environ["NESTOR_LH_LANTERN"] = "1"  # bench/lighthouse.mjs writes the graphs

    paths: list[str] = args.path or list(GAME_PATHS)
    nginx_folder = tempfile.TemporaryDirectory()
    if args.hosted:
        nginx, origin = hosted(Path(nginx_folder.name))
    else:
        server, origin = serve_in_thread(ROOT)
    urls = {f"game {path}": origin + path for path in paths}
    urls["floor"] = origin + FLOOR_PATH
    presets: list[str] = args.preset or list(PRESETS)
    modes: list[str] = args.mode or list(MODES)
    runs = [(page, p, m) for p in presets for m in modes for page in urls]
    results: dict[tuple[str, str, str], list[dict[str, Any]]] = {k: [] for k in runs}
    failures: list[str] = []
    load = os.getloadavg()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = args.keep or Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            for i in range(args.runs):
                for page, preset, mode in runs:  # interleaved, as bench/boot.py does
                    slug = re.sub(r"[^A-Za-z0-9]+", "-", page).strip("-")
                    name = f"lighthouse-{slug}-{preset}-{mode.split()[0]}-{i + 1}.json"
                    settings = {}
                    if mode == "whole boot":
                        hold = int(args.hold * 1000)
                        settings = {"pauseAfterLoadMs": hold, "maxWaitForLoad": hold + 90_000}
                    label = f"run {i + 1}/{args.runs}: {page}, {preset}, {mode}"
                    try:  # one failed run fails the whole, once the others have run
                        summary = run_once(urls[page], preset, folder / name, settings)
                    except RuntimeError as error:
                        failures.append(f"{label}: {error}")
                        print(f"  {label}: failed", file=sys.stderr, flush=True)
                        continue
                    results[page, preset, mode].append(summary)
                    print(f"  {label}", file=sys.stderr, flush=True)
    finally:
        if args.hosted:
            nginx.send_signal(signal.SIGQUIT)
            nginx.wait()
        else:
            server.shutdown()
            server.server_close()
        nginx_folder.cleanup()

    done = [r for got in results.values() for r in got]
    if not done:
        print("\n".join(failures), file=sys.stderr)
        return 1
    first = done[0]
    print(
        f"Lighthouse {first['lighthouse']} on {', '.join(paths)} and the floor {FLOOR_PATH}"
        f" ({first['browser']}), "
        f"{'built site, nginx with gzip' if args.hosted else 'working tree, serve.py'}, "
        f"{args.runs} run(s) per preset, load average {load[0]:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    width = max(len(", ".join(key)) for key in runs) + 2
    head = f"{'page, preset, mode':{width}}" + "".join(f"{k.replace('_', ' '):>15}" for k in SCORES)
    head += "".join(f"{label:>10}" for _, label, _ in METRICS) + f"{'requests':>10}{'python':>8}"
    print(head)
    for key in runs:
        got = results[key]
        row = f"{', '.join(key):{width}}"
        row += "".join(f"{fmt(k, [r[k] for r in got]):>15}" for k in SCORES)
        row += "".join(f"{fmt(k, [r[k] for r in got]):>10}" for k, _, _ in METRICS)
        row += f"{fmt('requests', [r['requests'] for r in got]):>10}"
        row += f"{'/'.join(sorted({'yes' if r['python_in_trace'] else 'no' for r in got})):>8}"
        print(row)
        warnings = {w for r in got for w in r["warnings"]}
        for w in sorted(warnings):
            print(f"  warning: {w}")
    print("requests: what Lighthouse saw the page fetch (the service worker's own fetches not);")
    print("python: main.py fetched within Lighthouse's trace (the Python boot is in the figures)")
    print()
    print(f"total blocking time, game over floor (medians; target <= {TBT_TARGET:.2f}):")

    def tbt(page: str, preset: str, mode: str) -> float | None:
        known = [r["tbt_ms"] for r in results[page, preset, mode] if r["tbt_ms"] is not None]
        return statistics.median(known) if known else None

    for path in paths:
        for preset in presets:
            for mode in modes:
                game, floor = tbt(f"game {path}", preset, mode), tbt("floor", preset, mode)
                if game is None or not floor:
                    print(f"ratio tbt {path} {preset} {mode}: —")
                    continue
                verdict = "met" if game / floor <= TBT_TARGET else "missed"
                print(
                    f"ratio tbt {path} {preset} {mode}: {game / floor:.2f} ({game:.0f} ms over"
                    f" {floor:.0f} ms) {verdict}"
                )
    if args.runs > 1:
        for key in runs:
            for i, r in enumerate(results[key], 1):
                print(
                    f"  {', '.join(key)} run {i}: "
                    + ", ".join(f"{k} {r[k]}" for k in (*SCORES, "lcp_ms", "tbt_ms", "cls"))
                )
    for failure in failures:
        print(f"failed: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Measure what the service worker costs and gives: `make measure`.

Usage: .venv/bin/python scripts/measure_offline.py [--runs 3]

Builds the site as `make site` does into a temporary folder, serves it on 127.0.0.1 with
scripts/serve.py (netlify.toml's headers) and, in Debian's chromium with a fresh profile per
run, measures:

- the bytes the server sends for a first visit with the service worker blocked, and with it
  (the worker precaches everything the game needs; the wasm must still cross only once);
- the time from reload to a playable game (body[data-ready]) once the network is gone.

Prints the median of the runs, and each run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, AnyStr
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from _typeshed import SupportsRead, SupportsWrite

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_site  # noqa: E402
import chromium  # noqa: E402
import serve  # noqa: E402
from playwright.sync_api import Browser, sync_playwright  # noqa: E402

WASM = "/static/vendor/pyodide/pyodide.asm.wasm"
READY = "body[data-ready]"


class Counting(serve.Handler):
    """serve.py's handler, noting the path and body size of every response."""

    sent: list[tuple[str, int]] = []

    def copyfile(self, source: SupportsRead[AnyStr], outputfile: SupportsWrite[AnyStr]) -> None:
        size = 0
        while chunk := source.read(256 * 1024):
            outputfile.write(chunk)
            size += len(chunk)
        self.sent.append((urlsplit(self.path).path, size))


def visit(browser: Browser, origin: str, service_workers: bool) -> dict[str, float]:
    """One first visit in a fresh profile (and, with the worker, an offline reload)."""
    Counting.sent.clear()
    context = browser.new_context(
        base_url=origin, service_workers="allow" if service_workers else "block"
    )
    page = context.new_page()
    start = time.monotonic()
    page.goto("/?variant=standard&deal=7")
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    out = {"ready_s": time.monotonic() - start}
    if service_workers:
        # Let the worker settle, then count: everything it fetched is in.
        page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_timeout(500)
    out["bytes"] = sum(size for _, size in Counting.sent)
    out["wasm_downloads"] = sum(path == WASM for path, _ in Counting.sent)
    if service_workers:
        context.set_offline(True)
        start = time.monotonic()
        page.reload()
        page.wait_for_selector(READY, state="attached", timeout=120_000)
        out["offline_reload_s"] = time.monotonic() - start
    context.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build_site.build(site, quiet=True)
        server = serve.make_server(directory=site, quiet=True, handler=Counting)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        origin = serve.origin(server)
        runs: dict[bool, list[dict[str, float]]] = {False: [], True: []}
        try:
            with sync_playwright() as p:
                browser = chromium.launch(p.chromium)
                for _ in range(args.runs):
                    for with_sw in (False, True):
                        runs[with_sw].append(visit(browser, origin, with_sw))
                browser.close()
        finally:
            server.shutdown()
            server.server_close()

    def median(with_sw: bool, key: str) -> float:
        return statistics.median(r[key] for r in runs[with_sw])

    print(f"first visit, fresh profile, median of {args.runs} runs:")
    labels = ((False, "without the service worker"), (True, "with the service worker"))
    for with_sw, label in labels:
        print(
            f"  {label:27} {median(with_sw, 'bytes') / 1e6:6.2f} MB "
            f"({median(with_sw, 'bytes'):,.0f} bytes), wasm downloaded "
            f"{median(with_sw, 'wasm_downloads'):.0f}x, ready in {median(with_sw, 'ready_s'):.2f} s"
        )
    print(f"offline reload to a playable game: {median(True, 'offline_reload_s'):.2f} s")
    for with_sw in (False, True):
        for r in runs[with_sw]:
            values = {k: round(v, 2) for k, v in r.items()}
            print("  run:", "with" if with_sw else "without", values)
    return 0


if __name__ == "__main__":
    sys.exit(main())

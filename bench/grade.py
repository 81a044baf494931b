#!/usr/bin/env python3
"""Benchmark (issue 24 (2)): New deal of a grade in Chromium, from the click to the new deal's
grade shown, beside New deal of any deal (the floor: the same click, the same draw, no grade).

Usage: .venv/bin/python bench/grade.py [--rounds 40] [--seed 1]

Serves the site on 127.0.0.1 and opens it in Debian's chromium with a profile on disk
(``launch_persistent_context``, as a player's browser keeps it). Each round, in every variant
in turn, it presses New deal three times, in an order drawn at random (``--seed``):

* the floor: the setting "any deal", timed from the click to the new deal number drawn;
* a grade: the setting Easy, Medium or Hard (in turn), timed from the click to the new deal
  number drawn with ``<body data-grade>`` the grade asked (the target: p95 under 300 ms);
* any deal again, timed to its grade shown: a deal beyond the shipped table
  (nestor/graded_deals.py) is graded in the page's time slices, the cost the table saves.

Times are measured in the page (``performance.now()`` at the click, a MutationObserver for the
end), so the browser's IPC to this script is not in them. Every graded deal's grade is checked
against the table. It prints median, p95 and worst of each and the ratios to the floor; it
never fails on a time.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from serve import serve_in_thread  # noqa: E402

from nestor import VARIANTS  # noqa: E402
from nestor.grade import GRADES  # noqa: E402
from nestor.graded_deals import known_grade  # noqa: E402

TIMED_NEW_DEAL = """async ([grade, timeout]) => {
  const number = document.getElementById("deal-number");
  const before = number.textContent;
  const done = () => number.textContent !== before && (grade === null
      ? true : document.body.dataset.grade !== undefined
        && (grade === "*" || document.body.dataset.grade === grade));
  const button = document.querySelector('#controls [data-action="new"]');
  return await new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      if (done()) { observer.disconnect(); resolve(performance.now() - start); }
    });
    observer.observe(document.body, {attributes: true, childList: true, subtree: true,
                                     characterData: true});
    setTimeout(() => { observer.disconnect(); reject(new Error("timed out")); }, timeout);
    const start = performance.now();
    button.click();
  });
}"""
"""Press New deal; ms from the click until the deal number changed (``grade`` ``None``), and
its grade is shown (``"*"``: any grade) or is ``grade``."""


def set_difficulty(page: Page, value: str) -> None:
    """Choose "New deal deals ``value``" in Settings, as a player does."""
    page.click('[data-action="settings"]')
    page.select_option('select[data-setting="difficulty"]', value)
    page.keyboard.press("Escape")
    page.wait_for_function(
        f"() => (JSON.parse(localStorage.getItem('nestor.settings') || '{{}}').difficulty"
        f" === '{value}')"
    )


def figures(times: list[float]) -> tuple[float, float, float]:
    """Median, p95 and worst of ``times`` (ms)."""
    ordered = sorted(times)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return statistics.median(ordered), p95, ordered[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="rounds of three New deals")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    floor: list[float] = []
    graded: list[float] = []
    in_page: list[float] = []
    server, origin = serve_in_thread(ROOT, quiet=True)
    folder = tempfile.mkdtemp(prefix="bench-grade-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                folder, executable_path=chromium.CHROMIUM, args=list(chromium.CHROMIUM_ARGS),
                headless=True, viewport={"width": 1280, "height": 800},
            )
            page = context.new_page()
            page.goto(f"{origin}/?variant=standard&deal=0")
            page.wait_for_selector("body[data-ready]", state="attached", timeout=120_000)
            variants = list(VARIANTS)
            for n in range(args.rounds):
                variant = variants[n % len(variants)]
                if page.get_attribute("body", "data-variant") != variant:
                    set_difficulty(page, "any")
                    page.select_option("#variant", variant)
                    page.wait_for_function(
                        f"() => document.body.dataset.variant === '{variant}'")
                grade = GRADES[n % len(GRADES)]
                kinds = ["floor", "graded", "in-page"]
                rng.shuffle(kinds)
                for kind in kinds:
                    set_difficulty(page, grade if kind == "graded" else "any")
                    wait = {"floor": None, "graded": grade, "in-page": "*"}[kind]
                    ms = float(page.evaluate(TIMED_NEW_DEAL, [wait, 120_000]))
                    {"floor": floor, "graded": graded, "in-page": in_page}[kind].append(ms)
                    if kind == "graded":
                        deal = int(page.inner_text("#deal-number"))
                        assert known_grade(variant, deal) == grade, (variant, deal, grade)
            context.close()
    finally:
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    rows = (("New deal, any deal: click to the deal drawn (the floor)", floor),
            ("New deal of a grade: click to the deal and its grade shown", graded),
            ("New deal, any deal: click to its grade worked out in the page", in_page))
    print(f"{args.rounds} rounds over {len(VARIANTS)} variants, Chromium, profile on disk (ms)")
    base = figures(floor)
    for label, times in rows:
        median, p95, worst = figures(times)
        print(f"  {label}: median {median:.1f}, p95 {p95:.1f}, worst {worst:.1f}"
              f"  (x{median / base[0]:.2f} / x{p95 / base[1]:.2f} the floor's)")
    p95 = figures(graded)[1]
    print(f"target: a deal of the grade asked within 300 ms p95 -> "
          f"{'met' if p95 < 300 else 'NOT met'} ({p95:.1f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Benchmark: reviewing whole games (nestor.review) in CPython and in Chromium's Pyodide.

Usage: python3 bench/review.py [--games 200] [--seed 1] [--variant V ...] [--browser]
                               [--browser-games N]

For every variant it makes ``--games`` finished games (seeded), the players in turn:

* random: a legal move chosen at random;
* greedy: the pair from the longest columns (the sum of the two cards' column heights, a
  reserve card counting 0), ties broken at random; Strict turns the stock when it must;
* careful: the solver's best move (the Hint), but a random legal move one time in five, so
  that the sample holds won games as well as lost ones in every variant.

Each game is reviewed with :func:`nestor.review.review` (the default node budget), and timed
against a floor measured in the same run, on the same game: one plain ``solve`` of its deal
(what the Hint does at the first move). It prints, per variant, the won and lost games, the
median, p95 and worst time per game and the floor's, the review's ratio to the floor, the
review's CPU time in CPython (``time.process_time``, which the load disturbs less), and the
slowest game's record (to reproduce it with ``python -m nestor review``).

With ``--browser`` it then serves the site on 127.0.0.1 (run ``make vendor`` first: the page
loads static/nestor.zip.gz), opens it in Debian's chromium, and runs the same games (the first
``--browser-games`` of each variant, default all) through the page's own Pyodide: a
``<script type="py">`` added to the page reviews each record twice, once in one go (the
computing time) and once in the page's way, in 8 ms slices with the event loop run between
them by the page's own slice runner (``nestor_web/app/slices.py``, what ``Tasks.sliced``
runs: the time until the review is complete), and times the floor there too. Target: p95
under 300 ms in Chromium for every variant. The script never fails on a time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from nestor import VARIANTS, Record, deal_position  # noqa: E402
from nestor.position import Move, Pair, Position  # noqa: E402
from nestor.review import review  # noqa: E402
from nestor.solver import solve  # noqa: E402

TARGET_MS = 300.0
"""The issue's target: p95 per variant in Chromium."""


# ---- the players ------------------------------------------------------------------------------


def random_move(rng: random.Random, p: Position) -> Move:
    """A legal move at random."""
    return rng.choice(p.legal_moves())


def greedy_move(rng: random.Random, p: Position) -> Move:
    """The pair from the longest columns (a reserve card counts 0), ties at random."""
    places = p.available()
    moves = p.legal_moves()

    def score(move: Move) -> int:
        if not isinstance(move, Pair):
            return 0
        return sum(
            len(p.columns[places[c].slot]) for c in move.cards if places[c].area == "column"
        )

    top = max(score(m) for m in moves)
    return rng.choice([m for m in moves if score(m) == top])


def careful_move(rng: random.Random, p: Position) -> Move:
    """The solver's best move, but a random one one time in five."""
    best = solve(p, known_order=False).best_move
    if best is None or rng.random() < 0.2:
        return rng.choice(p.legal_moves())
    return best


PLAYERS: dict[str, Callable[[random.Random, Position], Move]] = {
    "random": random_move, "greedy": greedy_move, "careful": careful_move,
}


def make_games(variant: str, count: int, seed: int) -> list[tuple[str, Record]]:
    """``count`` finished games of ``variant``: ``(player, record)``, the players in turn."""
    rng = random.Random(f"{seed}-{variant}")
    names = list(PLAYERS)
    out = []
    for n in range(count):
        name = names[n % len(names)]
        deal = rng.randrange(2**32)
        p = deal_position(variant, deal)
        moves: list[Move] = []
        while p.outcome() is None:
            move = PLAYERS[name](rng, p)
            moves.append(move)
            p = p.apply(move)
        out.append((name, Record(VARIANTS[variant], deal, tuple(moves))))
    return out


# ---- figures ----------------------------------------------------------------------------------


def p95(values: list[float]) -> float:
    """The 95th percentile, nearest rank (``nan`` for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def three(values: list[float]) -> str:
    """``median p95 max`` of ``values`` in ms, aligned."""
    if not values:
        return f"{'-':>7} {'-':>7} {'-':>7}"
    return f"{statistics.median(values):7.1f} {p95(values):7.1f} {max(values):7.1f}"


@dataclass
class Row:
    """The times of one variant (ms per game) and what the games were."""

    review: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    review_nodes: list[float] = field(default_factory=list)
    floor_nodes: list[float] = field(default_factory=list)
    sliced: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    won: int = 0
    lost: int = 0
    slowest: tuple[float, str] = (0.0, "")

    def add(self, ms: float, floor: float, record: Record, won: bool) -> None:
        """Add one game's review time and floor (ms)."""
        self.review.append(ms)
        self.floor.append(floor)
        self.won += won
        self.lost += not won
        if ms > self.slowest[0]:
            self.slowest = (ms, record.to_text())


def print_table(title: str, rows: dict[str, Row], sliced: bool = False) -> None:
    """Print one table: per variant the review's and the floor's median, p95 and max."""
    print(title)
    extra = "  sliced: median     p95     max" if sliced else ""
    print(f"{'variant':12} {'games':>5} {'won':>4} {'lost':>4} | review: median     p95     max"
          f" | floor: median     p95     max | x median  x p95{extra}")
    for variant, row in rows.items():
        ratio_median = statistics.median(row.review) / max(statistics.median(row.floor), 1e-9)
        ratio_p95 = p95(row.review) / max(p95(row.floor), 1e-9)
        tail = f"  {three(row.sliced)}" if sliced else ""
        print(f"{variant:12} {len(row.review):5} {row.won:4} {row.lost:4} | {three(row.review)}"
              f" |       {three(row.floor)} | {ratio_median:8.1f} {ratio_p95:6.1f}{tail}")
    if any(row.cpu for row in rows.values()):
        print("review CPU time per game (time.process_time, ms; the load disturbs it less)")
        for variant, row in rows.items():
            print(f"  {variant:12} {three(row.cpu)}")
    if any(row.review_nodes for row in rows.values()):
        print("solver nodes per game (the same on every machine): review | floor")
        for variant, row in rows.items():
            print(f"  {variant:12} {three(row.review_nodes)} | {three(row.floor_nodes)}")
    for variant, row in rows.items():
        print(f"  slowest {variant}: {row.slowest[0]:.1f} ms: {row.slowest[1]}")


def cpython(games: dict[str, list[tuple[str, Record]]]) -> dict[str, Row]:
    """Review every game in this process, each beside its floor; return the rows."""
    rows: dict[str, Row] = {}
    for variant, items in games.items():
        row = rows[variant] = Row()
        for _, record in items:
            start = time.perf_counter()
            plain = solve(deal_position(variant, record.deal), known_order=False)
            floor = (time.perf_counter() - start) * 1000
            start, cpu = time.perf_counter(), time.process_time()
            result = review(record)
            ms = (time.perf_counter() - start) * 1000
            row.cpu.append((time.process_time() - cpu) * 1000)
            assert result.outcome is not None
            row.add(ms, floor, record, result.outcome.won)
            row.review_nodes.append(result.nodes)
            row.floor_nodes.append(plain.nodes)
    return rows


# ---- Chromium -----------------------------------------------------------------------------------

# Runs in the page's own interpreter (PyScript shares it among its py scripts), with the
# nestor package the page loaded from static/nestor.zip.gz.
PAGE_SCRIPT = """
import json
import time

from pyodide.ffi import create_proxy
from js import window

from nestor.deal import deal_position
from nestor.game import Record
from nestor.review import review, review_steps, sliced
from nestor.solver import solve
from nestor_web.app.slices import run_sliced


async def _bench_review(text):
    record = Record.from_text(text)
    start = time.perf_counter()
    solve(deal_position(record.variant, record.deal), known_order=False)
    floor = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    result = review(record)
    ms = (time.perf_counter() - start) * 1000
    finished = []
    steps = sliced(review_steps(record), finished.append)
    start = time.perf_counter()
    again = await run_sliced(steps)
    sliced_ms = (time.perf_counter() - start) * 1000
    assert again.moves == result.moves and len(finished) == len(record.moves)
    return json.dumps({"ms": ms, "floor": floor, "sliced": sliced_ms,
                       "won": result.outcome is not None and result.outcome.won})


window.benchReview = create_proxy(_bench_review)
window.document.body.setAttribute("data-bench-review", "")
"""

ADD_SCRIPT = """(code) => {
  const script = document.createElement("script");
  script.type = "py";
  script.textContent = code;
  document.body.append(script);
}"""


def chromium_rows(games: dict[str, list[tuple[str, Record]]], per_variant: int) -> dict[str, Row]:
    """Review the games in Chromium through the page's Pyodide; return the rows."""
    import chromium
    from playwright.sync_api import sync_playwright
    from serve import serve_in_thread

    rows: dict[str, Row] = {}
    server, origin = serve_in_thread(ROOT, quiet=True)
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"{origin}/?variant=standard&deal=0")
            page.wait_for_selector("body[data-ready]", state="attached", timeout=120_000)
            page.evaluate(ADD_SCRIPT, PAGE_SCRIPT)
            page.wait_for_selector("body[data-bench-review]", state="attached", timeout=120_000)
            for variant, items in games.items():
                row = rows[variant] = Row()
                for _, record in items[:per_variant]:
                    answer = json.loads(page.evaluate(
                        "async (text) => await window.benchReview(text)", record.to_text()
                    ))
                    row.add(answer["ms"], answer["floor"], record, answer["won"])
                    row.sliced.append(answer["sliced"])
            browser.close()
    finally:
        server.shutdown()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per variant (200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", choices=list(VARIANTS),
                        help="only this variant (repeatable; default all)")
    parser.add_argument("--browser", action="store_true", help="also in Chromium's Pyodide")
    parser.add_argument("--browser-games", type=int, default=None, metavar="N",
                        help="games per variant in Chromium (default: all)")
    args = parser.parse_args()
    variants = args.variant or list(VARIANTS)
    began = time.perf_counter()
    games = {v: make_games(v, args.games, args.seed) for v in variants}
    made = time.perf_counter() - began
    players = ", ".join(PLAYERS)
    print(f"{args.games} finished games per variant, players in turn: {players} "
          f"(seed {args.seed}; made in {made:.0f} s)")
    print(f"review: nestor.review.review, default node budget; floor: one solve of the deal, "
          f"same game, same run; CPython {sys.version.split()[0]}; times in ms per game")
    print(f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)")
    print_table("CPython", cpython(games))
    if args.browser:
        rows = chromium_rows(games, args.browser_games or args.games)
        print_table("Chromium (the page's Pyodide; sliced: in 8 ms slices, to the last move)",
                    rows, sliced=True)
        for variant, row in rows.items():
            verdict = "met" if p95(row.sliced) < TARGET_MS else "NOT met"
            print(f"  {variant}: p95 sliced {p95(row.sliced):.1f} ms, in one go "
                  f"{p95(row.review):.1f} ms; target p95 < {TARGET_MS:.0f} ms: {verdict}")
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Benchmark: what taking in another tab's statistics costs, beside reading them.

Usage: .venv/bin/python bench/stats_merge.py [--rounds 7]

When another tab writes ``nestor.stats``, this tab decodes them, probes whether they lack
anything of its own (a copy merged with this tab's) and merges them into its own
(``StorageManager._follow_stats``). That runs on the storage event, not on a tap. Printed for
statistics at their caps (5,200 deals played, 500 settlements kept) and for small ones
(50 deals): the best of ``--rounds`` times in ms, and the ratio to decoding the same text
(what start-up already pays once). CPython; Pyodide in the browser is slower by a factor of
its own.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nestor_web.app.statistics.record import Stats  # noqa: E402
from nestor_web.storage.stats_codec import stats_from_text, stats_to_text  # noqa: E402


def played(deals: int) -> tuple[str, str]:
    """The text of statistics after ``deals`` deals (40% won), and the text another tab
    wrote after one more win."""
    rng = random.Random(1)
    stats, t = Stats(), 1_000
    for deal in range(deals):
        t += 1_000
        stats.record_move("standard", deal, t, won=False, helped=False, first=True)
        if rng.random() < 0.4:
            stats.record_move("standard", deal, t + 500, won=True,
                              helped=rng.random() < 0.3, first=False)
    text = stats_to_text(stats)
    other = stats_from_text(text)
    other.record_move("standard", 999_999, t + 10_000, won=True, helped=False, first=True)
    return text, stats_to_text(other)


def best_ms(rounds: int, run: Callable[[Stats], object], text: str) -> float:
    times = []
    for _ in range(rounds):
        mine = stats_from_text(text)
        start = time.perf_counter()
        run(mine)
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    for deals in (5_200, 50):
        text, theirs_text = played(deals)

        def follow(mine: Stats, theirs_text: str = theirs_text) -> None:
            theirs = stats_from_text(theirs_text)
            theirs.copy().merge(mine)
            mine.merge(theirs)

        def decode_only(_mine: Stats, theirs_text: str = theirs_text) -> None:
            stats_from_text(theirs_text)

        decode = best_ms(rounds, decode_only, text)
        taken = best_ms(rounds, follow, text)
        print(f"{deals:>5} deals, {len(text):>7,} bytes: decode {decode:7.1f} ms, "
              f"follow (decode, probe, merge) {taken:7.1f} ms = {taken / decode:.2f}x decode")


if __name__ == "__main__":
    main()

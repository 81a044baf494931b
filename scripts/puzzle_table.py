"""Write the shipped puzzles (nestor/puzzles/puzzles.txt), or prove every one of them.

Usage::

    python scripts/puzzle_table.py [--per-variant N] [--max-deals D] [--seeds S] [--jobs J]
    python scripts/puzzle_table.py --check [--jobs J]
    python scripts/puzzle_table.py --rates [--tries T]

Without ``--check``: for each variant of :data:`nestor.puzzles.PUZZLE_VARIANTS`, deals 0, 1,
2, ... are played as a beginner would (:func:`nestor.puzzles.find_puzzles`, seeds 0 to S-1,
the first puzzle moment of the first seed that meets one) until the variant has N puzzles or
D deals were played; the puzzles are rated (:func:`nestor.puzzles.rate`) and written, by
variant and deal, with a line of figures per variant (``make puzzles``).

``--check`` examines every shipped puzzle's position again (:func:`nestor.puzzles.examine`):
its choices, answer, horizon and rating must be what the file says (``make puzzles-check``).
``--rates`` measures how often simulated players solve the shipped puzzles, by fifths of the
rating: each of ``random``, ``tips``, ``greedy`` and ``perfect`` (nestor/strategies.py) makes
its choice T times per puzzle (ties drawn with seeded random sources), and a try solves the
puzzle when the choice is its answer; it prints the Markdown table of docs/puzzles.md.
``--check`` and the writing use ``--jobs`` worker processes (default: one per core); run
them under ``nice``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nestor.deal import deal_position  # noqa: E402
from nestor.puzzles import (  # noqa: E402
    DATA_FILE,
    PUZZLE_VARIANTS,
    Puzzle,
    examine,
    find_puzzles,
    rate,
    read_puzzles,
    write_puzzles,
)
from nestor.strategies import get_strategy  # noqa: E402

TABLE = ROOT / "nestor" / "puzzles" / DATA_FILE


def _find(job: tuple[str, int, int]) -> Puzzle | None:
    """The first puzzle of deal ``job[1]`` of variant ``job[0]`` over seeds ``0 .. job[2]-1``,
    numbered 0."""
    variant, deal, seeds = job
    for seed in range(seeds):
        for before, verdict in find_puzzles(variant, deal, seed):
            position = deal_position(variant, deal)
            for pair in before:
                position = position.apply(pair)
            return Puzzle(0, variant, deal, before, verdict.answer, verdict.horizon,
                          rate(position, verdict))
    return None


def _problems(puzzle: Puzzle) -> list[str]:
    """What is wrong with a shipped puzzle, examined again (nothing: an empty list)."""
    position = puzzle.position()
    verdict = examine(position)
    if verdict is None:
        return [f"puzzle {puzzle.id}: no longer a puzzle"]
    wrong = []
    if verdict.answer != puzzle.answer:
        wrong.append(f"answer {verdict.answer}, not {puzzle.answer}")
    if verdict.horizon != puzzle.horizon:
        wrong.append(f"horizon {verdict.horizon}, not {puzzle.horizon}")
    if rate(position, verdict) != puzzle.rating:
        wrong.append(f"rating {rate(position, verdict)}, not {puzzle.rating}")
    return [f"puzzle {puzzle.id}: " + ", ".join(wrong)] if wrong else []


def write(per_variant: int, max_deals: int, seeds: int, jobs: int) -> None:
    found: list[Puzzle] = []
    with Pool(jobs) as pool:
        for variant in PUZZLE_VARIANTS:
            start = time.perf_counter()
            mine: list[Puzzle] = []
            played = 0
            jobs_of = ((variant, deal, seeds) for deal in range(max_deals))
            for puzzle in pool.imap(_find, jobs_of, chunksize=8):
                played += 1
                if puzzle is not None:
                    mine.append(puzzle)
                if len(mine) >= per_variant:
                    break
            ratings = sorted(p.rating for p in mine)
            print(f"{variant}: {len(mine)} puzzles from {played} deals in "
                  f"{time.perf_counter() - start:.0f} s; rating median "
                  f"{ratings[len(ratings) // 2] if ratings else '-'}, horizons "
                  f"{dict(sorted(Counter(p.horizon for p in mine).items()))}", flush=True)
            found += mine
    TABLE.write_text(write_puzzles(found), encoding="ascii")
    print(f"wrote {len(found)} puzzles to {TABLE.relative_to(ROOT)}")


def check(jobs: int) -> int:
    shipped = read_puzzles(TABLE.read_text(encoding="ascii"))
    start = time.perf_counter()
    with Pool(jobs) as pool:
        problems = [line for found in pool.imap(_problems, shipped, chunksize=16)
                    for line in found]
    for line in problems:
        print(line)
    print(f"{len(shipped)} puzzles examined again in {time.perf_counter() - start:.0f} s: "
          f"{len(problems)} disagree")
    return 1 if problems else 0


PLAYERS = ("random", "tips", "greedy", "perfect")


def rates(tries: int) -> None:
    shipped = sorted(read_puzzles(TABLE.read_text(encoding="ascii")), key=lambda p: p.rating)
    fifth = -(-len(shipped) // 5)
    print("| ratings | puzzles | " + " | ".join(PLAYERS) + " |")
    print("|---|---|" + "---|" * len(PLAYERS))
    for start in range(0, len(shipped), fifth):
        part = shipped[start:start + fifth]
        solved = dict.fromkeys(PLAYERS, 0)
        for puzzle in part:
            position = puzzle.position()
            for name in PLAYERS:
                play = get_strategy(name)
                tried = 1 if name == "perfect" else tries  # the solver's choice is its own
                rng = random.Random(f"rates:{name}:{puzzle.id}")
                wins = sum(play(position, rng) == puzzle.answer for _ in range(tried))
                solved[name] += tries * wins // tried
        cells = " | ".join(f"{100 * solved[n] / (tries * len(part)):.0f}%" for n in PLAYERS)
        print(f"| {part[0].rating}-{part[-1].rating} | {len(part)} | {cells} |", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-variant", type=int, default=300)
    parser.add_argument("--max-deals", type=int, default=12_000)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--rates", action="store_true")
    parser.add_argument("--tries", type=int, default=20)
    args = parser.parse_args(argv)
    if args.check:
        return check(args.jobs)
    if args.rates:
        rates(args.tries)
        return 0
    write(args.per_variant, args.max_deals, args.seeds, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())

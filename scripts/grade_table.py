"""Measure the difficulty grades (nestor/grade.py) over the first deals of every variant.

Usage::

    python scripts/grade_table.py [--deals D] [--variants V,V] [--jobs J] [--seed K]
                                  [--rows FILE] [--from-rows FILE] [--write] [--table]
    python scripts/grade_table.py --check [--jobs J]

For deals ``0 .. D-1`` of each variant (D default 10,000) it grades the deal
(:func:`nestor.grade.grade`: the solver's verdict, the tips' and random play's shares
over ``TIPS_PLAYOUTS`` seeded games each, the one-way positions of the winning line) and plays it
once with each of ``random``, ``tips`` and ``greedy`` (ties drawn with
``deal_rng(K, variant, strategy, deal)``; K defaults to ``TIPS_PLAYOUTS``, the first seed
the grade's own games do not use, so the tips' share per grade is measured on games the
grade never saw); ``perfect`` is the solver's verdict (Strict: the chance with best play).
Then it derives each variant's cut points (:func:`nestor.grade.derive_cuts`: terciles of the
score among the winnable deals) and prints:

1. the ``CUTS`` block of nestor/grade.py (``--write`` puts it there, between its
   ``BEGIN CUTS``/``END CUTS`` lines);
2. the Markdown tables of docs/odds.md, "Difficulty grades": the cut points, and per variant
   and grade the deals (count and share), the mean tips share and narrow count, and the win
   rate of each strategy;
3. per variant, whether the grades order the tips' share, Easy above Medium above Hard (the
   grades' own check), in the ``--seed`` games and in the grade's own;
4. the time to grade one deal, per variant: mean and p95 in ms (CPython, in the workers).

``--table`` writes the grade of every deal measured into nestor/graded_deals.bin, and their
number and cut points' fingerprint into nestor/graded_deals.py (the table New deal draws a
deal of a grade from; ``make graded-deals``); ``--check`` measures nothing but grades every
deal of that table again and reports those that disagree (``make graded-deals-check``).

``--rows FILE`` also writes one JSON object per deal (the figures measured); ``--from-rows
FILE`` measures nothing and does the rest from such a file, scoring its figures as
nestor/grade.py scores now (to try another formula, or to write the cut points later).
Uses ``--jobs`` worker processes (default: one per core), as ``odds`` does; run it under
``nice``. The full run (D = 10,000) takes a long while: see docs/odds.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Mapping, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nestor.grade import (  # noqa: E402
    CUTS,
    GRADES,
    TIPS_PLAYOUTS,
    UNWINNABLE,
    Cuts,
    derive_cuts,
    grade,
    score,
)
from nestor.graded_deals import (  # noqa: E402
    DATA_FILE,
    GRADED_DEALS,
    LETTERS,
    TABLE,
    cuts_fingerprint,
    known_grade,
)
from nestor.strategies import play_deal  # noqa: E402
from nestor.variants import VARIANTS, get_variant  # noqa: E402

PLAYED = ("random", "tips", "greedy")
"""The strategies played once per deal; ``perfect`` is read from the grade's solve."""

GRADE_FILE = ROOT / "nestor" / "grade.py"
TABLE_FILE = ROOT / "nestor" / "graded_deals.py"
DATA_PATH = ROOT / "nestor" / DATA_FILE


def regrade(job: tuple[str, int]) -> tuple[str, int, str]:
    """One deal ``(variant, deal)`` graded by the engine: ``(variant, deal, grade)``."""
    variant, deal = job
    return variant, deal, grade(variant, deal).grade


def check_table(jobs: int) -> int:
    """Grade every deal of the shipped table again with the engine; print each one whose
    letter disagrees and a summary line. The number of disagreements (0: the table holds)."""
    work = [(v, d) for v in TABLE for d in range(GRADED_DEALS)]
    began = time.perf_counter()
    with Pool(jobs) as pool:
        found = pool.map(regrade, work, chunksize=16)
    wrong = [(v, d, g) for v, d, g in found if known_grade(v, d) != g]
    for v, d, g in wrong:
        print(f"{v} deal {d}: the table says {known_grade(v, d)}, the engine {g}")
    print(f"{len(found)} deals graded again in {time.perf_counter() - began:.0f} s: "
          f"{len(wrong)} disagree")
    return len(wrong)


def measure(job: tuple[str, int, int]) -> dict[str, Any]:
    """One deal ``(variant, deal, seed)``: its grade's figures, each strategy's game, the ms."""
    variant, deal, seed = job
    began = time.perf_counter()
    g = grade(variant, deal)
    ms = (time.perf_counter() - began) * 1000
    row: dict[str, Any] = g.to_json()
    row["ms"] = round(ms, 2)
    row["seed"] = seed
    row["won"] = {name: play_deal(variant, name, deal, seed) for name in PLAYED}
    if get_variant(variant).has_stock:
        # The expected share of the perfect strategy, which cannot see the stock: the chance
        # with best play, as in the skill table (a deal unwinnable as dealt may have one).
        row["won"]["perfect"] = g.chance or 0.0
    else:
        row["won"]["perfect"] = g.grade != UNWINNABLE
    return row


def cuts_text(cuts: Sequence[Cuts]) -> str:
    """The ``CUTS`` assignment of nestor/grade.py for ``cuts``."""
    lines = ["CUTS: dict[str, Cuts] = {"]
    for c in cuts:
        lines += [f'    "{c.variant}": Cuts(', f'        "{c.variant}",',
                  f"        easy={c.easy!r},", f"        medium={c.medium!r},",
                  f"        deals={c.deals}, winnable={c.winnable}, provisional={c.provisional},",
                  "    ),"]
    lines.append("}")
    return "\n".join(lines)


def rescore(row: dict[str, Any]) -> None:
    """Put the score of ``row``'s figures (:func:`nestor.grade.score`, as it is now) in it."""
    if row["grade"] != UNWINNABLE:
        row["score"] = list(score(row["tips_win_rate"], row["narrow"], row["chance"],
                                  row["random_win_rate"]))


def write_cuts(text: str, note: str) -> None:
    """Replace the lines from ``# BEGIN CUTS`` to ``# END CUTS`` of nestor/grade.py with
    ``note`` (comment lines), ``text`` and those two lines."""
    source = GRADE_FILE.read_text()
    pattern = re.compile(r"^# BEGIN CUTS.*?^# END CUTS$", re.S | re.M)
    if not pattern.search(source):
        raise SystemExit("nestor/grade.py has no BEGIN CUTS / END CUTS block")
    block = f"# BEGIN CUTS (written by scripts/grade_table.py --write)\n{note}{text}\n# END CUTS"
    GRADE_FILE.write_text(pattern.sub(lambda _: block, source, count=1))


def table_letters(
    rows: Sequence[dict[str, Any]], cuts: dict[str, Cuts], deals: int
) -> dict[str, str]:
    """Every variant's grade letters of deals ``0 .. deals - 1``, graded by ``cuts`` (those
    nestor/grade.py holds when the table is written), by variant name in ``cuts``' order."""
    letter = {grade: key for key, grade in LETTERS.items()}
    table = {}
    for variant in cuts:
        graded = {r["deal"]: r for r in rows if r["variant"] == variant}
        if sorted(graded) != list(range(deals)):
            raise SystemExit(f"--table needs deals 0 to {deals - 1} of {variant}")
        table[variant] = "".join(
            "u" if graded[n]["grade"] == UNWINNABLE
            else letter[cuts[variant].grade_of(tuple(graded[n]["score"]))]
            for n in range(deals)
        )
    return table


def pack(table: Mapping[str, str]) -> bytes:
    """The bytes of nestor/graded_deals.bin for ``table`` (variant name -> grade letters, every
    variant in the order of :data:`nestor.variants.VARIANTS`, each as long), as
    :data:`nestor.graded_deals.DATA_FILE` describes them (:func:`nestor.graded_deals.unpack`
    reads them).

    Raises:
        ValueError: another set or order of variants, texts of other lengths, or a letter not
            of :data:`nestor.graded_deals.LETTERS`.
    """
    if list(table) != list(VARIANTS) or len({len(t) for t in table.values()}) != 1:
        raise ValueError("the table needs every variant, in order, each as many deals")
    code = {letter: i for i, letter in enumerate(LETTERS)}
    out = bytearray()
    for letters in table.values():
        if not set(letters) <= set(code):
            raise ValueError(f"a grade letter not one of {''.join(LETTERS)}")
        for i in range(0, len(letters), 4):
            out.append(sum(code[c] << (6 - 2 * j) for j, c in enumerate(letters[i:i + 4])))
    return bytes(out)


def write_table(table: dict[str, str], cuts: dict[str, Cuts]) -> None:
    """Write ``table``'s letters into nestor/graded_deals.bin (:func:`pack`) and, between the
    ``# BEGIN TABLE`` and ``# END TABLE`` lines of nestor/graded_deals.py, its number of
    deals and the fingerprint of ``cuts``."""
    source = TABLE_FILE.read_text()
    pattern = re.compile(r"^# BEGIN TABLE.*?^# END TABLE$", re.S | re.M)
    if not pattern.search(source):
        raise SystemExit("nestor/graded_deals.py has no BEGIN TABLE / END TABLE block")
    deals = len(next(iter(table.values())))
    block = ("# BEGIN TABLE (written by scripts/grade_table.py --table; do not edit)\n"
             f"GRADED_DEALS = {deals}\n"
             f'CUTS_FINGERPRINT = "{cuts_fingerprint(repr(cuts))}"\n'
             "# END TABLE")
    DATA_PATH.write_bytes(pack(table))
    TABLE_FILE.write_text(pattern.sub(lambda _: block, source, count=1))


def pct(value: float) -> str:
    """A share (0..1) as a percentage with one decimal."""
    return f"{100 * value:.1f}%"


def tables(rows: Sequence[dict[str, Any]], cuts: dict[str, Cuts]) -> str:
    """The Markdown tables of docs/odds.md, "Difficulty grades"."""
    out = ["| variant | deals | winnable | Easy from | Medium from |", "|---|---|---|---|---|"]
    for c in cuts.values():
        out.append(f"| {c.variant} | {c.deals:,} | {c.winnable:,} | {list(c.easy)} | "
                   f"{list(c.medium)} |")
    out += ["", f"| variant | grade | deals | share | tips share ({TIPS_PLAYOUTS} games) "
            "| narrow | random | tips | greedy | perfect |", "|---" * 10 + "|"]
    for variant in cuts:
        mine = [r for r in rows if r["variant"] == variant]
        for name in (*GRADES, UNWINNABLE):
            those = [r for r in mine if r["grade"] == name]
            n = len(those)
            if not n:
                out.append(f"| {variant} | {name} | 0 | 0.0% | - | - | - | - | - | - |")
                continue
            cells = [f"{n:,}", pct(n / len(mine)),
                     pct(sum(r["tips_win_rate"] for r in those) / n),
                     f"{sum(r['narrow'] for r in those) / n:.1f}"]
            cells += [pct(sum(float(r["won"][s]) for r in those) / n)
                      for s in (*PLAYED, "perfect")]
            out.append(f"| {variant} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def order(rows: Sequence[dict[str, Any]], variants: Sequence[str]) -> str:
    """Per variant: do the grades order the tips' share, Easy above Medium above Hard?

    Both measures: the one game per deal played with ``--seed`` (the ``tips`` column, games
    the grade never saw) and the mean of the grade's own games."""
    out = []
    for variant in variants:
        means = []
        for key in ("won", "tips_win_rate"):
            shares = []
            for name in GRADES:
                those = [r for r in rows if r["variant"] == variant and r["grade"] == name]
                value = (sum(float(r["won"]["tips"]) if key == "won" else r[key]
                             for r in those) / len(those)) if those else float("nan")
                shares.append(value)
            verdict = "ordered" if shares[0] > shares[1] > shares[2] else "NOT ordered"
            means.append(f"{' > '.join(pct(x) for x in shares)} ({verdict})")
        out.append(f"{variant}: tips, one game per deal: {means[0]}; grade's games: {means[1]}")
    return "\n".join(out)


def timing(rows: Sequence[dict[str, Any]], variants: Sequence[str]) -> str:
    """Mean and p95 of the ms to grade one deal, per variant."""
    out = []
    for variant in variants:
        ms = sorted(r["ms"] for r in rows if r["variant"] == variant)
        if ms:
            p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
            out.append(f"{variant}: grading one deal {sum(ms) / len(ms):.0f} ms mean, "
                       f"{p95:.0f} ms p95, {ms[-1]:.0f} ms max ({len(ms)} deals)")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    """Measure, derive the cut points, print (and with ``--write`` store) them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals 0..D-1 per variant")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="comma separated (default: every variant)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=TIPS_PLAYOUTS,
                        help="seed of the strategies' games (default TIPS_PLAYOUTS)")
    parser.add_argument("--rows", type=Path, default=None, help="write every deal's figures "
                        "to this file as JSON Lines")
    parser.add_argument("--write", action="store_true", help="write the cut points into "
                        "nestor/grade.py")
    parser.add_argument("--table", action="store_true", help="write the grade of every deal "
                        "measured into nestor/graded_deals.bin (graded with the cut points "
                        "written by --write, else with those nestor/grade.py holds)")
    parser.add_argument("--check", action="store_true", help="measure nothing: grade every "
                        "deal of nestor/graded_deals.bin again and report those that disagree "
                        "(exit status 1 if any does)")
    parser.add_argument("--from-rows", type=Path, default=None, metavar="FILE",
                        help="measure nothing: read the deals' figures from a --rows file "
                        "(scored again as nestor/grade.py scores now)")
    args = parser.parse_args(argv)
    if args.check:
        raise SystemExit(1 if check_table(args.jobs) else 0)
    began = time.perf_counter()
    if args.from_rows is not None:
        rows = [json.loads(line) for line in args.from_rows.read_text().splitlines() if line]
        variants = [v for v in VARIANTS if any(r["variant"] == v for r in rows)]
        counts = {v: sum(1 for r in rows if r["variant"] == v) for v in variants}
        if len(set(counts.values())) != 1:
            raise SystemExit(f"the rows hold different numbers of deals per variant: {counts}")
        args.deals = next(iter(counts.values()))
        args.seed = rows[0].get("seed", TIPS_PLAYOUTS)
    else:
        variants = [get_variant(v.strip()).name for v in args.variants.split(",") if v.strip()]
        jobs = [(v, d, args.seed) for v in variants for d in range(args.deals)]
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                rows = pool.map(measure, jobs, chunksize=4)
        else:
            rows = [measure(j) for j in jobs]
    seconds = time.perf_counter() - began
    if args.rows is not None:
        args.rows.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for r in rows:
        rescore(r)
    cuts: dict[str, Cuts] = {}
    for variant in variants:
        keys = [tuple(r["score"]) for r in rows
                if r["variant"] == variant and r["grade"] != UNWINNABLE]
        cuts[variant] = derive_cuts(variant, keys, args.deals)
    for r in rows:  # the grades by the cut points just derived
        if r["grade"] != UNWINNABLE:
            r["grade"] = cuts[r["variant"]].grade_of(tuple(r["score"]))
    text = cuts_text(list(cuts.values()))
    print(text)
    print()
    print(tables(rows, cuts))
    print()
    print(order(rows, variants))
    print()
    print(timing(rows, variants))
    if args.from_rows is None:
        print(f"{len(rows)} deals in {seconds:.0f} s with {args.jobs} worker(s)")
    else:
        print(f"{len(rows)} deals read from {args.from_rows} (the times are those measured)")
    if args.write:
        if set(variants) != set(VARIANTS):
            raise SystemExit("--write needs every variant (the block holds them all)")
        note = (f"# Measured over deals 0 to {args.deals - 1} of each variant:\n# python "
                f"scripts/grade_table.py --deals {args.deals} --seed {args.seed} --write\n")
        if args.deals < 10_000:
            note += (f"# PROVISIONAL: {args.deals} deals per variant, not the table's 10,000 "
                     "(the full run: docs/odds.md).\n")
        write_cuts(text, note)
        print("written to nestor/grade.py")
    if args.table:
        if set(variants) != set(VARIANTS):
            raise SystemExit("--table needs every variant (the table holds them all)")
        in_effect = cuts if args.write else dict(CUTS)
        graded_with = {v: in_effect[v] for v in VARIANTS}
        write_table(table_letters(rows, graded_with, args.deals), graded_with)
        print(f"written to nestor/{DATA_FILE} and nestor/graded_deals.py")


if __name__ == "__main__":
    main()

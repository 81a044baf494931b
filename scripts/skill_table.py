"""Turn the reports of ``python -m nestor odds --strategy NAME --json`` into the skill table.

Usage: ``python scripts/skill_table.py REPORTS.jsonl`` (one JSON report per line, any order)
prints the Markdown table of docs/odds.md ("How much does skill matter?") and then the
``SKILL`` tuple of nestor/measured.py, both with the percentages rounded as the command's
text output rounds them (two decimals).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nestor.strategies import STRATEGIES  # noqa: E402
from nestor.variants import VARIANTS  # noqa: E402


def pct(value: float) -> str:
    """A share (0..1) as the decimal text of a percentage with two decimals."""
    return f"{100 * value:.2f}"


def main(path: str) -> None:
    """Print the table and the data for the reports in ``path``."""
    reports = {}
    for line in Path(path).read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            reports[(r["strategy"], r["variant"])] = r
    variants = [v for v in VARIANTS if any(k[1] == v for k in reports)]
    print("| strategy | " + " | ".join(variants) + " |")
    print("|---" * (len(variants) + 1) + "|")
    for strategy in STRATEGIES:
        cells = []
        for variant in variants:
            r = reports.get((strategy, variant))
            if r is None:
                cells.append("not run")
                continue
            lo, hi = r["interval"]
            cells.append(f"{pct(r['share'])}% ({pct(lo)}% to {pct(hi)}%)")
        print(f"| {strategy} | " + " | ".join(cells) + " |")
    print()
    for strategy in STRATEGIES:
        for variant in variants:
            r = reports.get((strategy, variant))
            if r is None:
                continue
            lo, hi = r["interval"]
            won = "None" if r["won"] is None else f"{r['won']:_}"
            print(f'    Skill("{strategy}", "{variant}", {r["deals"]:_}, {won}, '
                  f'"{pct(r["share"])}", "{pct(lo)}", "{pct(hi)}"),')


if __name__ == "__main__":
    main(sys.argv[1])

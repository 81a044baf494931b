"""The odds the page shows (nestor.measured) are those of docs/odds.md."""

from __future__ import annotations

import re
from pathlib import Path

from nestor.measured import ODDS

DOC = (Path(__file__).resolve().parent.parent / "docs" / "odds.md").read_text()


def _rows() -> list[list[str]]:
    rows = []
    for line in DOC.splitlines():
        if line.startswith("| ") and "**" in line:
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_every_figure_of_the_odds_page_is_the_data() -> None:
    rows = _rows()
    assert len(rows) == len(ODDS)
    for share, row in zip(ODDS, rows, strict=True):
        figure = re.search(r"\*\*([\d.]+)%\*\*", row[2])
        assert figure is not None and figure[1] == share.percent, row
        assert row[1] == f"{share.deals:,}"
        if share.won is not None:
            assert row[2].startswith(f"{share.won:,} = "), row
        assert row[3] == f"{share.low}% to {share.high}%", row
        if share.variant != "strict":
            assert row[0] == share.variant
        else:
            assert ("stock order unknown" in row[0]) == (share.kind == "chance"), row


def test_each_share_is_its_count() -> None:
    for share in ODDS:
        if share.won is not None:
            assert abs(100 * share.won / share.deals - float(share.percent)) < 0.006
        assert float(share.low) <= float(share.percent) <= float(share.high)

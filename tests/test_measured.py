"""The odds the page shows (nestor.measured) are those of docs/odds.md."""

from __future__ import annotations

import re
from pathlib import Path

from nestor.measured import ODDS, SKILL, SKILL_DEALS
from nestor.strategies import STRATEGIES
from nestor.variants import VARIANTS

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


def _skill_rows() -> dict[str, list[str]]:
    """The rows of the skill table in docs/odds.md: strategy -> its cells, by variant."""
    section = DOC.split("## How much does skill matter?", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    header: list[str] = []
    for line in section.splitlines():
        if not line.startswith("| "):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] == "strategy":
            header = cells[1:]
        elif cells[0] in STRATEGIES:
            rows[cells[0]] = cells[1:]
    assert header == [v for v in VARIANTS if any(s.variant == v for s in SKILL)]
    return {name: dict(zip(header, cells, strict=True)) for name, cells in rows.items()}


def test_the_skill_table_of_the_page_is_the_table_of_the_document() -> None:
    rows = _skill_rows()
    assert list(rows) == [s for s in STRATEGIES if any(k.strategy == s for k in SKILL)]
    seen = set()
    for skill in SKILL:
        cell = rows[skill.strategy][skill.variant]
        assert cell == f"{skill.percent}% ({skill.low}% to {skill.high}%)", (skill, cell)
        seen.add((skill.strategy, skill.variant))
    cells = {(s, v) for s, row in rows.items() for v, c in row.items() if c != "not run"}
    assert cells == seen
    assert f"over {SKILL_DEALS:,} deals" in DOC


def test_each_skill_share_is_its_count() -> None:
    assert SKILL and all(s.deals == SKILL_DEALS for s in SKILL)
    for skill in SKILL:
        assert float(skill.low) <= float(skill.percent) <= float(skill.high)
        if skill.won is None:
            assert skill.strategy == "perfect" and skill.variant == "strict"
        else:
            assert f"{100 * skill.won / skill.deals:.2f}" == skill.percent


def test_perfect_play_over_the_first_deals_agrees_with_the_odds() -> None:
    # The perfect row is the first SKILL_DEALS of the 100,000 deals ODDS solved: close to it.
    for skill in SKILL:
        if skill.strategy == "perfect":
            odds = next(o for o in ODDS if o.variant == skill.variant
                        and o.kind == ("chance" if skill.won is None else "winnable"))
            assert float(skill.low) <= float(odds.percent) <= float(skill.high), skill


def test_every_strategy_has_a_name_on_the_page() -> None:
    from nestor_web.view.texts import STRATEGY_NAMES

    assert list(STRATEGY_NAMES) == list(STRATEGIES)


def test_the_page_draws_the_skill_table_in_both_languages() -> None:
    import sys

    from nestor_web.view import i18n
    from nestor_web.view.texts import rules_html, skill_html

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import locales

    locales.compile_all()
    i18n.set_language("en")
    try:
        html = skill_html()
        rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th>(.*?)</tr>", html)
        assert len(rows) == len({s.strategy for s in SKILL})
        assert rows[0][0] == "Random legal moves" and rows[-1][0] == "Perfect play"
        for skill in SKILL:
            assert f"{skill.percent}%" in html and f"{skill.low}–{skill.high}</span>" in html
        assert html.count('<span class="interval">') == len(SKILL)
        assert skill_html() in rules_html()
        assert "<div" not in rules_html()  # the shell build ends the rules at the first </div>
        assert f"the first {SKILL_DEALS:,} deals" in rules_html()
        i18n.set_language("de")
        german = skill_html()
        assert "Spielweise" in german and "Zufällige erlaubte Züge" in german
        first = SKILL[0]
        assert f"{first.percent.replace('.', ',')} %" in german
        assert f"{first.low}–{first.high}".replace(".", ",") in german
        assert f"die ersten {SKILL_DEALS:,} Spiele".replace(",", ".") in rules_html()
    finally:
        i18n.set_language("en")

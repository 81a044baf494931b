"""The difficulty grade (nestor/grade.py) and ``python -m nestor grade``: recomputed here
from the strategies and the solver, without the grade module's own code paths."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nestor.cli import main
from nestor.deal import deal_position
from nestor.grade import (
    CUTS,
    GRADES,
    NARROW_WEIGHT,
    TIPS_PLAYOUTS,
    UNWINNABLE,
    Cuts,
    LineCount,
    derive_cuts,
    grade,
    grade_steps,
    narrow_steps,
)
from nestor.position import Pair, Position
from nestor.solver import Status, iter_line, solve
from nestor.steps import run_to_end
from nestor.strategies import STRATEGIES, deal_rng, play_deal, play_out
from nestor.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
HOOK_KEYS = ("variant", "deal", "grade", "tips_win_rate", "narrow")

# Deals chosen for what they show, each graded in well under a second: standard 4 and
# overlapping 9 have one-way positions (5 and 7), vertical 3 two, strict 3 two (a chance
# above 0 after one pair only); strict 10 has a chance with best play of 5/24 and is won by
# some of the tips' games; standard 0 and strict 0 are lost whatever the play.
WINNABLE = [("standard", 4), ("overlapping", 9), ("vertical", 3), ("strict", 10),
            ("strict", 3)]


def run_json(capsys: pytest.CaptureFixture[str], variant: str, deal: int) -> dict:
    assert main(["grade", "--variant", variant, "--deal", str(deal), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.endswith("\n") and out.count("\n") == 1
    data: dict = json.loads(out)
    return data


def wins(variant: str, deal: int, strategy: str = "tips") -> int:
    """The strategy's games re-run from their seeds, 0 .. TIPS_PLAYOUTS - 1."""
    won = 0
    for seed in range(TIPS_PLAYOUTS):
        final = play_out(deal_position(variant, deal), STRATEGIES[strategy],
                         deal_rng(seed, variant, strategy, deal))
        outcome = final.outcome()
        assert outcome is not None
        won += outcome.won
    return won


def keeps_winnable(position: Position, pair: Pair) -> bool | None:
    """After ``pair``: proven winnable (Strict: a chance above 0), lost, or None (unknown)."""
    after = position.apply(pair)
    if position.variant.has_stock:
        chance = solve(after, known_order=False).win_probability
        return None if chance is None else chance > 0.0
    status = solve(after).status
    return None if status is Status.UNKNOWN else status is Status.WINNABLE


def one_way_positions(variant: str, deal: int) -> tuple[int, int]:
    """(narrow, forced) on the solver's line, each child solved on its own."""
    start = deal_position(variant, deal)
    line = solve(start).line
    narrow = forced = 0
    for position in (start, *list(iter_line(start, line))[:-1]):
        pairs = [m for m in position.legal_moves() if isinstance(m, Pair)]
        if len(pairs) == 1:
            forced += 1
        elif len(pairs) >= 2:
            kept = [keeps_winnable(position, p) for p in pairs]
            assert None not in kept
            narrow += kept.count(True) == 1
    return narrow, forced


@pytest.mark.parametrize(("variant", "deal"), WINNABLE)
def test_the_command_agrees_with_a_plain_recomputation(capsys, variant, deal) -> None:
    data = run_json(capsys, variant, deal)
    assert tuple(data)[:5] == HOOK_KEYS
    assert (data["variant"], data["deal"]) == (variant, deal)
    tips, random = wins(variant, deal), wins(variant, deal, "random")
    assert data["tips_wins"] == tips and data["playouts"] == TIPS_PLAYOUTS
    assert data["tips_win_rate"] == tips / TIPS_PLAYOUTS
    assert data["random_wins"] == random and data["random_win_rate"] == random / TIPS_PLAYOUTS
    # Game 0 is the skill table's game of the deal.
    assert play_deal(variant, "tips", deal, 0) is (
        play_out(deal_position(variant, deal), STRATEGIES["tips"],
                 deal_rng(0, variant, "tips", deal)).outcome().won
    )
    narrow, forced = one_way_positions(variant, deal)
    assert (data["narrow"], data["forced"], data["undecided"]) == (narrow, forced, 0)
    solution = solve(deal_position(variant, deal))
    assert data["line"] == len(solution.line)
    if variant == "strict":
        assert data["chance"] == solution.win_probability and 0.0 < data["chance"] < 1.0
        chance = data["chance"]
    else:
        assert data["chance"] is None and solution.status is Status.WINNABLE
        chance = 1.0  # best play wins every winnable deal of an open variant
    key = (tips / TIPS_PLAYOUTS - narrow / 4, chance, random / TIPS_PLAYOUTS)
    assert data["score"] == list(key)
    cut = CUTS[variant]
    expected = "easy" if key >= cut.easy else "medium" if key >= cut.medium else "hard"
    assert data["grade"] == expected
    assert (data["cut_deals"], data["provisional"]) == (cut.deals, cut.deals < 10_000)


def test_the_deals_of_the_test_show_what_they_should(capsys) -> None:
    # Guards the choice of WINNABLE: one-way positions, and tips that win and lose.
    standard = run_json(capsys, "standard", 4)
    assert standard["narrow"] == 5 and 0 < standard["tips_wins"] < TIPS_PLAYOUTS
    strict = run_json(capsys, "strict", 10)
    assert 0 < strict["tips_wins"] < TIPS_PLAYOUTS and strict["forced"] > 0
    assert run_json(capsys, "strict", 3)["narrow"] == 2


def test_a_position_the_budget_leaves_open_is_undecided() -> None:
    start = deal_position("standard", 4)
    line = solve(start).line
    full = run_to_end(narrow_steps(start, line))
    assert full == LineCount(5, 3, 0, len(line))
    short = run_to_end(narrow_steps(start, line, max_nodes=1))
    assert short.undecided >= 1 and short.narrow < full.narrow
    assert short.forced == full.forced and short.positions == len(line)


@pytest.mark.parametrize("variant", ["standard", "strict"])
def test_an_unwinnable_deal(capsys, variant) -> None:
    data = run_json(capsys, variant, 0)
    assert data["grade"] == UNWINNABLE and data["score"] is None
    assert (data["tips_win_rate"], data["narrow"], data["playouts"]) == (0.0, 0, 0)
    assert wins(variant, 0) == wins(variant, 0, "random") == 0  # not played, never won
    solution = solve(deal_position(variant, 0))
    assert solution.known_order is Status.LOST
    assert main(["grade", "--variant", variant, "--deal", "0"]) == 0
    assert capsys.readouterr().out == (
        f"{variant} deal 0: unwinnable: no way of playing wins it as dealt, proved by the "
        "solver\n"
    )


def test_strict_lost_as_dealt_with_a_chance_is_unwinnable() -> None:
    # The stock order dealt allows no win, though a player who cannot see it has a chance.
    found = None
    for deal in range(60):
        solution = solve(deal_position("strict", deal))
        if solution.known_order is Status.LOST and (solution.win_probability or 0) > 0:
            found = deal, solution.win_probability
            break
    assert found is not None
    result = grade("strict", found[0])
    assert result.grade == UNWINNABLE and result.chance == found[1]


def test_the_text_line(capsys) -> None:
    assert main(["grade", "--variant", "standard", "--deal", "4"]) == 0
    data = grade("standard", 4)
    assert capsys.readouterr().out == (
        f"standard deal 4: {data.grade} (tips win {data.tips_wins}/16 = "
        f"{data.tips_win_rate:.0%}, narrow 5, {data.line} moves)\n"
    )
    assert main(["grade", "--variant", "strict", "--deal", "10"]) == 0
    assert re.fullmatch(r"strict deal 10: (easy|medium|hard) \(chance with best play 20\.8%, "
                        r"tips win \d+/16 = \d+%, narrow \d+, \d+ moves\)\n",
                        capsys.readouterr().out)


def test_grade_boundaries() -> None:
    cut = Cuts("standard", (0.5, -2.0, 0.25), (0.0, -3.0, 0.0), 300, 150, True)
    assert cut.grade_of((0.5, -2.0, 0.25)) == "easy"
    assert cut.grade_of((0.5, -2.0, 0.1875)) == "medium"  # random play wins less often
    assert cut.grade_of((0.5, -3.0, 1.0)) == "medium"  # the narrower of two equal shares
    assert cut.grade_of((0.4375, 0.0, 1.0)) == "medium"
    assert cut.grade_of((0.0, -3.0, 0.0)) == "medium"
    assert cut.grade_of((0.0, -4.0, 1.0)) == "hard"
    assert cut.grade_of((1.0, -20.0, 0.0)) == "easy"
    # A deal exactly at a cut point takes the easier grade; just above it, the harder.
    key = grade("standard", 4).score
    assert key is not None
    at = Cuts("standard", key, (0.0, -99.0, 0.0), 1, 1, True)
    above = Cuts("standard", (key[0], key[1] + 1, 0.0), key, 1, 1, True)
    steps = grade_steps("standard", 4, above)
    assert next(steps) is None  # it runs in slices
    assert grade("standard", 4, at).grade == "easy"
    assert grade("standard", 4, above).grade == "medium"
    below = Cuts("standard", (1.0, 0.0, 0.0), (key[0], key[1], key[2] + 0.0625), 1, 1, True)
    assert grade("standard", 4, below).grade == "hard"


def test_the_cut_points_are_terciles() -> None:
    keys = [(i / 8, 0.0, 0.0) for i in range(9)]
    cuts = derive_cuts("Standard", keys, 20)
    assert cuts == Cuts("standard", (6 / 8, 0.0, 0.0), (3 / 8, 0.0, 0.0), 20, 9, True)
    assert [cuts.grade_of(k) for k in keys].count("medium") == 3
    # Ties fall on one side, the one nearer a third: seven deals tied at the bottom are all
    # Medium (none below them, three wanted), the two above them Easy (seven below, six wanted).
    tied = [(0.0, 0.0, 0.0)] * 7 + [(0.5, 0.0, 0.0), (1.0, 0.0, 0.0)]
    grades = [derive_cuts("strict", tied, 9).grade_of(k) for k in tied]
    assert grades == ["medium"] * 7 + ["easy"] * 2
    assert not derive_cuts("vertical", keys, 10_000).provisional
    with pytest.raises(ValueError):
        derive_cuts("doublets", [], 5)


def test_every_variant_has_its_cut_points() -> None:
    assert list(CUTS) == list(VARIANTS)
    for name, cut in CUTS.items():
        assert cut.variant == name and cut.easy >= cut.medium
        assert 0 < cut.winnable <= cut.deals and cut.provisional == (cut.deals < 10_000)


def test_the_odds_page_shows_the_cut_points() -> None:
    doc = (ROOT / "docs" / "odds.md").read_text()
    section = doc.split("## Difficulty grades", 1)[1].split("\n## ", 1)[0]
    for cut in CUTS.values():
        row = (f"| {cut.variant} | {cut.deals:,} | {cut.winnable:,} | {list(cut.easy)} | "
               f"{list(cut.medium)} |")
        assert row in section
    assert ("provisional" in section) == any(c.provisional for c in CUTS.values())


def test_the_grades_are_named_as_the_hook_says() -> None:
    assert (*GRADES, UNWINNABLE) == ("easy", "medium", "hard", "unwinnable")
    assert NARROW_WEIGHT == 1 / 4 and TIPS_PLAYOUTS == 16  # as docs/odds.md says


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--variant", "nope", "--deal", "1"], "unknown variant 'nope'"),
        (["--variant", "standard", "--deal", "-1"], "bad deal number '-1'"),
        (["--variant", "standard", "--deal", "4294967296"], "out of range"),
        (["--variant", "standard", "--deal", "x"], "bad deal number 'x'"),
        (["--variant", "standard"], "--deal"),
        (["--deal", "3"], "--variant"),
    ],
)
def test_bad_input_exits_2(capsys, argv, fragment) -> None:
    with pytest.raises(SystemExit) as info:
        main(["grade", *argv])
    out, err = capsys.readouterr()
    assert info.value.code == 2 and out == ""
    assert "error:" in err and fragment in err


def test_the_command_in_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nestor", "grade", "--variant", "STRICT", "--deal", "0",
         "--json"], cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    assert set(HOOK_KEYS) <= set(data) and data["variant"] == "strict"
    assert data["grade"] == UNWINNABLE
    bad = subprocess.run([sys.executable, "-m", "nestor", "grade", "--variant", "nope",
                          "--deal", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stdout == "" and "unknown variant" in bad.stderr


def test_the_odds_page_shows_what_the_command_prints(capsys) -> None:
    # docs/odds.md's example said "medium" once the measured cut points made deal 4 Hard.
    doc = (ROOT / "docs" / "odds.md").read_text()
    shown = doc.split("$ python -m nestor grade --variant standard --deal 4\n", 1)[1]
    assert main(["grade", "--variant", "standard", "--deal", "4"]) == 0
    assert shown.splitlines()[0] + "\n" == capsys.readouterr().out

"""The solver's commands: ``python -m nestor solve`` and ``python -m nestor odds``."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from nestor import VARIANTS, deal_position
from nestor.analysis import mean_interval, wilson
from nestor.cli import main
from nestor.position import Move, Pair, Position, TurnStock
from nestor.solver import Status, solve

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, monkeypatch, stdin: str, *argv: str) -> tuple[int, list[dict], str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def deal_json(capsys, variant: str, deal: int) -> str:
    assert main(["deal", "--variant", variant, "--deal", str(deal), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def replay_json(position: Position, line: list[list[str]]) -> Position:
    """Play a JSON line: ``[card, card]`` pairs and ``["stock", card]`` turns."""
    for entry in line:
        assert isinstance(entry, list) and len(entry) == 2
        move: Move
        if entry[0] == "stock":
            assert position.stock[0] == entry[1]  # the card that is turned
            move = TurnStock()
        else:
            move = Pair(entry[0], entry[1])
            assert [move.first, move.second] == entry  # new-deck order
        position = position.apply(move)
    return position


# What the `winnable` key holds for each answer: the answer with the stock order known.
AS_JSON = {Status.WINNABLE: True, Status.LOST: False, Status.UNKNOWN: None}


def wins_of(solutions) -> int:
    """How many solutions are winnable with every card known (Strict: the order given)."""
    return sum(s.known_order is Status.WINNABLE for s in solutions)


def keys_for(variant: str) -> set[str]:
    base = {"winnable", "line", "nodes", "ms"}
    return base | {"win_probability"} if VARIANTS[variant].has_stock else base


# ---- solve --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_solve_reads_deal_json_for_every_variant(capsys, monkeypatch, variant):
    deals = [0, 1, 2, 3]
    text = "".join(deal_json(capsys, variant, d) for d in deals)
    status, answers, err = run(capsys, monkeypatch, text, "solve")
    assert status == 0, err
    assert err == ""
    assert len(answers) == len(deals)
    for deal, answer in zip(deals, answers, strict=True):
        assert set(answer) == keys_for(variant)
        position = deal_position(variant, deal)
        expected = solve(position)
        assert answer["winnable"] is AS_JSON[expected.known_order]
        assert answer["nodes"] == expected.nodes
        assert isinstance(answer["ms"], (int, float)) and answer["ms"] >= 0
        if answer["winnable"]:
            assert replay_json(position, answer["line"]).is_empty()
        else:
            assert answer["line"] == []
        if VARIANTS[variant].has_stock:
            assert answer["win_probability"] == pytest.approx(expected.win_probability)


def test_solve_answers_in_input_order(capsys, monkeypatch):
    won = {"variant": "standard", "columns": [["AC"], ["AD"], [], [], [], [], [], []]}
    lost = {"variant": "standard", "columns": [["AC", "2C"], ["2D", "AD"], *[[]] * 6]}
    two = {
        "variant": "doublets",
        "columns": [["KC", "2C"], ["KD", "2D"], *[[]] * 10],
        "reserve": [],
    }
    lines = [json.dumps(x) for x in (won, lost, two, won)]
    status, answers, err = run(capsys, monkeypatch, "\n".join(lines) + "\n", "solve")
    assert status == 0, err
    assert [a["winnable"] for a in answers] == [True, False, True, True]
    assert answers[0]["line"] == [["AC", "AD"]]
    assert answers[1]["line"] == []
    assert answers[2]["line"] == [["2C", "2D"], ["KC", "KD"]]
    for a in answers:
        assert set(a) == {"winnable", "line", "nodes", "ms"}


def test_solve_accepts_short_and_empty_columns_and_blank_lines(capsys, monkeypatch):
    position = {
        "variant": "overlapping",
        "columns": [["7C", "QC"], ["QD"], [], [], [], [], [], []],
        "reserve": ["7D"],
    }
    text = "\n" + json.dumps(position) + "\n\n"
    status, answers, err = run(capsys, monkeypatch, text, "solve")
    assert status == 0, err
    assert answers == [
        {"winnable": True, "line": [["QC", "QD"], ["7C", "7D"]],
         "nodes": answers[0]["nodes"], "ms": answers[0]["ms"]}
    ]


def test_solve_strict_line_shows_the_turned_card(capsys, monkeypatch):
    cols = [["AC", "2C"], ["AD"], *[[]] * 6]
    known = {"variant": "strict", "columns": cols, "stock": ["2D", "5C", "5D"]}
    doomed = {"variant": "strict", "columns": cols, "stock": ["5C", "2D", "5D"]}
    text = json.dumps(known) + "\n" + json.dumps(doomed) + "\n"
    status, answers, err = run(capsys, monkeypatch, text, "solve")
    assert status == 0, err
    first, second = answers
    assert set(first) == set(second) == keys_for("strict")
    assert first["winnable"] is True
    assert first["line"] == [["stock", "2D"], ["AC", "AD"], ["5C", "5D"]]
    assert first["win_probability"] == pytest.approx(1 / 3)
    assert second["winnable"] is False
    assert second["line"] == []
    assert second["win_probability"] == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    "bad, where",
    [
        ("{not json", "not valid JSON"),
        ('{"variant": "standard", "columns": [["XX"], [], [], [], [], [], [], []]}', "XX"),
        ('{"variant": "nosuch", "columns": []}', "nosuch"),
        ('{"variant": "standard", "columns": [["AC"], [], [], [], [], [], [], []]}', "rank A"),
        ("[1, 2]", "JSON object"),
    ],
)
def test_solve_bad_line_2(capsys, monkeypatch, bad, where):
    good = '{"variant": "standard", "columns": [["AC"], ["AD"], [], [], [], [], [], []]}'
    text = f"{good}\n{bad}\n{good}\n"
    status, answers, err = run(capsys, monkeypatch, text, "solve")
    assert status == 2
    assert len(answers) == 1 and answers[0]["winnable"] is True  # line 1 was answered
    assert err.startswith("error: line 2: ")
    assert where in err
    assert "Traceback" not in err


@pytest.mark.parametrize("variant", ["standard", "strict"])
def test_solve_max_nodes_1_is_unknown(capsys, monkeypatch, variant):
    text = deal_json(capsys, variant, 3)
    status, answers, err = run(capsys, monkeypatch, text, "solve", "--max-nodes", "1")
    assert status == 0, err
    (answer,) = answers
    assert set(answer) == keys_for(variant)
    assert answer["winnable"] is None
    assert answer["line"] == []
    if variant == "strict":
        assert answer["win_probability"] is None
    _, full, _ = run(capsys, monkeypatch, text, "solve", "--max-nodes", "100000")
    assert full[0]["winnable"] is AS_JSON[solve(deal_position(variant, 3)).known_order]


# ---- odds ---------------------------------------------------------------------------------


def odds_json(capsys, *argv: str) -> dict:
    status = main(["odds", *argv, "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def test_odds_standard_matches_solving_each_deal(capsys):
    report = odds_json(capsys, "--variant", "standard", "--deals", "50", "--jobs", "1")
    wins = wins_of(solve(deal_position("standard", d)) for d in range(50))
    assert 0 < wins < 50
    assert report["variant"] == "standard"
    assert report["start"] == 0 and report["deals"] == 50
    assert report["winnable"] == wins
    assert report["share"] == pytest.approx(wins / 50)
    low, high = report["interval"]
    assert [low, high] == pytest.approx(list(wilson(wins, 50)))
    assert low < report["share"] < high
    assert "win_probability" not in report and "order_known" not in report


def test_odds_with_start(capsys):
    report = odds_json(
        capsys, "--variant", "vertical", "--deals", "7", "--start", "100", "--jobs", "1"
    )
    wins = wins_of(solve(deal_position("vertical", d)) for d in range(100, 107))
    assert (report["start"], report["deals"], report["winnable"]) == (100, 7, wins)


def test_odds_strict_reports_chance_and_order_known(capsys):
    report = odds_json(capsys, "--variant", "strict", "--deals", "30", "--jobs", "1")
    solutions = [solve(deal_position("strict", d)) for d in range(30)]
    wins = wins_of(solutions)
    chances = [s.win_probability for s in solutions]
    assert "share" not in report and "interval" not in report
    assert report["winnable"] == wins
    assert report["order_known"] == pytest.approx(wins / 30)
    lo, hi = report["order_known_interval"]
    assert [lo, hi] == pytest.approx(list(wilson(wins, 30)))
    assert lo <= report["order_known"] <= hi
    assert report["win_probability"] == pytest.approx(sum(chances) / 30)
    lo, hi = report["win_probability_interval"]
    assert lo <= report["win_probability"] <= hi
    assert lo >= 0.0 and hi <= 1.0


def test_odds_text_output(capsys):
    assert main(["odds", "--variant", "strict", "--deals", "5", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("strict: deals 0..4 (5 deals, ")
    assert out.count("95% CI") == 2
    assert "win probability with best play" in out
    assert "winnable with the stock order known: " in out
    assert main(["odds", "--variant", "doublets", "--deals", "5", "--start", "9",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    wins = wins_of(solve(deal_position("doublets", d)) for d in range(9, 14))
    assert out.startswith("doublets: deals 9..13 (5 deals, ")
    assert f"winnable with perfect play: {wins}/5 = " in out
    assert out.count("95% CI") == 1


@pytest.mark.parametrize("deals", ["0", "-3"])
def test_odds_needs_a_deal(capsys, deals):
    assert main(["odds", "--variant", "standard", "--deals", deals, "--jobs", "1"]) == 2
    assert "--deals" in capsys.readouterr().err


def test_odds_subprocess_with_two_processes():
    done = subprocess.run(
        [sys.executable, "-m", "nestor", "odds", "--variant", "doublets", "--deals", "20",
         "--jobs", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    wins = wins_of(solve(deal_position("doublets", d)) for d in range(20))
    assert done.stdout.startswith("doublets: deals 0..19 (20 deals, ")
    assert f"winnable with perfect play: {wins}/20 = {wins / 20:.2%} (95% CI " in done.stdout


# ---- intervals ----------------------------------------------------------------------------


def wilson_reference(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson bounds as the roots of (k/n - p)^2 = z^2 p (1 - p) / n."""
    phat = k / n
    a = 1 + z * z / n
    b = -(2 * phat + z * z / n)
    c = phat * phat
    root = math.sqrt(b * b - 4 * a * c)
    return ((-b - root) / (2 * a), (-b + root) / (2 * a))


@pytest.mark.parametrize(
    "k, n, low, high",
    [
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (1, 2, 0.0945, 0.9055),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_known_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)
    ref = wilson_reference(k, n)
    assert lo == pytest.approx(max(0.0, ref[0]), abs=1e-12)
    assert hi == pytest.approx(min(1.0, ref[1]), abs=1e-12)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_edges():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-15)
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0, abs=1e-15)
    # Wider at a higher confidence, narrower with more deals.
    assert wilson(5, 10, z=2.576)[0] < wilson(5, 10)[0]
    assert wilson(50, 100)[1] - wilson(50, 100)[0] < wilson(5, 10)[1] - wilson(5, 10)[0]


def test_mean_interval():
    assert mean_interval([0.25]) == (0.25, 0.25, 0.25)
    mean, lo, hi = mean_interval([0.0, 1.0, 0.5, 0.5])
    assert mean == pytest.approx(0.5)
    half = 1.96 * math.sqrt((0.25 + 0.25) / 3 / 4)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))
    assert mean_interval([1.0, 1.0, 0.0])[2] <= 1.0

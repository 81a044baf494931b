"""The command line, ``python -m nestor``."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from nestor import VARIANTS, Game, deal_position
from nestor.cli import main

ROOT = Path(__file__).resolve().parent.parent

# Standard deal 7, as in test_deal.GOLDEN_DEALS.
STANDARD_7 = {
    "variant": "standard",
    "deal": 7,
    "columns": [
        ["4D", "7H", "2S", "9C", "5H", "QD"],
        ["5C", "9D", "TS", "JD", "QS", "4S"],
        ["JH", "2C", "9S", "6H", "AD", "TC"],
        ["3S", "KD", "QH", "8H", "TD", "7S"],
        ["4H", "JS", "2D", "AH", "8C", "3C"],
        ["TH", "2H", "8D", "KH", "JC", "3D"],
        ["KS", "7C", "6S", "AS", "5D", "3H"],
        ["6D", "4C", "AC", "7D", "8S", "9H"],
    ],
    "reserve": ["5S", "KC", "QC", "6C"],
    "stock": [],
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_exit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run a command that argparse ends with SystemExit."""
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    out, err = capsys.readouterr()
    return info.value.code, out, err


# ---- deal -----------------------------------------------------------------------------------


def test_deal_json_of_standard_7(capsys):
    status, out, err = run(capsys, "deal", "--variant", "standard", "--deal", "7", "--json")
    assert status == 0
    assert err == ""
    data = json.loads(out)
    assert list(data) == ["variant", "deal", "columns", "reserve", "stock"]
    assert data == STANDARD_7


def test_deal_json_in_a_real_process():
    command = [sys.executable, "-m", "nestor", "deal", "--variant", "standard", "--deal", "7",
               "--json"]
    first = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True,
                           timeout=60)
    second = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True,
                            timeout=60)
    assert first.stderr == ""
    assert first.stdout == second.stdout
    assert first.stdout.endswith("\n")
    assert json.loads(first.stdout) == STANDARD_7


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_deal_json_for_each_variant(capsys, variant):
    status, out, _ = run(capsys, "deal", "--variant", variant, "--deal", "123", "--json")
    assert status == 0
    data = json.loads(out)
    assert list(data) == ["variant", "deal", "columns", "reserve", "stock"]
    assert data["variant"] == variant
    assert data["deal"] == 123
    position = deal_position(variant, 123)
    assert data == {"deal": 123, **position.to_json()}
    v = VARIANTS[variant]
    assert len(data["columns"]) == v.columns
    assert all(len(col) == v.depth for col in data["columns"])
    if v.has_stock:
        assert data["reserve"] == []
        assert len(data["stock"]) == 4
    else:
        assert len(data["reserve"]) == v.spare
        assert data["stock"] == []
    # Repeated runs print the same bytes.
    assert run(capsys, "deal", "--variant", variant, "--deal", "123", "--json")[1] == out


def test_deal_defaults_to_standard_and_reads_blanks_and_case(capsys):
    _, out, _ = run(capsys, "deal", "--deal", " 7 ", "--json")
    assert json.loads(out) == STANDARD_7
    _, out, _ = run(capsys, "deal", "--variant", "STRICT", "--deal", "7", "--json")
    assert json.loads(out)["variant"] == "strict"


def test_deal_text_and_picture(capsys):
    status, out, _ = run(capsys, "deal", "--deal", "7", "--text")
    assert status == 0
    assert out == deal_position("standard", 7).to_text() + "\n"
    status, out, _ = run(capsys, "deal", "--deal", "7")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "deal 7, Standard"
    assert lines[1] == " c1  c2  c3  c4  c5  c6  c7  c8"
    assert lines[2] == " 4D  5C  JH  3S  4H 10H  KS  6D"
    assert lines[-1] == "reserve: 5S KC QC 6C"
    _, out, _ = run(capsys, "deal", "--variant", "strict", "--deal", "7")
    # The picture is for analysis: it shows the stock, in the order it will be turned.
    assert out.splitlines()[-1] == "stock, face down, in turning order: 5S KC QC 6C"
    _, out, _ = run(capsys, "deal", "--variant", "overlapping", "--deal", "7")
    assert out.splitlines()[-1] == "reserve (overlapping: the last one is on top): 5S KC QC 6C"


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["deal", "--deal", "abc"], "bad deal number 'abc'"),
        (["deal", "--deal", "-1"], "bad deal number '-1'"),
        (["deal", "--deal", "4294967296"], "out of range"),
        (["deal", "--deal", "3.5"], "bad deal number '3.5'"),
        (["deal", "--deal", ""], "bad deal number ''"),
        (["deal", "--variant", "nope", "--deal", "1"], "unknown variant 'nope'"),
        (["deal"], "--deal"),
        (["deal", "--deal", "1", "--colour"], "unrecognized arguments"),
        ([], "COMMAND"),
        (["play"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2(capsys, argv, fragment):
    status, out, err = run_exit(capsys, *argv)
    assert status == 2
    assert out == ""
    assert "error:" in err
    assert fragment in err


def test_bad_arguments_exit_2_in_a_real_process():
    done = subprocess.run(
        [sys.executable, "-m", "nestor", "deal", "--variant", "nope", "--deal", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "unknown variant 'nope'" in done.stderr


# ---- replay ---------------------------------------------------------------------------------


def test_replay_prints_the_position_and_that_the_game_goes_on(capsys):
    status, out, err = run(capsys, "replay", "standard 7 3C-3D")
    assert status == 0
    assert err == ""
    expected = Game("standard", 7)
    expected.push("3C-3D")
    assert out.splitlines() == [expected.position.to_text(), "outcome: in play"]


def test_replay_reads_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("standard 7 3C-3D\n"))
    status, out, _ = run(capsys, "replay")
    assert status == 0
    assert out.splitlines()[1] == "outcome: in play"
    assert out.splitlines()[0].startswith("standard 4D7H2S9C5HQD/")


def test_replay_prints_the_outcome(capsys):
    # strict 7: pair the threes, then the stuck game turns a card with no match.
    status, out, _ = run(capsys, "replay", "strict 7 3C-3D stock")
    assert status == 0
    position, outcome = out.splitlines()
    assert position.split()[-1] != "-"  # the unpaired card
    assert outcome == "outcome: lost (stock card can't pair)"


def _finished_record(won: bool) -> str:
    for deal in range(200):
        game = Game("standard", deal)
        rng = random.Random(deal)
        while game.outcome() is None:
            game.push(rng.choice(game.legal_moves()))
        if game.outcome().won == won:
            return game.record().to_text()
    raise AssertionError("no such game in 200 deals")


@pytest.mark.parametrize(
    ("won", "last_line"), [(True, "outcome: won (won)"), (False, "outcome: lost (no pair left)")]
)
def test_replay_of_a_finished_game(capsys, won, last_line):
    record = _finished_record(won)
    status, out, _ = run(capsys, "replay", record)
    assert status == 0
    position, outcome = out.splitlines()
    assert outcome == last_line
    assert (position == "standard -/-/-/-/-/-/-/- - - -") == won


@pytest.mark.parametrize(
    ("record", "fragment"),
    [
        ("standard 7 3C-3D 3C-3D", "move 2 (3C-3D) is illegal"),
        ("standard 7 xx", "move 1: bad move 'xx'"),
        ("nope 7", "unknown variant 'nope'"),
        ("standard", "starts with the variant and the deal number"),
    ],
)
def test_replay_errors_exit_2(capsys, record, fragment):
    status, out, err = run(capsys, "replay", record)
    assert status == 2
    assert out == ""
    assert err.startswith("error: ")
    assert fragment in err


# ---- variants and help ----------------------------------------------------------------------


def test_variants_lists_every_variant(capsys):
    status, out, _ = run(capsys, "variants")
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list(VARIANTS)
    assert "8 x 6, stock of 4" in lines[1]
    assert "7 x 6, reserve of 10" in lines[2]
    assert "12 x 4, reserve of 4" in lines[3]


def test_help_mentions_every_command(capsys):
    status, out, _ = run_exit(capsys, "--help")
    assert status == 0
    for command in ("deal", "replay", "variants"):
        assert command in out
    assert "shuffle version 1" in out
    assert "4294967295" in out


def test_deal_help_mentions_its_options(capsys):
    status, out, _ = run_exit(capsys, "deal", "--help")
    assert status == 0
    for option in ("--variant", "--deal", "--json", "--text"):
        assert option in out

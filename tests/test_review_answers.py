"""The review answers exactly as it did before its speed work (issue 24, item 5).

``tests/data/review-answers.json`` holds, per variant, some 500 games and a digest of
what ``python -m nestor review`` printed for each (every move's statuses or chances,
choices, alternatives and critical flag, and the summary: turning point, cuts,
undecided...), recorded with the review of main ef69456, before the speed work of
4 December 2026 (the solver's stacks kept per rank, R1 looking only at the ranks a move
uncovered, the lost-memo keyed before R1 too: docs/review.md).
The review must still print byte for byte the same JSON for every one of them.

The games: the 200 of ``make bench-review`` (seed 1, its three players in turn) and 200
more (seed 2), finished, and 100 of them cut short at a random move (games in progress
take other paths: no lost end to bisect from). Each is stored as its deal and, per move,
the move's index in ``Position.legal_moves()`` (base 36, one character a move), which
depends on the rules alone, not on the solver that chose it.

``python tests/test_review_answers.py`` writes the file again (with the review of the
tree it runs in: only meaningful with the old review, e.g. from ``git show``).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
from pathlib import Path

import pytest

from nestor import VARIANTS, Record, deal_position
from nestor.cli import review_lines
from nestor.position import Move

DATA = Path(__file__).parent / "data" / "review-answers.json"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def encode(record: Record) -> str:
    """``"deal:indices"``: each move as its index in the legal moves there, base 36."""
    p = deal_position(record.variant.name, record.deal)
    out = []
    for move in record.moves:
        out.append(DIGITS[p.legal_moves().index(move)])
        p = p.apply(move)
    return f"{record.deal}:{''.join(out)}"


def decode(variant: str, text: str) -> Record:
    """The record :func:`encode` wrote."""
    deal_text, indices = text.split(":")
    deal = int(deal_text)
    p = deal_position(variant, deal)
    moves: list[Move] = []
    for digit in indices:
        move = p.legal_moves()[DIGITS.index(digit)]
        moves.append(move)
        p = p.apply(move)
    return Record(VARIANTS[variant], deal, tuple(moves))


def digest(record: Record) -> str:
    """The first 16 hex digits of the SHA-256 of the review's JSON Lines."""
    out = io.StringIO()
    review_lines(record, out)
    text = out.getvalue()
    if not record.variant.has_stock:  # no position the budget leaves unknown
        assert '"winnable_before": null' not in text and '"winnable": null' not in text
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def sample(variant: str) -> list[Record]:
    """The games of the fixture (see the module docstring); uses the bench's players."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from review import make_games  # bench/review.py

    records = [r for _, r in make_games(variant, 200, 1)] + [
        r for _, r in make_games(variant, 200, 2)
    ]
    rng = random.Random(f"cut-{variant}")
    for record in records[:100]:
        cut = rng.randrange(len(record.moves) + 1)
        records.append(Record(record.variant, record.deal, record.moves[:cut]))
    return records


def write() -> None:
    """Record the answers of the review in this tree (see the module docstring)."""
    data = {
        variant: [[encode(r), digest(r)] for r in sample(variant)] for variant in VARIANTS
    }
    lines = ",\n".join(
        f"{json.dumps(variant)}: [\n" + ",\n".join(json.dumps(game) for game in games) + "\n]"
        for variant, games in data.items()
    )
    DATA.write_text("{\n" + lines + "\n}\n")


def stored() -> dict[str, list[list[str]]]:
    return json.loads(DATA.read_text())


@pytest.mark.parametrize("step", [
    5,  # make test: every fifth game, 100 per variant
    pytest.param(1, marks=pytest.mark.slow),  # make test-slow: all 500
])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_review_answers_as_before(variant, step):
    games = stored()[variant]
    assert len(games) == 500
    wrong = [text for text, expected in games[::step]
             if digest(decode(variant, text)) != expected]
    assert not wrong, f"{len(wrong)} reviews changed, e.g. {decode(variant, wrong[0]).to_text()}"


def test_the_fixture_holds_lost_won_and_unfinished_games():
    for variant, games in stored().items():
        ends = [decode(variant, text).replay().outcome() for text, _ in games]
        won = sum(e is not None and e.won for e in ends)
        lost = sum(e is not None and not e.won for e in ends)
        assert won >= 5 and lost >= 100 and ends.count(None) >= 50, (variant, won, lost)


if __name__ == "__main__":
    write()

"""Hints that teach (issue 24 (3)): the first press of Hint says how many pairs can be made and
how many of them lose the game, showing none and counting no help; the second, at the same
position, shows the best pair and counts as help."""

from __future__ import annotations

import random

import pytest

from nestor import Game, Pair
from nestor.solver import Status, solve
from nestor.steps import run_to_end
from nestor_web.app.events import PairCount
from nestor_web.app.session import Session
from nestor_web.view.board import board_view
from nestor_web.view.words import pair_count_text


def session_at(variant: str, deal: int, moves: int = 0) -> Session:
    session = Session(Game(variant, deal), rng=random.Random(0))
    for _ in range(moves):
        session.game.push(session.game.legal_moves()[0])
    return session


def recount(session: Session) -> PairCount:
    """The count worked out plainly: each legal pair played, the position after it solved."""
    position = session.game.position
    pairs = [m for m in position.legal_moves() if isinstance(m, Pair)]
    statuses = [solve(position.apply(m), known_order=False).status for m in pairs]
    return PairCount(len(pairs), statuses.count(Status.LOST), statuses.count(Status.UNKNOWN))


@pytest.mark.parametrize("variant,deal,moves", [
    ("standard", 7, 0), ("standard", 3, 4), ("vertical", 5, 2), ("overlapping", 9, 1),
    ("strict", 11, 0), ("strict", 12, 1),
])
def test_the_first_step_counts_the_pairs_and_those_that_lose(
    variant: str, deal: int, moves: int
) -> None:
    session = session_at(variant, deal, moves)
    if session.game.position.outcome() is not None:
        pytest.skip("the game ended on these moves")
    assert session.hint_step() == 1
    count = run_to_end(session.count_pairs_steps())
    assert count == recount(session)
    events = session.show_pair_count(count)
    assert events[0].count == count and events[0].move is None  # type: ignore[attr-defined]
    assert session.help.hints == 0  # nothing shown: no help
    assert board_view(session).status == pair_count_text(count)
    assert not any(c.hinted for col in board_view(session).columns for c in col)
    # The second press shows the best pair, and that is help.
    assert session.hint_step() == 2
    solution = run_to_end(session.analyse_steps())
    session.show_hint(solution)
    assert session.help.hints == (1 if solution.best_move is not None else 0)


def test_a_move_starts_over_at_the_first_step() -> None:
    session = session_at("standard", 7)
    session.show_pair_count(run_to_end(session.count_pairs_steps()))
    move = session.game.legal_moves()[0]
    assert isinstance(move, Pair)
    session.tap(move.first)
    session.tap(move.second)
    assert session.hint_step() == 1


def test_the_words() -> None:
    assert pair_count_text(PairCount(3, 1)) == (
        "3 pairs can be made; one of them loses the game. Press Hint again to see the best one.")
    assert pair_count_text(PairCount(3, 2)).startswith("3 pairs can be made; 2 of them lose")
    assert pair_count_text(PairCount(1, 0)).startswith(
        "1 pair can be made; it keeps the game winnable.")
    assert pair_count_text(PairCount(2, 2)) == (
        "2 pairs can be made, and every one of them loses the game: no winning line remains.")


def test_the_words_in_german(german: None) -> None:
    assert pair_count_text(PairCount(3, 1)) == (
        "3 Paare lassen sich bilden; eines davon verliert das Spiel. Drücke noch einmal „Tipp“, "
        "um das beste zu sehen.")

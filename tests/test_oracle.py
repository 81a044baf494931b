"""The review's solver cache (nestor/solver/oracle.py), through its public API.

Each answer of :class:`Oracle` is checked against the public ``solve`` called on the same
position on its own (no memo shared), along seeded games of every variant; the whole review
built on it is checked in tests/test_review.py. Also the step runner (nestor/steps.py).
"""

from __future__ import annotations

import random
from collections.abc import Generator

import pytest

from nestor import VARIANTS, deal_position
from nestor.position import Move, Outcome, Pair, Position, TurnStock
from nestor.review import Choice as ReviewChoice
from nestor.solver import Status, solve
from nestor.solver.oracle import Choice, Oracle, best_known_chance, status_of_chance
from nestor.steps import run_to_end

W, L, U = Status.WINNABLE, Status.LOST, Status.UNKNOWN
OPEN = [name for name, v in VARIANTS.items() if not v.has_stock]
BIG = 1_000_000


def fresh_status(p: Position) -> Status:
    return solve(p, known_order=False).status


def fresh_chance(p: Position) -> float | None:
    return solve(p, known_order=False).win_probability


def drained(steps: Generator[None, None, object]) -> tuple[object, int]:
    """``steps`` run to its end: (its value, how many times it yielded)."""
    count = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value, count
        count += 1


def game(variant: str, deal: int, seed: str, length: int) -> tuple[Position, list[Move]]:
    """A game from the first winnable deal from ``deal`` on: the first half of a winning
    line, then random legal moves, at most ``length`` moves in all (the game may end first)."""
    rng = random.Random(seed)
    for n in range(deal, deal + 200):
        start = deal_position(variant, n)
        line = list(solve(start).line)
        if line:
            break
    else:
        raise AssertionError(f"no winnable {variant} deal from {deal}")
    line = line[: min(len(line) // 2, length)]
    p = start
    for move in line:
        p = p.apply(move)
    while p.outcome() is None and len(line) < length:
        move = rng.choice(p.legal_moves())
        line.append(move)
        p = p.apply(move)
    return start, line


@pytest.mark.parametrize("variant", OPEN)
def test_open_variants_answer_as_fresh_solves_along_a_game(variant):
    start, line = game(variant, 7, f"oracle-{variant}", 30)
    oracle = Oracle(start, BIG)
    assert not oracle.strict and oracle.max_nodes == BIG
    here = start
    seen: set[Status] = set()
    for move in line:
        key = oracle.key()
        want = fresh_status(here)
        assert run_to_end(oracle.solve()) is want
        assert oracle.known_chance() is None  # open variants: no chances
        choices = run_to_end(oracle.choices(here))
        assert oracle.key() == key  # stepped into each choice and back
        assert [c.move for c in choices] == here.legal_moves()
        for c in choices:
            assert c.chance is None
            assert c.status is fresh_status(here.apply(c.move)), str(c.move)
            seen.add(c.status)
        assert oracle.settle(choices) is want
        oracle.advance(here, move)
        here = here.apply(move)
    assert oracle.searches > 0 and oracle.nodes > 0
    assert seen == {W, L}  # the game passed winnable and lost choices


def test_strict_answers_chances_as_fresh_solves_including_stock_turns():
    turns = 0
    for deal in (3, 12):
        start, line = game("strict", deal, f"oracle-strict-{deal}", 40)
        oracle = Oracle(start, BIG)
        assert oracle.strict
        here = start
        for move in line:
            if here.outcome() is not None:
                break
            want = fresh_chance(here)
            assert oracle.known_chance() in (None, pytest.approx(want, abs=1e-9))
            assert run_to_end(oracle.chance_here()) == pytest.approx(want, abs=1e-9)
            assert oracle.known_chance() == pytest.approx(want, abs=1e-9)
            assert run_to_end(oracle.solve()) is status_of_chance(want)
            for c in run_to_end(oracle.choices(here)):
                if isinstance(c.move, TurnStock):
                    turns += 1
                    assert c.chance == pytest.approx(want, abs=1e-9)
                else:
                    after = here.apply(c.move)
                    done = after.outcome()
                    expect = (1.0 if done.won else 0.0) if done else fresh_chance(after)
                    assert c.chance == pytest.approx(expect, abs=1e-9), str(c.move)
                assert c.status is status_of_chance(c.chance)
            oracle.advance(here, move)
            here = here.apply(move)
            if here.outcome() is not None:
                oracle.mark(here.outcome().won)
                assert oracle.known_chance() == (1.0 if here.outcome().won else 0.0)
    assert turns > 0


def test_a_won_game_proves_its_own_positions_without_searching():
    rng = random.Random("won")
    for deal in range(1, 200):
        start = deal_position("standard", deal)
        line = list(solve(start).line)
        if line:
            break
    else:
        pytest.fail("no winnable deal")
    oracle = Oracle(start, BIG)
    run_to_end(oracle.prove_path(line, _end(start, line)))
    assert oracle.searches == 0 and oracle.nodes == 0
    here = start
    for move in line[: rng.randint(1, len(line))]:
        assert run_to_end(oracle.solve()) is W
        oracle.advance(here, move)
        here = here.apply(move)
    assert oracle.searches == 0  # every answer was proved by the game itself


def _end(start: Position, line: list[Move]) -> Outcome | None:
    p = start
    for move in line:
        p = p.apply(move)
    return p.outcome()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_tiny_budget_gives_unknown_never_a_wrong_answer(variant):
    start = deal_position(variant, 5)
    oracle = Oracle(start, 1)
    status = run_to_end(oracle.solve())
    assert status in (U, fresh_status(start))
    key = oracle.key()
    for c in run_to_end(oracle.choices(start)):
        assert c.status in (U, fresh_status(start.apply(c.move)))
    assert oracle.key() == key  # the model is put back even when a search gave up


def test_searching_methods_yield_between_slices():
    start = deal_position("standard", 11)
    value, yields = drained(Oracle(start, BIG).choices(start))
    assert len(value) == len(start.legal_moves())
    assert yields >= len(value)  # at least once after each choice


def test_settle_and_mark_are_proofs_from_what_is_given():
    start = deal_position("standard", 2)
    moves = start.legal_moves()
    oracle = Oracle(start, BIG)
    assert oracle.settle(()) is U  # nothing known, nothing given
    assert oracle.settle(tuple(Choice(m, U) for m in moves)) is U
    assert oracle.settle((Choice(moves[0], L), Choice(moves[-1], W))) is W
    oracle = Oracle(start, BIG)
    assert oracle.settle(tuple(Choice(m, L) for m in moves)) is L
    oracle.mark(True)
    assert run_to_end(oracle.solve()) is W and oracle.searches == 0

    strict = Oracle(deal_position("strict", 2), BIG)
    pairs = [m for m in deal_position("strict", 2).legal_moves() if isinstance(m, Pair)]
    assert pairs
    assert strict.settle(tuple(Choice(m, W, 0.25) for m in pairs)) is W
    assert strict.known_chance() == 0.25
    strict.mark(False)
    assert strict.known_chance() == 0.0


def test_helpers():
    assert ReviewChoice is Choice  # the review's public name for it
    a, b = Pair("AS", "AH"), Pair("2S", "2H")
    assert best_known_chance([]) is None
    assert best_known_chance([Choice(a, U), Choice(b, W)]) is None
    assert best_known_chance([Choice(a, W, 0.5), Choice(b, L, 0.0), Choice(a, U)]) == 0.5
    assert status_of_chance(None) is U
    assert status_of_chance(0.0) is L
    assert status_of_chance(1e-12) is W


def test_run_to_end_returns_the_value_and_lets_errors_through():
    def steps(n: int) -> Generator[int | None, None, str]:
        for i in range(n):
            yield i if i % 2 else None
        return f"done {n}"

    assert run_to_end(steps(0)) == "done 0"
    assert run_to_end(steps(5)) == "done 5"

    def failing() -> Generator[None, None, int]:
        yield None
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        run_to_end(failing())

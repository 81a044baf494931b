"""The puzzles (nestor/puzzles): the definition, the shipped set proved again, the command line.

The shipped puzzles are proved by other code than the one that found them: the answer's win by
bench/solver.py's plain search (no code shared with nestor.solver), every wrong choice's end
by a depth-first search over the public Position API (no code shared with the bounded search).
``make test`` proves a sample held back from the generator's own check; ``make test-slow``
every puzzle; ``make puzzles-check`` examines every one again with the generator's code.
"""

from __future__ import annotations

import json
import os
import random
from datetime import date

import pytest
from helpers import plain_search_class

from nestor import NestorError, Pair, Position, deal_position
from nestor.cli import main
from nestor.puzzles import (
    HEADER,
    MAX_HORIZON,
    PUZZLE_VARIANTS,
    RATING_HIGH,
    RATING_LOW,
    Puzzle,
    Verdict,
    daily_puzzle,
    examine,
    find_puzzles,
    get_puzzle,
    longest_line,
    pick_puzzle,
    puzzles,
    rate,
    read_puzzles,
    refutation,
    tips_chance,
    updated_rating,
    write_puzzles,
)


def plain_longest(position: Position, memo: dict[Position, int]) -> int:
    """The most pairs playable from ``position`` before no pair is left (a win counts as
    more than any loss: 100), by the public rules alone."""
    if position.is_empty():
        return 100
    if position not in memo:
        memo[position] = max((1 + plain_longest(position.apply(p), memo)
                              for p in position.pairs()), default=0)
    return memo[position]


def proved(puzzle: Puzzle) -> list[str]:
    """What the independent searches find wrong with ``puzzle`` (nothing: empty)."""
    position = puzzle.position()
    wrong = []
    choices = position.pairs()
    if len(choices) < 2 or puzzle.answer not in choices:
        wrong.append(f"choices {choices}")
    if not 1 <= puzzle.horizon <= MAX_HORIZON:
        wrong.append(f"horizon {puzzle.horizon}")
    plain = plain_search_class()(position.apply(puzzle.answer))
    if not plain.winnable():
        wrong.append("the answer does not win")
    lengths = [1 + plain_longest(position.apply(p), {}) for p in choices if p != puzzle.answer]
    if max(lengths, default=0) != puzzle.horizon:
        wrong.append(f"the wrong choices last {lengths}, not {puzzle.horizon}")
    return wrong


def held_back(count: int) -> list[Puzzle]:
    """A sample of the shipped puzzles drawn afresh each run (their own check examines every
    one with the generator's code), the fewest cards first so the plain search stays quick;
    the same in every worker of one run (pytest-xdist's run id seeds it)."""
    rng = random.Random(os.environ.get("PYTEST_XDIST_TESTRUNUID"))
    sample = rng.sample(puzzles(), min(4 * count, len(puzzles())))
    return sorted(sample, key=lambda p: p.position().cards_left())[:count]


def test_at_least_a_thousand_puzzles_ship_from_the_open_variants() -> None:
    shipped = puzzles()
    assert len(shipped) >= 1000
    assert {p.variant for p in shipped} == set(PUZZLE_VARIANTS)
    assert [p.id for p in shipped] == list(range(1, len(shipped) + 1))
    assert all(RATING_LOW <= p.rating <= RATING_HIGH for p in shipped)
    assert len({(p.variant, p.deal, p.before) for p in shipped}) == len(shipped)


@pytest.mark.parametrize("puzzle", held_back(12), ids=lambda p: f"puzzle-{p.id}")
def test_a_held_back_sample_is_proved_by_independent_searches(puzzle: Puzzle) -> None:
    assert proved(puzzle) == []


@pytest.mark.slow
def test_every_shipped_puzzle_is_proved_by_independent_searches() -> None:
    problems = [f"{p.id}: {w}" for p in puzzles() for w in proved(p)]
    assert problems == []


def test_the_bounded_search_agrees_with_the_plain_one() -> None:
    rng = random.Random(5)
    checked = 0
    for variant in PUZZLE_VARIANTS:
        for deal in range(6):
            position = deal_position(variant, deal)
            while position.outcome() is None:
                if position.cards_left() <= 30:
                    exact = plain_longest(position, {})
                    for limit in (0, 3, 8):
                        found = longest_line(position, limit, max_nodes=10**6)
                        assert found == (exact if exact <= limit else limit + 1)
                    checked += 1
                position = position.apply(rng.choice(position.pairs()))
    assert checked > 50


def test_a_puzzle_has_one_answer_and_every_other_choice_dies_soon() -> None:
    found = [(v, d, b, verdict) for v in PUZZLE_VARIANTS for d in range(40)
             for b, verdict in find_puzzles(v, d)]
    assert len(found) >= 3
    for variant, deal, before, verdict in found:
        position = deal_position(variant, deal)
        for pair in before:
            position = position.apply(pair)
        assert verdict.choices == position.pairs() and len(verdict.choices) >= 2
        assert verdict.answer in verdict.choices
        ends = [refutation(position, p) for p in verdict.choices if p != verdict.answer]
        assert max(len(line) for line in ends) == verdict.horizon
        for line in ends:  # played out, each ends with no pair left, not won
            end = position
            for pair in line:
                end = end.apply(pair)
            assert not end.pairs() and not end.is_empty()
        assert refutation(position, verdict.answer) == ()  # the answer does not die


def test_a_position_with_two_ways_on_or_in_strict_is_no_puzzle() -> None:
    start = deal_position("standard", 7)
    assert len(start.pairs()) >= 2 and examine(start) is None  # many pairs keep it alive
    strict = deal_position("strict", 7)
    assert examine(strict) is None


def test_the_shipped_file_reads_back_and_refuses_what_it_cannot_read() -> None:
    shipped = puzzles()[:5]
    assert read_puzzles(write_puzzles(shipped)) == shipped
    with pytest.raises(NestorError) as error:
        read_puzzles("# nestor puzzles 9\n")
    assert error.value.code == "puzzle.format"
    for bad in ("standard 7 1LY", "standard x 1LY 1Zz 3 1200", "strict 7 1 1Zz 3 1200",
                "standard 7 10 1Zz 3 1200", "standard 7 1 1LYZz 3 1200",
                "standard 7 1 1Zz 9 1200", "standard 7 1 1Zz 3 99999"):
        with pytest.raises(NestorError) as error:
            read_puzzles(f"{HEADER}\n{bad}\n")
        assert error.value.code == "puzzle.line" and error.value.details["id"] == 1


def test_get_daily_and_pick() -> None:
    count = len(puzzles())
    assert get_puzzle(1) == puzzles()[0] and get_puzzle(count) == puzzles()[-1]
    for bad in (0, count + 1, "3", True, None):
        with pytest.raises(NestorError) as error:
            get_puzzle(bad)
        assert error.value.code == "puzzle.unknown" and error.value.details["count"] == count
    day = date(2026, 12, 5)
    assert daily_puzzle(day) == daily_puzzle(date(2026, 12, 5))
    assert len({daily_puzzle(date(2026, 12, d)).id for d in range(1, 29)}) > 20
    rng = random.Random(1)
    picked = pick_puzzle(1500, rng)
    assert abs(picked.rating - 1500) <= 150
    nearest = pick_puzzle(10_000, rng)
    assert nearest.rating == max(p.rating for p in puzzles())
    avoid = {p.id for p in puzzles() if abs(p.rating - 1500) <= 150} - {picked.id}
    assert pick_puzzle(1500, rng, avoid).id == picked.id


def test_the_players_rating_follows_elo() -> None:
    assert updated_rating(1500, 1500, True) == 1516
    assert updated_rating(1500, 1500, False) == 1484
    assert updated_rating(1500, 1900, True) > updated_rating(1500, 1100, True)
    assert updated_rating(1500, 1900, False) > updated_rating(1500, 1100, False)
    assert updated_rating(RATING_HIGH, RATING_LOW, True) == RATING_HIGH
    assert updated_rating(RATING_LOW, RATING_HIGH, False) == RATING_LOW


def test_harder_puzzles_are_solved_less_often_by_the_tips_and_at_random() -> None:
    """By fifths of the rating, lowest first: the chance that the tips player, and a player
    choosing at random, pick the answer never rises from one fifth to the next, and falls
    from the first to the last (docs/puzzles.md has the measured table)."""
    shipped = sorted(puzzles(), key=lambda p: p.rating)
    fifth = -(-len(shipped) // 5)
    tips, at_random = [], []
    for start in range(0, len(shipped), fifth):
        part = shipped[start:start + fifth]
        tips.append(sum(tips_chance(p.position(), verdict_of(p)) for p in part) / len(part))
        at_random.append(sum(1 / len(p.choices()) for p in part) / len(part))
    for chances in (tips, at_random):
        assert all(b <= a + 0.02 for a, b in zip(chances, chances[1:], strict=False)), chances
        assert chances[-1] < chances[0] - 0.1, chances


def verdict_of(puzzle: Puzzle) -> Verdict:
    """The verdict a shipped puzzle was written with."""
    return Verdict(puzzle.answer, puzzle.horizon, puzzle.choices())


def test_a_puzzles_rating_is_what_rate_gives() -> None:
    for puzzle in puzzles()[::50]:
        assert rate(puzzle.position(), verdict_of(puzzle)) == puzzle.rating


def test_the_command_line_counts_and_prints_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--count"]) == 0
    assert int(capsys.readouterr().out) == len(puzzles())
    assert main(["puzzle", "--id", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["id", "variant", "deal", "before", "choices", "answer", "horizon",
                          "rating"]
    puzzle = get_puzzle(3)
    assert data["id"] == 3 and data["answer"] == list(puzzle.answer.cards)
    assert [Pair(*p) for p in data["choices"]] == list(puzzle.choices())
    assert all(isinstance(p, list) and len(p) == 2 for p in data["before"])
    assert main(["puzzle", "--id", "3"]) == 0
    assert f"answer: {puzzle.answer}" in capsys.readouterr().out
    with pytest.raises(SystemExit) as status:
        main(["puzzle", "--id", str(len(puzzles()) + 1)])
    assert status.value.code == 2

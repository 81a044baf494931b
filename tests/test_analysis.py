"""Analysis: the odds over a range of deals and the winnable-deal finder."""

from __future__ import annotations

import random

import pytest

from nestor import MAX_DEAL, VARIANTS, DealNumberError, NestorError, VariantError, deal_position
from nestor.analysis import WINNABLE_SEARCH_LIMIT, mean_interval, odds, wilson, winnable_deal_steps
from nestor.solver import Status, solve


def run(steps):
    """Drive a step generator to its end: (its result, how many times it yielded)."""
    yields = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value, yields
        yields += 1


def first_winnable(variant: str, seed: int, limit: int) -> tuple[int | None, list[int]]:
    """The reference: draw as the finder does and solve each deal with solve()."""
    rng = random.Random(seed)
    drawn = []
    for _ in range(limit):
        number = rng.randrange(MAX_DEAL)
        drawn.append(number)
        if solve(deal_position(variant, number)).known_order is Status.WINNABLE:
            return number, drawn
    return None, drawn


@pytest.mark.parametrize("variant", ["standard", "strict", "overlapping"])
def test_winnable_deal_steps_returns_the_first_drawn_deal_that_can_be_won(variant):
    total = 0
    for seed in range(4):
        expected, drawn = first_winnable(variant, seed, 50)
        found, yields = run(winnable_deal_steps(VARIANTS[variant], random.Random(seed), 50))
        assert found == expected is not None
        assert solve(deal_position(variant, found)).known_order is Status.WINNABLE
        total += yields
    assert total > 0  # it hands control back between solver steps


def lost_first_seed() -> int:
    """A seed whose first drawn overlapping deal cannot be won."""
    for seed in range(200):
        rng = random.Random(seed)
        if solve(deal_position("overlapping", rng.randrange(MAX_DEAL))).status is Status.LOST:
            return seed
    raise AssertionError("no lost first deal in 200 seeds")  # pragma: no cover


def test_winnable_deal_steps_skips_deals_that_cannot_be_won():
    seed = lost_first_seed()
    expected, drawn = first_winnable("overlapping", seed, 50)
    rng = random.Random(seed)
    found, _ = run(winnable_deal_steps(VARIANTS["overlapping"], rng, 50))
    assert found == expected == drawn[-1] != drawn[0]
    # It drew exactly as many numbers as the reference.
    follow = random.Random(seed)
    for _ in drawn:
        follow.randrange(MAX_DEAL)
    assert rng.random() == follow.random()


def test_winnable_deal_steps_gives_up_after_the_limit():
    seed = lost_first_seed()
    assert run(winnable_deal_steps(VARIANTS["overlapping"], random.Random(seed), 1))[0] is None
    assert run(winnable_deal_steps(VARIANTS["standard"], random.Random(1), 0)) == (None, 0)
    assert WINNABLE_SEARCH_LIMIT == 2000


def test_odds_counts_what_solve_says_per_deal():
    report = odds("doublets", 9, 6, 1)
    wins = sum(
        solve(deal_position("doublets", d)).status is Status.WINNABLE for d in range(9, 15)
    )
    assert report["variant"] == "doublets" and report["start"] == 9 and report["deals"] == 6
    assert report["winnable"] == wins
    assert report["share"] == wins / 6
    assert report["interval"] == list(wilson(wins, 6))
    assert "win_probability" not in report


def test_odds_strict_reports_the_chance_and_the_order_known_share():
    report = odds("strict", 0, 5, 1)
    results = [solve(deal_position("strict", d)) for d in range(5)]
    wins = sum(r.known_order is Status.WINNABLE for r in results)
    assert report["winnable"] == wins and report["order_known"] == wins / 5
    assert report["order_known_interval"] == list(wilson(wins, 5))
    mean, lo, hi = mean_interval([r.win_probability or 0.0 for r in results])
    assert report["win_probability"] == pytest.approx(mean)
    assert report["win_probability_interval"] == pytest.approx([lo, hi])
    assert "share" not in report and "interval" not in report


def test_odds_in_two_processes_matches_one():
    one = odds("doublets", 0, 8, 1)
    two = odds("doublets", 0, 8, 2)
    assert {k: v for k, v in one.items() if k != "seconds"} == {
        k: v for k, v in two.items() if k != "seconds"
    }


def test_odds_checks_its_arguments():
    with pytest.raises(NestorError) as info:
        odds("standard", 0, 0, 1)
    assert (info.value.code, info.value.details["where"]) == ("number.range", "count")
    with pytest.raises(NestorError) as info:
        odds("standard", MAX_DEAL - 2, 3, 1)
    assert info.value.details == {"where": "count", "value": "3", "low": 1, "high": 2}
    with pytest.raises(DealNumberError):
        odds("standard", -1, 1, 1)
    with pytest.raises(VariantError):
        odds("nestor", 0, 1, 1)
    assert odds("standard", MAX_DEAL - 1, 1, 1)["deals"] == 1

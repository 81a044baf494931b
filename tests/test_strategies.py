"""The strategies of nestor/strategies.py: each picks what its definition says."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from nestor.analysis import odds
from nestor.cli import main
from nestor.deal import deal_position
from nestor.errors import IllegalMoveError, NestorError
from nestor.position import Pair, Position, TurnStock, parse_move
from nestor.solver import Status, solve
from nestor.strategies import (
    STRATEGIES,
    deal_rng,
    freed_cards,
    get_strategy,
    greedy_key,
    longest_key,
    play_deal,
    play_out,
    reserve_key,
    strategy_odds,
    uncover_key,
)

# 7H-7S frees 5C and 5H, a new pair: the most useful. AH-AS frees 7C, which pairs with the
# three open 7s: the most pairs afterwards. 7H-7D comes from the longest columns (3 + 4).
UNCOVER = Position.from_text("standard KD5C7H/5H7S/QSJCKC7D/7CAH/QHJDAS/-/-/- - - -")


def pairs(*texts: str) -> set[str]:
    """The notation of each pair written as four characters, ``"7H7S"`` -> ``"7H-7S"``."""
    return {str(Pair(t[:2], t[2:])) for t in texts}


def picks(name: str, position: Position, seeds: int = 40) -> set[str]:
    """Every move strategy ``name`` plays in ``position`` over ``seeds`` seeds."""
    play = get_strategy(name)
    return {str(play(position, random.Random(seed))) for seed in range(seeds)}


def test_uncover_frees_the_cards_that_then_have_a_partner() -> None:
    assert uncover_key(UNCOVER, Pair("7H", "7S")) == (2, 2)
    assert uncover_key(UNCOVER, Pair("AH", "AS")) == (1, 2)  # 7C pairs, JD does not
    assert uncover_key(UNCOVER, Pair("7H", "7D")) == (0, 2)
    assert picks("uncover", UNCOVER) == pairs("7H7S")


def test_uncover_counts_a_freed_card_without_partner_next() -> None:
    # No pair frees a card with a partner; those that free a card at all tie, the others lose.
    position = Position.from_text("standard 2C7H/7S/2DKC/KD/-/-/-/- 7D7C - -")
    assert uncover_key(position, Pair("7H", "7S")) == (0, 1)
    assert uncover_key(position, Pair("KC", "KD")) == (0, 1)  # 2D's partner is covered
    assert uncover_key(position, Pair("7S", "7D")) == (0, 0)
    assert picks("uncover", position) == pairs("7H7S", "7H7D", "7H7C", "KCKD")


def test_reserve_last_prefers_column_cards() -> None:
    position = Position.from_text("standard 7H/7C/-/-/-/-/-/- 7S7D - -")
    assert reserve_key(position, Pair("7H", "7C")) == (0,)
    assert reserve_key(position, Pair("7H", "7S")) == (-1,)
    assert reserve_key(position, Pair("7S", "7D")) == (-2,)
    assert picks("reserve-last", position) == pairs("7C7H")
    # With no column pair, one reserve card beats two.
    position = Position.from_text("standard 7H/-/-/-/-/-/-/- 7S7D7C - -")
    assert picks("reserve-last", position) == pairs("7H7S", "7H7D", "7H7C")


def test_longest_sums_the_lengths_of_the_columns_taken_from() -> None:
    position = Position.from_text("standard 2C3C7H/7S/4D7D/2D3D4C/-/-/-/- 7C - -")
    assert longest_key(position, Pair("7H", "7D")) == (5,)
    assert longest_key(position, Pair("7H", "7C")) == (3,)
    assert longest_key(position, Pair("7S", "7C")) == (1,)
    assert picks("longest", position) == pairs("7H7D")
    assert picks("longest", UNCOVER) == pairs("7H7D")


def test_tips_takes_the_tips_in_their_order() -> None:
    # Tip 1 decides before tip 3: longest alone would take 7H-7D.
    assert picks("tips", UNCOVER) == pairs("7H7S")
    # Tip 1 ties (each pair frees two cards without a partner); tip 2 decides before tip 3:
    # 8D-8C comes from the longer column (6 + 0 against 2 + 2) but uses the reserve.
    position = Position.from_text(
        "overlapping 2C7H/3C7S/2D3D4C5C9C8D/TD9D4D5D/-/-/-/- TC8C - -"
    )
    assert uncover_key(position, Pair("7H", "7S")) == uncover_key(position, Pair("8D", "8C"))
    assert picks("longest", position) == pairs("8C8D")
    assert picks("reserve-last", position) == pairs("7H7S")
    assert picks("tips", position) == pairs("7H7S")


def test_greedy_opens_the_most_pairs() -> None:
    assert greedy_key(UNCOVER, Pair("AH", "AS")) == (6,)  # four 7s open: six pairs
    assert greedy_key(UNCOVER, Pair("7H", "7S")) == (2,)  # 5C-5H and AH-AS
    assert picks("greedy", UNCOVER) == pairs("AHAS")


def test_random_draws_every_legal_move_about_equally() -> None:
    play = get_strategy("random")
    counts = Counter(str(play(UNCOVER, random.Random(seed))) for seed in range(4000))
    assert set(counts) == {str(m) for m in UNCOVER.legal_moves()}
    assert len(counts) == 4  # three pairs of 7s, and the aces
    assert all(abs(n - 4000 / 4) < 100 for n in counts.values()), counts


def test_ties_are_drawn_among_the_best_only() -> None:
    # All three column 7s: 7H-7S and 7H-7D tie for reserve-last; the reserve 7C never.
    position = Position.from_text("standard 7H/7S/7D/-/-/-/-/- 7C - -")
    assert picks("reserve-last", position) == pairs("7H7S", "7D7H", "7D7S")


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_a_stuck_strict_game_turns_the_stock(name: str) -> None:
    position = Position.from_text("strict 7H/5C/-/-/-/-/-/- - 5D7S -")
    assert get_strategy(name)(position, random.Random(1)) == TurnStock()


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_a_finished_game_has_no_move(name: str) -> None:
    lost = Position.from_text("standard 7H5C/5D7S/-/-/-/-/-/- - - -")
    with pytest.raises(IllegalMoveError) as info:
        get_strategy(name)(lost, random.Random(0))
    assert info.value.code == "illegal.game_over"


@pytest.mark.parametrize("variant", ["standard", "doublets", "overlapping"])
def test_perfect_play_wins_exactly_the_winnable_deals(variant: str) -> None:
    for deal in range(4):
        winnable = solve(deal_position(variant, deal)).status is Status.WINNABLE
        assert play_deal(variant, "perfect", deal) is winnable


def moves_played(variant: str, name: str, deal: int, seed: int) -> list[str]:
    """The moves a strategy plays on a deal, in order."""
    position = deal_position(variant, deal)
    rng = deal_rng(seed, variant, name, deal)
    out = []
    while position.outcome() is None:
        move = STRATEGIES[name](position, rng)
        out.append(str(move))
        position = position.apply(move)
    return out


@pytest.mark.parametrize("name", [n for n in STRATEGIES if n != "perfect"])
def test_the_same_seed_plays_the_same_game(name: str) -> None:
    for variant in ("standard", "strict"):
        first = moves_played(variant, name, 3, 0)
        assert first == moves_played(variant, name, 3, 0)
        final = play_out(deal_position(variant, 3), STRATEGIES[name],
                         deal_rng(0, variant, name, 3))
        replayed = deal_position(variant, 3)
        for move in first:
            replayed = replayed.apply(parse_move(move))
        assert final == replayed and final.outcome() is not None


def test_another_seed_plays_another_game() -> None:
    games = {tuple(moves_played("standard", "random", 5, seed)) for seed in range(5)}
    assert len(games) > 1


def test_strategy_odds_counts_each_deal_and_is_the_same_in_two_processes() -> None:
    one = strategy_odds("standard", "tips", 10, 30, 1)
    assert one["won"] == sum(play_deal("standard", "tips", d) for d in range(10, 40))
    two = strategy_odds("standard", "tips", 10, 30, 2)
    assert {k: v for k, v in one.items() if k != "seconds"} == {
        k: v for k, v in two.items() if k != "seconds"
    }
    low, high = one["interval"]
    assert low <= one["share"] <= high


def test_perfect_is_the_solvers_verdict() -> None:
    report = strategy_odds("standard", "perfect", 0, 12, 1)
    solved = odds("standard", 0, 12, 1)
    assert report["won"] == solved["winnable"] and report["interval"] == solved["interval"]
    strict = strategy_odds("strict", "perfect", 0, 6, 1)
    assert strict["won"] is None
    assert strict["share"] == odds("strict", 0, 6, 1)["win_probability"]


def test_strategy_odds_checks_its_arguments() -> None:
    with pytest.raises(NestorError) as info:
        strategy_odds("standard", "lucky", 0, 5)
    assert info.value.code == "strategy.unknown"
    with pytest.raises(NestorError) as info:
        strategy_odds("standard", "random", 0, 0)
    assert info.value.code == "number.range"


def test_the_command_prints_the_share_won_with_its_interval(capsys) -> None:
    assert main(["odds", "--variant", "vertical", "--strategy", "uncover", "--deals", "25",
                 "--start", "3", "--jobs", "1"]) == 0
    head, body = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"vertical, strategy uncover: deals 3\.\.27 \(25 deals, seed 0, "
                        r"[\d.]+ s\)", head), head
    won = sum(play_deal("vertical", "uncover", d) for d in range(3, 28))
    match = re.fullmatch(r"  won: (\d+)/25 = ([\d.]+)% \(95% CI ([\d.]+)% to ([\d.]+)%\)", body)
    assert match is not None, body
    assert int(match[1]) == won and float(match[2]) == pytest.approx(100 * won / 25, abs=0.01)
    assert float(match[3]) <= float(match[2]) <= float(match[4])


def test_the_command_in_json_and_for_strict_perfect(capsys) -> None:
    assert main(["odds", "--variant", "strict", "--strategy", "greedy", "--deals", "8",
                 "--seed", "4", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"variant", "strategy", "start", "deals", "seed", "won", "share",
                         "interval", "seconds"}
    assert data["seed"] == 4 and data["won"] == sum(
        play_deal("strict", "greedy", d, 4) for d in range(8)
    )
    assert main(["odds", "--variant", "strict", "--strategy", "perfect", "--deals", "3",
                 "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("  chance of winning with best play, stock order unknown")


def test_the_command_without_strategy_is_unchanged(capsys) -> None:
    assert main(["odds", "--variant", "doublets", "--deals", "4", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "  winnable with perfect play: 4/4 = 100.00% (95% CI 51.01% to 100.00%)"


def test_an_unknown_strategy_is_refused(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["odds", "--variant", "standard", "--strategy", "lucky", "--deals", "3"])
    assert info.value.code == 2
    assert "lucky" in capsys.readouterr().err


def reference_keys(position: Position, pair: Pair) -> tuple[tuple[int, int], int]:
    """The uncover and greedy keys by their definitions, playing the pair."""
    after = position.apply(pair)
    freed = after.newly_available(position)
    return (sum(1 for c in freed if after.partners(c)), len(freed)), len(after.pairs())


@pytest.mark.parametrize("variant", ["standard", "strict", "vertical", "doublets", "overlapping"])
def test_the_keys_worked_out_without_playing_are_the_definitions(variant: str) -> None:
    checked = 0
    for deal in range(12):
        position = deal_position(variant, deal)
        rng = random.Random(deal)
        while position.outcome() is None:
            for pair in position.pairs():
                uncover, pairs_after = reference_keys(position, pair)
                assert set(freed_cards(position, pair)) == set(
                    position.apply(pair).newly_available(position)
                )
                assert uncover_key(position, pair) == uncover
                assert greedy_key(position, pair) == (pairs_after,)
                checked += 1
            position = position.apply(rng.choice(position.legal_moves()))
    assert checked > 100


def test_strict_freed_cards_include_the_stock_turned_up() -> None:
    position = Position.from_text("strict 7H/7S/-/-/-/-/-/- - 5D5C -")
    assert set(freed_cards(position, Pair("7H", "7S"))) == {"5D", "5C"}
    assert uncover_key(position, Pair("7H", "7S")) == (2, 2)
    overlapping = Position.from_text("overlapping 7H/-/-/-/-/-/-/- 5C5D7S - -")
    assert freed_cards(overlapping, Pair("7H", "7S")) == ("5D",)

"""The exact solver (nestor/solver/), checked against an independent brute force.

The brute force below uses only the public rules engine (``legal_moves``,
``apply``, ``outcome``): an exhaustive depth-first search for the open
variants and for Strict with the stock order known, and an expectimax for
Strict with the order unknown (each card left in the stock equally likely to
be turned next, the player maximising over pairs).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from helpers import (
    brute_chance,
    brute_winnable,
    mid_game,
    move_value,
    plain_search_class,
    random_position,
    small_positions,
)
from hypothesis import HealthCheck, given, settings
from profiles import examples

from nestor import MAX_DEAL, Game, deal_position
from nestor.cards import RANKS
from nestor.position import Move, Pair, Position, TurnStock
from nestor.solver import Solution, Status, iter_line, solve, solve_steps
from nestor.solver.exact import winning_line
from nestor.solver.model import Search, stacks_of
from nestor.variants import VARIANTS, Variant

STANDARD = VARIANTS["standard"]
STRICT = VARIANTS["strict"]
OVERLAPPING = VARIANTS["overlapping"]
ALL_VARIANTS = list(VARIANTS.values())
WINNABLE, LOST, UNKNOWN = Status.WINNABLE, Status.LOST, Status.UNKNOWN


def status_of(won: bool) -> Status:
    return WINNABLE if won else LOST

# ---- the reference: brute force over the public Position API -----------------------------


def brute_states(p: Position) -> int:
    """How many distinct positions the brute force visits deciding ``p``."""
    seen: set[Position] = set()
    lost: set[Position] = set()

    def rec(q: Position) -> bool:
        seen.add(q)
        outcome = q.outcome()
        if outcome is not None:
            return outcome.won
        if q in lost:
            return False
        for move in q.legal_moves():
            if rec(q.apply(move)):
                return True
        lost.add(q)
        return False

    rec(p)
    return len(seen)


def replay(p: Position, line: Sequence[Move]) -> Position:
    for move in line:
        p = p.apply(move)
    return p


def is_free(p: Position, card: str) -> bool:
    """An available card with nothing beneath it (R2/R3 of the solver)."""
    for col in p.columns:
        if col and col[-1] == card:
            return len(col) == 1
    assert card in p.reserve
    return not p.variant.overlapping or len(p.reserve) == 1


def check_line_rules(p: Position, line: Sequence[Move]) -> None:
    """The solver's line obeys R1 (and R2/R3 in the open variants) at every step."""
    for move in line:
        avail = list(p.available())
        left = [c for col in p.columns for c in col] + list(p.reserve) + list(p.stock)
        complete = {
            r for r in RANKS
            if sum(c[0] == r for c in avail) >= 2
            and sum(c[0] == r for c in avail) == sum(c[0] == r for c in left)
        }
        if complete:  # R1: all of a rank available -> those go first
            assert isinstance(move, Pair) and move.first[0] in complete, (p.to_text(), move)
        if isinstance(move, Pair) and not p.variant.has_stock:
            r = move.first[0]
            here = [c for c in avail if c[0] == r]
            total = sum(c[0] == r for c in left)
            if is_free(p, move.first) and is_free(p, move.second):
                # R2: two free cards are paired only when every card of the rank is available
                assert len(here) == total, (p.to_text(), move)
            if len(here) == 3 and total == 4 and any(is_free(p, c) for c in here):
                # R3: the card left out is a free one
                (third,) = set(here) - set(move.cards)
                assert is_free(p, third), (p.to_text(), move)
        p = p.apply(move)


def check_solution(p: Position, sol: Solution | None = None) -> Solution:
    """Check ``solve(p)`` against the brute force; return it."""
    if sol is None:
        sol = solve(p)
    won = brute_winnable(p)
    assert sol.known_order is status_of(won), p.to_text()
    if won:
        end = replay(p, sol.line)
        assert end.outcome() is not None and end.outcome().won, p.to_text()
        check_line_rules(p, sol.line)
    else:
        assert sol.line == ()
    if not p.variant.has_stock:
        assert sol.status is sol.known_order
        assert sol.win_probability is None
        if won and p.outcome() is None:
            assert sol.best_move == sol.line[0]
            assert brute_winnable(p.apply(sol.best_move))
        else:
            assert sol.best_move is None
        return sol
    memo: dict[object, float] = {}
    chance = brute_chance(p, memo)
    assert sol.win_probability == pytest.approx(chance, abs=1e-9), p.to_text()
    assert sol.status is status_of(chance > 0.0)
    if won:  # a line that wins with the order known wins with some chance
        assert sol.status is WINNABLE
    if chance == 0.0 or p.outcome() is not None:
        assert sol.best_move is None
    else:
        assert sol.best_move is not None, p.to_text()
        assert p.is_legal(sol.best_move)
        assert move_value(p, sol.best_move, memo) == pytest.approx(chance, abs=1e-9)
    return sol


# ---- small random layouts ---------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_random_small_positions_match_brute_force(variant):
    rng = random.Random(f"solver-{variant.name}")
    outcomes = {True: 0, False: 0}
    probabilities = set()
    for i in range(1000):
        p = random_position(rng, variant, big=i % 4 == 0)
        sol = check_solution(p)
        outcomes[sol.known_order is WINNABLE] += 1
        if sol.win_probability is not None:
            probabilities.add(round(sol.win_probability, 6))
    # The sample is not degenerate: both answers occur often.
    assert outcomes[True] > 100 and outcomes[False] > 100, outcomes
    if variant.has_stock:  # and real chances strictly between 0 and 1
        assert len([x for x in probabilities if 0 < x < 1]) >= 3, probabilities


@given(small_positions())
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_solver_matches_brute_force_hypothesis(p):
    check_solution(p)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_mid_game_positions_of_real_deals(variant):
    rng = random.Random(f"mid-{variant}")
    played = finished = 0
    for _ in range(600):
        p = mid_game(rng, variant, rng.choice((20, 24, 28)))
        if p.outcome() is None:
            played += 1
        elif finished < 10:
            finished += 1
        else:
            continue
        check_solution(p)
        if played == 60:
            break
    assert played == 60


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_whole_deals_give_lines_that_win(variant):
    wins = 0
    for deal in range(12):
        p = deal_position(variant, deal)
        sol = solve(p)
        assert sol.known_order in (WINNABLE, LOST)
        if sol.known_order is WINNABLE:
            wins += 1
            end = replay(p, sol.line)
            assert end.is_empty()
            assert [q.cards_left() for q in iter_line(p, sol.line)][-1] == 0
            check_line_rules(p, sol.line)
            if not p.variant.has_stock:
                assert sol.best_move == sol.line[0]
        else:
            assert sol.line == ()
        if p.variant.has_stock:
            assert sol.win_probability is not None and 0.0 <= sol.win_probability <= 1.0
            if sol.win_probability == 1.0:
                assert sol.known_order is WINNABLE  # a sure win wins whatever the order
            assert sol.status is status_of(sol.win_probability > 0.0)
            if sol.win_probability > 0.0:
                assert sol.best_move is not None and p.is_legal(sol.best_move)
    assert wins >= 1


def test_strict_whole_deal_chance_matches_expectimax_after_opening():
    """Full-size Strict: play until the stock must be turned, then compare chances."""
    rng = random.Random(5)
    compared = 0
    for deal in range(40):
        p = deal_position("strict", deal)
        while p.outcome() is None and p.cards_left() > 26:
            p = p.apply(rng.choice(p.legal_moves()))
        if p.outcome() is None and p.stock:
            compared += 1
            check_solution(p)
    assert compared >= 5


# ---- finished positions and the empty tableau --------------------------------------------


def empty(variant: Variant) -> list[list[str]]:
    return [[] for _ in range(variant.columns)]


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_won_position(variant):
    sol = solve(Position.checked(variant, empty(variant)))
    assert sol.status is sol.known_order is WINNABLE
    assert sol.line == ()
    assert sol.best_move is None
    assert sol.win_probability == (1.0 if variant.has_stock else None)
    quick = solve(Position.checked(variant, empty(variant)), known_order=False)
    assert quick.known_order is (None if variant.has_stock else WINNABLE)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_known_order_is_the_status_where_no_card_is_hidden(variant):
    for deal in range(6):
        p = deal_position(variant, deal)
        full, quick = solve(p), solve(p, known_order=False)
        if VARIANTS[variant].has_stock:
            assert full.known_order in (WINNABLE, LOST) and quick.known_order is None
            assert full.status is quick.status is status_of(full.win_probability > 0.0)
        else:
            assert full.known_order is full.status in (WINNABLE, LOST)
            assert quick == full  # nothing to skip


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_lost_position_no_pair(variant):
    cols = empty(variant)
    cols[0] = ["AC", "2C"]
    cols[1] = ["2D", "AD"]
    p = Position.checked(variant, cols)
    assert p.outcome() is not None and not p.outcome().won
    sol = solve(p)
    assert sol.status is sol.known_order is LOST
    assert sol.line == ()
    assert sol.best_move is None
    assert sol.win_probability == (0.0 if variant.has_stock else None)


def test_strict_lost_with_unpaired_stock_card():
    cols = empty(STRICT)
    cols[0] = ["AC", "2C"]
    p = Position.checked(STRICT, cols, (), ["2D"], unpaired="AD")
    sol = solve(p)
    assert (sol.status, sol.known_order, sol.win_probability, sol.line, sol.best_move) == (
        LOST, LOST, 0.0, (), None
    )


@pytest.mark.parametrize("stock", [["8S", "8H"], ["8S", "3C", "8H", "3D"]])
def test_strict_empty_tableau_pairs_the_stock(stock):
    """Regression: with the tableau empty, best_move was None though a move was needed."""
    p = Position.checked(STRICT, empty(STRICT), (), stock)
    assert p.outcome() is None
    sol = solve(p)
    assert sol.status is sol.known_order is WINNABLE
    assert sol.win_probability == 1.0
    assert replay(p, sol.line).is_empty()
    assert sol.best_move is not None
    assert sol.best_move == sol.line[0]
    assert p.is_legal(sol.best_move)


def test_strict_turned_card_without_partner_loses():
    cols = empty(STRICT)
    cols[0] = ["AC", "2C"]
    cols[1] = ["AD"]
    # Stuck: only the stock can move; 2D pairs with 2C, 5C/5D cannot pair at all.
    for stock, chance in ((["2D", "5C", "5D"], 1 / 3), (["5C", "2D", "5D"], 1 / 3)):
        p = Position.checked(STRICT, cols, (), stock)
        sol = check_solution(p)
        assert sol.win_probability == pytest.approx(chance)
        assert sol.known_order is status_of(stock[0] == "2D")
        assert sol.status is WINNABLE  # a chance of 1/3 either way
        assert sol.best_move == TurnStock()


@pytest.mark.parametrize(
    "text, chance",
    [
        ("strict KS5D/9S/-/9CKC/2CKD/5C2SKH/9H/- - 2H2D9D -", 1.0),
        ("strict KH8D7S/7D8C/KCJS7H/KS8HJC7C/8S/-/-/- - JDJHKD -", 2 / 3),
    ],
)
def test_strict_same_tableau_with_different_stock_left(text, chance):
    """Found by fuzzing a solver whose lost-memo ignored the stock: the same
    stack heights are reached with different numbers of stock cards left."""
    p = Position.from_text(text)
    sol = check_solution(p)
    assert sol.known_order is WINNABLE
    assert sol.win_probability == pytest.approx(chance)


# ---- the pruning rules, one by one ---------------------------------------------------------

R1_LAYOUT = [
    ["2C", "3C", "4C", "JC"],
    ["2D", "3D", "4D", "JD"],
    ["6C", "KC"], ["6D", "KD"], ["6H", "KH"], ["6S", "KS"],
    ["JH", "4H"], ["JS", "4S"],
]


@pytest.mark.parametrize("variant", [STANDARD, STRICT], ids=lambda v: v.name)
def test_r1_all_of_a_rank_available_goes_first(variant):
    """All four kings are available: they go first, then the four sixes they uncover.

    Without R1 the tallest-first move order would start with the jacks.
    """
    p = Position.checked(variant, R1_LAYOUT)
    sol = check_solution(p)
    assert sol.known_order is WINNABLE
    assert [m.first[0] for m in sol.line[:4]] == ["K", "K", "6", "6"]
    assert isinstance(sol.best_move, Pair) and sol.best_move.first[0] == "K"
    assert sol.nodes <= 10


def test_r2_free_cards_wait():
    """Two free nines (open reserve) while the other two are covered: they are paired last."""
    cols = empty(STANDARD)
    cols[0] = ["9H", "5C", "KC"]
    cols[1] = ["9S", "KD", "5D"]
    cols[2] = ["KH", "5H"]
    cols[3] = ["5S", "KS"]
    p = Position.checked(STANDARD, cols, ["9C", "9D"])
    assert Pair("9C", "9D") in p.legal_moves()
    sol = check_solution(p)
    assert sol.status is WINNABLE
    assert sol.line[0] != Pair("9C", "9D")
    # No nine is paired before all four are available.
    at = next(i for i, m in enumerate(sol.line) if isinstance(m, Pair) and m.first[0] == "9")
    before = replay(p, sol.line[:at])
    assert {"9C", "9D", "9H", "9S"} <= set(before.available())


# A lost position with two free pairs in the reserve; found by a random search.
R2_R3_LOST = (
    "standard 5S7D/8H/7H2SJD/JH3D2H7S/JC8SAC7CTC2C/5H2DAH3STD/3CADTH/JSTS3HAS 5C5D8C8D - -"
)


def test_r2_r3_cut_the_search():
    p = Position.from_text(R2_R3_LOST)
    sol = check_solution(p)
    assert sol.status is LOST
    # The same search without R2/R3 (internal API) visits far more positions.
    plain = Search(stacks_of(p), [], False, None)
    steps = winning_line(plain)
    with pytest.raises(StopIteration) as done:
        while True:
            next(steps)
    assert done.value.value is None
    assert plain.nodes >= 8 * sol.nodes
    assert brute_states(p) >= 20 * sol.nodes


def test_r3_keep_a_free_card():
    """Three sevens available, the fourth covered, 7H free: 7C and 7D pair, 7H waits."""
    cols = empty(STANDARD)
    cols[0] = ["2C", "7C"]
    cols[1] = ["3C", "7D"]
    cols[2] = ["7H"]
    cols[3] = ["7S", "2D", "3D"]
    p = Position.checked(STANDARD, cols)
    sol = check_solution(p)
    assert sol.line[0] == Pair("7C", "7D")
    assert sol.line[-1] == Pair("7H", "7S")


R4_FILLER = [["5C", "6C"], ["6D", "5D"], ["5H", "6H"], ["6S", "5S"], ["8C", "9C"], ["9D", "8D"]]


def test_r4_crossed_forced_pairs_in_columns():
    """7C under QC, QD under 7D, no other 7 or Q: lost, found without searching."""
    p = Position.checked(
        STANDARD, [["7C", "QC"], ["QD", "7D"], *R4_FILLER], ["8H", "9H", "8S", "9S"]
    )
    assert p.outcome() is None
    sol = check_solution(p)
    assert sol.status is LOST
    assert sol.nodes <= 2
    assert brute_states(p) >= 300  # the brute force has to try every order


def test_r4_crossed_forced_pairs_in_overlapping_reserve():
    """The same crossing, with 7C under QC in the overlapping reserve stack."""
    p = Position.checked(
        OVERLAPPING, [["QD", "7D"], *R4_FILLER, ["8H", "9H"]], ["8S", "9S", "7C", "QC"]
    )
    assert p.outcome() is None
    sol = check_solution(p)
    assert sol.status is LOST
    assert sol.nodes <= 2
    assert brute_states(p) >= 50


def test_r4_forced_pair_inside_overlapping_reserve():
    """The only two sevens lie one on the other in the reserve: they can never pair."""
    p = Position.checked(
        OVERLAPPING, [*R4_FILLER, ["8H", "9H"], ["8S", "9S"]], ["7C", "7D"]
    )
    sol = check_solution(p)
    assert sol.status is LOST
    assert sol.nodes <= 2
    assert brute_states(p) >= 100


def test_r4_in_strict():
    p = Position.checked(STRICT, [["7C", "QC"], ["QD", "7D"], *R4_FILLER], (), ["8H", "8S"])
    sol = check_solution(p)
    assert (sol.status, sol.known_order, sol.win_probability, sol.best_move) == (
        LOST, LOST, 0.0, None
    )
    assert sol.nodes <= 4


def test_r4_is_not_fooled_by_cards_in_the_stock():
    """A crossing whose rank still has cards in the stock is not a deadlock.

    7C lies under QC and QD under 7D, but the other two queens are in the stock:
    either one, turned first, pairs with QC, and the game wins whatever the order.
    An R4 that counted only the cards in the stacks would call it lost.
    """
    cols = empty(STRICT)
    cols[0] = ["7C", "QC"]
    cols[1] = ["QD", "7D"]
    for stock in (["QH", "QS"], ["QS", "QH"]):
        p = Position.checked(STRICT, cols, (), stock)
        sol = check_solution(p)
        assert sol.status is sol.known_order is WINNABLE
        assert sol.win_probability == 1.0


# Found by random play on real deals. Strict, one card in the stock (8D) and no pair: the only
# move turns it, and it takes 8H. The two eights left, 8C over 2H in column 3 and 8S under 2D
# in column 7, then cross the two twos: lost. Before the turn the eights were not a forced pair
# (three in the columns, one in the stock), so only a check after the turn sees it.
ONE_STOCK_CARD_CROSSING = (
    "strict 5DKDQDTD/JH3DTC7HKH/5S2H8CQC9S3S/3CASKSTH9C8H/JD4C7C3H9H/TSAD7S/7DKC8S2D5C/5H9D4H"
    " - 8D -"
)


def test_r4_after_the_turn_of_the_one_stock_card():
    p = Position.from_text(ONE_STOCK_CARD_CROSSING)
    assert p.legal_moves() == [TurnStock()]
    sol = check_solution(p)
    assert (sol.status, sol.known_order, sol.win_probability) == (LOST, LOST, 0.0)
    # Each search decides it right after the turn: 2 nodes each (68 in all without the check
    # after a turn, where the search plays on after the turn until it is stuck).
    assert sol.nodes <= 6
    assert solve(p, known_order=False).nodes <= 3
    assert brute_states(p) >= 60


@pytest.mark.parametrize(
    "variant, deal, most",
    [
        # Exact search (open variant): 18 nodes; 3369 without R4 inside the search.
        ("vertical", 221, 40),
        # Strict: 4 nodes per search; without R4 inside the search 190 for the exact
        # search, 247 for the chance search.
        ("strict", 136, 12),
    ],
)
def test_r4_cuts_whole_deals_inside_the_search(variant, deal, most):
    """Deals where no forced pair is crossed at the start, but one is a few moves in."""
    p = deal_position(variant, deal)
    search = Search(stacks_of(p), list(p.stock), False, None)
    assert not search.forced_cycle()  # nothing to see at the start
    full = solve(p)
    if p.variant.has_stock:
        chance = solve(p, known_order=False)
        assert chance.status is full.status is full.known_order is LOST
        assert chance.nodes <= most / 2  # the chance search alone
        assert full.nodes - chance.nodes <= most / 2  # the exact search alone
    else:
        assert full.status is WINNABLE and replay(p, full.line).is_empty()
        assert full.nodes <= most


def test_chance_memo_shares_stocks_that_differ_only_in_their_cards():
    """Turning 8H or 8C first leads to the same columns with three stock cards left, of
    different suits: one memo entry serves both (a memo keyed by the cards themselves
    searches 22 positions instead of 10). See "Memo" in nestor.solver.model for why the
    number of stock cards left is enough."""
    p = Position.from_text("strict -/6S5C/9H2HKH5D8S/9SKS/6H9C2D/-/-/- - 8H8C8D9D -")
    sol = check_solution(p)
    assert sol.win_probability == pytest.approx(0.25)
    assert solve(p, known_order=False).nodes <= 12


# ---- node budget and stepping --------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_budget_gives_unknown_never_false(variant):
    p = deal_position(variant, 3)
    exact = solve(p)
    assert exact.nodes > 2
    small = solve(p, max_nodes=1)
    assert small.status is small.known_order is UNKNOWN
    assert small.line == ()
    assert small.best_move is None
    if variant == "strict":
        assert small.win_probability is None
    big = solve(p, max_nodes=10 * exact.nodes + 100)
    assert big == exact
    for budget in (2, 5, 20, exact.nodes // 2, exact.nodes - 1):
        partial = solve(p, max_nodes=budget)
        assert partial.known_order in (UNKNOWN, exact.known_order)
        assert partial.status in (UNKNOWN, exact.status)
        if partial.known_order is WINNABLE:
            assert replay(p, partial.line).is_empty()


def test_budget_on_lost_deals_is_none_or_false():
    for deal in range(30):
        p = deal_position("standard", deal)
        exact = solve(p)
        if exact.status is LOST and exact.nodes > 5:
            assert solve(p, max_nodes=3).status is UNKNOWN
            assert solve(p, max_nodes=exact.nodes).status is LOST
            return
    pytest.fail("no lost deal needing a search among the first 30")


def drive(p: Position, max_nodes: int | None = None) -> tuple[Solution, int]:
    steps = solve_steps(p, max_nodes)
    count = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value, count
        count += 1


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_solve_steps_matches_solve(variant):
    yielded = False
    for deal in range(15):
        p = deal_position(variant, deal)
        sol, count = drive(p)
        assert sol == solve(p)
        assert count <= sol.nodes
        # Each search yields every 64 of its own nodes (Strict runs two searches).
        if sol.nodes > (128 if variant == "strict" else 64):
            assert count >= 1
            yielded = True
    if variant in ("standard", "vertical"):
        assert yielded


def test_solve_steps_yields_on_a_big_search():
    p = next(
        q for q in (deal_position("standard", d) for d in range(50)) if solve(q).nodes > 200
    )
    sol, count = drive(p)
    assert count >= 2
    assert sol == solve(p)
    budgeted, _ = drive(p, max_nodes=100)
    assert budgeted == solve(p, max_nodes=100)
    assert budgeted.status is UNKNOWN


@pytest.mark.parametrize("deal", range(0, 40, 7))
def test_strict_without_the_known_order_gives_the_same_chance_and_move(deal):
    p = Game("strict", deal).position
    full = solve(p)
    quick = solve(p, known_order=False)
    assert quick.known_order is None and quick.line == ()
    assert quick.status is full.status is status_of(full.win_probability > 0.0)
    assert quick.win_probability == full.win_probability
    assert quick.best_move == full.best_move
    assert quick.nodes <= full.nodes


# ---- whole deals against an oracle (slow: make test-slow) --------------------------------------


ORACLE_DEALS = 200


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_whole_deals_agree_with_a_plain_search(variant):
    """Every winning line is replayed by the rules engine; every loss is confirmed by the plain
    exhaustive search; Strict's chance with best play equals the plain expectimax's, and its
    best pair keeps that chance."""
    plain = plain_search_class()
    rng = random.Random(f"oracle-{variant}")
    answers = {WINNABLE: 0, LOST: 0}
    for deal in sorted(rng.sample(range(MAX_DEAL), ORACLE_DEALS)):
        p = deal_position(variant, deal)
        sol = solve(p)
        answers[sol.known_order] += 1
        assert sol.known_order is status_of(plain(p).winnable()), (variant, deal)
        if sol.known_order is WINNABLE:
            end = replay(p, sol.line)
            assert end.is_empty(), (variant, deal)
        else:
            assert sol.line == ()
        if not p.variant.has_stock:
            assert sol.status is sol.known_order
            continue
        chance = plain(p).chance()
        assert sol.win_probability == pytest.approx(chance, abs=1e-9), (variant, deal)
        assert sol.status is status_of(chance > 0.0)
        if isinstance(sol.best_move, Pair):
            after = plain(p.apply(sol.best_move)).chance()
            assert after == pytest.approx(chance, abs=1e-9), (variant, deal)
        elif sol.best_move is not None:
            assert p.legal_moves() == [TurnStock()]  # turning is the only move
    if variant != "doublets":  # doublets is won 99.999% of the time (vertical: 96%)
        assert answers[WINNABLE] >= 3 and answers[LOST] >= 3, answers

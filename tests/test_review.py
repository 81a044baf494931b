"""The game review (nestor/review.py), checked against independent references.

The references work out what a review must say from its definitions alone,
position by position, with value functions that share no code with the review:
the brute force of tests/test_solver.py (small positions: an exhaustive search
and an expectimax over the public Position API), the plain search of
bench/solver.py (whole games, slow test) and the public ``solve`` called on
each position separately (whole games). The review itself walks one shared
stack model with shared memos, so these are real checks of that machinery.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Sequence

import pytest
from helpers import (
    brute_chance,
    brute_winnable,
    plain_search_class,
    random_position,
    small_positions,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from nestor import VARIANTS, Game, NestorError, Record, RecordError, deal_position
from nestor.position import Move, Pair, Position, TurnStock
from nestor.review import (
    CHANCE_TOLERANCE,
    DEFAULT_MAX_NODES,
    Choice,
    MoveReview,
    Review,
    position_review_steps,
    review,
    review_steps,
    sliced,
)
from nestor.solver import Status, solve

W, L, U = Status.WINNABLE, Status.LOST, Status.UNKNOWN
ALL_VARIANTS = list(VARIANTS.values())


def run_steps(steps):
    """Drive a review generator: (its Review, the MoveReviews it yielded, how many Nones)."""
    items: list[MoveReview] = []
    nones = 0
    while True:
        try:
            item = next(steps)
        except StopIteration as done:
            return done.value, items, nones
        if item is None:
            nones += 1
        else:
            items.append(item)


def review_from(
    position: Position, moves: Sequence[Move], max_nodes: int = DEFAULT_MAX_NODES
) -> Review:
    result, items, _ = run_steps(position_review_steps(position, moves, max_nodes))
    assert tuple(items) == result.moves  # the moves yielded are the review's, in order
    return result


# ---- the reference: the definitions, over any value function -------------------------------


def reference(
    start: Position,
    moves: Sequence[Move],
    winnable: Callable[[Position], bool],
    chance: Callable[[Position], float],
) -> dict:
    """What the review must say, from the definitions (issue 12, nestor/review.py)."""
    strict = start.variant.has_stock
    positions = [start]
    for move in moves:
        positions.append(positions[-1].apply(move))
    rows = []
    for i, move in enumerate(moves):
        here, there = positions[i], positions[i + 1]
        legal = here.legal_moves()
        if not strict:
            before, after = winnable(here), winnable(there)
            choices = [(m, winnable(here.apply(m)), None) for m in legal]
            pairs = [c for c in choices if isinstance(c[0], Pair)]
            keep = [c for c in pairs if c[1]]
            rows.append({
                "before": before, "after": after, "chance_before": None, "chance_after": None,
                "cut": None, "choices": choices,
                "alternatives": sorted(str(m) for m, ok, _ in choices if ok) if not after else [],
                "critical": 1 <= len(keep) <= 2 and len(keep) < len(pairs),
            })
            continue
        cb, ca = chance(here), chance(there)
        choices = [
            (m, None, cb if isinstance(m, TurnStock) else chance(here.apply(m))) for m in legal
        ]
        pairs = [c for c in choices if isinstance(c[0], Pair)]
        if isinstance(move, TurnStock):
            cut, alternatives, critical = 0.0, [], False
        else:
            cut = cb - ca if cb - ca >= CHANCE_TOLERANCE else 0.0
            alternatives = sorted(str(m) for m, _, c in pairs if c > ca + CHANCE_TOLERANCE)
            best = max(c for _, _, c in pairs)
            keep = [p for p in pairs if p[2] >= best - CHANCE_TOLERANCE]
            critical = best > 0 and len(keep) <= 2 and len(keep) < len(pairs)
        rows.append({
            "before": cb > 0, "after": ca > 0, "chance_before": cb, "chance_after": ca,
            "cut": cut, "choices": choices, "alternatives": alternatives, "critical": critical,
        })
    if strict:
        cuts = [(i, r["cut"]) for i, r in enumerate(rows) if r["cut"] > 0]
        turning, most = None, 0.0
        for i, cut in cuts:
            if cut > most + CHANCE_TOLERANCE:
                turning, most = i, cut
    else:
        cuts = []
        turning = next((i for i, r in enumerate(rows) if r["before"] and not r["after"]), None)
    return {
        "start": chance(start) > 0 if strict else winnable(start),
        "start_chance": chance(start) if strict else None,
        "rows": rows, "turning_point": turning, "cuts": cuts,
        "critical": [i for i, r in enumerate(rows) if r["critical"]],
    }


def status_of(ok: bool) -> Status:
    return W if ok else L


def approx(x: float | None) -> object:
    return None if x is None else pytest.approx(x, abs=1e-9)


def check(result: Review, ref: dict) -> None:
    """``result`` says exactly what ``ref`` says (no unknowns allowed)."""
    assert result.start is status_of(ref["start"])
    assert result.start_chance == approx(ref["start_chance"])
    assert len(result.moves) == len(ref["rows"])
    for i, (got, want) in enumerate(zip(result.moves, ref["rows"], strict=True)):
        where = (result.position.to_text(), i, str(got.move))
        assert got.index == i
        assert got.before is status_of(want["before"]), where
        assert got.after is status_of(want["after"]), where
        assert got.chance_before == approx(want["chance_before"]), where
        assert got.chance_after == approx(want["chance_after"]), where
        assert got.cut == approx(want["cut"]), where
        assert [c.move for c in got.choices] == [m for m, _, _ in want["choices"]], where
        for c, (_, ok, chance) in zip(got.choices, want["choices"], strict=True):
            if ok is not None:
                assert c.status is status_of(ok), where
            else:
                assert c.chance == approx(chance), where
                assert c.status is status_of(chance > 0), where
        assert [str(m) for m in got.alternatives] == want["alternatives"], where
        assert got.critical is want["critical"], where
    assert result.turning_point == ref["turning_point"]
    assert not result.undecided
    assert [i for i, _ in result.cuts] == [i for i, _ in ref["cuts"]]
    for (_, got_cut), (_, want_cut) in zip(result.cuts, ref["cuts"], strict=True):
        assert got_cut == pytest.approx(want_cut, abs=1e-9)
    assert list(result.critical) == ref["critical"]
    assert result.alternatives == (
        () if result.turning_point is None else result.moves[result.turning_point].alternatives
    )


def brute_reference(start: Position, moves: Sequence[Move]) -> dict:
    memo: dict[object, float] = {}
    return reference(start, moves, brute_winnable, lambda p: brute_chance(p, memo))


def solver_reference(start: Position, moves: Sequence[Move]) -> dict:
    """Each position solved on its own by the public solver (no memo shared)."""
    return reference(
        start, moves,
        lambda p: solve(p).status is W,
        lambda p: solve(p, known_order=False).win_probability,
    )


def plain_reference(start: Position, moves: Sequence[Move]) -> dict:
    """The plain search of bench/solver.py (which knows no unpaired stock card: a finished
    game is judged by its outcome)."""
    plain = plain_search_class()

    def winnable(p: Position) -> bool:
        outcome = p.outcome()
        return outcome.won if outcome is not None else plain(p).winnable()

    def chance(p: Position) -> float:
        outcome = p.outcome()
        if outcome is not None:
            return 1.0 if outcome.won else 0.0
        return plain(p).chance()

    return reference(start, moves, winnable, chance)


def random_line(rng: random.Random, p: Position, finish: bool = True) -> list[Move]:
    """Random legal moves from ``p``, to the end (or a random length if not ``finish``)."""
    line: list[Move] = []
    stop = None if finish else rng.randint(0, 30)
    while p.outcome() is None and (stop is None or len(line) < stop):
        move = rng.choice(p.legal_moves())
        line.append(move)
        p = p.apply(move)
    return line


def greedy_line(rng: random.Random, p: Position) -> list[Move]:
    """Take from the longest columns first (reserve cards count 0), ties at random."""
    line: list[Move] = []
    while p.outcome() is None:
        places = p.available()
        heights = [len(col) for col in p.columns]
        moves = p.legal_moves()
        score = {
            m: sum(heights[places[c].slot] for c in m.cards if places[c].area == "column")
            if isinstance(m, Pair) else 0
            for m in moves
        }
        top = max(score.values())
        move = rng.choice([m for m in moves if score[m] == top])
        line.append(move)
        p = p.apply(move)
    return line


def careful_line(rng: random.Random, p: Position, slip: float) -> list[Move]:
    """The solver's best move, but a random one with probability ``slip``."""
    line: list[Move] = []
    while p.outcome() is None:
        best = solve(p, known_order=False).best_move
        move = best if best is not None and rng.random() > slip else rng.choice(p.legal_moves())
        line.append(move)
        p = p.apply(move)
    return line


# ---- small positions against the brute force -------------------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_small_positions_match_brute_force(variant):
    rng = random.Random(f"review-{variant.name}")
    turning = critical = cut = 0
    for i in range(200):
        p = random_position(rng, variant, big=i % 3 == 0)
        line = random_line(rng, p, finish=i % 5 != 0)
        result = review_from(p, line)
        check(result, brute_reference(p, line))
        turning += result.turning_point is not None
        critical += bool(result.critical)
        cut += bool(result.cuts)
    # The sample is not degenerate: turning points and critical moments occur.
    assert turning > 10 and critical > 5, (turning, critical)
    if variant.has_stock:
        assert cut > 3


@given(small_positions(), st.randoms(use_true_random=False))
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_review_matches_brute_force_hypothesis(p, rng):
    line = random_line(rng, p)
    check(review_from(p, line), brute_reference(p, line))


# ---- whole games ---------------------------------------------------------------------------------


def games(variant: str, count: int, seed: str) -> list[Record]:
    """Finished games of ``variant``: random, greedy and careful players in turn (seeded)."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        deal = rng.randrange(1_000_000)
        start = deal_position(variant, deal)
        kind = n % 3
        if kind == 0:
            line = random_line(rng, start)
        elif kind == 1:
            line = greedy_line(rng, start)
        else:
            line = careful_line(rng, start, 0.15)
        out.append(Record(VARIANTS[variant], deal, tuple(line)))
    return out


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_whole_games_match_the_solver_position_by_position(variant):
    won = lost = turned = 0
    for record in games(variant, 9, f"whole-{variant}"):
        result = review(record)
        start = deal_position(variant, record.deal)
        check(result, solver_reference(start, record.moves))
        assert result.record == record and result.position == start
        if variant == "strict":
            # Its first search is the plain solve of the deal (the same search, memos empty).
            assert result.nodes >= solve(start, known_order=False).nodes > 0
        else:
            # The game's own positions are proved first, from a late one back (a won game
            # needs no search for them), so the review may visit fewer nodes than the solve;
            # but it searches something, and a deal that cannot be won it proves lost in
            # full, as the solve does.
            assert result.nodes > 0
            plain = solve(start, known_order=False)
            if plain.status is Status.LOST:
                assert result.nodes >= plain.nodes > 0
        assert result.outcome is not None
        won += result.outcome.won
        lost += not result.outcome.won
        turned += result.turning_point is not None
    assert lost >= 1 and (won >= 1 or variant in ("strict", "overlapping")), (won, lost)


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_whole_games_match_a_plain_search(variant):
    """Every value the review reports, against the plain search of bench/solver.py."""
    for record in games(variant, 30 if variant != "doublets" else 10, f"plain-{variant}"):
        start = deal_position(variant, record.deal)
        check(review(record), plain_reference(start, record.moves))


def test_a_lost_winnable_game_names_its_turning_point_and_an_alternative_that_wins():
    """Standard: play the solver's line, then a move that loses; the review names it."""
    rng = random.Random(3)
    for deal in range(200):
        p = deal_position("standard", deal)
        sol = solve(p)
        if sol.status is not W:
            continue
        # Follow the winning line for a while, then find a move that loses.
        at = rng.randrange(len(sol.line) // 2)
        here = p
        for move in sol.line[:at]:
            here = here.apply(move)
        losing = [m for m in here.legal_moves() if solve(here.apply(m)).status is L]
        if not losing:
            continue
        line = [*sol.line[:at], losing[0]]
        after = here.apply(losing[0])
        line += random_line(rng, after)
        record = Record(VARIANTS["standard"], deal, tuple(line))
        result = review(record)
        assert result.turning_point == at
        assert result.moves[at].move == losing[0]
        assert result.position_before(at) == here  # the board shown at the turning point
        assert result.position_before(0) == p
        assert result.position_before(len(line)) == record.replay().position
        with pytest.raises(IndexError):
            result.position_before(len(line) + 1)
        assert all(m.before is W for m in result.moves[: at + 1])
        assert all(m.after is L for m in result.moves[at:])
        assert result.alternatives and list(result.alternatives) == sorted(
            result.alternatives, key=str
        )
        for alternative in result.alternatives:  # each one really keeps it winnable
            rest = solve(here.apply(alternative))
            assert rest.status is W
            end = here.apply(alternative)
            for move in rest.line:
                end = end.apply(move)
            assert end.is_empty()
        return
    pytest.fail("no deal with a losing move found")


def test_won_games_have_critical_moments_where_one_or_two_pairs_keep_it():
    found = 0
    for record in games("standard", 12, "critical"):
        result = review(record)
        for m in result.moves:
            if m.critical:
                found += 1
                pairs = [c for c in m.choices if isinstance(c.move, Pair)]
                keep = [c for c in pairs if c.status is W]
                assert 1 <= len(keep) <= 2 < len(pairs) + 1 and len(keep) < len(pairs)
                assert m.keepers == tuple(c.move for c in keep)
    assert found >= 3


def test_strict_turning_point_is_the_biggest_cut_and_other_cuts_are_listed():
    found = 0
    rng = random.Random("strict-cuts")
    for deal in range(300):
        start = deal_position("strict", deal)
        if (solve(start, known_order=False).win_probability or 0.0) < 0.2:
            continue
        line = careful_line(rng, start, 0.5)
        result = review(Record(VARIANTS["strict"], deal, tuple(line)))
        if len(result.cuts) < 2:
            continue
        found += 1
        if found == 3:
            break
        biggest = max(cut for _, cut in result.cuts)
        first = next(i for i, cut in result.cuts if cut >= biggest - CHANCE_TOLERANCE)
        assert result.turning_point == first
        for i, cut in result.cuts:
            m = result.moves[i]
            assert isinstance(m.move, Pair)
            assert cut == pytest.approx(m.chance_before - m.chance_after)
            assert m.alternatives  # a move that cut the chance had better ones
        for m in result.moves:
            if isinstance(m.move, TurnStock):
                assert m.cut == 0.0 and m.turned is not None and m.alternatives == ()
    assert found >= 2


# ---- the node budget: unknown, never guessed ----------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_tiny_budget_gives_unknown_never_a_wrong_answer(variant):
    unknown = 0
    finished = games(variant, 6, f"budget-{variant}")
    # Half of each game too, in progress: a won game's own positions need no search, so
    # these are where a tiny budget runs out on them.
    halves = [dataclasses.replace(r, moves=r.moves[: len(r.moves) // 2]) for r in finished]
    for record in finished + halves:
        start = deal_position(variant, record.deal)
        truth = review(record)
        for budget in (1, 3, 10):
            small = review(record, max_nodes=budget)
            pairs = zip(small.moves, truth.moves, strict=True)
            for got, want in pairs:
                for a, b in ((got.before, want.before), (got.after, want.after)):
                    assert a in (U, b)
                    unknown += a is U
                for c, d in zip(got.choices, want.choices, strict=True):
                    assert c.status in (U, d.status)
                    assert c.chance is None or c.chance == pytest.approx(d.chance)
                if got.chance_before is not None:
                    assert got.chance_before == pytest.approx(want.chance_before)
                assert set(got.alternatives) <= set(d.move for d in want.choices)
            if small.turning_point is not None:
                assert small.turning_point == truth.turning_point
            elif truth.turning_point is not None:
                assert small.undecided
        assert start == truth.position
    assert unknown > 0


def test_budget_must_be_a_whole_number():
    record = Record.from_text("standard 7")
    bad_budgets = ((0, "number.too_small"), (1.5, "number.not_whole"), (True, "number.not_whole"))
    for bad, code in bad_budgets:
        with pytest.raises(NestorError) as exc:
            review(record, max_nodes=bad)
        assert exc.value.code == code and exc.value.details["where"] == "max_nodes"


# ---- steps, records, errors -------------------------------------------------------------------


def test_review_steps_yield_between_slices_and_each_move_in_order():
    record = games("vertical", 3, "steps")[1]
    result, items, nones = run_steps(review_steps(record))
    assert tuple(items) == result.moves and [m.index for m in items] == list(range(len(items)))
    assert nones >= len(items)  # at least one pause per move searched
    assert result == review(record)
    seen: list[int] = []
    wrapped = sliced(review_steps(record), lambda m: seen.append(m.index))
    final, moves, pauses = run_steps(wrapped)
    assert final == result and moves == [] and pauses > 0
    assert seen == list(range(len(record.moves)))


def test_a_game_in_progress_and_an_empty_record():
    game = Game("vertical", 7)
    for _ in range(5):
        game.push(game.legal_moves()[-1])
    assert game.outcome() is None
    result = review(game.record())
    assert result.outcome is None and len(result.moves) == 5
    check(result, solver_reference(game.start, game.moves))
    empty = review(Record.from_text("strict 12"))
    assert empty.moves == () and empty.turning_point is None and not empty.undecided
    assert empty.start_chance == pytest.approx(solve(deal_position("strict", 12)).win_probability)


def test_illegal_records_are_refused_before_any_work():
    record = Record.from_text("standard 7 QC-QD 2C-2D")
    assert not deal_position("standard", 7).apply(Pair("QC", "QD")).is_legal(Pair("2C", "2D"))
    steps = review_steps(record)
    with pytest.raises(RecordError) as exc:
        next(steps)
    assert exc.value.code == "record.illegal_move"
    assert exc.value.details == {
        "index": 2, "move": "2C-2D", "reason": "illegal.not_available",
    }
    with pytest.raises(RecordError) as exc:
        next(position_review_steps(deal_position("strict", 7), [TurnStock()]))
    assert exc.value.code == "record.illegal_move" and exc.value.details["index"] == 1


def test_results_are_immutable():
    result = review(games("overlapping", 1, "frozen")[0])
    for value in (result, result.moves[0], result.moves[0].choices[0]):
        field = dataclasses.fields(value)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)
    assert isinstance(result.moves[0].choices, tuple) and isinstance(result.cuts, tuple)
    assert isinstance(result.moves[0].choices[0], Choice)


@given(st.sampled_from(list(VARIANTS)), st.integers(0, 2**32 - 1), st.randoms())
@settings(max_examples=examples(40), deadline=None)
def test_records_round_trip_and_review_the_same(variant, deal, rng):
    line = random_line(rng, deal_position(variant, deal), finish=False)
    record = Record(VARIANTS[variant], deal, tuple(line))
    again = Record.from_text(record.to_text())
    assert again == record
    assert Record.from_json(record.to_json()) == record
    assert review(again).moves == review(record).moves


# ---- the command line: python -m nestor review ---------------------------------------------------


def cli_lines(capsys, *argv: str) -> list[dict]:
    from nestor.cli import main

    assert main(["review", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_cli_prints_one_object_per_move_then_the_summary(capsys):
    for variant in ("standard", "overlapping"):
        for record in games(variant, 3, f"cli-{variant}"):
            lines = cli_lines(capsys, record.to_text())
            expected = review(record)
            *moves, summary = lines
            assert "index" not in summary and all("index" in m for m in moves)
            assert [m["index"] for m in moves] == list(range(len(record.moves)))
            assert [m["move"] for m in moves] == [str(m) for m in record.moves]
            for got, want in zip(moves, expected.moves, strict=True):
                assert got["winnable_before"] is (want.before is W)
                assert got["winnable_after"] is (want.after is W)
                assert got["alternatives"] == [str(m) for m in want.alternatives]
                assert "chance_before" not in got
            assert summary["turning_point"] == expected.turning_point
            assert summary["alternatives"] == sorted(str(m) for m in expected.alternatives)
            assert summary["result"] == record.replay().outcome().result


def test_cli_strict_gives_chances_and_null_winnable(capsys):
    rng = random.Random("cli-strict")
    line = careful_line(rng, deal_position("strict", 12), 0.3)
    record = Record(VARIANTS["strict"], 12, tuple(line))
    *moves, summary = cli_lines(capsys, record.to_text())
    expected = review(record)
    for got, want in zip(moves, expected.moves, strict=True):
        assert got["winnable_before"] is None and got["winnable_after"] is None
        assert got["chance_before"] == want.chance_before
        assert got["chance_after"] == want.chance_after
        assert ("turned" in got) is isinstance(want.move, TurnStock)
    assert summary["turning_point"] == expected.turning_point
    assert summary["chance_at_start"] == expected.start_chance
    assert summary["cuts"] == [{"index": i, "cut": c} for i, c in expected.cuts]


def test_cli_reads_stdin_and_refuses_bad_records_with_exit_2():
    import subprocess
    import sys

    def run(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "nestor", "review", *argv], input=stdin,
            capture_output=True, text=True, timeout=120, check=False,
        )

    good = run(stdin="standard 7 QC-QD\n")
    assert good.returncode == 0 and len(good.stdout.splitlines()) == 2
    assert json.loads(good.stdout.splitlines()[0])["move"] == "QC-QD"
    for text, fragment in (
        ("standard 7 QC-QD 2C-2D", "move 2 (2C-2D) is illegal"),
        ("standard 7 XX", "move 1: bad move 'XX'"),
        ("chess 7", "unknown variant"),
        ("standard", "starts with the variant and the deal number"),
        ("standard -3", "deal"),
    ):
        bad = run(text)
        assert bad.returncode == 2, text
        assert bad.stdout == "" and fragment in bad.stderr, (text, bad.stderr)
    assert run("standard 7", "--max-nodes", "0").returncode == 2
    unknown = run("standard 7 QC-QD", "--max-nodes", "1")
    assert unknown.returncode == 0
    assert json.loads(unknown.stdout.splitlines()[0])["winnable_before"] is None


# ---- the inferences that spare searches -------------------------------------------------------


OPEN_VARIANTS = [name for name, v in VARIANTS.items() if not v.has_stock]


@pytest.mark.parametrize("variant", OPEN_VARIANTS)
def test_a_won_game_is_its_own_proof_for_its_positions(variant):
    """Every position of a won game is winnable without a search (the game is the line):
    even a budget of one node settles them all."""
    won = 0
    for record in games(variant, 24 if variant == "overlapping" else 12, f"won-{variant}"):
        if not record.replay().outcome().won:
            continue
        won += 1
        small = review(record, max_nodes=1)
        assert small.start is W
        assert all(m.before is W and m.after is W for m in small.moves)
        assert small.turning_point is None and not small.undecided
        chosen = [next(c for c in m.choices if c.move == m.move) for m in small.moves]
        assert all(c.status is W for c in chosen)
    assert won >= 2


@given(
    st.sampled_from(OPEN_VARIANTS),
    st.integers(0, 2**32 - 1),
    st.randoms(use_true_random=False),
    st.sampled_from(["random", "greedy", "partial"]),
)
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_shared_review_says_what_fresh_searches_say(variant, deal, rng, player):
    """Whole games, finished or not: the review (the game's positions bisected first, lost
    pairs carried along the game, lines repaired, one memo for every search) against a
    fresh solve of every position and every choice."""
    start = deal_position(variant, deal)
    if player == "greedy":
        line = greedy_line(rng, start)
    else:
        line = random_line(rng, start, finish=player == "random")
    check(review(Record(VARIANTS[variant], deal, tuple(line))), solver_reference(start, line))


def test_pair_of_shares_one_valid_pair_per_two_cards():
    from nestor.solver.model import pair_of

    assert pair_of("7S", "7H") is pair_of("7S", "7H")
    assert pair_of("7S", "7H") == Pair("7H", "7S") and str(pair_of("7S", "7H")) == "7H-7S"
    with pytest.raises(NestorError):
        pair_of("7S", "8H")

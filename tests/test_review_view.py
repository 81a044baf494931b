"""The review in the page: its state (nestor_web/app/review.py), its words and markup
(nestor_web/view/review.py) and its timeline (nestor_web/view/timeline.py), in both
languages, over reviews the engine (nestor.review) works out."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from nestor import Game, Outcome, Pair, Record
from nestor.puzzles import examine, rate
from nestor.review import review
from nestor.solver import Status
from nestor_web.app.puzzle import practice_try
from nestor_web.app.puzzle_record import PuzzleRecord
from nestor_web.app.review import ReviewState
from nestor_web.app.settings import Settings
from nestor_web.view import i18n
from nestor_web.view.puzzle import puzzle_view
from nestor_web.view.review import (
    board_before,
    move_short,
    progress_text,
    review_html,
    timeline_points,
    turning_point_text,
)
from nestor_web.view.timeline import HEIGHT, WIDTH, Point, point_at, timeline_svg, x_of


def first_move_line(variant: str, deal: int) -> Record:
    """The record of ``deal`` played by always taking the first legal move."""
    game = Game(variant, deal)
    while game.outcome() is None:
        game.push(game.legal_moves()[0])
    return game.record()


LOST = first_move_line("standard", 1)  # winnable at the deal, lost at move 13 (index 12)
STRICT = first_move_line("strict", 1)  # the chance cut from 50% to 0% at move 11 (index 10)


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def worked_out(record: Record, max_nodes: int = 50_000) -> ReviewState:
    state = ReviewState(record, max_nodes)
    steps = state.steps()
    while True:
        try:
            next(steps)
        except StopIteration as done:
            assert done.value is True
            return state


def test_the_state_fills_in_move_by_move_and_chooses_the_turning_point():
    state = ReviewState(LOST)
    steps = state.steps()
    seen = [0]
    for _ in steps:
        assert len(state.moves) >= seen[-1]  # only ever grows, in play order
        if len(state.moves) != seen[-1]:
            seen.append(len(state.moves))
            assert [m.index for m in state.moves] == list(range(len(state.moves)))
            assert not state.done
    assert state.done and len(state.moves) == state.total == len(LOST.moves)
    assert len(seen) > 3  # the moves arrived over several slices, not all at the end
    engine = review(LOST)
    assert state.result == engine and engine.turning_point == 12
    assert state.chosen == 12  # the turning point is shown first
    assert state.step(1) and state.chosen == 13
    assert not state.step(1) and state.chosen == 13  # clamped at the last move
    assert state.choose(-4) and state.chosen == 0


def test_a_review_given_up_for_another_stops_early():
    state = ReviewState(LOST)
    alive = [True]
    steps = state.steps(lambda: alive[0])
    next(steps)
    alive[0] = False
    with pytest.raises(StopIteration) as stopped:
        next(steps)
    assert stopped.value.value is False and not state.done


def test_a_move_chosen_before_the_end_stays_chosen():
    state = ReviewState(LOST)
    steps = state.steps()
    next(steps)
    state.choose(3)
    for _ in steps:
        pass
    assert state.chosen == 3


def test_the_turning_point_is_named_marked_and_its_alternatives_offered():
    state = worked_out(LOST)
    html = review_html(state, Settings(), can_try=True)
    assert "Move 13, K♦ with K♠, lost the game." in html
    assert re.findall(r'data-turning-point="(\d+)"', html) == ["12"]
    entry = re.search(r"<button[^>]*data-turning-point=\"12\"[^>]*>", html)
    assert entry is not None and 'data-review-go="12"' in entry.group(0)
    assert re.findall(r'data-alternative="([^"]+)"', html) == ["KH-KS"]
    assert "K♥ with K♠" in html
    assert 'data-review-command="try"' in html
    assert "Before move 13: K♦ with K♠" in html
    # Every move is listed with its state: winnable up to the turning point, then lost.
    states = re.findall(r'data-review-go="\d+" data-state="(\w+)"', html)
    assert states == ["winnable"] * 12 + ["lost"] * 2
    assert "lost the game" in html and "already lost" in html
    assert review_html(state, Settings(), can_try=False).count('data-review-command="try"') == 0


def test_the_board_shown_is_the_position_before_the_chosen_move():
    before = Record(LOST.variant, LOST.deal, LOST.moves[:12]).replay().position
    html = board_before(LOST, 12, Settings())
    shown = re.findall(r'data-card="(\w\w)"', html)
    assert sorted(shown) == sorted([*(c for col in before.columns for c in col), *before.reserve])
    marked = re.findall(r'data-card="(\w\w)" data-next', html)
    assert sorted(marked) == sorted(LOST.moves[12].cards)
    assert "data-available" not in html  # a picture: nothing to tap


def test_the_review_in_german():
    state = worked_out(LOST)
    i18n.set_language("de")
    html = review_html(state, Settings(), can_try=True)
    assert "Zug 13, K♦ mit K♠, hat das Spiel verloren." in html
    assert "Züge, die es gewinnbar gehalten hätten:" in html
    assert "Von hier aus versuchen" in html
    assert "Standard, Spiel 1: verloren" in html
    assert "Try from here" not in html and "Move 13" not in html
    assert move_short(LOST.moves[0]).count(" mit ") == 1


def test_strict_names_the_biggest_cut_with_chances():
    state = worked_out(STRICT)
    engine = review(STRICT)
    assert engine.turning_point == 10 and engine.cuts == ((10, 0.5),)
    html = review_html(state, Settings(), can_try=True)
    assert "Move 11, K♦ with K♠, cut the chance to win most: from 50% to 0%." in html
    assert re.findall(r'data-turning-point="(\d+)"', html) == ["10"]
    assert 'data-alternative="KH-KS"' in html and "K♥ with K♠ (50%)" in html
    assert "kept the best chance" in html  # Strict's critical moments
    # The move list shows the chance after each move.
    notes = re.findall(r'<span class="review-note">([^<]+)</span>', html)
    assert notes[:10] == ["50%"] * 10 and notes[10] == "0%"
    i18n.set_language("de")
    assert "senkte die Gewinnchance am stärksten: von 50 % auf 0 %" in review_html(
        state, Settings(), can_try=True
    )


def test_unknown_positions_are_shown_as_unknown_never_guessed():
    state = worked_out(LOST, max_nodes=1)
    assert any(m.after is Status.UNKNOWN for m in state.moves)
    html = review_html(state, Settings(), can_try=True)
    states = re.findall(r'data-review-go="\d+" data-state="(\w+)"', html)
    for item, shown in zip(state.moves, states, strict=True):
        expected = {Status.WINNABLE: "winnable", Status.LOST: "lost"}.get(item.after, "unknown")
        assert shown == expected
    assert "unknown" in states
    svg = re.search(r"<svg.*?</svg>", html, re.S)
    assert svg is not None and "tl-unknown" in svg.group(0)
    if state.result is not None and state.result.turning_point is None:
        assert 'data-turning-point' not in html


def test_words_for_games_with_no_turning_point():
    won = Game("doublets", 0)
    from nestor.review import review as engine_review

    # A game still in progress after a few good moves, and a deal lost from the start.
    while len(won.moves) < 3:
        won.push(won.legal_moves()[0])
    in_progress = engine_review(won.record())
    if in_progress.turning_point is None and in_progress.start is Status.WINNABLE:
        assert turning_point_text(in_progress) == (
            "No move so far has lost the game: it can still be won."
        )
    hopeless = first_move_line("standard", 2)
    verdict = engine_review(hopeless)
    assert verdict.start is Status.LOST and verdict.outcome is not Outcome.WON
    assert turning_point_text(verdict) == (
        "This deal could not be won from the start: no move lost it."
    )
    state = ReviewState(hopeless)
    assert progress_text(state).startswith("Working out the review with the solver: 0 of")


def test_the_timeline_svg_has_a_point_per_move_the_turning_mark_and_the_chosen_ring():
    state = worked_out(LOST)
    html = review_html(state, Settings(), can_try=True)
    svg_text = re.search(r"<svg.*?</svg>", html, re.S).group(0)  # type: ignore[union-attr]
    svg = ET.fromstring(svg_text.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    points = [c for c in svg.iter(f"{ns}circle") if "tl-point" in (c.get("class") or "")]
    assert [int(c.get("data-review-go") or -1) for c in points] == list(range(14))
    xs = [float(c.get("cx") or 0) for c in points]
    assert xs == sorted(xs) and xs[0] > x_of(0, 14)
    ys = [float(c.get("cy") or 0) for c in points]
    assert len(set(ys[:12])) == 1 and ys[12] > ys[0] and ys[13] == ys[12]  # lost is lower
    turning = [e for e in svg.iter(f"{ns}line") if e.get("data-turning-mark") == "12"]
    assert len(turning) == 1 and float(turning[0].get("x1") or 0) == pytest.approx(xs[12], 0.1)
    chosen = [c for c in svg.iter(f"{ns}circle") if c.get("class") == "tl-chosen"]
    assert len(chosen) == 1 and float(chosen[0].get("cx") or 0) == pytest.approx(xs[12], 0.1)
    assert 'role="slider"' in html and 'aria-valuenow="13"' in html
    assert 'aria-valuemax="14"' in html


def test_the_timeline_breaks_its_line_at_unknown_points_and_skips_pending_ones():
    points = [Point("winnable", 1.0), Point("unknown"), Point("winnable", 1.0),
              Point("lost", 0.0)]
    svg = timeline_svg(Point("winnable", 1.0), points, 6, None, None, ("yes", "no"))
    lines = re.findall(r'<polyline class="tl-line" points="([^"]+)"', svg)
    assert [len(p.split()) for p in lines] == [2, 2]  # deal + move 1, then moves 3 and 4
    assert svg.count('class="tl-point') == 4  # moves 5 and 6 are not reviewed yet
    assert 'class="tl-point tl-unknown" data-review-go="1"' in svg
    assert "tl-turning" not in svg and "tl-chosen" not in svg
    assert ">yes</text>" in svg and ">no</text>" in svg


def test_a_tap_on_the_timeline_finds_the_nearest_move():
    total = 14
    for index in range(total):
        x = x_of(index + 1, total)
        assert point_at(x / WIDTH, total) == index
        assert point_at((x + 3) / WIDTH, total) == index
    assert point_at(0.0, total) == 0 and point_at(1.0, total) == total - 1
    assert point_at(0.5, 0) is None


# ---- "Practise this": the turning point as a puzzle ------------------------------------------

PRACTISED = Record.from_text(  # the tips player's game of standard 703 (seed 0), found by a
    "standard 703 KC-KH AH-AS QC-QH 3C-3S 7D-7H 8D-8H 6D-6S TC-TS AC-AD JH-JS 4C-4H "
    "8C-8S 9D-9H 2C-2D KD-KS"  # script: lost at move 14, 2C-2D, where only 2C-2S kept it
)
NO_PUZZLE = Record.from_text(  # the tips player's game of standard 3: lost at move 8, 3C-3H,
    "standard 3 QD-QH 4D-4H 2D-2H JD-JS TC-TD 8D-8S KD-KH 3C-3H 7C-7D 5D-5H AD-AH"
)  # where only 5D-5H kept it winnable, but AH-AS loses after more than 8 pairs


def test_a_turning_point_that_is_a_puzzle_is_practised_as_the_players_own_puzzle():
    state = ReviewState(PRACTISED)
    for _ in state.steps():
        if not state.done:
            assert state.practice is None  # examined only once the review is done
    assert state.result is not None and state.result.turning_point == 13
    verdict = state.practice
    assert verdict is not None
    assert verdict.answer == Pair("2C", "2S") and verdict.horizon == 2
    html = review_html(state, Settings(), can_try=True)
    assert html.count('data-action="practise"') == 1
    assert ">Practise this</button>" in html
    assert "Before move 14 only one pair kept the game winnable" in html

    attempt = practice_try(PRACTISED, 13, verdict)
    puzzle = attempt.puzzle
    before = Record(PRACTISED.variant, 703, PRACTISED.moves[:13]).replay().position
    assert (puzzle.id, puzzle.variant, puzzle.deal) == (0, "standard", 703)
    assert puzzle.before == PRACTISED.moves[:13] and attempt.start == before
    assert (puzzle.answer, puzzle.horizon) == (Pair("2C", "2S"), 2)
    assert puzzle.rating == rate(before, verdict) == 1747
    assert set(attempt.choices) == {Pair("2C", "2S"), Pair("2D", "2S"), Pair("2C", "2D")}
    view = puzzle_view(attempt, PuzzleRecord(), Settings())
    assert view.title == "Puzzle from your game: Standard, rated 1,747"

    # The move the player played fails, and its refutation plays out as any puzzle's.
    attempt.play(PRACTISED.moves[13])
    assert attempt.phase == "refute"
    assert attempt.line == (Pair("2C", "2D"), Pair("KD", "KS"))
    while attempt.phase == "refute":
        attempt.step()
    assert attempt.phase == "failed" and attempt.first_try(1) is None  # counted nowhere

    i18n.set_language("de")
    html = review_html(state, Settings(), can_try=True)
    assert ">Diesen Moment üben</button>" in html and "Practise" not in html


def test_a_turning_point_that_is_no_puzzle_offers_nothing_to_practise():
    state = worked_out(NO_PUZZLE)
    assert state.result is not None and state.result.turning_point == 7
    assert state.result.alternatives == (Pair("5D", "5H"),)  # one pair kept it winnable
    assert examine(state.result.position_before(7)) is None
    assert state.practice is None
    assert 'data-action="practise"' not in review_html(state, Settings(), can_try=True)
    strict = worked_out(STRICT)  # Strict has no puzzles: its turning point is not examined
    assert strict.result is not None and strict.result.turning_point is not None
    assert strict.practice is None


def test_the_timeline_points_hold_each_moves_standing() -> None:
    start, points = timeline_points(worked_out(LOST))
    assert start == Point("winnable", 1.0)
    assert points[11] == Point("winnable", 1.0) and points[12] == Point("lost", 0.0)
    assert [p.state for p in points] == ["winnable"] * 12 + ["lost"] * (len(points) - 12)
    start, points = timeline_points(worked_out(STRICT))
    assert start.state == "winnable" and points[10] == Point("lost", 0.0)
    assert points[9].state == "winnable" and 0 < (points[9].value or 0) < 1
    assert timeline_points(ReviewState(LOST)) == (Point("pending", None), [])

"""The page's puzzle mode, without a browser: a try and its refutation, the player's record
(rating, streak, history), its stored form, two tabs and backups."""

from __future__ import annotations

import json
import random
from datetime import date

import pytest
from webpage import MemoryCopy, Page, SharedStore

from nestor import NestorError, Pair
from nestor.puzzles import daily_puzzle, get_puzzle, puzzles, updated_rating
from nestor_web.app.puzzle import PuzzleTry, next_try, puzzle_request
from nestor_web.app.puzzle_record import START_RATING, PuzzleRecord, Try
from nestor_web.app.settings import Settings
from nestor_web.storage.keys import PUZZLES_KEY, SEQ_KEY, UNREADABLE, MemoryStore
from nestor_web.storage.progress import ProgressError, progress_text, read_progress
from nestor_web.storage.puzzle_codec import record_from_text, record_to_text
from nestor_web.view.i18n import set_language
from nestor_web.view.puzzle import puzzle_view
from nestor_web.view.words import problem_text

DAY = date(2026, 12, 5)


def wrong_pair(attempt: PuzzleTry) -> Pair:
    return next(p for p in attempt.choices if p != attempt.puzzle.answer)


# ---- a try ---------------------------------------------------------------------------------


def test_the_answer_solves_it_by_tapping_its_two_cards() -> None:
    attempt = PuzzleTry(get_puzzle(2))
    first, second = attempt.puzzle.answer.cards
    attempt.tap(first)
    assert attempt.selected == first and attempt.phase == "choose"
    attempt.tap(second)
    assert attempt.phase == "solved"
    assert attempt.first_try(10) == Try(2, get_puzzle(2).rating, True, 10)


def test_a_wrong_pair_fails_then_its_refutation_plays_out_to_no_pair_then_the_answer() -> None:
    attempt = PuzzleTry(get_puzzle(2))
    wrong = wrong_pair(attempt)
    attempt.play(wrong)
    assert attempt.phase == "refute" and attempt.line[0] == wrong
    assert attempt.first_try(5) == Try(2, get_puzzle(2).rating, False, 5)  # counted at once
    view = puzzle_view(attempt, PuzzleRecord(), Settings())
    assert view.result == "failed" and "data-answer" not in view.board
    steps = 0
    while attempt.phase == "refute":
        attempt.step()
        steps += 1
    assert steps == len(attempt.line)  # every pair after the wrong one, then the answer
    lost = attempt.start
    for pair in attempt.line:
        lost = lost.apply(pair)
    assert lost.pairs() == ()  # the refutation ends with no pair left
    view = puzzle_view(attempt, PuzzleRecord(), Settings())
    assert attempt.phase == "failed" and view.result == "failed"
    assert view.board.count("data-answer") == 2 and "data-available" not in view.board


def test_the_hint_shows_the_answer_and_counts_as_failed() -> None:
    attempt = PuzzleTry(get_puzzle(8))
    attempt.hint()
    assert attempt.phase == "failed" and attempt.hinted
    counted = attempt.first_try(1)
    assert counted is not None and not counted.solved
    assert attempt.play(attempt.puzzle.answer) == ()  # a try is a try: no second choice
    assert not hasattr(attempt, "undo")


def test_a_puzzle_link_names_a_shipped_puzzle_or_is_reported() -> None:
    attempt, problem = puzzle_request("?puzzle=7", DAY)
    assert problem is None and attempt is not None and attempt.puzzle.id == 7
    for bad in ("0", "abc", str(len(puzzles()) + 1), "", "1e3", "99999999999999"):
        attempt, problem = puzzle_request(f"?puzzle={bad}", DAY)
        assert attempt is None and problem is not None and problem.code == "link.puzzle"
    assert problem is not None
    set_language("de")
    try:
        assert "Aufgabe" in problem_text(problem)
    finally:
        set_language("en")
    assert puzzle_request("?variant=standard&deal=3", DAY) == (None, None)
    daily, _ = puzzle_request("?puzzle=daily", DAY)
    assert daily is not None and daily.puzzle == daily_puzzle(DAY) and daily.daily == DAY


# ---- the record ------------------------------------------------------------------------------


def test_rating_streak_and_history_follow_the_first_tries_in_order() -> None:
    record = PuzzleRecord()
    assert record.rating() == START_RATING == 1500
    tries = [Try(3, 1300, True, 30), Try(1, 1700, False, 10), Try(2, 1500, True, 20)]
    for one in tries:
        assert record.add(one)
    assert not record.add(Try(3, 1300, False, 40))  # a second try of a puzzle counts nowhere
    expected = START_RATING
    for one in sorted(tries, key=lambda t: t.at):
        expected = updated_rating(expected, one.rating, one.solved)
    assert record.rating() == expected != START_RATING
    assert record.streak() == 2 and record.solved() == 2
    record.add(Try(4, 1500, False, 50))
    assert record.streak() == 0


def test_two_records_unite_keeping_the_earlier_try_of_each_puzzle_in_either_order() -> None:
    a, b = PuzzleRecord(), PuzzleRecord()
    a.add(Try(1, 1400, True, 10), DAY)
    a.add(Try(2, 1400, True, 30))
    b.add(Try(2, 1400, False, 20))
    b.add(Try(5, 1400, False, 40), date(2026, 12, 6))
    ab, ba = a.copy(), b.copy()
    assert ab.unite(b) and ba.unite(a)
    assert ab == ba and ab.tries[2].at == 20 and set(ab.daily) == {DAY, date(2026, 12, 6)}
    assert not ab.unite(a)  # nothing new


def test_next_puzzle_is_near_the_rating_and_not_tried() -> None:
    record = PuzzleRecord()
    for puzzle in puzzles()[:40]:
        record.add(Try(puzzle.id, puzzle.rating, True, puzzle.id))
    attempt = next_try(record, random.Random(1), DAY)
    assert attempt.puzzle.id not in record.tries
    assert abs(attempt.puzzle.rating - record.rating()) <= 150


# ---- stored ----------------------------------------------------------------------------------


def test_the_stored_record_reads_back_and_refuses_bad_values() -> None:
    record = PuzzleRecord()
    record.add(Try(4, 1200, True, 1_000), DAY)
    record.add(Try(9, 2000, False, 2_000))
    assert record_from_text(record_to_text(record)) == record
    good = json.loads(record_to_text(record))
    bad_values = [
        ("tries", [[0, 1200, 1, 5]]), ("tries", [[4, 3000, 1, 5]]), ("tries", [[4, 1200, 2, 5]]),
        ("tries", [[4, 1200, True, 5]]), ("tries", [[4, 1200, 1, -1]]),
        ("tries", [[4, 1200, 1]]), ("tries", "x"), ("daily", [["2026-02-30", 4, 1200, 1, 5]]),
        ("daily", [[4, 1200, 1, 5]]), ("version", 2), ("version", True),
        ("tries", [["<b>4</b>", 1200, 1, 5]]),
    ]
    for key, value in bad_values:
        with pytest.raises(NestorError):
            record_from_text(json.dumps({**good, key: value}))


def test_an_unreadable_stored_record_is_set_aside_reported_and_started_again() -> None:
    store = MemoryStore({PUZZLES_KEY: '{"version":1,"tries":[[1,1,1,1]]}'})
    page = Page(store, "", random.Random(0), keep_board=False)
    assert page.storage.puzzles() == PuzzleRecord()
    assert store.data[PUZZLES_KEY + UNREADABLE] == '{"version":1,"tries":[[1,1,1,1]]}'
    assert [p.code for p in page.storage.stores.take_problems()] == ["puzzles.unreadable"]
    assert record_from_text(store.data[PUZZLES_KEY]) == PuzzleRecord()


def test_a_try_is_saved_durably_and_two_tabs_keep_both_tries() -> None:
    shared, durable = SharedStore(), MemoryCopy()
    one = Page(shared.tab(), "", random.Random(1), durable=durable, keep_board=False)
    two = Page(shared.tab(), "", random.Random(2), durable=durable, keep_board=False)
    mine = one.storage.puzzles()
    mine.add(Try(3, 1300, True, 10))
    seq = int(durable.data.get(SEQ_KEY, "0"))
    one.storage.save_puzzles(mine)
    assert record_from_text(durable.data[PUZZLES_KEY]).tries.keys() == {3}
    assert int(durable.data[SEQ_KEY]) > seq  # a save of its own, numbered
    theirs = PuzzleRecord()  # tab two never read tab one's try
    theirs.add(Try(7, 1600, False, 20), DAY)
    two.storage.save_puzzles(theirs)
    again = Page(shared.tab(), "", random.Random(3), durable=durable, keep_board=False)
    both = again.storage.puzzles()
    assert both.tries.keys() == {3, 7} and both.daily == {DAY: Try(7, 1600, False, 20)}
    assert both.rating() == updated_rating(updated_rating(1500, 1300, True), 1600, False)


def test_the_record_survives_a_backup_round_trip_merge_and_replace() -> None:
    record = PuzzleRecord()
    record.add(Try(5, 1500, True, 100), DAY)
    kept = Page(MemoryStore({PUZZLES_KEY: record_to_text(record)}), keep_board=False)
    text = kept.storage.export_progress(kept.session)
    read = read_progress(text)
    assert read.parts.puzzles == record
    here = PuzzleRecord()
    here.add(Try(6, 1500, False, 50))
    merged = Page(MemoryStore({PUZZLES_KEY: record_to_text(here)}), keep_board=False)
    merged.storage.restore(merged.session, read, "merge")
    assert record_from_text(merged.store.get(PUZZLES_KEY) or "").tries.keys() == {5, 6}
    page = Page(MemoryStore(), "", random.Random(0), durable=MemoryCopy(), keep_board=False)
    page.storage.restore(page.session, read, "replace")
    assert page.storage.puzzles() == record
    data = json.loads(text)
    data["puzzles"]["tries"][0][0] = -3
    with pytest.raises(ProgressError) as refused:
        read_progress(json.dumps(data))
    assert refused.value.code == "progress.puzzles"
    empty = Page(MemoryStore(), keep_board=False)
    assert "puzzles" not in json.loads(progress_text(read_progress(empty.storage.export_progress(
        empty.session)).parts, DAY))  # none tried: the file as before

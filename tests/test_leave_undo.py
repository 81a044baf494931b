"""Leaving a game is undoable (New deal, Restart, a change of variant), a lost game counts
at its losing move, and the timer (issue 11, play feel)."""

from __future__ import annotations

import json
import random
from datetime import date

import pytest
from helpers import Clock
from webpage import Page

from nestor import Game, NestorError, Outcome, Pair, deal_position, get_variant
from nestor.daily import daily_deal
from nestor_web.app.events import DealChanged, TookBack
from nestor_web.app.settings import SOLVE_PAUSE_MS, SOLVE_SPEEDS, Settings
from nestor_web.storage.codecs import game_from_text
from nestor_web.storage.keys import ARCHIVE_KEY, SAVE_KEY, STATS_KEY, MemoryStore
from nestor_web.storage.stats_codec import stats_from_text
from nestor_web.view.board import board_view


def page_at(store: MemoryStore, variant: str = "standard", deal: int = 3, **kw: object) -> Page:
    return Page(store, f"?variant={variant}&deal={deal}", random.Random(0), **kw)  # type: ignore[arg-type]


def archive(store: MemoryStore) -> dict[str, str]:
    return json.loads(store.data.get(ARCHIVE_KEY, "{}"))


def state(page: Page) -> tuple[object, ...]:
    s = page.session
    return (s.key, s.game.all_moves, s.game.cursor, s.help, s.saved().elapsed_ms)


@pytest.mark.parametrize("leave", ["new", "variant", "restart"])
def test_undo_right_after_leaving_brings_the_game_back_and_the_statistics_stay(
    leave: str,
) -> None:
    store = MemoryStore()
    clock = Clock(1_000_000)
    page = page_at(store, timer_clock=clock)
    page.play_pairs(3)
    clock.now += 7000
    page.undo()  # a redo stack, which must come back too
    before = state(page)
    stats_before = page.session.stats.copy()
    stored_stats = store.data[STATS_KEY]
    if leave == "new":
        events = page.new_deal()
    elif leave == "variant":
        events = page.new_deal("vertical")
    else:
        events = page.restart()
    assert isinstance(events[0], DealChanged) and events[0].left
    assert page.session.game.all_moves == ()
    assert page.view().can_undo  # Undo is offered: it brings the game back
    assert page.session.stats == stats_before
    if leave != "restart":
        assert "standard/3" in archive(store)  # kept as a game in progress meanwhile
    events = page.undo()
    assert events == (DealChanged("standard", 3, resumed=True, returned=True),)
    assert state(page) == before
    assert page.session.game.can_redo()
    assert page.session.stats == stats_before
    assert store.data[STATS_KEY] == stored_stats  # nothing was settled, nothing to take back
    assert "standard/3" not in archive(store)  # in play again, not also in the archive
    assert game_from_text(store.data[SAVE_KEY]).game.all_moves == before[1]
    assert page.session.stats.deal_result("standard", 3) == "playing"
    assert page.announcement == "Back to the game you left, as you left it."


def test_the_game_left_settles_as_lost_at_the_first_move_of_the_next() -> None:
    store = MemoryStore()
    page = page_at(store)
    page.play_pairs(2)
    page.new_deal()
    assert page.announcement == "Left the game in progress: Undo brings it back."
    page.new_deal()  # another deal with no move: the game left can still come back
    assert page.session.left is not None
    assert page.session.stats.deal_result("standard", 3) == "playing"
    page.play_pairs(1)  # the first move of the new game: Undo takes that move back now
    assert page.session.left is None
    assert page.session.stats.deal_result("standard", 3) == "lost"
    assert stats_from_text(store.data[STATS_KEY]).deal_result("standard", 3) == "lost"
    assert [s.result for s in page.session.stats.history("standard")] == ["lost"]
    assert isinstance(page.undo()[0], TookBack)
    assert not page.undo()  # the game left does not come back any more
    assert page.session.key != ("standard", 3)


def test_a_game_with_no_move_or_a_won_game_is_not_kept_for_undo() -> None:
    page = page_at(MemoryStore())
    assert page.new_deal() and page.session.left is None
    assert not page.view().can_undo
    assert not page.undo()


def test_going_back_to_the_game_left_by_its_link_needs_no_undo() -> None:
    store = MemoryStore()
    clock = Clock(1_000_000)
    page = page_at(store, timer_clock=clock)
    page.play_pairs(2)
    clock.now += 5_000
    before = state(page)
    page.new_deal()
    clock.now += 7_000  # on the new deal: not the game left's time
    page.open_deal("standard", 3)  # the browser's Back button
    assert state(page)[:4] == before[:4]
    assert state(page)[4] == 5_000  # its time up to leaving it
    assert page.session.left is None
    assert page.session.stats.deal_result("standard", 3) == "playing"


def test_opening_a_link_settles_the_saved_game_it_replaces() -> None:
    store = MemoryStore()
    page = page_at(store)
    page.play_pairs(2)
    again = page_at(store, deal=4)  # a reload on another deal's link
    assert again.session.left is None
    assert again.session.stats.deal_result("standard", 3) == "lost"


def lost_line(
    variant: str = "standard", deals: int = 60, start: int = 0
) -> tuple[int, list[Pair]]:
    """A deal and a line of first legal pairs that ends lost."""
    for deal in range(start, start + deals):
        game = Game(variant, deal)
        while game.outcome() is None:
            game.push(game.legal_moves()[0])
        if game.outcome() is Outcome.NO_PAIR:
            return deal, [m for m in game.moves if isinstance(m, Pair)]
    raise AssertionError("no lost line")


def test_a_lost_game_counts_at_its_losing_move_and_undo_takes_the_loss_back() -> None:
    store = MemoryStore()
    deal, line = lost_line()
    page = page_at(store, deal=deal)
    session = page.session
    for move in line:
        page.tap(move.first)
        page.tap(move.second)
    assert session.position.outcome() is Outcome.NO_PAIR
    assert session.stats.deal_result("standard", deal) == "lost"
    assert session.stats.summary("standard").streak == 0
    assert "Streak: 0 (best 0)." in page.view().status
    assert stats_from_text(store.data[STATS_KEY]).deal_result("standard", deal) == "lost"
    page.undo()  # the game goes on: not lost yet
    assert session.stats.deal_result("standard", deal) == "playing"
    assert [(s.result, s.taken_back) for s in session.stats.history(taken_back=True)] == [
        ("lost", True)
    ]
    assert stats_from_text(store.data[STATS_KEY]) == session.stats
    page.redo()  # lost again: settled again
    assert session.stats.deal_result("standard", deal) == "lost"
    assert [s.result for s in session.stats.history()] == ["lost"]
    played = session.stats.summary("standard").played
    assert played == 1


def test_the_streak_on_the_losing_screen_is_the_new_value() -> None:
    store = MemoryStore()
    from nestor.solver import solve

    won = next(d for d in range(100) if solve(deal_position("standard", d)).line)
    page = page_at(store, "standard", won)

    for move in solve(page.session.position).line:
        assert isinstance(move, Pair)
        page.tap(move.first)
        page.tap(move.second)
    assert "Streak: 1 (best 1)." in page.view().status
    deal, line = lost_line("standard", 100, won + 1)
    page.open_deal("standard", deal)
    for move in line:
        page.tap(move.first)
        page.tap(move.second)
    assert page.view().status.endswith("Streak: 0 (best 1).")


# ---- the timer ----------------------------------------------------------------------------


def test_the_timer_runs_from_the_first_move_pauses_when_hidden_and_is_saved() -> None:
    store = MemoryStore()
    clock = Clock(1_000_000)
    page = page_at(store, timer_clock=clock)
    session = page.session
    clock.now += 5000
    assert session.elapsed_ms() == 0 and not session.timer_running()  # no move yet
    page.play_pairs(1)
    clock.now += 61_000
    assert session.elapsed_ms() == 61_000
    assert page.view().timer == "1:01"
    page.set_visible(False)
    clock.now += 600_000  # hidden: not counted
    assert session.elapsed_ms() == 61_000
    assert game_from_text(store.data[SAVE_KEY]).elapsed_ms == 61_000  # saved when hidden
    page.set_visible(True)
    clock.now += 2000
    page.play_pairs(1)
    assert session.saved().elapsed_ms == 63_000
    again = page_at(store, timer_clock=clock)  # a reload
    assert again.session.elapsed_ms() == 63_000
    clock.now += 1000
    assert again.session.elapsed_ms() == 64_000
    again.restart()
    assert again.session.elapsed_ms() == 0
    again.undo()  # the game left comes back with its time
    assert again.session.elapsed_ms() == 64_000


def test_the_timer_stops_when_the_game_ends() -> None:
    clock = Clock(1_000_000)
    deal, line = lost_line()
    page = page_at(MemoryStore(), deal=deal, timer_clock=clock)
    for move in line:
        clock.now += 1000
        page.tap(move.first)
        page.tap(move.second)
    clock.now += 50_000
    assert page.session.elapsed_ms() == 1000 * (len(line) - 1)
    assert not page.session.timer_running()


def test_a_clock_set_back_adds_no_negative_time() -> None:
    clock = Clock(1_000_000)
    page = page_at(MemoryStore(), timer_clock=clock)
    page.play_pairs(1)
    clock.now -= 10_000
    page.play_pairs(1)
    assert page.session.elapsed_ms() == 0


def test_pairs_count_on_the_board() -> None:
    page = page_at(MemoryStore())
    assert page.view().pairs == 0
    page.play_pairs(3)
    assert page.view().pairs == 3
    page.undo()
    assert page.view().pairs == 2


def test_an_old_save_without_time_reads_as_zero() -> None:
    game = Game("standard", 3)
    text = json.dumps({"version": 1, **game.to_json(), "hints": 0, "solver_moves": 0})
    assert game_from_text(text).elapsed_ms == 0
    with pytest.raises(NestorError):
        game_from_text(text[:-1] + ',"elapsed_ms":-1}')


# ---- the speed of Solve --------------------------------------------------------------------


def test_solve_speed_setting() -> None:
    settings = Settings()
    assert settings.solve_speed == "normal"
    for speed in SOLVE_SPEEDS:
        settings.set("solve_speed", speed)
    with pytest.raises(NestorError):
        settings.set("solve_speed", "warp")
    assert SOLVE_PAUSE_MS["slow"] > SOLVE_PAUSE_MS["normal"] > SOLVE_PAUSE_MS["fast"] > 0
    assert get_variant("standard") and deal_position("standard", 0)
    session_view = board_view(page_at(MemoryStore()).session)
    assert session_view.can_finish is False


def test_undo_after_leaving_a_past_daily_deal_brings_back_its_date_and_last_move_marks() -> None:
    from datetime import date

    day, past = date(2026, 12, 1), date(2026, 11, 28)
    page = Page(MemoryStore(), today=lambda: day, timer_clock=Clock(1_000_000))
    page.open_daily(past)
    assert page.session.daily == past
    for _ in range(3):  # moves until one uncovers a card, so the board marks it
        page.play_pairs(1)
        if page.session.last_uncovered:
            break
    marks = page.session.last_uncovered
    assert marks
    query, board = page.session.query(), page.view()
    page.new_deal()
    assert page.session.daily is None and page.session.last_uncovered == ()
    page.undo()
    assert page.session.daily == past  # still that date's daily deal, with its link
    assert page.session.query() == query == f"?daily={past.isoformat()}"
    assert page.session.last_uncovered == marks  # its board as it was left
    assert page.view() == board


@pytest.mark.parametrize("saved_between", ["move", "new deal", "neither"])
def test_back_to_the_game_left_keeps_its_moves_whatever_was_saved_first(
    saved_between: str,
) -> None:
    """Back right after New deal brings the game left with its moves, whether the save
    after its last move, the one after New deal, or neither has run yet (the page saves in a
    later task; CI once saw Back bring deal 7 back with no move)."""
    store = MemoryStore()
    clock = Clock(1_000_000)
    page = page_at(store, timer_clock=clock)
    first = page.session.position.pairs()[0]
    page.command(lambda: page.session.tap(first.first), settle=saved_between == "move")
    page.command(lambda: page.session.tap(first.second), settle=saved_between == "move")
    assert page.session.game.cursor == 1
    clock.now += 4_000  # the game left was played for 4 s
    before = state(page)
    page.command(lambda: page.session.new_deal(), settle=saved_between == "new deal")
    clock.now += 9_000  # not counted: the time on the other deal
    assert page.session.key != ("standard", 3)
    # The browser's Back button, its popstate handled before the save's task (the page's
    # tasks may run in either order), then the save.
    page.controller.run(lambda: page.session.open_deal("standard", 3), animate=False)
    page.tasks.run_all()
    assert state(page)[:4] == before[:4]
    assert state(page)[4] == 4_000  # its time up to leaving it
    assert page.session.left is None
    assert "standard/3" not in archive(store)  # in play, not on the shelf
    assert game_from_text(store.data[SAVE_KEY]).game.all_moves == before[1]


@pytest.mark.parametrize("way", ["back", "daily"])
def test_coming_back_to_a_game_left_takes_its_loss_back_in_the_history_too(way: str) -> None:
    """New deal, a pair there (the game left settles as lost), then back to the game left
    from the games kept (the browser's Back or its link; the daily deal's button or link):
    the game goes on, so its loss is taken back as Undo takes back a losing move's; won, the
    history holds its win alone, the counts as before."""
    store = MemoryStore()
    day = date(2026, 12, 1)
    page = page_at(store, *daily_deal(day), today=lambda: day)
    key = page.session.key
    page.play_pairs(2)
    page.new_deal()
    page.play_pairs(1)
    other = page.session.key
    assert page.session.stats.deal_result(*key) == "lost"
    if way == "back":  # the address's deal, resumed from the games kept
        page.open_deal(*key)
    else:
        page.open_daily(day)
    session = page.session
    assert session.key == key and session.game.cursor == 2
    assert session.stats.deal_result(*key) == "playing"
    page.win()
    assert [(s.variant, s.deal, s.result) for s in session.stats.history()] == [
        (*other, "lost"), (*key, "won")]
    taken = session.stats.history(taken_back=True)
    assert [(s.result, s.taken_back) for s in taken if (s.variant, s.deal) == key] == [
        ("lost", True), ("won", False)]
    counts = session.stats.summary(key[0])
    assert (counts.played, counts.won, counts.streak) == (2, 1, 1)
    saved = stats_from_text(store.data[STATS_KEY])
    assert saved.history() == session.stats.history()


def test_a_game_lost_at_its_losing_move_and_opened_again_keeps_its_loss() -> None:
    """Only a game in progress comes back to life: one that ended lost, opened again from its
    link, is still lost (its loss stays)."""
    store = MemoryStore()
    deal, line = lost_line()
    page = page_at(store, deal=deal)
    for move in line:
        page.play_pair(move.first, move.second)
    assert page.session.position.outcome() is Outcome.NO_PAIR
    page.new_deal()
    page.play_pairs(1)
    page.open_deal("standard", deal)
    assert page.session.stats.deal_result("standard", deal) == "lost"
    assert [s.result for s in page.session.stats.history("standard") if s.deal == deal] == [
        "lost"]

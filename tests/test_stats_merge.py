"""Two tabs' statistics merge (nestor_web.app.statistics, "Two tabs"): a union that never
loses a result, the same whichever tab merges, and a result taken back stays taken back."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from stats_games import move

from nestor_web.app.statistics.data import DailyStats
from nestor_web.app.statistics.record import Stats


def win(stats: Stats, deal: int, t: int, variant: str = "standard", helped: bool = False) -> None:
    move(stats, deal, t, first=True, variant=variant, helped=helped)
    move(stats, deal, t + 1_000, won=True, variant=variant, helped=helped, elapsed=10_000)


def copy(stats: Stats) -> Stats:
    """What another tab reads of ``stats`` (its stored form)."""
    return Stats.restore(stats.snapshot())


def content(stats: Stats) -> Any:
    """Everything held but which deal is this tab's own game."""
    data = stats.snapshot()
    return (dict(data.counts), sorted(data.deals, key=lambda e: (e.variant, e.deal)),
            data.history, dict(data.resets))


def test_a_win_in_each_tab_both_count_whichever_tab_merges():
    tab_a, tab_b = Stats(), Stats()
    win(tab_a, 1, 10_000)
    win(tab_b, 20, 20_000)
    assert tab_b.merge(copy(tab_a))
    assert tab_a.merge(copy(tab_b))
    for tab in (tab_a, tab_b):
        s = tab.summary("standard")
        assert (s.played, s.won, s.streak, s.best_streak, s.fastest_ms) == (2, 2, 2, 2, 10_000)
        assert [(h.deal, h.result) for h in tab.history()] == [(1, "won"), (20, "won")]
        assert tab.deal_result("standard", 1) == tab.deal_result("standard", 20) == "won"
    assert content(tab_a) == content(tab_b)
    assert not tab_a.merge(copy(tab_b))  # nothing new: no change, no save


def test_a_loss_in_one_tab_ends_the_streak_a_win_in_the_other_does_not_hide_it():
    base = Stats()
    win(base, 1, 1_000)
    tab_a, tab_b = copy(base), copy(base)
    move(tab_a, 2, 5_000, first=True)
    tab_a.leave("standard", 2, 6_000)  # lost
    win(tab_b, 3, 7_000)
    tab_a.merge(copy(tab_b))
    s = tab_a.summary("standard")
    assert (s.played, s.won, s.streak, s.best_streak) == (3, 2, 1, 1)
    tab_b.merge(copy(tab_a))
    assert content(tab_b) == content(tab_a)


def test_the_other_tabs_unsettled_game_counts_as_played_and_stays_its_own():
    tab_a, tab_b = Stats(), Stats()
    move(tab_a, 1, 1_000, first=True)
    move(tab_b, 2, 2_000, first=True)
    tab_a.merge(copy(tab_b))
    assert tab_a.playing() == ("standard", 1)
    assert tab_a.deal_result("standard", 2) == "playing"
    assert tab_a.summary("standard").played == 2
    move(tab_a, 3, 3_000, first=True)  # tab A moves on: only its own game settles
    assert tab_a.deal_result("standard", 1) == "lost"
    assert tab_a.deal_result("standard", 2) == "playing"


def test_a_loss_taken_back_is_kept_marked_and_stays_taken_back_after_merging():
    base = Stats()
    move(base, 5, 1_000, first=True)
    base.leave("standard", 5, 2_000)  # lost: the player left it ...
    tab_b = copy(base)  # ... and another tab still has it as lost
    tab_a = copy(base)
    assert tab_a.take_back("standard", 5)  # ... then undid leaving it
    assert tab_a.deal_result("standard", 5) == "playing"
    assert tab_a.playing() == ("standard", 5)
    assert tab_a.history() == []  # the chart leaves it out ...
    [loss] = tab_a.history(taken_back=True)  # ... but it is kept
    assert (loss.result, loss.taken_back) == ("lost", True)
    tab_b.merge(copy(tab_a))
    tab_a.merge(copy(tab_b))
    for tab in (tab_a, tab_b):
        assert tab.deal_result("standard", 5) == "playing"
        assert [h.taken_back for h in tab.history(taken_back=True)] == [True]
    move(tab_a, 5, 3_000, won=True)  # the game taken back is won: a clean win, streak 1
    s = tab_a.summary("standard")
    assert (s.played, s.won, s.streak, s.best_streak) == (1, 1, 1, 1)
    assert not tab_a.take_back("standard", 5)  # a win is never taken back


def test_the_same_deal_won_in_both_tabs_counts_once_the_earlier_win_decides():
    tab_a, tab_b = Stats(), Stats()
    win(tab_a, 7, 5_000, helped=True)  # with help, first
    win(tab_b, 7, 8_000)  # clean, later
    tab_a.merge(copy(tab_b))
    tab_b.merge(copy(tab_a))
    for tab in (tab_a, tab_b):
        s = tab.summary("standard")
        assert (s.played, s.won, s.won_with_help, s.fastest_ms) == (1, 0, 1, None)
        assert [(h.result, h.taken_back) for h in tab.history(taken_back=True)] == [
            ("assisted", False), ("won", True)]
        assert [h.result for h in tab.history()] == ["assisted"]
        copy(tab)  # still keeps the rules
    assert content(tab_a) == content(tab_b)


def test_a_reset_in_one_tab_is_not_undone_by_the_other_tabs_older_records():
    base = Stats()
    win(base, 1, 1_000)
    win(base, 2, 3_000, variant="strict")
    tab_a, tab_b = copy(base), copy(base)
    tab_a.reset(now_ms=10_000)
    win(tab_a, 3, 11_000)
    tab_b.merge(copy(tab_a))
    for tab in (tab_a, tab_b):
        assert tab.summary("standard").played == 1
        assert tab.summary("strict").played == 0
        assert tab.deal_result("standard", 1) is None
    tab_a.merge(copy(tab_b))
    assert content(tab_a) == content(tab_b)


step = st.tuples(
    st.sampled_from(("standard", "strict")), st.integers(0, 4), st.integers(0, 3_000),
    st.booleans(), st.booleans(), st.booleans(), st.booleans(),
)


def play(stats: Stats, steps: list[tuple[Any, ...]], now: int) -> int:
    for variant, deal, wait, leave, won, helped, first in steps:
        now += wait
        if leave:
            stats.leave(variant, deal, now)
        else:
            move(stats, deal, now, won=won, helped=helped, first=first, variant=variant)
    return now


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(step, max_size=15), st.lists(step, max_size=15), st.lists(step, max_size=15),
       st.booleans())
def test_merging_is_a_union_the_same_both_ways_and_idempotent(
    common: list[Any], steps_a: list[Any], steps_b: list[Any], later_b: bool
):
    base = Stats()
    now = play(base, common, 1_000)
    tab_a, tab_b = copy(base), copy(base)
    play(tab_a, steps_a, now)
    play(tab_b, steps_b, now + (1 if later_b else 0))
    ab, ba = copy(tab_a), copy(tab_b)
    ab.merge(copy(tab_b))
    ba.merge(copy(tab_a))
    assert content(ab) == content(ba)
    assert copy(ab) is not None  # the merged statistics keep the rules (restore checks them)

    for tab in (tab_a, tab_b):
        assert {h.key for h in tab.history(last=1000, taken_back=True)} <= {
            h.key for h in ab.history(last=1000, taken_back=True)}
        for name in ("standard", "strict"):
            mine, merged = tab.summary(name), ab.summary(name)
            assert merged.played >= mine.played
            assert merged.won + merged.won_with_help >= mine.won + mine.won_with_help
        for e in tab.snapshot().deals:
            assert ab.deal_result(e.variant, e.deal) is not None
            if e.state in ("won", "assisted"):
                assert ab.deal_result(e.variant, e.deal) in ("won", "assisted")

    assert not ab.merge(copy(tab_b)) and not ab.merge(copy(tab_a))


def test_a_copy_is_equal_and_changes_apart() -> None:
    stats = Stats()
    win(stats, 1, 1_000)
    move(stats, 2, 5_000, first=True)
    twin = stats.copy()
    assert twin == stats and twin.playing() == ("standard", 2)
    move(twin, 2, 6_000, won=True)
    assert stats.deal_result("standard", 2) == "playing"
    assert stats.summary("standard").won == 1 and twin.summary("standard").won == 2


# ---- the daily deal's record ---------------------------------------------------------------

DAY = date(2026, 12, 1)


def days(stats: Stats, *offsets: int) -> None:
    for offset in offsets:
        stats.record_daily(DAY + timedelta(days=offset))


def test_the_dates_won_in_either_tab_are_a_union_and_make_one_daily_streak():
    tab_a, tab_b = Stats(), Stats()
    days(tab_a, 0, 2)  # 1 and 3 December in one tab ...
    days(tab_b, 1)  # ... 2 December in the other
    assert tab_a.daily_summary(DAY + timedelta(days=2)).streak == 1
    assert tab_b.merge(copy(tab_a)) and tab_a.merge(copy(tab_b))
    for tab in (tab_a, tab_b):
        assert tab.daily_summary(DAY + timedelta(days=2)) == DailyStats(True, 3, 3, 3)
    assert content(tab_a) == content(tab_b) and tab_a == copy(tab_b)
    assert not tab_a.merge(copy(tab_b))


def test_a_reset_of_everything_resets_the_daily_record_and_the_other_tab_learns_it():
    base = Stats()
    days(base, 0, 1, 2)
    tab_a, tab_b = copy(base), copy(base)
    tab_a.reset(now_ms=10_000)
    days(tab_a, 5)
    tab_b.merge(copy(tab_a))
    tab_a.merge(copy(tab_b))
    for tab in (tab_a, tab_b):
        assert tab.daily_summary(DAY + timedelta(days=5)) == DailyStats(True, 1, 1, 1)
    tab_a.reset("strict", now_ms=20_000)  # one variant's reset keeps the daily record
    assert tab_a.daily_summary(DAY + timedelta(days=5)).days_won == 1


@settings(max_examples=examples(150), deadline=None)
@given(st.sets(st.integers(0, 40)), st.sets(st.integers(0, 40)), st.sets(st.integers(0, 40)))
def test_merging_daily_records_is_a_union_the_same_both_ways(
    common: set[int], only_a: set[int], only_b: set[int]
):
    base = Stats()
    days(base, *common)
    tab_a, tab_b = copy(base), copy(base)
    days(tab_a, *only_a)
    days(tab_b, *only_b)
    ab, ba = copy(tab_a), copy(tab_b)
    ab.merge(copy(tab_b))
    ba.merge(copy(tab_a))
    assert ab == ba or content(ab) == content(ba)
    assert ab.snapshot().daily == ba.snapshot().daily
    won = common | only_a | only_b
    assert ab.snapshot().daily.won == tuple(DAY + timedelta(days=d) for d in sorted(won))
    for tab in (tab_a, tab_b):
        assert ab.snapshot().daily.best_streak >= tab.snapshot().daily.best_streak

"""The daily deal's record in the statistics (nestor_web.app.statistics, "The daily deal"):
dates won, the daily streak that lives until a whole date passes, the best streak, the cap."""

from __future__ import annotations

from datetime import date, timedelta

from nestor_web.app.statistics.data import DAILY_MEMORY, DailyStats
from nestor_web.app.statistics.record import Stats

DAY = date(2026, 12, 1)


def on(offset: int) -> date:
    return DAY + timedelta(days=offset)


def test_nothing_won_is_all_zero():
    assert Stats().daily_summary(DAY) == DailyStats(False, 0, 0, 0)


def test_a_date_won_counts_once():
    stats = Stats()
    assert stats.record_daily(DAY)
    assert not stats.record_daily(DAY)  # the same date again: nothing new, no save
    assert stats.daily_summary(DAY) == DailyStats(True, 1, 1, 1)


def test_the_streak_lives_through_today_until_a_whole_date_passes():
    stats = Stats()
    for offset in (0, 1, 2):
        stats.record_daily(on(offset))
    assert stats.daily_summary(on(2)).streak == 3  # won today
    assert stats.daily_summary(on(3)) == DailyStats(False, 3, 3, 3)  # today not won yet
    assert stats.daily_summary(on(4)).streak == 0  # a whole date passed without a win
    stats.record_daily(on(4))
    assert stats.daily_summary(on(4)) == DailyStats(True, 4, 1, 3)
    stats.record_daily(on(3))  # a gap filled (another tab's win of that date, merged)
    assert stats.daily_summary(on(4)) == DailyStats(True, 5, 5, 5)


def test_the_oldest_dates_go_past_the_cap_and_the_best_streak_stays():
    stats = Stats()
    for offset in range(10):
        stats.record_daily(on(offset))
    for offset in range(20, 20 + DAILY_MEMORY):
        stats.record_daily(on(offset))
    kept = stats.snapshot().daily
    assert len(kept.won) == DAILY_MEMORY and kept.won[0] == on(20)
    assert kept.best_streak == DAILY_MEMORY
    assert Stats.restore(stats.snapshot()) == stats
    stats.record_daily(on(-5))  # older than every date kept: it is dropped at once
    assert stats.snapshot().daily.won[0] == on(20)

"""The daily deal's record: the dates won, the daily streak."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from nestor import NestorError
from nestor.daily import FIRST_DAY

from .data import DAILY_MEMORY, DailyRecord, DailyStats


def with_day(record: DailyRecord, day: date) -> DailyRecord:
    """``record`` with ``day`` won: ``record`` itself if it holds ``day`` already or ``day`` is
    before :data:`~nestor.daily.FIRST_DAY`, else a new record (the best streak kept up to date, the
    oldest dates beyond the cap dropped)."""
    if day in record.won or day < FIRST_DAY:
        return record
    return _trimmed({*record.won, day}, record.best_streak, record.reset_ms)


def summary(record: DailyRecord, today: date) -> DailyStats:
    """The daily deal's record on the date ``today``: won today, dates won, the streak ending today
    (or yesterday while today is not won), the best streak."""
    days = set(record.won)
    anchor = today if today in days else today - timedelta(days=1)
    streak = 0
    while anchor - timedelta(days=streak) in days:
        streak += 1
    return DailyStats(today in days, len(days), streak, record.best_streak)


def run_ending(record: DailyRecord, day: date) -> int:
    """How many dates in a row are won, ending on ``day`` (0 if ``day`` is not won)."""
    days = set(record.won)
    run = 0
    while day - timedelta(days=run) in days:
        run += 1
    return run


def reset(record: DailyRecord, now_ms: int | None) -> DailyRecord:
    """An empty record; with ``now_ms`` (checked by the caller) remembering the reset (the later of
    it and ``record``'s)."""
    if now_ms is None:
        return DailyRecord(reset_ms=record.reset_ms)
    return DailyRecord(reset_ms=max(now_ms, record.reset_ms or 0))


def merged(mine: DailyRecord, theirs: DailyRecord) -> DailyRecord:
    """The union of two tabs' records, or the records of the tab that reset later."""
    reset_mine, reset_theirs = mine.reset_ms or -1, theirs.reset_ms or -1
    if reset_theirs > reset_mine:
        return theirs
    if reset_theirs < reset_mine:
        return mine
    return _trimmed(
        {*mine.won, *theirs.won}, max(mine.best_streak, theirs.best_streak), mine.reset_ms
    )


def restored(record: DailyRecord) -> DailyRecord:
    """``record`` as :class:`Stats` keeps it (its dates sorted), if it keeps the rules.

    Raises:
        NestorError: more dates than :data:`DAILY_MEMORY`, a date listed twice, a best streak
            shorter than a run of the dates, or one longer than the days from
            :data:`~nestor.daily.FIRST_DAY` through the last date won (0 with none won: a streak is
            made of dates won, and the last date won is always kept; not the days from the first
            date kept, as the best streak outlives the oldest dates). The dates themselves are the
            codec's to check (within their range, :func:`nestor_web.app.ranges.day_in_range`).
    """
    if len(record.won) > DAILY_MEMORY:
        raise NestorError(
            f"the daily record holds {len(record.won)} dates, more than {DAILY_MEMORY}"
        )
    days = set(record.won)
    if len(days) != len(record.won):
        raise NestorError("the daily record lists a date twice")
    if longest_run(days) > record.best_streak:
        raise NestorError(
            f"the daily record has a best streak of {record.best_streak} but holds "
            f"{longest_run(days)} dates won in a row"
        )
    longest = (max(days) - FIRST_DAY).days + 1 if days else 0  # days up to the last date won
    if record.best_streak > longest:
        raise NestorError(
            f"the daily record has a best streak of {record.best_streak}, longer than the "
            f"{longest} days up to its last date won",
            code="stats.daily_streak", best=record.best_streak, days=longest,
        )
    return DailyRecord(tuple(sorted(days)), record.best_streak, record.reset_ms)


def longest_run(days: Iterable[date]) -> int:
    """The most dates in a row in ``days``."""
    chosen = set(days)
    best = 0
    for day in chosen:
        if day - timedelta(days=1) not in chosen:  # a run starts here
            length = 1
            while day + timedelta(days=length) in chosen:
                length += 1
            best = max(best, length)
    return best


def _trimmed(days: set[date], best: int, reset_ms: int | None) -> DailyRecord:
    """The record of ``days``: the best streak kept up to date (at least ``best``), then the last
    :data:`DAILY_MEMORY` dates."""
    return DailyRecord(
        tuple(sorted(days)[-DAILY_MEMORY:]), max(best, longest_run(days)), reset_ms
    )

"""The daily deal's record: the dates won, the daily streak."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from nestor import NestorError
from nestor.daily import FIRST_DAY

from .data import DAILY_MEMORY, DailyRecord, DailyStats


def with_day(record: DailyRecord, day: date) -> DailyRecord:
    """``record`` with ``day`` won (``record`` itself if nothing changes)."""
    if day in record.won or day < FIRST_DAY:
        return record
    return _trimmed({*record.won, day}, record.best_streak, record.reset_ms)


def summary(record: DailyRecord, today: date) -> DailyStats:
    """The daily deal's record on ``today`` (the streak ends yesterday while today is not won)."""
    won = today in record.won
    streak = run_ending(record, today if won else today - timedelta(days=1))
    return DailyStats(won, len(record.won), streak, record.best_streak)


def run_ending(record: DailyRecord, day: date) -> int:
    """How many dates in a row are won, ending on ``day``."""
    days = set(record.won)
    run = 0
    while day - timedelta(days=run) in days:
        run += 1
    return run


def reset(record: DailyRecord, now_ms: int | None) -> DailyRecord:
    """An empty record; with ``now_ms``, remembering the later reset."""
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
    """``record`` with its dates sorted; NestorError on too many dates, one listed twice, or a
    best streak shorter than a run of them or longer than the days up to the last date won."""
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
    """The record of ``days``: the best streak up to date, the last dates up to the cap."""
    return DailyRecord(tuple(sorted(days)[-DAILY_MEMORY:]), max(best, longest_run(days)), reset_ms)

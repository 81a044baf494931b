"""The plausible range of every number the game keeps of a player's play."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta

from nestor import NestorError
from nestor.checks import number_text, whole_number
from nestor.daily import FIRST_DAY

LONGEST_MS = 3_155_760_000_000  # a century (100 years of 365.25 days)
LATEST_MS = 253_402_300_799_999  # 9999-12-31 23:59:59.999 UTC, in ms since 1970
SHORTEST_WIN_MS = 5_000  # the shortest time a win is kept with (the fastest win)
MOST = 1_000_000_000  # the largest count kept
MOST_HELP = 100_000  # the largest help count of one game kept

LARGEST = {  # the upper end of each kind's range
    "duration": LONGEST_MS, "win": LONGEST_MS, "moment": LATEST_MS, "count": MOST,
    "help": MOST_HELP,
}
SMALLEST = {"win": SHORTEST_WIN_MS}  # the lower end of a range that does not start at 0

RANGE_CODES: dict[str, tuple[str, ...]] = {  # what in_range and day_in_range raise, and details
    "range.duration": ("where", "value", "high"),  # a duration longer than a century
    "range.win": ("where", "value", "high"),  # a win's time longer than a century
    "range.too_fast": ("where", "value", "low"),  # a win's time under SHORTEST_WIN_MS
    "range.moment": ("where", "value", "high"),  # a moment after the year 9999
    "range.count": ("where", "value", "high"),  # a count over MOST
    "range.help": ("where", "value", "high"),  # a game's help count over MOST_HELP
    "range.date": ("where", "value", "first", "last"),  # a date won outside its range
}


def in_range(value: object, where: str, kind: str) -> int:
    """``value`` if it is a whole number within ``kind``'s range (a key of :data:`LARGEST`), else
    NestorError (``range.<kind>`` above it, ``range.too_fast`` below a win's)."""
    number = whole_number(value, where)
    low, high = SMALLEST.get(kind, 0), LARGEST[kind]
    if number < low:
        raise NestorError(
            f"{where} {number} is not a plausible {kind}: less than {low}",
            code="range.too_fast", where=where, value=number_text(number), low=low,
        )
    if number > high:
        shown = number_text(number)
        raise NestorError(
            f"{where} {shown} is not a plausible {kind}: more than {high}",
            code=f"range.{kind}", where=where, value=shown, high=high,
        )
    return number


def clamped(value: int, kind: str) -> int:
    """``value`` brought into ``kind``'s range (what the game writes is always read back)."""
    return min(max(SMALLEST.get(kind, 0), value), LARGEST[kind])


def latest_day(now_ms: int | None = None) -> date:
    """The latest date a daily deal can be won on at ``now_ms`` (default now): the next UTC day."""
    seconds = time.time() if now_ms is None else min(now_ms, LATEST_MS) / 1000
    day = datetime.fromtimestamp(max(0.0, seconds), UTC).date()
    return day if day == date.max else day + timedelta(days=1)


def day_in_range(day: date, where: str, now_ms: int | None = None) -> date:
    """``day`` if a daily deal can have been won on it (else NestorError ``range.date``): from
    :data:`nestor.daily.FIRST_DAY` to :func:`latest_day` of ``now_ms``."""
    last = latest_day(now_ms)
    if not FIRST_DAY <= day <= last:
        raise NestorError(
            f"{where} {day.isoformat()} is not a date a daily deal was won on: from "
            f"{FIRST_DAY.isoformat()} to {last.isoformat()}",
            code="range.date", where=where, value=day.isoformat(),
            first=FIRST_DAY.isoformat(), last=last.isoformat(),
        )
    return day

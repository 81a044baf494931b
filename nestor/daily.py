"""The daily deal: one deal, the same for everyone, for each calendar date.

A date is a :class:`datetime.date` (the player's local date; which date it is "today" is
the caller's business). Its deal comes from this formula, version :data:`DAILY_VERSION`:
a SHA-256 hash of the ISO date, so every Python (CPython, Pyodide) on every machine gives
the same answer, with no network::

    digest  = SHA-256 of the ASCII text "nestor-daily-1:YYYY-MM-DD"
    variant = DAILY_VARIANTS[int(digest[0:8], big-endian) % 4]
    deal    = int(digest[8:12], big-endian)              (0 <= deal < 2**32 = MAX_DEAL)

For 2026-12-01 the text is ``nestor-daily-1:2026-12-01``, its digest begins
``11e6c1be…``, and the deal is Standard 2973110382 (``python -m nestor daily 2026-12-01``).
Both draws are unbiased (4 divides 2**64; the deal takes exactly 32 bits).

Strict is not among the daily variants: its stock lies face down, so whether a Strict
deal is won is mostly luck (13.5% with the best play), a poor test for a shared daily
deal and a streak. The four others are skill: the same cards for everyone, every card
visible.

Changing the formula changes every past and future daily deal: it would need a new
:data:`DAILY_VERSION` (``tests/test_daily.py`` holds known values, so it cannot change
unnoticed).
"""

from __future__ import annotations

import hashlib
from datetime import date

from .errors import DateError, clip

DAILY_VERSION = 1
"""Version of the formula in the module docstring."""

DAILY_PREFIX = "nestor-daily-1:"
"""What the hashed text starts with, before the ISO date (part of the formula)."""

DAILY_VARIANTS = ("standard", "vertical", "doublets", "overlapping")
"""The variants a daily deal is drawn from, in this fixed order (part of the formula)."""


def daily_deal(day: date) -> tuple[str, int]:
    """The daily deal of ``day``: ``(variant name, deal number)`` (the module's formula)."""
    digest = hashlib.sha256((DAILY_PREFIX + day.isoformat()).encode("ascii")).digest()
    variant = DAILY_VARIANTS[int.from_bytes(digest[0:8], "big") % len(DAILY_VARIANTS)]
    deal = int.from_bytes(digest[8:12], "big")
    return variant, deal


def parse_date(text: object) -> date:
    """Read an ISO calendar date, exactly ``YYYY-MM-DD`` (``"2026-12-01"``).

    Raises:
        DateError: ``text`` is not a ``str`` of that form (code ``date.syntax``, details
            ``value``: a clipped copy) or names no real date, such as ``2026-02-30``
            (code ``date.unknown``, details ``value``).
    """
    shown = clip(text if isinstance(text, str) else repr(text))
    if not (
        isinstance(text, str) and len(text) == 10 and text[4] == "-" and text[7] == "-"
        and (text[:4] + text[5:7] + text[8:]).isdecimal() and text.isascii()
    ):
        raise DateError(
            f"bad date {shown!r}: write it as YYYY-MM-DD", code="date.syntax", value=shown
        )
    try:
        return date(int(text[:4]), int(text[5:7]), int(text[8:]))
    except ValueError:
        raise DateError(
            f"there is no date {text}", code="date.unknown", value=shown
        ) from None


def check_daily_date(text: object, today: date) -> date:
    """The date of a daily deal asked for by ``text`` (``YYYY-MM-DD``), no later than
    ``today`` (a later day's deal is not out yet).

    Raises:
        DateError: as :func:`parse_date`, or the date is after ``today`` (code
            ``date.future``, details ``value``, ``today``: both ISO dates).
    """
    day = parse_date(text)
    if day > today:
        raise DateError(
            f"the daily deal of {day.isoformat()} is not out yet (today is "
            f"{today.isoformat()})",
            code="date.future", value=day.isoformat(), today=today.isoformat(),
        )
    return day

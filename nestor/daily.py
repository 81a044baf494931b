"""The daily deal: one deal, the same for everyone, for each calendar date.

A date is a :class:`datetime.date` (the player's local date; which date it is "today" is the
caller's business). Its deal comes from SHA-256 hashes of the ISO date and the exact solver,
version :data:`DAILY_VERSION`: :func:`daily_variant` picks one of :data:`DAILY_VARIANTS`,
:func:`daily_candidates` gives candidate deal numbers, and the deal is the first candidate
the solver proves winnable, so every Python on every machine gives the same, winnable deal.
The formula and why Strict is left out: docs/decisions.md, "The daily deal's formula".
For 2026-12-01 the first digest begins ``4ac9c28c``: Doublets 2716772282. Changing the
formula changes every daily deal: it needs a new :data:`DAILY_VERSION`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import date
from functools import lru_cache

from .errors import DateError, NestorError, clip

DAILY_VERSION = 1
"""Version of the formula in the module docstring."""

DAILY_PREFIX = "nestor-daily-1:"
"""What the hashed text starts with, before the ISO date (part of the formula)."""

DAILY_VARIANTS = ("standard", "vertical", "doublets", "overlapping")
"""The variants a daily deal is drawn from, in this fixed order (part of the formula)."""

FIRST_DAY = date(2000, 1, 1)
"""The earliest date whose daily deal is served (:func:`check_daily_date`). The formula
answers any date, but the daily deal came out in December 2026: this floor keeps every date
a player can meet, a computer whose clock is years out included, and keeps a run of dates
(a day before, a day after) far from the calendar's first and last dates."""

MAX_CANDIDATES = 1000
"""Candidates tried before giving up (never reached: each variant here is won at least a
quarter of the time, so 1000 candidates that cannot be won have odds below 10**-120)."""


def _digest(day: date, k: int) -> bytes:
    return hashlib.sha256(f"{DAILY_PREFIX}{day.isoformat()}:{k}".encode("ascii")).digest()


def daily_variant(day: date) -> str:
    """The variant of ``day``'s daily deal (a hash only, no solver)."""
    return DAILY_VARIANTS[int.from_bytes(_digest(day, 0)[0:8], "big") % len(DAILY_VARIANTS)]


def daily_candidates(day: date) -> Iterator[int]:
    """The deal numbers that may be ``day``'s daily deal, in the formula's order (hashes
    only, no solver): :func:`daily_deal` takes the first that can be won."""
    for k in range(MAX_CANDIDATES):
        yield int.from_bytes(_digest(day, k)[8:12], "big")


@lru_cache(maxsize=16)
def daily_deal(day: date) -> tuple[str, int]:
    """The daily deal of ``day``: ``(variant name, deal number)`` (the module's formula).

    Runs the exact solver on each candidate until one can be won (about 1 to 4 deals,
    milliseconds each); the answer is cached per date.

    Raises:
        NestorError: no candidate can be won (never seen; see :data:`MAX_CANDIDATES`).
    """
    from .deal import deal_position
    from .solver import Status, solve

    variant = daily_variant(day)
    for deal in daily_candidates(day):
        if solve(deal_position(variant, deal)).status is Status.WINNABLE:
            return variant, deal
    raise NestorError(  # pragma: no cover
        f"no daily deal of {day.isoformat()} can be won", code="error"
    )


def is_daily_deal(day: date, variant: str, deal: int) -> bool:
    """Is ``variant``/``deal`` the daily deal of ``day``? Cheap when it is not (at most 66
    hashes); the solver runs only for a deal that is one of the date's first 65 candidates.

    A deal past candidate 64 counts as not the daily deal (a daily deal that far out has
    odds below 10**-8: each candidate can be won at least a quarter of the time).
    """
    if variant != daily_variant(day):
        return False
    for k, candidate in enumerate(daily_candidates(day)):
        if candidate == deal:
            return daily_deal(day) == (variant, deal)
        if k >= 64:
            break
    return False


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
    """The date of a daily deal asked for by ``text`` (``YYYY-MM-DD``), from
    :data:`FIRST_DAY` to ``today`` (a later day's deal is not out yet).

    Raises:
        DateError: as :func:`parse_date`; the date is after ``today`` (code
            ``date.future``, details ``value``, ``today``: both ISO dates), or before
            :data:`FIRST_DAY` (code ``date.early``, details ``value``, ``first``: both ISO
            dates).
    """
    day = parse_date(text)
    if day < FIRST_DAY:
        raise DateError(
            f"there is no daily deal of {day.isoformat()}: they start on "
            f"{FIRST_DAY.isoformat()}",
            code="date.early", value=day.isoformat(), first=FIRST_DAY.isoformat(),
        )
    if day > today:
        raise DateError(
            f"the daily deal of {day.isoformat()} is not out yet (today is "
            f"{today.isoformat()})",
            code="date.future", value=day.isoformat(), today=today.isoformat(),
        )
    return day

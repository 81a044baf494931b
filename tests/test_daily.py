"""The daily deal (nestor.daily): the formula's known values, dates read and refused, the CLI."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

import nestor.daily
from nestor import MAX_DEAL, VARIANTS, DateError, deal_position
from nestor.daily import (
    DAILY_VARIANTS,
    check_daily_date,
    daily_candidates,
    daily_deal,
    daily_variant,
    is_daily_deal,
    parse_date,
)
from nestor.solver import Status, solve

ROOT = Path(__file__).resolve().parent.parent

KNOWN = {
    "2026-12-01": ("doublets", 2716772282),
    "2026-12-02": ("doublets", 1943471358),
    "2027-01-01": ("standard", 3290812821),
    "2028-02-29": ("standard", 688652374),
    "1999-12-31": ("vertical", 1020302689),
    "2026-08-04": ("overlapping", 3668310614),  # candidate 3: 0, 1 and 2 cannot be won
}
"""Daily deals worked out once by the formula of version 1: a change of formula fails here."""


@pytest.mark.parametrize(("day", "deal"), KNOWN.items())
def test_the_formula_gives_the_known_deal_of_each_date(day: str, deal: tuple[str, int]) -> None:
    assert daily_deal(date.fromisoformat(day)) == deal


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("ascii")).digest()


def test_the_formula_is_as_the_docstring_says() -> None:
    """Worked from the docstring's words, not from the module's code: SHA-256 of the ISO
    date picks the variant, then the first candidate the solver proves winnable."""
    first = digest("nestor-daily-1:2026-08-04:0")
    variant = ("standard", "vertical", "doublets", "overlapping")[
        int.from_bytes(first[:8], "big") % 4]
    assert variant == "overlapping"
    candidates = [int.from_bytes(digest(f"nestor-daily-1:2026-08-04:{k}")[8:12], "big")
                  for k in range(4)]
    won = [solve(deal_position(variant, n)).status is Status.WINNABLE for n in candidates]
    assert won == [False, False, False, True]
    assert daily_deal(date(2026, 8, 4)) == (variant, candidates[3])
    assert digest("nestor-daily-1:2026-12-01:0").hex().startswith("4ac9c28c")
    assert "4ac9c28c" in (nestor.daily.__doc__ or "")


def test_the_dates_of_a_year_have_winnable_deals_and_the_variants_share_them() -> None:
    days = [date(2026, 1, 1) + timedelta(days=i) for i in range(365)]
    deals = [daily_deal(d) for d in days]
    assert all(v in VARIANTS and v != "strict" and 0 <= n < MAX_DEAL for v, n in deals)
    assert len(set(deals)) == len(deals)  # no deal comes twice
    variants = [daily_variant(date(2026, 1, 1) + timedelta(days=i)) for i in range(3653)]
    for variant in DAILY_VARIANTS:  # each variant about a quarter of the days
        assert 0.2 < variants.count(variant) / len(variants) < 0.3
    for day, deal in zip(days[:30], deals[:30], strict=True):
        assert is_daily_deal(day, *deal)
        assert not is_daily_deal(day, deal[0], (deal[1] + 1) % MAX_DEAL)
        assert not is_daily_deal(day + timedelta(days=1), *deal)


def test_a_candidate_that_cannot_be_won_is_not_the_daily_deal() -> None:
    day = date(2026, 8, 4)
    lost = next(iter(daily_candidates(day)))
    assert not is_daily_deal(day, "overlapping", lost)
    assert is_daily_deal(day, "overlapping", 3668310614)


@pytest.mark.parametrize("text", ["2026-12-1", "2026/12/01", "20261201", "2026-W49-2", "",
                                  " 2026-12-01", "２０２６-12-01", "2026-12-01T00:00"])
def test_a_date_not_written_yyyy_mm_dd_is_refused(text: str) -> None:
    with pytest.raises(DateError) as info:
        parse_date(text)
    assert info.value.code == "date.syntax"


def test_a_date_that_does_not_exist_is_refused_and_a_leap_day_is_read() -> None:
    with pytest.raises(DateError) as info:
        parse_date("2027-02-29")
    assert (info.value.code, info.value.details) == ("date.unknown", {"value": "2027-02-29"})
    assert parse_date("2028-02-29") == date(2028, 2, 29)
    with pytest.raises(DateError):
        parse_date(20261201)


def test_a_later_days_deal_is_not_out_yet() -> None:
    today = date(2026, 12, 1)
    assert check_daily_date("2026-12-01", today) == today
    assert check_daily_date("2020-02-29", today) == date(2020, 2, 29)
    with pytest.raises(DateError) as info:
        check_daily_date("2026-12-02", today)
    assert info.value.details == {"value": "2026-12-02", "today": "2026-12-01"}


def test_the_command_line_prints_the_daily_deal_as_json() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "nestor", "daily", "2026-12-02", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    assert json.loads(out) == {"date": "2026-12-02", "variant": "doublets", "deal": 1943471358}
    bad = subprocess.run([sys.executable, "-m", "nestor", "daily", "2026-02-30"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "2026-02-30" in bad.stderr

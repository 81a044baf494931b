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
from nestor import MAX_DEAL, VARIANTS, DateError
from nestor.daily import DAILY_VARIANTS, check_daily_date, daily_deal, parse_date

ROOT = Path(__file__).resolve().parent.parent

KNOWN = {
    "2026-12-01": ("standard", 2973110382),
    "2026-12-02": ("doublets", 3369719746),
    "2027-01-01": ("standard", 2359053719),
    "2028-02-29": ("standard", 2987691898),
    "1999-12-31": ("overlapping", 3054126805),
}
"""Daily deals worked out once by the formula of version 1: a change of formula fails here."""


@pytest.mark.parametrize(("day", "deal"), KNOWN.items())
def test_the_formula_gives_the_known_deal_of_each_date(day: str, deal: tuple[str, int]) -> None:
    assert daily_deal(date.fromisoformat(day)) == deal


def test_the_formula_is_sha256_of_the_iso_date_as_the_docstring_says() -> None:
    """Worked from the docstring's words, not from the module's code."""
    digest = hashlib.sha256(b"nestor-daily-1:2026-12-01").digest()
    assert digest.hex().startswith("11e6c1be")
    assert "11e6c1be" in (nestor.daily.__doc__ or "")
    variant = ("standard", "vertical", "doublets", "overlapping")[
        int.from_bytes(digest[:8], "big") % 4]
    assert (variant, int.from_bytes(digest[8:12], "big")) == daily_deal(date(2026, 12, 1))


def test_every_date_of_ten_years_has_a_playable_deal_and_neighbours_differ() -> None:
    days = [date(2026, 1, 1) + timedelta(days=i) for i in range(3653)]
    deals = [daily_deal(d) for d in days]
    assert all(v in VARIANTS and v != "strict" and 0 <= n < MAX_DEAL for v, n in deals)
    assert len(set(deals)) == len(deals)  # no deal comes twice in ten years
    for variant in DAILY_VARIANTS:  # each variant about a quarter of the days
        assert 0.2 < sum(v == variant for v, _n in deals) / len(deals) < 0.3


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
    assert json.loads(out) == {"date": "2026-12-02", "variant": "doublets", "deal": 3369719746}
    bad = subprocess.run([sys.executable, "-m", "nestor", "daily", "2026-02-30"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "2026-02-30" in bad.stderr

"""Issue 24 (2) in Chromium: New deal by difficulty, the header's grade and ``<body
data-grade>``, the daily deal's grade, the wins per grade; every grade the page shows checked
with the command line (``python -m nestor grade --json``)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from conftest import control, saves_done, stored
from helpers import cli_grade
from playwright.sync_api import Page, expect

from nestor import deal_position
from nestor.daily import daily_deal

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "unwinnable": "Unwinnable"}


def pair(page: Page, variant: str, deal: int) -> None:
    """Take the first pair of the deal's first position."""
    for card in deal_position(variant, deal).pairs()[0].cards:
        page.click(f'[data-card="{card}"][data-available]')
    expect(page.locator("#moves-made")).to_have_text("1")


def shown(page: Page) -> tuple[str, int, str]:
    """The deal shown, once its grade is known: variant, deal number, ``body[data-grade]``;
    the header's badge names it."""
    page.wait_for_function("() => document.body.dataset.grade", timeout=60_000)
    variant = str(page.get_attribute("body", "data-variant"))
    deal = int(page.inner_text("#deal-number"))
    grade = str(page.get_attribute("body", "data-grade"))
    expect(page.locator("#deal-grade")).to_have_text(NAMES[grade])
    return variant, deal, grade


def test_asking_for_a_hard_deal_gives_a_hard_deal(page: Page, wait_ready: Any) -> None:
    page.goto("/?variant=standard&deal=4")
    wait_ready(page)
    assert shown(page) == ("standard", 4, cli_grade("standard", 4))
    control(page, "settings").click()
    page.select_option('select[data-setting="difficulty"]', "hard")
    page.keyboard.press("Escape")
    control(page, "new").click()
    expect(page.locator("#deal-number")).not_to_have_text("4")
    variant, deal, grade = shown(page)
    assert (variant, grade) == ("standard", "hard")
    assert cli_grade(variant, deal) == "hard"
    # Another variant from the header's menu: a Hard deal of it.
    page.select_option("#variant", "doublets")
    page.wait_for_function("() => document.body.dataset.variant === 'doublets'")
    variant, deal, grade = shown(page)
    assert (variant, grade) == ("doublets", "hard") and cli_grade(variant, deal) == "hard"
    assert json.loads(stored(saves_done(page), "nestor.settings") or "")["difficulty"] == "hard"
    # The statistics count the games by grade: a pair, then a new deal and a pair there
    # (Undo can no longer bring the game left back): a Hard game lost.
    pair(page, variant, deal)
    control(page, "new").click()
    expect(page.locator("#deal-number")).not_to_have_text(str(deal))
    pair(page, *shown(page)[:2])
    control(page, "stats").click()
    row = page.locator('#stats-text [data-grades] [data-grade-row="hard"] td')
    expect(row.nth(0)).to_have_text("1")  # played
    expect(row.nth(1)).to_have_text("0")  # won


def test_the_daily_deal_shows_its_grade_worked_out_in_the_page(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    page = site_context(base_url).new_page()
    page.clock.install(time=datetime(2026, 12, 4, 10, 0, tzinfo=UTC))
    page.clock.resume()
    page.goto("/")
    wait_ready(page)
    control(page, "daily").click()
    expect(page.locator("#daily-label")).to_be_visible()
    variant, deal = daily_deal(date(2026, 12, 4))
    page.wait_for_function(f"() => document.getElementById('deal-number').textContent == '{deal}'")
    assert shown(page) == (variant, deal, cli_grade(variant, deal))  # beyond the table
    kept = json.loads(stored(saves_done(page), "nestor.grades") or "")
    assert [variant, deal, cli_grade(variant, deal)] in kept["grades"]

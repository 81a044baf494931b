"""The daily deal in Chromium (issue 11): the same deal in two fresh profiles on one date,
another the next day (the clock set by the test), the local date decides, ?daily= in the
address bar, a bad or later date changes nothing, the streak, Share and its fallback."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest
from conftest import control, stored
from lines import winning_line
from playwright.sync_api import BrowserContext, Page, expect

from nestor import Pair, deal_position
from nestor.daily import daily_deal

DEC_1 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
DEC_2 = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)

REFUSE_CLIPBOARD = """
Object.defineProperty(navigator, "clipboard", {value: {writeText: () =>
  Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"))}});
"""


def fresh(site_context: Any, base_url: str, when: datetime, **options: Any) -> Page:
    """A fresh profile whose clock reads ``when`` (time runs on from there)."""
    context: BrowserContext = site_context(base_url, **options)
    page = context.new_page()
    page.clock.install(time=when)
    page.clock.resume()
    return page


def open_daily(page: Page, wait_ready: Any) -> tuple[str, int, str]:
    """Open the page, press Daily deal; the deal shown and the address bar's query."""
    page.goto("/")
    wait_ready(page)
    control(page, "daily").click()
    expect(page.locator("#daily-label")).to_be_visible()
    page.wait_for_function("() => location.search.startsWith('?daily=')")
    variant = str(page.get_attribute("body", "data-variant"))
    deal = int(page.inner_text("#deal-number"))
    return variant, deal, page.evaluate("location.search")


@pytest.mark.slow  # make test-slow: a date's deal is tests/test_daily.py's
def test_two_fresh_profiles_get_the_same_deal_on_a_date_and_another_the_next_day(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    first = open_daily(fresh(site_context, base_url, DEC_1), wait_ready)
    second = open_daily(fresh(site_context, base_url, DEC_1), wait_ready)
    assert first == second == (*daily_deal(date(2026, 12, 1)), "?daily=2026-12-01")
    next_day = open_daily(fresh(site_context, base_url, DEC_2), wait_ready)
    assert next_day == (*daily_deal(date(2026, 12, 2)), "?daily=2026-12-02")
    assert next_day[:2] != first[:2]
    # The player's local date: 23:30 UTC on 1 December is already 2 December in Kiribati.
    late = datetime(2026, 12, 1, 23, 30, tzinfo=UTC)
    east = open_daily(fresh(site_context, base_url, late, timezone_id="Pacific/Kiritimati"),
                      wait_ready)
    assert east[2] == "?daily=2026-12-02"


@pytest.mark.slow  # make test-slow: dates: tests/test_daily.py; bad links: test_play
def test_a_later_or_malformed_date_in_the_link_is_a_notice_and_loses_nothing(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    page = fresh(site_context, base_url, DEC_1)
    page.goto("/?variant=standard&deal=7")
    wait_ready(page)
    page.click('[data-card="QC"][data-available]')
    page.click('[data-card="QD"][data-available]')
    saved, stats = stored(page, "nestor.save"), stored(page, "nestor.stats")
    for query, words in (("?daily=2026-12-02", "not out yet"),
                         ("?daily=1.12.2026", "is not a date written as YYYY-MM-DD")):
        page.goto("/" + query)
        wait_ready(page)
        expect(page.locator("#notice")).to_be_visible()
        expect(page.locator("#notice-text")).to_contain_text(words)
        expect(page.locator("#deal-number")).to_have_text("7")
        assert page.evaluate("location.search") == "?variant=standard&deal=7"
        assert stored(page, "nestor.save") == saved and stored(page, "nestor.stats") == stats
    control(page, "settings").click()
    page.select_option("#opt-language", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert '"language":"de"' in (stored(page, "nestor.settings") or "")
    page.goto("/?daily=2026-12-03")
    wait_ready(page)
    expect(page.locator("#notice-text")).to_contain_text(
        "das Tagesspiel vom 2026-12-03 gibt es noch nicht (heute ist der 2026-12-01)")


def win(page: Page, variant: str, deal: int) -> None:
    line = winning_line(deal_position(variant, deal))
    assert line is not None
    for move in line:
        assert isinstance(move, Pair)
        for card in move.cards:
            page.click(f'[data-card="{card}"][data-available]')
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")


def shared_text(page: Page) -> str:
    """Press Share on the end screen; the text it copied to the clipboard."""
    page.click('#share [data-action="share"]')
    expect(page.locator("#share-status")).to_have_text("Copied to the clipboard.")
    return str(page.evaluate("navigator.clipboard.readText()"))


@pytest.mark.slow  # make test-slow: make test's daily deal won after midnight shares its result
def test_winning_the_daily_deal_counts_its_streak_and_share_copies_the_result(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    page = fresh(site_context, base_url, DEC_1, permissions=["clipboard-read",
                                                             "clipboard-write"])
    variant, deal, _query = open_daily(page, wait_ready)
    expect(page.locator("#share")).to_be_hidden()  # nothing to share before the end
    win(page, variant, deal)
    assert page.evaluate("location.search") == "?daily=2026-12-01"
    daily = json.loads(stored(page, "nestor.stats") or "")["daily"]
    assert daily == {"won": ["2026-12-01"], "best_streak": 1, "reset_ms": None}
    text = shared_text(page)
    assert text.startswith(
        "Nestor, daily deal of 2026-12-01 (Doublets): won, 26 of 26 pairs, no help.\n")
    assert text.endswith("/?daily=2026-12-01")
    control(page, "stats").click()
    expect(page.locator("#stats-dialog .daily-stats")).to_have_attribute(
        "data-daily-streak", "1")
    expect(page.locator("#stats-dialog .daily-stats")).to_contain_text(
        "Today's daily deal is won.")


@pytest.mark.slow  # make test-slow: the refused clipboard's shared path is test_replay's
def test_a_refused_clipboard_shows_the_text_to_select(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    page = fresh(site_context, base_url, DEC_1)
    page.add_init_script(REFUSE_CLIPBOARD)
    variant, deal, _query = open_daily(page, wait_ready)
    win(page, variant, deal)
    page.click('#share [data-action="share"]')
    box = page.locator("#share-text")
    expect(box).to_be_visible()
    expect(box).to_be_focused()
    expect(box).to_have_value(
        "Nestor, daily deal of 2026-12-01 (Doublets): won, 26 of 26 pairs, no help.\n"
        + page.evaluate("location.origin + location.pathname") + "?daily=2026-12-01")
    expect(page.locator("#share-status")).to_contain_text("could not be used")
    selected = page.evaluate(
        "(() => { const t = document.getElementById('share-text');"
        " return t.value.slice(t.selectionStart, t.selectionEnd); })()")
    assert selected.startswith("Nestor, daily deal")


def test_a_daily_deal_started_before_midnight_and_won_after_counts_for_its_date(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    # 23:58:30 on 4 December in Berlin; the last pair at 00:00:30 on 5 December.
    page = fresh(site_context, base_url, datetime(2026, 12, 4, 22, 58, 30, tzinfo=UTC),
                 timezone_id="Europe/Berlin", permissions=["clipboard-read", "clipboard-write"])
    variant, deal, query = open_daily(page, wait_ready)
    assert query == "?daily=2026-12-04"
    expect(page.locator("#share")).to_be_hidden()  # nothing to share before the end
    line = winning_line(deal_position(variant, deal))
    assert line is not None
    for move in line[:-1]:
        assert isinstance(move, Pair)
        for card in move.cards:
            page.click(f'[data-card="{card}"][data-available]')
    page.clock.set_system_time(datetime(2026, 12, 4, 23, 0, 30, tzinfo=UTC))
    assert page.evaluate("new Date().getDate()") == 5
    last = line[-1]
    assert isinstance(last, Pair)
    for card in last.cards:
        page.click(f'[data-card="{card}"][data-available]')
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    expect(page.locator('[data-end-daily="counted"]')).to_have_text(
        "Daily deal of 2026-12-04 won: it counts for its own date, a run of 1 day ending that "
        "day; best daily streak 1.")
    daily = json.loads(stored(page, "nestor.stats") or "")["daily"]
    assert daily == {"won": ["2026-12-04"], "best_streak": 1, "reset_ms": None}
    text = shared_text(page)
    assert text.startswith(
        "Nestor, daily deal of 2026-12-04 (Standard): won, 26 of 26 pairs, no help.\n")
    assert text.endswith("/?daily=2026-12-04")
    # The page opened again on the new date: the streak stands, today's deal is still to win.
    page.reload()
    wait_ready(page)
    expect(page.locator('[data-end-daily="counted"]')).to_be_visible()
    control(page, "stats").click()
    expect(page.locator("#stats-dialog .daily-stats")).to_have_attribute(
        "data-daily-streak", "1")
    expect(page.locator("#stats-dialog .daily-stats")).to_contain_text(
        "Today's daily deal is not won yet.")

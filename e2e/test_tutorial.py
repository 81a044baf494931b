"""Issue 24 (4) in Chromium: the guided first game on a first visit (fresh profiles), played
through or skipped, never shown again after; a returning player never sees it; How to play
starts it again. The deal it plays is Easy (checked with the command line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import axe_violations, control, saves_done, still, stored
from helpers import IN_REACH, cli_grade, hold_pyscript, let_go
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parent.parent
GUIDE = "#tutorial[data-tutorial]"


def step(page: Page, name: str) -> None:
    expect(page.locator(GUIDE)).to_have_attribute("data-tutorial", name)
    expect(page.locator(GUIDE)).to_be_visible()


def targets(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#board [data-tutorial-target]", "els => els.map(e => e.dataset.card)")


def take(page: Page, cards: list[str], touch: bool) -> None:
    for card in cards:
        locator = page.locator(f'#board [data-card="{card}"][data-available]')
        if touch:
            locator.tap()
        else:
            locator.click()


COVERED = """() => {
  const sheet = document.getElementById("tutorial").getBoundingClientRect();
  return [...document.querySelectorAll("#board [data-available]")].filter(c => {
    const r = c.getBoundingClientRect();
    return r.left < sheet.right && sheet.left < r.right && r.top < sheet.bottom
      && sheet.top < r.bottom;
  }).map(c => c.dataset.card);
}"""
"""The available cards the guide's sheet lies over."""


@pytest.mark.first_visit
def test_a_first_visit_is_guided_through_the_rules_and_never_again(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    page = site_context(base_url, viewport={"width": 1280, "height": 800}).new_page()
    page.goto("/")
    wait_ready(page)
    step(page, "pair")
    expect(page.locator("[data-tutorial]")).to_have_count(1)  # the hook names the guide alone
    expect(page.locator("#tutorial-title")).to_have_text("Your first game, step 1 of 5")
    assert page.get_attribute("body", "data-variant") == "standard"
    deal = int(page.inner_text("#deal-number"))
    expect(page.locator("body")).to_have_attribute("data-grade", "easy")
    assert cli_grade("standard", deal) == "easy"
    pair = targets(page)
    assert len(pair) == 2 and pair[0][0] == pair[1][0]
    assert axe_violations(page) == []  # the sheet over the game, its ring, its buttons
    assert page.evaluate(COVERED) == []  # on a desktop the sheet keeps clear of the cards
    # A reload in the guide's middle (the address names the deal now) starts it again.
    saves_done(page)
    page.reload()
    wait_ready(page)
    step(page, "pair")
    assert int(page.inner_text("#deal-number")) == deal and targets(page) == pair
    take(page, pair, touch=False)
    step(page, "covered")
    assert page.evaluate(COVERED) == []
    # Reloaded on a later step, it is taken up there.
    saves_done(page)
    page.reload()
    wait_ready(page)
    step(page, "covered")
    # The covered card (one ring of no available card), the card on it, maybe its partner.
    rings = targets(page)
    hidden = page.eval_on_selector_all("#board [data-tutorial-target]:not([data-available])",
                                       "els => els.map(e => e.dataset.card)")
    assert len(rings) in (2, 3) and len(hidden) == 1
    page.locator('[data-action="tutorial-next"]').focus()  # Next, pressed from the keyboard
    page.keyboard.press("Enter")
    step(page, "reserve")
    # The focus stays in play (Next is gone: the step waits for a pair), not on <body>.
    assert page.evaluate("document.activeElement.tagName") != "BODY"
    take(page, targets(page)[:2], touch=False)
    step(page, "undo")
    expect(page.locator('#controls [data-action="undo"]')).to_have_attribute(
        "data-tutorial-target", "")
    control(page, "undo").click()
    step(page, "done")
    expect(page.locator("#moves-made")).to_have_text("1")
    page.click('[data-action="tutorial-next"]')  # Play on
    expect(page.locator(GUIDE)).to_be_hidden()
    assert not targets(page)
    assert stored(saves_done(page), "nestor.tutorial") == "done"
    page.reload()
    wait_ready(page)
    still(page)
    expect(page.locator(GUIDE)).to_be_hidden()
    assert int(page.inner_text("#deal-number")) == deal  # the guided game goes on
    # How to play shows it again, on a new Easy deal.
    control(page, "rules").click()
    page.click('#rules-dialog [data-action="tutorial"]')
    expect(page.locator("#rules-dialog")).to_be_hidden()
    step(page, "pair")
    guided = int(page.inner_text("#deal-number"))
    assert guided != deal
    # A link to another deal leaves the guide; back in its deal, a reload resumes it.
    saves_done(page)
    page.goto("/?variant=standard&deal=7")
    wait_ready(page)
    expect(page.locator(GUIDE)).to_be_hidden()
    saves_done(page)
    page.goto(f"/?variant=standard&deal={guided}")
    wait_ready(page)
    saves_done(page)
    page.reload()
    wait_ready(page)
    step(page, "pair")
    assert int(page.inner_text("#deal-number")) == guided


@pytest.mark.first_visit
def test_skipped_on_a_phone_in_german_and_never_shown_to_a_returning_player(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    phone = {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True,
             "locale": "de-DE"}
    page = site_context(base_url, **phone).new_page()
    page.goto("/")
    wait_ready(page)
    step(page, "pair")
    expect(page.locator("#tutorial-title")).to_have_text("Dein erstes Spiel, Schritt 1 von 5")
    expect(page.locator("#tutorial-text")).to_contain_text("Tippe die eine an")
    # The page opens on the guide's deal: the focus is not taken to a card (its ring beside
    # the guide's rings), as no deal changed before the player's eyes.
    assert page.evaluate("document.activeElement === document.body")
    box = page.locator(GUIDE).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    for card in targets(page):  # what it points at is not under the sheet
        ring = page.locator(f'#board [data-card="{card}"]').bounding_box()
        assert ring is not None
        assert ring["y"] >= box["y"] + box["height"] or ring["y"] + ring["height"] <= box["y"]
    # Copy link: its box over the sheet, Close in reach; closed, the sheet comes back.
    page.locator('[data-action="copy-link"]:visible').first.tap()
    expect(page.locator("#link-panel")).to_be_visible()
    expect(page.locator(GUIDE)).to_be_hidden()
    close = page.evaluate(IN_REACH, '#link-panel [data-action="link-close"]')
    page.touchscreen.tap(*close[0])
    expect(page.locator("#link-panel")).to_be_hidden()
    expect(page.locator(GUIDE)).to_be_visible()
    page.locator('[data-action="tutorial-skip"]').tap()
    expect(page.locator(GUIDE)).to_be_hidden()
    assert stored(saves_done(page), "nestor.tutorial") == "done"
    page.reload()
    wait_ready(page)
    still(page)
    expect(page.locator(GUIDE)).to_be_hidden()
    # A player of the game before the guide: their settings stored, no word of the guide.
    returning = site_context(base_url, **phone)
    returning.add_init_script(
        "try { localStorage.getItem('nestor.settings') || localStorage.setItem("
        "'nestor.settings', JSON.stringify({language: 'de'})); } catch (e) {}")
    other = returning.new_page()
    other.goto("/")
    wait_ready(other)
    still(other)
    expect(other.locator(GUIDE)).to_be_hidden()
    assert other.evaluate("localStorage.getItem('nestor.tutorial')") is None


BOARD_PLACES = """() => {
  const places = document.querySelectorAll("#board .column, #board .reserve [data-card]");
  return [...places].map((e) => {
    const r = e.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top), Math.round(r.width)];
  });
}"""
"""Where the board's columns and reserve cards lie (left, top, width in px)."""


@pytest.mark.first_visit
def test_a_reload_in_the_guides_middle_on_a_tall_phone_paints_the_board_where_it_stays(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    """On a tall phone the board painted before Python keeps the guide's sheet's room: the
    columns lie where they do once Python shows the sheet again (without the room they went
    from one row of eight to two rows of four and back)."""
    page = site_context(base_url, viewport={"width": 390, "height": 844}, has_touch=True,
                        is_mobile=True).new_page()
    page.goto("/")
    wait_ready(page)
    step(page, "pair")
    take(page, targets(page), touch=True)
    step(page, "covered")
    saves_done(still(page))
    ready_places = page.evaluate(BOARD_PLACES)
    held = hold_pyscript(page)
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("body")).to_have_attribute("data-waking", "guide")
    waking_places = page.evaluate(BOARD_PLACES)
    let_go(page, held)
    wait_ready(page)
    step(page, "covered")
    still(page)
    assert waking_places == ready_places == page.evaluate(BOARD_PLACES)

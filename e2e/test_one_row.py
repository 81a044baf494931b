"""The game controls fit one row (issue 11): at 360 px and 1280 px, in English and German, in
Standard and in Strict (Turn stock card, Finish when offered), with the less used controls in
a "More" menu that opens and closes with the keyboard and the mouse."""

from __future__ import annotations

import os

import pytest
from helpers import no_violations, open_game, play
from lines import find_winnable
from playwright.sync_api import Page, expect

SHOTS = os.environ.get("NESTOR_SCREENSHOT_DIR")
TOGGLE = "#controls [data-menu]"
MENU = "#more-menu"
ROW_TOPS = """() => [...new Set([...document.querySelectorAll('#controls button')]
    .filter(b => b.getClientRects().length)
    .map(b => Math.round(b.getBoundingClientRect().top)))]"""
# Every button that can be shown in the row shown at once (Finish, Install): the widest row.
SHOW_ALL = """() => { for (const s of ['[data-action="finish"]', '[data-install]'])
    document.querySelector('#controls ' + s).hidden = false; }"""


def row_tops(page: Page) -> list[int]:
    """The distinct tops of the shown buttons of #controls (the menu closed: its row)."""
    expect(page.locator(MENU)).not_to_have_attribute("data-open", "")
    tops = page.evaluate(ROW_TOPS)
    assert isinstance(tops, list)
    return tops


def sideways(page: Page) -> int:
    """By how many pixels the page, or the row itself, scrolls sideways (0: not at all)."""
    return int(page.evaluate("""() => Math.max(
        document.documentElement.scrollWidth - window.innerWidth,
        document.getElementById('controls').scrollWidth
        - document.getElementById('controls').clientWidth)"""))


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
@pytest.mark.parametrize("width,height", [(360, 640), (1280, 800)], ids=["360", "1280"])
@pytest.mark.parametrize("language", [
    # make test-slow: English too (German's words are the longer: Rückgängig, Wiederherstellen)
    pytest.param("en", marks=pytest.mark.slow),
    "de",
])
def test_the_controls_are_one_row(page: Page, wait_ready, width: int, height: int,
                                  language: str) -> None:
    page.add_init_script(
        f"localStorage.setItem('nestor.settings', JSON.stringify({{language: '{language}'}}))"
    )
    page.set_viewport_size({"width": width, "height": height})
    for variant in ("standard", "strict"):
        open_game(page, wait_ready, f"?variant={variant}&deal=4")
        expect(page.locator("html")).to_have_attribute("lang", language)
        state = f"{variant}, {language}, {width}px"
        assert len(row_tops(page)) == 1, f"{state}: {row_tops(page)}"
        assert sideways(page) <= 0, state
        if variant == "strict" and width > 480:
            expect(page.locator('#controls [data-action="turn"]')).to_be_visible()
        for name in ("undo", "redo", "hint"):
            expect(page.locator(f'#controls [data-action="{name}"]')).to_be_visible()
        page.evaluate(SHOW_ALL)
        assert len(row_tops(page)) == 1, f"{state}, Finish and Install: {row_tops(page)}"
        assert sideways(page) <= 0, f"{state}, Finish and Install"
        expect(page.locator('#controls [data-action="finish"]')).to_be_visible()
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            page.screenshot(path=os.path.join(SHOTS, f"row-{variant}-{language}-{width}.png"))


@pytest.mark.parametrize("width,height", [
    pytest.param(360, 640, id="360"),
    # make test-slow: a desktop's menu too (the same disclosure, with fewer controls in it)
    pytest.param(1280, 800, id="1280", marks=pytest.mark.slow),
])
def test_the_more_menu_is_a_disclosure(page: Page, wait_ready, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    deal, line = find_winnable("standard")
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    toggle = page.locator(TOGGLE)
    menu = page.locator(MENU)
    restart = page.locator('#controls [data-action="restart"]')
    expect(toggle).to_have_attribute("aria-controls", "more-menu")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_have_accessible_name("More")
    for name in ("daily", "restart", "solve"):
        expect(page.locator(f'#controls [data-action="{name}"]')).to_be_hidden()
    # The mouse: open, a click outside closes it.
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(restart).to_be_visible()
    no_violations(page, f"menu open at {width}px")
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"menu-open-{width}.png"))
    page.locator("h1").click()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(restart).to_be_hidden()
    # ... and a second click on More closes it too.
    toggle.click()
    expect(restart).to_be_visible()
    toggle.click()
    expect(restart).to_be_hidden()
    # The keyboard: Tab reaches More, Enter opens it (the focus in it), Escape closes it and
    # gives the focus back.
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    assert page.evaluate("document.activeElement.closest('#more-menu') !== null")
    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    expect(menu).not_to_have_attribute("data-open", "")
    # An action from the menu works and closes it: a move, then Restart undoes the deal.
    play(page, line[0])
    expect(page.locator("#moves-made")).to_have_text("1")
    toggle.click()
    restart.click()
    expect(page.locator("#moves-made")).to_have_text("0")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(restart).to_be_hidden()
    # A panel opened from the menu gives the focus back to More once closed.
    toggle.click()
    page.locator('#controls [data-action="keys"]' if width <= 480
                 else '#controls [data-action="solve"]').click()
    if width <= 480:
        expect(page.locator("#keys-dialog")).to_have_attribute("open", "")
        page.keyboard.press("Escape")
        expect(page.locator("#keys-dialog")).not_to_have_attribute("open", "")
        expect(toggle).to_be_focused()
    else:
        expect(page.locator("body")).to_have_attribute("data-solving", "")
        expect(toggle).to_be_focused()
        toggle.click()
        page.locator('#controls [data-action="solve"]').click()  # Stop
        expect(page.locator("body")).not_to_have_attribute("data-solving", "")

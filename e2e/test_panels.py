"""Issue 22: the end screen and the link box over the game, tooltips on the icon controls.

Each panel opening at its top, its heading in view, on a background of its theme, is
e2e/test_layout.py's audit (every panel, every size, both languages and themes)."""

from __future__ import annotations

import pytest
from conftest import control
from helpers import END, next_frame, open_game, play, winnable_deal_lost_by_first_moves
from lines import losing_line
from playwright.sync_api import Page, expect

"""The relative luminance of a panel's background (WCAG's formula), 0 (black) to 1 (white)."""

"""WCAG's contrast ratio of an element's text colour over its own (opaque) background."""


@pytest.mark.parametrize("width,height", [
    # make test-slow: a phone too (make test's layout audit at 390x844 checks that its end
    # screen leaves the board in view; the board fell below the fold at 1280x800)
    pytest.param(390, 844, marks=pytest.mark.slow),
    (1280, 800),
])
def test_the_end_screen_and_the_link_box_open_over_the_game(
    page: Page, wait_ready, width: int, height: int
) -> None:
    # Issue 22 (3): the end screen and the Copy-link box pushed the board down (the lost
    # board fell below the fold at 1280x800; the link box shifted everything by 95 px on a
    # desktop, 210 px on a phone). Both now lie over the game: the board does not move.
    page.set_viewport_size({"width": width, "height": height})
    deal = winnable_deal_lost_by_first_moves()
    line = losing_line("standard", deal)
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    board = page.locator("#board")
    top = board.bounding_box()["y"]
    page.locator('#counters [data-action="copy-link"]').click()
    expect(page.locator("#link-panel")).to_be_visible()
    assert board.bounding_box()["y"] == top
    page.locator('#link-panel [data-action="link-close"]').click()
    expect(page.locator("#link-panel")).to_be_hidden()
    for move in line:
        play(page, move)
    expect(page.locator(END)).to_be_visible()
    assert board.bounding_box()["y"] == top
    # The final board stays in view above the end screen (a sheet from the bottom).
    end_top = page.locator(END).bounding_box()["y"]
    assert end_top > top and end_top > height * 0.3
    page.keyboard.press("Escape")  # closed: "Show the result" does not move it either
    expect(page.locator(END)).to_be_hidden()
    assert board.bounding_box()["y"] == top


def test_an_icon_control_shows_its_name_while_hovered_or_focused(page: Page, wait_ready) -> None:
    # Issue 22 (5): the icons had no visible name on a desktop, only an accessible one.
    page.set_viewport_size({"width": 1280, "height": 800})
    open_game(page, wait_ready, "?variant=standard&deal=7")
    tip = page.locator('[role="tooltip"]')
    expect(tip).to_be_hidden()
    stats = control(page, "stats")
    stats.hover()
    expect(tip).to_be_visible()
    expect(tip).to_have_text("Statistics")
    box, own = stats.bounding_box(), tip.bounding_box()
    assert box is not None and own is not None and own["y"] >= box["y"] + box["height"]
    page.mouse.move(5, 790)
    expect(tip).to_be_hidden()
    # By the keyboard: the focus on an icon shows its name; Escape takes it away.
    page.locator('#counters [data-action="copy-link"]').focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(tip).to_be_visible()
    expect(tip).to_have_text("Copy link")
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    # Tab to an icon outside the window (a short window, the page scrolled past it): the page
    # scrolls it into view, and its name stays beside it (it went with that scroll).
    page.set_viewport_size({"width": 1280, "height": 120})
    page.locator('#counters [data-action="copy-link"]').evaluate(
        "e => e.focus({preventScroll: true})")
    page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
    review = page.locator('#counters [data-action="review"]')
    assert review.evaluate("e => e.getBoundingClientRect().bottom < 0")
    page.keyboard.press("Shift+Tab")
    expect(review).to_be_focused()
    next_frame(page)
    expect(tip).to_be_visible()
    expect(tip).to_have_text("Review")
    box, own = review.bounding_box(), tip.bounding_box()
    assert box is not None and own is not None
    assert box["y"] >= 0 and own["y"] >= 0 and own["y"] + own["height"] <= 120
    assert own["y"] >= box["y"] + box["height"] or own["y"] + own["height"] <= box["y"]

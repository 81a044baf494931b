"""The review in the page, in Chromium: a winnable deal lost by a line whose turning point
the test works out with the engine (nestor.review); the review names that move, offers
alternatives the solver proves winning, draws its timeline, lets a point be chosen by tap
and by key, and "Try from here" puts the game back there with the later moves for redo.
No request leaves the origin (conftest checks every test)."""

from __future__ import annotations

import json
import os
import re

import pytest
from conftest import stored
from helpers import cards_on_page, no_violations, open_game, play, shown_codes
from lines import winning_line
from playwright.sync_api import Page, expect

from nestor import Game, Outcome, Record, parse_move
from nestor.link import record_query
from nestor.review import review

SHOTS = os.environ.get("NESTOR_SCREENSHOT_DIR")
PANEL = "[data-review]"


def first_move_loss(variant: str, start: int = 0) -> tuple[Record, int]:
    """The first deal from ``start`` that is winnable and that always taking the first
    legal move loses, with the turning point the engine finds in that line."""
    for deal in range(start, start + 50):
        game = Game(variant, deal)
        while game.outcome() is None:
            game.push(game.legal_moves()[0])
        if game.outcome() is Outcome.WON:
            continue
        record = game.record()
        turning = review(record).turning_point
        if turning is not None:
            return record, turning
    raise AssertionError(f"no {variant} deal lost from a winnable start found")


def review_board_cards(page: Page) -> list[str]:
    return page.locator(f"{PANEL} .review-board [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def test_the_review_names_the_turning_point_and_tries_from_there(
    page: Page, wait_ready, base_url
) -> None:
    # The shared context's permissions are cleared before each test.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    record, turning = first_move_loss("standard")
    engine = review(record)
    total = len(record.moves)
    open_game(page, wait_ready, f"?variant=standard&deal={record.deal}")
    for move in record.moves:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "lost")

    # The end screen's Review button opens the panel over the game (the Review icon beside
    # Copy link does too, below); the review is worked out in slices.
    page.click('[data-end-screen] [data-action="review"]')
    panel = page.locator(PANEL)
    expect(panel).to_be_visible()
    expect(panel.locator('.review-progress[data-done="true"]')).to_have_count(1)
    final = Game("standard", record.deal)  # the game's last board stays under the panel
    for move in record.moves:
        final.push(move)
    assert cards_on_page(page) == shown_codes(final)
    assert float(page.get_attribute("body", "data-review-ms") or "nan") >= 0

    # It names the turning point, the engine's, and marks its entry.
    marked = panel.locator("[data-turning-point]")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-turning-point", str(turning))
    expect(marked).to_have_attribute("data-review-go", str(turning))
    expect(panel.locator(".review-summary")).to_contain_text(f"Move {turning + 1}, ")
    expect(panel.locator(".review-summary")).to_contain_text("lost the game")
    expect(page.locator("#review-status")).to_contain_text(f"Move {turning + 1}, ")

    # The alternatives offered are the engine's, and each one wins (a plain search, not
    # the page's solver, proves it).
    offered = panel.locator("[data-alternative]").evaluate_all(
        "els => els.map(e => e.dataset.alternative)"
    )
    assert offered == [str(m) for m in engine.alternatives] and offered
    before = engine.position_before(turning)
    for text in offered:
        after = before.apply(parse_move(text))
        assert winning_line(after) is not None, f"{text} does not win from move {turning + 1}"
    assert winning_line(before.apply(record.moves[turning])) is None

    # The board shown is the one before the turning point, its move marked.
    assert sorted(review_board_cards(page)) == sorted(
        [*(c for col in before.columns for c in col), *before.reserve]
    )
    marked_cards = panel.locator(".review-board [data-next]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert sorted(marked_cards) == sorted(record.moves[turning].cards)
    no_violations(page, "review")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/review-lost.png")

    # The timeline: a point per move; a tap on one shows its position, the keys move on.
    timeline = panel.locator("[data-review-timeline]")
    expect(timeline).to_be_visible()
    expect(timeline.locator("circle.tl-point")).to_have_count(total)
    expect(timeline.locator(f'[data-turning-mark="{turning}"]')).to_have_count(1)
    expect(timeline).to_have_attribute("aria-valuenow", str(turning + 1))
    timeline.locator('circle[data-review-go="2"]').dispatch_event("click")
    expect(timeline).to_have_attribute("aria-valuenow", "3")
    expect(panel.locator("#review-chosen-title")).to_contain_text("Before move 3:")
    third = Record(record.variant, record.deal, record.moves[:2]).replay().position
    assert sorted(review_board_cards(page)) == sorted(
        [*(c for col in third.columns for c in col), *third.reserve]
    )
    box = timeline.locator("svg").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # the end
    expect(timeline).to_have_attribute("aria-valuenow", str(total))
    timeline.focus()
    page.keyboard.press("Home")
    expect(timeline).to_have_attribute("aria-valuenow", "1")
    page.keyboard.press("ArrowRight")
    expect(timeline).to_have_attribute("aria-valuenow", "2")
    expect(timeline).to_be_focused()  # the redraw keeps the focus on the timeline
    page.keyboard.press("ArrowLeft")
    expect(timeline).to_have_attribute("aria-valuenow", "1")
    panel.locator(f'.review-moves [data-review-go="{turning}"]').click()
    expect(timeline).to_have_attribute("aria-valuenow", str(turning + 1))

    # Copy link: the replay link of the game.
    panel.locator('[data-action="copy-link"]').click()
    expect(page.locator("#review-link-words")).to_contain_text("Link copied")
    url = page.evaluate("() => navigator.clipboard.readText()")
    assert url == f"{base_url}/?{record_query(record)}"

    # Try from here: the game is back before the turning point, the later moves for redo.
    panel.locator('[data-review-command="try"]').click()
    expect(panel).to_be_hidden()
    expect(page.locator("#moves-made")).to_have_text(str(turning))
    back = Record(record.variant, record.deal, record.moves[:turning]).replay()
    assert cards_on_page(page) == shown_codes(back)
    expect(page.locator("body")).not_to_have_attribute("data-outcome", re.compile("."))
    saved = json.loads(stored(page, "nestor.game") or "{}")
    assert saved["cursor"] == turning and saved["reviewed"] == 1
    assert saved["moves"] == [str(m) for m in record.moves]
    expect(page.locator('#controls [data-action="redo"]')).to_be_enabled()
    page.click('#controls [data-action="redo"]')
    expect(page.locator("#moves-made")).to_have_text(str(turning + 1))
    again = Record(record.variant, record.deal, record.moves[: turning + 1]).replay()
    assert cards_on_page(page) == shown_codes(again)

    # The review of the game now in play: its moves in effect, in progress.
    page.click('#counters [data-action="review"]')
    expect(panel.locator('.review-progress[data-done="true"]')).to_have_count(1)
    expect(panel.locator(".review-moves [data-review-go]")).to_have_count(turning + 1)
    expect(panel.locator(".review-deal")).to_contain_text("game in progress")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_the_strict_review_follows_the_chance_in_german(page: Page, wait_ready) -> None:
    record, turning = first_move_loss("strict")
    engine = review(record)
    assert engine.cuts and engine.turning_point == turning
    page.add_init_script("localStorage.setItem('nestor.settings', "
                         "JSON.stringify({language: 'de'}))")
    open_game(page, wait_ready, f"?variant=strict&deal={record.deal}")
    for move in record.moves:
        play(page, move)
    page.click('[data-action="review"]')
    panel = page.locator(PANEL)
    expect(panel.locator('.review-progress[data-done="true"]')).to_have_count(1)
    expect(panel.locator("[data-turning-point]")).to_have_attribute(
        "data-turning-point", str(turning)
    )
    expect(panel.locator(".review-summary")).to_contain_text(
        f"Zug {turning + 1}, "
    )
    expect(panel.locator(".review-summary")).to_contain_text("senkte die Gewinnchance")
    # The chance line: a point per move, its heights the chances after each move.
    points = panel.locator("[data-review-timeline] circle.tl-point")
    expect(points).to_have_count(len(record.moves))
    heights = points.evaluate_all("els => els.map(e => parseFloat(e.getAttribute('cy')))")
    chances = [m.chance_after for m in engine.moves]
    assert len(heights) == len(chances)
    for i in range(len(chances) - 1):
        c1, c2 = chances[i], chances[i + 1]
        if c1 is not None and c2 is not None and c1 != c2:
            assert (heights[i] < heights[i + 1]) == (c1 > c2)  # higher chance, higher point
    no_violations(page, "strict review, German")

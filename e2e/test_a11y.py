"""Keyboard, screen reader, languages, statistics and every screen size, in Chromium."""

from __future__ import annotations

import json
import os

import pytest
from conftest import control, stored
from helpers import cards_on_page, no_violations, open_game, play, shown_codes
from lines import find_winnable, losing_line
from playwright.sync_api import Page, expect

from nestor import VARIANTS, Game, Pair

SHOTS = os.environ.get("NESTOR_SCREENSHOT_DIR")


@pytest.mark.slow  # make test-slow: the layout audit runs axe in every mode in make test
def test_axe_finds_nothing_in_the_main_states(page: Page, wait_ready) -> None:
    deal, line = find_winnable("standard")
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    no_violations(page, "start")
    for move in line[:5]:
        play(page, move)
    page.locator("[data-available]").first.click()  # a selection
    no_violations(page, "mid-game")
    control(page, "settings").click()
    no_violations(page, "settings")
    page.keyboard.press("Escape")
    control(page, "rules").click()
    no_violations(page, "rules")
    page.keyboard.press("Escape")
    control(page, "keys").click()
    no_violations(page, "keyboard help")
    page.keyboard.press("Escape")  # closes the help
    expect(page.locator("#keys-dialog")).to_be_hidden()
    page.keyboard.press("Escape")  # clears the selection
    expect(page.locator("[data-selected]")).to_have_count(0)
    for move in line[5:]:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    no_violations(page, "won")
    control(page, "stats").click()
    expect(page.locator("#stats-dialog table").first).to_be_visible()
    expect(page.locator("#stats-dialog [data-grades]")).to_be_visible()  # the games by grade
    no_violations(page, "statistics")
    page.keyboard.press("Escape")
    page.goto("/?variant=standard&deal=2")
    wait_ready(page)
    for move in losing_line("standard", 2):
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "lost")
    no_violations(page, "lost")
    page.emulate_media(color_scheme="dark")
    no_violations(page, "lost, dark")


def focus_card(page: Page, card: str) -> None:
    for _ in range(60):
        if page.evaluate("document.activeElement && document.activeElement.dataset.card") == card:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrow keys never reached {card}")


def test_a_whole_game_won_with_the_keyboard_alone(page: Page, wait_ready) -> None:
    deal, line = find_winnable("doublets")
    open_game(page, wait_ready, f"?variant=doublets&deal={deal}")
    game = Game("doublets", deal)
    announce = page.locator("#announce")
    for number, move in enumerate(line):
        assert isinstance(move, Pair)
        for card in move.cards:
            focus_card(page, card)
            page.keyboard.press("Enter" if number % 2 else "Space")
        game.push(move)
        expect(page.locator("#cards-left")).to_have_text(str(game.position.cards_left()))
        if number == 0:
            expect(announce).to_contain_text("Removed the")
            # The keyboard's player is told to choose (not to tap, issue 22 (7)).
            expect(page.locator("#status")).to_have_text(
                "Choose two available cards of the same rank (arrow keys, then Enter) to "
                "remove them.")
        # Focus never falls off the board while cards remain.
        if game.outcome() is None:
            assert page.evaluate("document.activeElement.dataset.card || ''") != ""
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    expect(announce).to_contain_text("You won!")
    # The winning pair took the focused card: focus goes to the end screen, not to <body>.
    expect(page.locator("[data-end-screen]")).to_be_focused()
    # Single keys: undo, redo, restart, help.
    page.keyboard.press("u")
    expect(page.locator("#cards-left")).to_have_text("2")
    # The pair taken back has the focus again.
    last = line[-1]
    assert isinstance(last, Pair)
    expect(page.locator(f'[data-card="{last.first}"]')).to_be_focused()
    page.keyboard.press("r")
    expect(page.locator("#cards-left")).to_have_text("0")
    page.keyboard.press("?")
    expect(page.locator("#keys-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#keys-dialog")).to_be_hidden()
    page.keyboard.press("s")
    expect(page.locator("#cards-left")).to_have_text("52")


def test_german_is_chosen_from_the_browser_and_can_be_switched(browser, base_url) -> None:
    context = browser.new_context(locale="de-DE", base_url=base_url)
    page = context.new_page()
    try:
        page.goto("/?variant=strict&deal=7")
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator('[data-action="new"]')).to_have_text("Neues Spiel")
        expect(page.locator("#variant-title")).to_have_text("Streng")
        expect(page.locator('[data-card="QD"]')).to_have_attribute(
            "aria-label", "Karo-Dame, Spalte 1"
        )
        control(page, "settings").click()
        page.select_option("#opt-language", "en")
        expect(page.locator('[data-action="new"]')).to_have_text("New deal")
        expect(page.locator("#rules-text h2").first).to_have_text("Goal")
        page.reload()
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        expect(page.locator("html")).to_have_attribute("lang", "en")
    finally:
        context.close()


@pytest.mark.slow  # make test-slow: the reset is unit-tested; the panel is in the audit
def test_statistics_count_a_win_and_reset_after_confirmation(page: Page, wait_ready) -> None:
    deal, line = find_winnable("vertical")
    open_game(page, wait_ready, f"?variant=vertical&deal={deal}")
    for move in line:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    stats = json.loads(stored(page, "nestor.stats") or "")
    assert stats["variants"]["vertical"]["won"] == 1
    control(page, "stats").click()
    row = page.locator("#stats-dialog tbody tr", has_text="Vertical")
    expect(row.locator("td").nth(1)).to_have_text("1")
    expect(page.locator("#stats-dialog svg[role=img]")).to_have_attribute(
        "aria-label", "Recent games, Vertical: 1 games: 1 won, 0 won with help, 0 lost; "
        "win rate 100%."
    )
    page.click('[data-action="stats-reset"]')
    page.click('[data-action="stats-reset-cancel"]')
    expect(row.locator("td").nth(1)).to_have_text("1")
    page.click('[data-action="stats-reset"]')
    page.click('[data-action="stats-reset-confirm"]')
    expect(row.locator("td").nth(1)).to_have_text("0")


def test_undo_during_the_animation_leaves_the_board_right(page: Page, wait_ready) -> None:
    page.emulate_media(reduced_motion="no-preference")
    open_game(page, wait_ready, "?variant=standard&deal=7")
    game = Game("standard", 7)
    move = game.legal_moves()[0]
    play(page, move)
    page.keyboard.press("u")  # at once, while the removed pair still flies
    assert cards_on_page(page) == shown_codes(game)
    expect(page.locator(".ghost")).to_have_count(0, timeout=3000)
    assert cards_on_page(page) == shown_codes(game)


SIZES = [(360, 640), (390, 844), (768, 1024), (1280, 800)]
IN_MAKE_TEST = {(360, 640), (1280, 800)}  # the smallest phone and a desktop


# make test-slow: all four sizes (make test: the smallest and the largest)
@pytest.mark.parametrize("width,height", [
    pytest.param(w, h, id=f"{w}x{h}", marks=() if (w, h) in IN_MAKE_TEST else pytest.mark.slow)
    for w, h in SIZES
])
def test_every_variant_fits_and_stays_legible(page: Page, wait_ready, width, height) -> None:
    page.set_viewport_size({"width": width, "height": height})
    open_game(page, wait_ready, "?variant=standard&deal=7")
    for variant in VARIANTS:
        page.select_option("#variant", variant)
        expect(page.locator("body")).to_have_attribute("data-variant", variant)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{variant} at {width}x{height} scrolls sideways by {overflow}px"
        sizes = page.locator("#board [data-available]").evaluate_all(
            "els => els.map(e => [e.getBoundingClientRect().width, "
            "e.getBoundingClientRect().height, "
            "parseFloat(getComputedStyle(e.querySelector('.corner')).fontSize)])"
        )
        for card_w, card_h, font in sizes:
            assert card_h >= 44, f"{variant} at {width}x{height}: a card is {card_h}px tall"
            assert card_w >= 24 and font >= 11, (variant, width, card_w, font)
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            page.screenshot(path=os.path.join(SHOTS, f"{variant}-{width}x{height}.png"))

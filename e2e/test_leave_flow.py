"""Game flow in Chromium (issue 11): leaving a game is undoable, the variant picker deals
only on a committed choice, a lost game counts at once, the timer and pairs count, Finish."""

from __future__ import annotations

import json
import re

import pytest
from conftest import control, new_deal_with_a_pair, saves_done, stored
from helpers import open_game, play
from lines import losing_line, winning_line
from playwright.sync_api import Page, expect

from nestor import Game, Move, Pair, deal_position
from nestor.finish import cannot_lose
from nestor_web.storage.stats_codec import stats_from_text


def test_undo_after_new_deal_restores_the_game_and_the_statistics(page: Page, wait_ready) -> None:
    open_game(page, wait_ready, "?variant=standard&deal=7")
    game = Game("standard", 7)
    for _ in range(3):
        move = game.legal_moves()[0]
        play(page, move)
        game.push(move)
    expect(page.locator("#moves-made")).to_have_text("3")
    expect(page.locator("#pairs")).to_have_text("3")
    stats = stored(page, "nestor.stats")
    saved = json.loads(stored(page, "nestor.game") or "{}")
    board = page.locator("#board").inner_html()

    control(page, "new").click()
    expect(page.locator("#moves-made")).to_have_text("0")
    expect(page).not_to_have_url(re.compile(r"deal=7$"))
    expect(page.locator("#announce")).to_have_text(
        "Left the game in progress: Undo brings it back."
    )
    assert stored(page, "nestor.stats") == stats  # nothing settled yet
    expect(page.locator('#controls [data-action="undo"]')).to_be_enabled()

    page.click('#controls [data-action="undo"]')
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=7$"))
    expect(page.locator("#moves-made")).to_have_text("3")
    assert page.locator("#board").inner_html() == board
    again = json.loads(stored(page, "nestor.game") or "{}")
    assert {k: again[k] for k in ("variant", "deal", "moves", "cursor")} == {
        k: saved[k] for k in ("variant", "deal", "moves", "cursor")
    }
    assert stored(page, "nestor.stats") == stats
    assert "standard/7" not in json.loads(stored(page, "nestor.archive") or "{}")
    control(page, "stats").click()
    expect(page.locator("#stats-dialog")).to_contain_text("Statistics")
    page.keyboard.press("Escape")

    # Restart, then Undo: the moves come back too.
    control(page, "restart").click()
    expect(page.locator("#moves-made")).to_have_text("0")
    page.click('#controls [data-action="undo"]')
    expect(page.locator("#moves-made")).to_have_text("3")

    # New deal, then a move there: the game left is settled as lost, and Undo takes back
    # only that move.
    # One deal in 260 has no pair at all (lost as dealt): a player deals again, and the game
    # left (deal 7) still waits for Undo, a deal without moves being no game to keep.
    deal = new_deal_with_a_pair(page)
    first = Game("standard", deal).legal_moves()[0]
    play(page, first)
    expect(page.locator("#moves-made")).to_have_text("1")
    history = stats_from_text(stored(page, "nestor.stats") or "").history()
    assert [s.result for s in history if s.deal == 7] == ["lost"]
    page.click('#controls [data-action="undo"]')
    expect(page.locator("#moves-made")).to_have_text("0")
    expect(page.locator('#controls [data-action="undo"]')).to_be_disabled()


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_arrow_keys_on_the_variant_picker_deal_nothing_until_committed(
    page: Page, wait_ready
) -> None:
    page.clock.install()  # runs in real time until the test moves it on
    open_game(page, wait_ready, "?variant=standard&deal=11")
    picker = page.locator("#variant")
    picker.focus()
    # Chromium on Linux changes a closed select's value at each arrow key and fires
    # "change" each time: that must not deal.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert picker.evaluate("e => e.value") == "vertical"  # Chromium moved the choice
    page.clock.fast_forward(300)  # anything the page had due in that time has run
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=11$"))
    expect(page.locator("body")).to_have_attribute("data-variant", "standard")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Escape")  # back to the variant in play
    assert picker.evaluate("e => e.value") == "standard"
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=11$"))
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # committed
    expect(page).to_have_url(re.compile(r"\?variant=strict&deal=\d+$"))
    expect(page.locator("body")).to_have_attribute("data-variant", "strict")
    # Browsing, then leaving the picker commits what it shows.
    page.keyboard.press("ArrowDown")
    page.clock.fast_forward(300)
    expect(page.locator("body")).to_have_attribute("data-variant", "strict")
    page.keyboard.press("Tab")
    expect(page.locator("body")).to_have_attribute("data-variant", "vertical")
    # A pointer's choice deals at once.
    page.select_option("#variant", "doublets")
    expect(page.locator("body")).to_have_attribute("data-variant", "doublets")


def lost_deal() -> tuple[int, list[Move]]:
    for deal in range(100):
        game = Game("standard", deal)
        while game.outcome() is None:
            game.push(game.legal_moves()[0])
        if not game.outcome().won:  # type: ignore[union-attr]
            return deal, losing_line("standard", deal)
    raise AssertionError("no losing line")


def test_a_lost_game_counts_at_once(page: Page, wait_ready) -> None:
    deal, line = lost_deal()
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    for move in line:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "lost")
    expect(page.locator("#status")).to_contain_text("Streak: 0 (best 0).")
    history = stats_from_text(stored(page, "nestor.stats") or "").history()
    assert [(s.deal, s.result) for s in history] == [(deal, "lost")]
    control(page, "stats").click()
    expect(page.locator("#stats-dialog")).to_contain_text("1")
    page.keyboard.press("Escape")


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_timer_ticks_pauses_when_hidden_and_survives_a_reload(page: Page, wait_ready) -> None:
    page.clock.install()  # runs in real time until the test moves it on
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("#timer")).to_have_text("0:00")
    play(page, Game("standard", 7).legal_moves()[0])
    page.clock.fast_forward(2500)
    expect(page.locator("#timer")).to_have_text(re.compile(r"^0:0[2-9]$"))
    # Hidden: the page says so as a browser does when the tab goes to the background.
    page.evaluate("""() => {
        Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    saved = json.loads(stored(page, "nestor.game") or "{}")
    assert saved["elapsed_ms"] >= 2000
    shown = page.locator("#timer").inner_text()
    page.clock.fast_forward(2500)
    saves_done(page)  # a round trip after the ticks that came due
    expect(page.locator("#timer")).to_have_text(shown)  # paused
    page.reload()
    wait_ready(page)
    seconds = saved["elapsed_ms"] // 1000
    expect(page.locator("#timer")).to_have_text(
        re.compile(rf"^0:(0{seconds}|0{seconds + 1}|{seconds + 1}|{seconds + 2})$")
    )
    # German words for the counters.
    control(page, "settings").click()
    page.locator("#opt-language").select_option("de")
    page.keyboard.press("Escape")  # the settings panel is modal: close it
    expect(page.locator('[data-text="time-label"]')).to_have_text("Zeit:")
    expect(page.locator('[data-text="pairs-label"]')).to_have_text("Paare:")


def finishable_line(variant: str = "doublets") -> tuple[int, list[Move]]:
    """A deal and the first moves of a winning line after which nothing can lose."""
    from nestor.solver import solve

    for deal in range(50):
        game = Game(variant, deal)
        line = solve(game.position).line
        for i, move in enumerate(line):
            if cannot_lose(game.position, 2000) and i > 0:
                return deal, list(line[:i])
            game.push(move)
    raise AssertionError("no finishable line")


def test_finish_plays_it_out(page: Page, wait_ready) -> None:
    deal, line = finishable_line()
    open_game(page, wait_ready, f"?variant=doublets&deal={deal}")
    finish = page.locator('#controls [data-action="finish"]')
    expect(finish).to_be_hidden()
    for move in line:
        play(page, move)
    expect(finish).to_be_visible(timeout=20_000)
    finish.click()
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    expect(page.locator("#cards-left")).to_have_text("0")
    expect(finish).to_be_hidden()
    saved = json.loads(stored(page, "nestor.game") or "{}")
    assert saved["hints"] == 0 and saved["solver_moves"] == 0  # Finish is no help


@pytest.mark.slow  # make test-slow: make test: Solve (test_assist)
def test_solve_speed_setting(page: Page, wait_ready) -> None:
    open_game(page, wait_ready, "?variant=doublets&deal=3")
    control(page, "settings").click()
    page.locator("#opt-solve-speed").select_option("fast")
    saves_done(page)
    assert json.loads(stored(page, "nestor.settings") or "{}")["solve_speed"] == "fast"
    page.keyboard.press("Escape")  # the settings panel is modal: close it
    expect(page.locator("#settings-dialog")).not_to_have_attribute("open", "")
    control(page, "solve").click()
    expect(page.locator("body")).to_have_attribute("data-outcome", "won", timeout=30_000)


def test_back_to_a_game_left_and_won_takes_its_loss_back_in_the_history(
    page: Page, wait_ready
) -> None:
    """New deal, one pair there (the game left settles as lost), Back to the game left, win
    it: the history holds its win and no loss beside it (as Undo would have left it)."""
    open_game(page, wait_ready, "?variant=doublets&deal=4")
    line = winning_line(deal_position("doublets", 4))
    assert line is not None
    for move in line[:2]:
        play(page, move)
    expect(page.locator("#moves-made")).to_have_text("2")
    other = new_deal_with_a_pair(page, "doublets")
    pair = next(m for m in Game("doublets", other).legal_moves() if isinstance(m, Pair))
    play(page, pair)
    expect(page.locator("#moves-made")).to_have_text("1")
    assert stats_from_text(stored(page, "nestor.stats") or "").deal_result(
        "doublets", 4) == "lost"
    for _ in range(10):  # Back past any deal New deal dealt without a pair
        page.go_back()
        if page.evaluate("location.search") == "?variant=doublets&deal=4":
            break
    expect(page.locator("#deal-number")).to_have_text("4")
    expect(page.locator("#moves-made")).to_have_text("2")
    for move in line[2:]:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    stats = stats_from_text(stored(page, "nestor.stats") or "")
    assert [(s.deal, s.result) for s in stats.history()] == [(other, "lost"), (4, "won")]
    summary = stats.summary("doublets")
    assert (summary.played, summary.won, summary.streak) == (2, 1, 1)

"""The solver in the browser: Hint, Solve, the winnable indicator, winnable deals only."""

from __future__ import annotations

import json
import re

import pytest
from conftest import control, saves_done, stored
from helpers import open_game, play
from lines import losing_line
from playwright.sync_api import Page, expect

from nestor import Game, Pair, deal_position
from nestor.solver import Status, solve


def hinted_cards(page: Page) -> list[str]:
    return sorted(page.locator("[data-hint][data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    ))


def recount(game: Game) -> str:
    """The start of a hint's first step for ``game``'s position, worked out plainly."""
    position = game.position
    pairs = [m for m in position.legal_moves() if isinstance(m, Pair)]
    losing = sum(solve(position.apply(m)).status is Status.LOST for m in pairs)
    made = f"{len(pairs)} pair{'s' if len(pairs) != 1 else ''} can be made"
    if losing == 0:
        return made + ("; it keeps" if len(pairs) == 1 else "; none of them loses")
    return made


def test_hint_keeps_a_winnable_game_winnable_and_counts(page: Page, wait_ready) -> None:
    deal = next(
        d for d in range(50) if solve(deal_position("standard", d)).status is Status.WINNABLE
    )
    game = Game("standard", deal)
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    # Play two real moves first, then ask for a hint, three times over.
    for shown in range(3):
        move = solve(game.position).best_move
        assert isinstance(move, Pair)
        play(page, move)
        game.push(move)
        # The first press says how many pairs there are and how many lose, shows none and
        # counts no help (issue 24 (3)); the second shows the best pair.
        count = recount(game)
        page.click('[data-action="hint"]')
        expect(page.locator("#status")).to_contain_text(count)
        expect(page.locator("[data-hint]")).to_have_count(0)
        saves_done(page)
        assert json.loads(stored(page, "nestor.game") or "{}").get("hints", 0) == shown
        page.click('[data-action="hint"]')
        expect(page.locator("#status")).to_contain_text("Hint: remove the")
        cards = hinted_cards(page)
        assert len(cards) == 2
        hinted = Pair(*cards)
        assert game.position.is_legal(hinted)
        assert solve(game.position.apply(hinted)).status is Status.WINNABLE
        play(page, hinted)
        game.push(hinted)
    saved = json.loads(stored(page, "nestor.game"))
    assert saved["hints"] == 3 and saved["solver_moves"] == 0
    ms = float(page.locator("body").get_attribute("data-hint-ms") or "nan")
    assert 0 <= ms < 10_000


def test_hint_on_a_lost_position_says_so(page: Page, wait_ready) -> None:
    # Deal 0 of standard cannot be won from the start.
    assert solve(deal_position("standard", 0)).status is Status.LOST
    open_game(page, wait_ready, "?variant=standard&deal=0")
    page.click('[data-action="hint"]')  # its first step: every pair loses
    expect(page.locator("#status")).to_contain_text(
        "and every one of them loses the game: no winning line remains.")
    saves_done(page)
    assert json.loads(stored(page, "nestor.game") or "{}").get("hints", 0) == 0
    page.click('[data-action="hint"]')
    expect(page.locator("#status")).to_contain_text("No winning line remains")
    expect(page.locator("[data-hint]")).to_have_count(0)
    # After a loss the Hint control is off.
    for move in losing_line("standard", 0):
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "lost")
    expect(page.locator('[data-action="hint"]')).to_be_disabled()


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_solve_wins_and_can_be_stopped(page: Page, wait_ready) -> None:
    deal = next(
        d for d in range(50) if solve(deal_position("doublets", d)).status is Status.WINNABLE
    )
    page.clock.install()  # runs in real time until the test moves it on
    open_game(page, wait_ready, f"?variant=doublets&deal={deal}")
    solve_button = page.locator('#controls [data-action="solve"]')
    control(page, "solve").click()
    expect(page.locator("body")).to_have_attribute("data-solving", "")
    expect(solve_button).to_have_text("Stop")
    expect(page.locator("#moves-made")).not_to_have_text("0")
    control(page, "solve").click()
    expect(page.locator("body")).not_to_have_attribute("data-solving", "")
    stopped_at = page.locator("#moves-made").inner_text()
    # That nothing more is played cannot be waited for: move the page's clock on by well over
    # Solve's pace between two pairs (SOLVE_PAUSE_MS at the normal speed, 0.6 s), so any pair it
    # had due is played, and see that none was.
    page.clock.fast_forward(1500)
    saves_done(page)  # a round trip after the timers that came due
    expect(page.locator("#moves-made")).to_have_text(stopped_at)
    # The player can undo what Solve played, then let it finish.
    page.click('[data-action="undo"]')
    expect(page.locator("#moves-made")).to_have_text(str(int(stopped_at) - 1))
    control(page, "solve").click()
    # Its pauses between pairs (0.6 s each) are the page clock's: moved on, not waited for.
    for _ in range(120):
        if page.locator("body").get_attribute("data-outcome") == "won":
            break
        page.clock.fast_forward(700)
        page.wait_for_timeout(30)
    expect(page.locator("body")).to_have_attribute("data-outcome", "won", timeout=60_000)
    saved = json.loads(stored(page, "nestor.game"))
    assert saved["solver_moves"] >= 26
    game = Game.from_json({k: saved[k] for k in ("variant", "deal", "moves", "cursor")})
    assert game.position.is_empty()


def test_indicator_and_any_winnable_deal_setting(page: Page, wait_ready) -> None:
    open_game(page, wait_ready, "?variant=overlapping&deal=0")
    expect(page.locator("#indicator")).to_be_hidden()  # off by default
    control(page, "settings").click()
    page.check("#opt-indicator")
    won = solve(deal_position("overlapping", 0)).status is Status.WINNABLE
    expected = "yes" if won else "no"
    expect(page.locator("#indicator")).to_contain_text(f"Winnable: {expected}")
    page.select_option('select[data-setting="difficulty"]', "winnable")
    # Saving runs in the task after the board is drawn: wait for it.
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('nestor.settings')).difficulty === 'winnable'"
    )
    settings = json.loads(stored(page, "nestor.settings"))
    assert settings["winnable_indicator"] is True and settings["winnable_only"] is True
    page.keyboard.press("Escape")  # the settings panel is modal: close it
    for _ in range(3):
        before = page.locator("#deal-number").inner_text()
        control(page, "new").click()
        expect(page.locator("#deal-number")).not_to_have_text(before)
        expect(page.locator("body")).not_to_have_attribute("data-busy", "")
        deal = int(page.locator("#deal-number").inner_text())
        assert solve(deal_position("overlapping", deal)).status is Status.WINNABLE
        expect(page).to_have_url(re.compile(rf"\?variant=overlapping&deal={deal}$"))
        expect(page.locator("#indicator")).to_contain_text("Winnable: yes")
    # Strict shows the chance; the settings survive a reload.
    page.select_option("#variant", "strict")
    expect(page.locator("#indicator")).to_contain_text("Chance to win with best play:")
    page.reload()
    wait_ready(page)
    expect(page.locator("#opt-indicator")).to_be_checked()
    expect(page.locator("#opt-difficulty")).to_have_value("winnable")

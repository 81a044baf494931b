"""The puzzle mode in Chromium: a puzzle from its link, a wrong pair and its refutation, the
answer, a bad link, and the player's record through a reload, a second tab and a backup."""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

from conftest import control, saves_done, stored
from helpers import back_up, no_violations, open_game, play, restore_file
from playwright.sync_api import BrowserContext, Page, expect

from nestor import Game, Pair, Record
from nestor.puzzles import daily_puzzle, get_puzzle, updated_rating

WRONG_FIRST = 2
"""A puzzle whose wrong pair loses within two pairs (its refutation is short to watch)."""
SOLVED_NEXT = 8


def record(page: Page) -> dict[str, Any]:
    text = stored(page, "nestor.puzzles")
    assert text is not None
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def game_kept(page: Page) -> dict[str, Any]:
    """The saved game (its timer's time included: it stops while a puzzle covers the
    game)."""
    text = stored(page, "nestor.game")
    assert text is not None
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def tap_pair(page: Page, pair: Pair) -> None:
    for card in pair.cards:
        page.click(f'#puzzle-board [data-card="{card}"][data-available]')


def test_a_puzzle_from_its_link_failed_with_its_refutation_then_one_solved(
    page: Page, wait_ready
) -> None:
    # A game in progress waits while the puzzles are shown.
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    play(page, game.legal_moves()[0])
    saves_done(page)
    kept = game_kept(page)

    puzzle = get_puzzle(WRONG_FIRST)
    open_game(page, wait_ready, f"?puzzle={puzzle.id}")
    body = page.locator("body")
    expect(body).to_have_attribute("data-puzzle", str(puzzle.id))
    expect(body).to_have_attribute("data-mode", "puzzle")
    expect(page.locator("#puzzle-title")).to_have_text(
        re.compile(rf"Puzzle {puzzle.id}: Standard, rated {puzzle.rating:,}"))
    expect(page.locator("#puzzle-record")).to_contain_text("rating: 1,500")
    expect(page.locator("#board")).to_be_hidden()
    expect(page.locator('#controls [data-action="undo"]')).to_be_hidden()
    choices = page.locator("#puzzle-choices [data-pair]")
    expect(choices).to_have_count(len(puzzle.choices()))
    no_violations(page, "a puzzle to solve")

    wrong = next(p for p in puzzle.choices() if p != puzzle.answer)
    tap_pair(page, wrong)
    expect(body).to_have_attribute("data-puzzle-result", "failed")
    prompt = page.locator("#puzzle-prompt")
    expect(prompt).to_contain_text("Not this one")
    expect(page.locator(f'#puzzle-board [data-card="{wrong.first}"]')).to_have_count(0)
    # Played out a pair at a time, then the position again with the answer marked.
    expect(body).to_have_attribute("data-puzzle-phase", "failed", timeout=15_000)
    expect(prompt).to_contain_text("No pair was left")
    expect(page.locator("#puzzle-board [data-answer]")).to_have_count(2)
    expect(page.locator("#puzzle-board [data-available]")).to_have_count(0)
    expect(page.locator("#puzzle-choices [data-answer]")).to_have_count(1)
    no_violations(page, "a puzzle failed")
    tried = record(page)["tries"]
    assert [(t[0], t[2]) for t in tried] == [(puzzle.id, 0)]

    # The next one by its choices' list (a keyboard's or a screen reader's way): solved.
    solved = get_puzzle(SOLVED_NEXT)
    open_game(page, wait_ready, f"?puzzle={solved.id}")
    first, second = solved.answer.cards
    page.locator(f'#puzzle-choices [data-pair="{first} {second}"]').press("Enter")
    expect(body).to_have_attribute("data-puzzle-result", "solved")
    expect(prompt).to_contain_text("Solved")
    rating = updated_rating(updated_rating(1500, puzzle.rating, False), solved.rating, True)
    expect(page.locator("#puzzle-record")).to_contain_text(
        f"rating: {rating:,}. Streak: 1. Solved 1 of 2 puzzles.")

    # Back to the game: as it was.
    page.locator('#puzzle [data-puzzle-command="close"]').click()
    expect(body).not_to_have_attribute("data-mode", "puzzle")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=7$"))
    saves_done(page)
    back = game_kept(page)
    # Timed only while shown: the game's time went on for the moments its page was loading
    # or shown, not for the seconds of the puzzles.
    assert 0 <= back.pop("elapsed_ms") - kept.pop("elapsed_ms") < 2500
    assert back == kept

    # The menu opens today's puzzle, then (tried) one near the rating; Show the answer fails.
    control(page, "puzzles").click()
    today = date.fromisoformat(page.evaluate(
        "(() => { const d = new Date(); return new Date(d - d.getTimezoneOffset() * 6e4)"
        ".toISOString().slice(0, 10); })()"))
    expect(body).to_have_attribute("data-puzzle", str(daily_puzzle(today).id))
    expect(page.locator("#puzzle-title")).to_contain_text("Daily puzzle")
    page.keyboard.press("h")
    expect(body).to_have_attribute("data-puzzle-result", "failed")
    expect(page.locator("#puzzle-board [data-answer]")).to_have_count(2)
    assert record(page)["daily"][0][:2] == [today.isoformat(), daily_puzzle(today).id]
    page.locator('#puzzle [data-puzzle-command="next"]').click()
    expect(body).not_to_have_attribute("data-puzzle-result", re.compile("."))
    assert int(page.get_attribute("body", "data-puzzle") or 0) not in (
        puzzle.id, solved.id, daily_puzzle(today).id)

    # A reload keeps the record; Back returns to the game.
    page.reload()
    wait_ready(page)
    expect(page.locator("#puzzle-record")).to_contain_text("Streak: 0. Solved 1 of 3 puzzles.")
    page.go_back()
    expect(body).not_to_have_attribute("data-mode", "puzzle")


def test_a_bad_puzzle_link_is_reported_and_changes_nothing(page: Page, wait_ready) -> None:
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    play(page, game.legal_moves()[0])
    before = {key: stored(page, key) for key in ("nestor.stats", "nestor.puzzles")}
    open_game(page, wait_ready, "?puzzle=99999")
    expect(page.locator("#notice-text")).to_contain_text(
        "The link's puzzle could not be opened: there is no puzzle “99999”")
    expect(page.locator("body")).not_to_have_attribute("data-mode", "puzzle")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page).to_have_url(re.compile(r"\?variant=standard&deal=7$"))
    assert {key: stored(page, key) for key in before} == before


def test_the_record_is_shared_by_two_tabs_and_survives_a_backup(
    context: BrowserContext, wait_ready, site_context: Any, base_url: str
) -> None:
    # Its own context: two tabs of one profile.
    one = context.new_page()
    open_game(one, wait_ready, f"?puzzle={SOLVED_NEXT}")
    two = context.new_page()
    open_game(two, wait_ready, f"?puzzle={WRONG_FIRST}")
    one.bring_to_front()
    answer = get_puzzle(SOLVED_NEXT).answer
    tap_pair(one, answer)
    expect(one.locator("body")).to_have_attribute("data-puzzle-result", "solved")
    saves_done(one)
    two.bring_to_front()
    expect(two.locator("#puzzle-record")).to_contain_text("Solved 1 of 1 puzzle.")
    two.keyboard.press("h")
    expect(two.locator("#puzzle-record")).to_contain_text("Streak: 0. Solved 1 of 2 puzzles.")
    saves_done(two)
    one.bring_to_front()
    expect(one.locator("#puzzle-record")).to_contain_text("Solved 1 of 2 puzzles.")
    kept = record(one)

    # A backup carries it to a fresh profile.
    one.locator('#puzzle [data-puzzle-command="close"]').click()
    name, text = back_up(one)
    assert json.loads(text)["puzzles"] == kept
    fresh = site_context(base_url).new_page()
    open_game(fresh, wait_ready, "")
    restore_file(fresh, name, text, "replace")
    assert record(fresh) == kept
    fresh.keyboard.press("Escape")
    control(fresh, "puzzles").click()
    expect(fresh.locator("#puzzle-record")).to_contain_text("Solved 1 of 2 puzzles.")


PRACTISED = (  # the tips player's game of standard 703 (seed 0): lost at move 14, 2C-2D,
    "standard 703 KC-KH AH-AS QC-QH 3C-3S 7D-7H 8D-8H 6D-6S TC-TS AC-AD JH-JS 4C-4H "
    "8C-8S 9D-9H 2C-2D KD-KS"  # where only 2C-2S kept it winnable: a puzzle
)


def test_the_reviews_turning_point_is_practised_as_a_puzzle(page: Page, wait_ready) -> None:
    lost = Record.from_text(PRACTISED)
    turning = 13
    open_game(page, wait_ready, f"?variant=standard&deal={lost.deal}")
    for move in lost.moves:
        play(page, move)
    body = page.locator("body")
    expect(body).to_have_attribute("data-outcome", "lost")
    page.click('[data-end-screen] [data-action="review"]')
    panel = page.locator("[data-review]")
    practise = panel.locator('[data-action="practise"]')
    expect(practise).to_have_text("Practise this")
    expect(panel.locator("[data-turning-point]")).to_have_attribute(
        "data-turning-point", str(turning))
    no_violations(page, "the review offering Practise this")
    url, entries = page.url, page.evaluate("history.length")

    # The moment before the turning point, as a puzzle from the player's own game.
    practise.click()
    expect(panel).to_be_hidden()
    expect(body).to_have_attribute("data-mode", "puzzle")
    expect(body).to_have_attribute("data-puzzle", "0")
    expect(page.locator("#puzzle-title")).to_have_text(
        "Puzzle from your game: Standard, rated 1,747")
    assert page.url == url  # no address of its own
    before = Record(lost.variant, lost.deal, lost.moves[:turning]).replay().position
    expect(page.locator("#puzzle-choices [data-pair]")).to_have_count(len(before.pairs()))
    shown = page.locator("#puzzle-board [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted([*(c for col in before.columns for c in col),
                                    *before.reserve])

    # The pair the player played fails; its refutation plays out, then the answer.
    played = lost.moves[turning]
    assert isinstance(played, Pair)
    tap_pair(page, played)
    expect(body).to_have_attribute("data-puzzle-result", "failed")
    expect(body).to_have_attribute("data-puzzle-phase", "failed")
    marked = page.locator("#puzzle-board [data-answer]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert sorted(marked) == ["2C", "2S"]
    expect(page.locator("#puzzle-prompt")).to_contain_text(
        "is the two of clubs and the two of spades, marked on the board")
    no_violations(page, "a puzzle from the player's own game failed")
    assert stored(page, "nestor.puzzles") is None  # counted nowhere

    # Back to the game: lost, as it was, at its own address (no history entry added).
    page.locator('#puzzle [data-puzzle-command="close"]').click()
    expect(body).not_to_have_attribute("data-mode", "puzzle")
    expect(body).to_have_attribute("data-outcome", "lost")
    assert page.url == url and page.evaluate("history.length") == entries

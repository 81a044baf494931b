"""Replays from a link, in Chromium: stepping through one, playing from it, copying the link
of a game, and broken links that change nothing."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import control, saves_done, stored
from helpers import cards_on_page, no_violations, open_game, play, shown_codes
from lines import find_winnable
from playwright.sync_api import Page, Route, expect

from nestor import Game, Move, Record
from nestor.link import record_query
from nestor_web.storage.stats_codec import stats_from_text

SHOTS = os.environ.get("NESTOR_SCREENSHOT_DIR")
KEPT = ("nestor.game", "nestor.stats", "nestor.archive")
"""The keys a replay link must leave as they were."""


def kept(page: Page) -> dict[str, object]:
    """What the page keeps, the saved game without its timer's time: the game in progress,
    shown again, goes on being timed while the page shows it (that is not the link's doing)."""
    out: dict[str, object] = {key: stored(page, key) for key in KEPT}
    text = out.get("nestor.game")
    if isinstance(text, str):
        out["nestor.game"] = {k: v for k, v in json.loads(text).items() if k != "elapsed_ms"}
    return out


def replay_cards(page: Page) -> list[str]:
    return page.locator("#replay-board [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def cursor(page: Page) -> int:
    return int(page.get_attribute("body", "data-replay-cursor") or "-1")


def game_after(variant: str, deal: int, moves: list[Move]) -> Game:
    return Record(Game(variant, deal).variant, deal, tuple(moves)).replay()


def face_up(game: Game) -> list[str]:
    """The cards a board of ``game`` shows face up, in drawing order: the columns, the reserve
    (or Strict's stock once turned up), the stock card the last move turned and paired
    (shown beside the stock until the next move), and a stock card that could not pair."""
    pos = game.position
    spare = pos.stock if pos.stock_turned_up else pos.reserve
    turned = game.last_turned()
    paired = turned is not None and turned != pos.unpaired and not pos.stock_turned_up
    return [*shown_codes(game)[: sum(map(len, pos.columns))], *spare,
            *([turned] if paired and turned else []),
            *([pos.unpaired] if pos.unpaired else [])]


def expect_position(page: Page, variant: str, deal: int, moves: list[Move]) -> None:
    expect(page.locator("body")).to_have_attribute("data-replay-cursor", str(len(moves)))
    assert replay_cards(page) == face_up(game_after(variant, deal, moves))


FOCUS_RING = "() => document.activeElement.matches(':focus-visible')"
"""Whether the focused element shows its focus ring."""

LAST_MOVE_IN_LIST = """() => {
  const list = document.getElementById("replay-moves").getBoundingClientRect();
  const last = document.querySelector('#replay-moves [aria-current="step"]')
    .getBoundingClientRect();
  return last.top >= list.top - 1 && last.bottom <= list.bottom + 1;
}"""
"""Whether the current move's button is in view inside the list of moves."""

BROKEN_LINKS = (
    ("?variant=standard&deal=9&moves=1CPx", "move 2 has only one card"),
    ("?variant=standard&deal=9&moves=2CP", "this version of the game does not know"),
    ("?variant=nope&deal=9&moves=1CP", "there is no variant called “nope”"),
    ("?variant=standard&deal=7&moves=1CPCP", "move 2 (3C-3D) is not allowed there"),
)
"""Broken replay links and what the notice says of each (every one in make test-slow; each one's
problem and words are tests/test_replay_mode.py's, without a browser)."""

SOME_BROKEN_LINKS = (BROKEN_LINKS[3],)
"""make test's: an illegal move (each one's words: tests/test_replay_mode.py)."""


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
@pytest.mark.parametrize("every_link", [
    pytest.param(False, id="some-links"),
    pytest.param(True, id="every-link", marks=pytest.mark.slow),
])
def test_broken_links_are_reported_and_change_nothing_then_a_replay_plays(
    page: Page, wait_ready, every_link: bool
) -> None:
    # A game in progress, with moves, and its statistics.
    start = Game("standard", 7)
    page.clock.install()  # runs in real time until the test moves it on
    open_game(page, wait_ready, "?variant=standard&deal=7")
    first = start.legal_moves()[0]
    play(page, first)
    before = kept(page)
    assert before["nestor.game"] is not None and before["nestor.stats"] is not None

    # Malformed, then illegal: reported in the page's language; nothing stored changes, the
    # game in progress is shown, and the address gives way to its deal.
    for query, words in BROKEN_LINKS if every_link else SOME_BROKEN_LINKS:
        open_game(page, wait_ready, query)
        notice = page.locator("#notice-text")
        expect(notice).to_contain_text("The replay link could not be shown")
        expect(notice).to_contain_text(words)
        expect(page.locator("body")).not_to_have_attribute("data-mode", "replay")
        expect(page.locator("#replay")).to_be_hidden()
        expect(page.locator("#board")).to_be_visible()
        expect(page).to_have_url(re.compile(r"\?variant=standard&deal=7$"))
        expect(page.locator("#moves-made")).to_have_text("1")
        assert kept(page) == before, query

    # A whole won game of another deal, from its link.
    deal, line = find_winnable("standard", start=11)
    query = "?" + record_query(Record(start.variant, deal, tuple(line)))
    open_game(page, wait_ready, query)
    body = page.locator("body")
    expect(body).to_have_attribute("data-mode", "replay")
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#board")).to_be_hidden()
    # The game's controls are hidden; the panels' icon buttons stay (Settings, How to play).
    expect(page.locator('#controls [data-action="new"]')).to_be_hidden()
    expect(page.locator('#counters [data-action="copy-link"]')).to_be_hidden()
    expect(page.locator('#controls [data-action="settings"]')).to_be_visible()
    expect(page.locator("#replay-title")).to_have_text(f"Replay: Standard, deal {deal}")
    expect(page).to_have_url(re.compile(re.escape(query) + "$"))
    expect_position(page, "standard", deal, [])
    expect(page.locator("#replay-moves button")).to_have_count(len(line) + 1)
    assert kept(page) == before  # opening it changed nothing
    no_violations(page, "replay at the deal")

    # A click on Next, which has the focus and its ring since the opening, leaves no ring
    # (issue 22 (8): it stayed through every press).
    expect(page.locator('[data-replay-command="next"]')).to_be_focused()
    assert page.evaluate(FOCUS_RING)
    page.click('[data-replay-command="next"]')
    expect_position(page, "standard", deal, line[:1])
    assert not page.evaluate(FOCUS_RING)
    page.keyboard.press("Home")
    # Keys: the focus is on Next; arrows step, Home and End jump.
    page.keyboard.press("ArrowRight")
    expect_position(page, "standard", deal, line[:1])
    expect(page.locator("#replay-step")).to_contain_text(f"Move 1 of {len(line)}")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect_position(page, "standard", deal, line[:1])
    page.keyboard.press("End")
    expect_position(page, "standard", deal, line)
    # End scrolls the list of moves to the last one, not the page (issue 22 (8)).
    assert page.evaluate("() => scrollY") == 0
    assert page.evaluate(LAST_MOVE_IN_LIST)
    expect(page.locator("#replay-result")).to_have_text(
        "The game was won: every card is paired off."
    )
    expect(page.locator('[data-replay-command="next"]')).to_be_disabled()
    expect(page.locator('[data-replay-command="from-here"]')).to_be_disabled()
    no_violations(page, "replay at the end")
    page.keyboard.press("Home")
    expect_position(page, "standard", deal, [])
    expect(page.locator('[data-replay-command="previous"]')).to_be_disabled()
    # The buttons, and the move list.
    page.click('[data-replay-command="last"]')
    expect_position(page, "standard", deal, line)
    page.click('[data-replay-command="first"]')
    page.click('[data-replay-command="next"]')
    page.click('[data-replay-command="next"]')
    page.click('[data-replay-command="previous"]')
    expect_position(page, "standard", deal, line[:1])
    page.click(f'#replay-moves [data-replay-go="{len(line) - 3}"]')
    expect_position(page, "standard", deal, line[:-3])
    expect(page.locator(f'#replay-moves [data-replay-go="{len(line) - 3}"]')).to_have_attribute(
        "aria-current", "step"
    )
    # Play goes on by itself to the end, and stops there.
    page.click('[data-replay-command="play"]')
    expect(page.locator('[data-replay-command="play"]')).to_have_text("Pause")
    expect(body).to_have_attribute("data-replay-cursor", str(len(line)), timeout=20_000)
    expect(page.locator('[data-replay-command="play"]')).to_have_text("Play")
    # Pause stops it.
    page.keyboard.press("Home")
    page.click('[data-replay-command="play"]')
    expect(body).to_have_attribute("data-replay-cursor", "1", timeout=20_000)
    page.click('[data-replay-command="play"]')
    stopped = cursor(page)
    page.clock.fast_forward(2000)  # more than two moves' time: it stays where it stopped
    saves_done(page)  # a round trip after the timers that came due
    assert cursor(page) == stopped
    assert kept(page) == before

    # German, in the replay too.
    control(page, "settings").click()
    settings = page.locator("#settings-dialog")
    expect(settings).to_have_attribute("open", "")
    page.select_option("#opt-language", "de")
    expect(page.locator("#replay-title")).to_have_text(f"Wiederholung: Standard, Spiel {deal}")
    expect(page.locator('[data-replay-command="from-here"]')).to_have_text("Von hier an spielen")
    expect(page.locator("#replay-step")).to_contain_text(f"von {len(line)}")
    page.select_option("#opt-language", "en")
    # The panel has the keys while it is open: an arrow key does not step the replay.
    at_panel = cursor(page)
    settings.focus()
    page.keyboard.press("ArrowRight")
    assert cursor(page) == at_panel
    page.keyboard.press("Escape")
    expect(settings).not_to_have_attribute("open", "")

    # Play from here: the game goes on from that position, and a win counts with help.
    at = len(line) - 4
    page.click(f'#replay-moves [data-replay-go="{at}"]')
    page.click('[data-replay-command="from-here"]')
    expect(body).not_to_have_attribute("data-mode", "replay")
    expect(page.locator("#board")).to_be_visible()
    expect(page).to_have_url(re.compile(rf"\?variant=standard&deal={deal}$"))
    expect(page.locator("#moves-made")).to_have_text(str(at))
    assert cards_on_page(page) == shown_codes(game_after("standard", deal, line[:at]))
    saved = stored(page, "nestor.game") or ""
    assert f'"deal":{deal}' in saved and f'"cursor":{at}' in saved
    assert f'"replayed":{at}' in saved
    assert stored(page, "nestor.archive") != before["nestor.archive"]  # deal 7 waits there
    for move in line[at:]:
        play(page, move)
    expect(body).to_have_attribute("data-outcome", "won")
    stats = stats_from_text(stored(page, "nestor.stats") or "")
    summary = stats.summary("standard")
    assert (summary.won, summary.won_with_help) == (0, 1)
    # Back returns to the replay (from the deal again); Back to my game leaves it.
    page.go_back()
    expect(body).to_have_attribute("data-mode", "replay")
    expect_position(page, "standard", deal, [])
    page.click('[data-replay-command="close"]')
    expect(body).not_to_have_attribute("data-mode", "replay")
    expect(page).to_have_url(re.compile(rf"\?variant=standard&deal={deal}$"))


@pytest.mark.slow  # make test-slow: the link's round trip is tests/test_link.py's
def test_copy_link_and_open_it_in_a_fresh_profile(
    page: Page, wait_ready, site_context, base_url
) -> None:
    # The shared context's permissions are cleared before each test.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    # Strict deal 0: five pairs, two stock turns that pair, one pair more; the game goes on.
    record = Record.from_text("strict 0 4D-4H KC-KD AD-AS 8D-8H 7D-7S stock stock 3D-3H")
    game = record.replay()
    assert game.outcome() is None
    open_game(page, wait_ready, "?variant=strict&deal=0")
    for move in record.moves:
        play(page, move)
    expect(page.locator("#moves-made")).to_have_text(str(len(record.moves)))
    page.click('#counters [data-action="copy-link"]')
    panel = page.locator("#link-panel")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-copied", "true")
    expect(page.locator("#link-words")).to_contain_text("Link copied")
    url = page.evaluate("() => navigator.clipboard.readText()")
    assert url == f"{base_url}/?{record_query(game.record())}"
    assert page.input_value("#link-field") == url
    page.click('#link-panel [data-action="link-close"]')
    expect(panel).to_be_hidden()

    # The link, in a fresh profile: the same positions.
    other = site_context(base_url).new_page()
    other.goto(url)
    wait_ready(other)
    expect(other.locator("body")).to_have_attribute("data-mode", "replay")
    moves = list(game.moves)
    for n in range(len(moves) + 1):
        expect_position(other, "strict", 0, moves[:n])
        other.keyboard.press("ArrowRight")
    expect(other.locator("#replay-result")).to_have_text(
        "The record ends here; the game was not over."
    )
    other.close()


def test_copy_link_refused_shows_a_selected_field(site_context, base_url, wait_ready) -> None:
    # The Clipboard API exists only in secure contexts: the same site under a plain-http
    # name that is not loopback (requests routed to the local server) has none. (Without
    # the opener policy, which such an origin ignores with a console error.)
    origin, served = "http://nestor.example", base_url

    def forward(route: Route) -> None:
        response = route.fetch(url=route.request.url.replace(origin, served, 1))
        headers = {
            k: v for k, v in response.headers.items() if k != "cross-origin-opener-policy"
        }
        route.fulfill(response=response, headers=headers)

    ctx = site_context(origin)
    ctx.route(f"{origin}/**", forward)
    page = ctx.new_page()
    open_game(page, wait_ready, "?variant=standard&deal=7")
    assert page.evaluate("() => [window.isSecureContext, 'clipboard' in navigator]") == [
        False, False,
    ]
    game = Game("standard", 7)
    move = game.legal_moves()[0]
    game.push(move)
    play(page, move)
    page.click('#counters [data-action="copy-link"]')
    expect(page.locator("#link-panel")).to_have_attribute("data-copied", "false")
    expect(page.locator("#link-words")).to_contain_text("did not let the game copy the link")
    field = page.locator("#link-field")
    expect(field).to_be_focused()
    assert field.input_value() == f"{origin}/?{record_query(game.record())}"
    selected = page.evaluate(
        "() => { const f = document.getElementById('link-field');"
        " return f.value.slice(f.selectionStart, f.selectionEnd); }"
    )
    assert selected == field.input_value()


@pytest.mark.slow  # make test-slow: the layout audit takes the replay's screenshots
def test_replay_screenshots(page: Page, wait_ready, tmp_path: Path) -> None:
    deal, line = find_winnable("standard", start=11)
    query = "?" + record_query(Record(Game("standard", deal).variant, deal, tuple(line)))
    folder = Path(SHOTS) if SHOTS else tmp_path
    for width, height in ((360, 640), (390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/" + query)
        wait_ready(page)
        page.click(f'#replay-moves [data-replay-go="{len(line) // 2}"]')
        expect(page.locator("body")).to_have_attribute(
            "data-replay-cursor", str(len(line) // 2)
        )
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{width}x{height}: the replay is wider than the screen"
        page.screenshot(path=str(folder / f"replay-{width}x{height}.png"), full_page=True)


def test_a_replay_on_a_touch_phone(site_context, base_url, wait_ready) -> None:
    """Issue 22 (8), on a touch screen: "More" sits beside the title, not alone in an empty
    row; Next, given the focus on opening, shows no focus ring, nor after a tap; and the Keys
    panel and the replay's keys line are not offered (no keyboard to speak of)."""
    context = site_context(base_url, has_touch=True, is_mobile=True,
                           viewport={"width": 390, "height": 844})
    page = context.new_page()
    deal, line = find_winnable("standard")
    game = Game("standard", deal)
    for move in line[:6]:
        game.push(move)
    open_game(page, wait_ready, "?" + record_query(Record(game.variant, deal, tuple(game.moves))))
    expect(page.locator("#replay")).to_be_visible()
    title = page.locator("h1").bounding_box()
    more = page.locator("#controls [data-menu]").bounding_box()
    assert title and more and more["y"] < title["y"] + title["height"], (title, more)
    next_button = page.locator('[data-replay-command="next"]')
    expect(next_button).to_be_focused()
    assert not next_button.evaluate("b => b.matches(':focus-visible')")
    next_button.tap()
    expect(page.locator("body")).to_have_attribute("data-replay-cursor", "1")
    assert not next_button.evaluate("b => b.matches(':focus-visible')")
    expect(page.locator("#replay .replay-keys")).to_be_hidden()
    page.locator("#controls [data-menu]").tap()
    expect(page.locator('#controls [data-action="settings"]')).to_be_visible()
    expect(page.locator('#controls [data-action="keys"]')).to_be_hidden()

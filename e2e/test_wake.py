"""The first paint: a return visit shows its stored board, theme and language before Python
starts (static/js/wake.js), taps on it count, and the page does not move when Python takes
over. PyScript is held back with a route until the test lets it go; the service worker is blocked
in these tests (the worker's shared context blocks it), since what it serves from its cache
never reaches a route."""

from __future__ import annotations

import json

import pytest
from conftest import control, saves_done, stored
from helpers import (
    cards_on_page,
    hold_pyscript,
    let_go,
    next_frame,
    open_game,
    play,
    shown_codes,
)
from playwright.sync_api import Page, expect

from nestor import Game, Pair

CLS = """window.__cls = 0; new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
}).observe({type: "layout-shift", buffered: true});"""


def pairs_of(game: Game, count: int) -> list[Pair]:
    played = []
    for _ in range(count):
        move = next(m for m in game.legal_moves() if isinstance(m, Pair))
        game.push(move)
        played.append(move)
    return played


def played_deal(page: Page, wait_ready, game: Game, pairs: int) -> list[Pair]:
    open_game(page, wait_ready, f"?variant={game.variant.name}&deal={game.deal}")
    moves = pairs_of(game, pairs)
    for move in moves:
        play(page, move)
    expect(page.locator("#moves-made")).to_have_text(str(pairs))
    assert stored(page, "nestor.board") is not None
    return moves


@pytest.mark.own_page  # holds PyScript back with a route, adds init scripts
def test_return_visit_paints_the_stored_board_then_python_takes_over(
    page: Page, wait_ready
) -> None:
    game = Game("standard", 7)
    played_deal(page, wait_ready, game, 2)
    control(page, "settings").click()
    page.select_option("#opt-theme", "dark")
    saves_done(page)
    live = page.inner_html("#board")
    held = hold_pyscript(page)
    page.reload(wait_until="domcontentloaded")
    body = page.locator("body")
    expect(body).to_have_attribute("data-waking", "")
    expect(body).to_have_attribute("aria-busy", "true")
    assert page.inner_html("#board") == live  # the same [data-card] elements
    assert cards_on_page(page) == shown_codes(game)
    expect(page.locator("#cards-left")).to_have_text("48")
    expect(page.locator("#moves-made")).to_have_text("2")
    # The status line says the game is getting ready: not yet "Tap two available cards…".
    expect(page.locator("#status")).to_have_text("Starting the game…")
    expect(page.locator('#controls [data-action="undo"]')).to_have_text("Undo")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert not page.evaluate("document.body.hasAttribute('data-ready')")
    let_go(page, held)
    wait_ready(page)
    expect(body).not_to_have_attribute("data-waking", "")
    expect(body).not_to_have_attribute("aria-busy", "true")
    assert cards_on_page(page) == shown_codes(game)
    expect(page.locator(".waking-bar")).to_have_count(0)


@pytest.mark.own_page  # holds PyScript back with a route, adds init scripts
def test_taps_on_the_waking_board_are_applied_in_order(
    page: Page, wait_ready
) -> None:
    game = Game("vertical", 3)
    played_deal(page, wait_ready, game, 1)
    held = hold_pyscript(page)
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("body")).to_have_attribute("data-waking", "")
    (move,) = pairs_of(game, 1)
    for card in move.cards:
        page.click(f'[data-card="{card}"]')
    assert page.evaluate("window.nestorWake.taps.length") == 2, (
        move, page.evaluate("JSON.stringify(window.nestorWake.taps)"))
    let_go(page, held)
    wait_ready(page)
    expect(page.locator("#moves-made")).to_have_text("2")
    assert cards_on_page(page) == shown_codes(game)
    assert json.loads(stored(page, "nestor.game") or "")["cursor"] == 2


@pytest.mark.own_page  # holds PyScript back with a route, adds init scripts
def test_a_control_tapped_on_the_waking_board_is_applied(page: Page, wait_ready) -> None:
    # Strict's stock is a control of the board (data-action="turn"), recorded as an action.
    game = Game("strict", 23)
    assert game.position.can_turn_stock()
    open_game(page, wait_ready, "?variant=strict&deal=23")
    saves_done(page)
    held = hold_pyscript(page)
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("body")).to_have_attribute("data-waking", "")
    page.click('#board [data-action="turn"]')
    assert page.evaluate("JSON.stringify(window.nestorWake.taps)") == '[{"action":"turn"}]'
    let_go(page, held)
    wait_ready(page)
    expect(page.locator("#moves-made")).to_have_text("1")
    assert json.loads(stored(page, "nestor.game") or "")["cursor"] == 1


@pytest.mark.own_page  # holds PyScript back with a route, adds init scripts
@pytest.mark.parametrize("board", [  # make test: one; make test-slow: each
    "{broken", pytest.param("stale", marks=pytest.mark.slow),
    pytest.param('{"version": 3}', marks=pytest.mark.slow),
])
def test_a_stale_or_broken_stored_board_is_ignored(
    page: Page, wait_ready, board: str
) -> None:
    game = Game("standard", 9)
    played_deal(page, wait_ready, game, 1)
    saves_done(page)
    if board == "stale":  # a board of another state of the game
        data = json.loads(stored(page, "nestor.board") or "")
        data["game"] = data["game"].replace('"cursor":1', '"cursor":0')
        board = json.dumps(data)
    # Written as the reloaded page starts, before static/js/wake.js reads it: the page hidden
    # by the reload saves its timer's time, and with it a board of its own (a good one).
    page.add_init_script(
        "if (!sessionStorage.getItem('board-set')) { sessionStorage.setItem('board-set', '1');"
        f" localStorage.setItem('nestor.board', {json.dumps(board)}); }}"
    )
    held = hold_pyscript(page)
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("body")).not_to_have_attribute("data-waking", "")
    expect(page.locator("#board [data-card]")).to_have_count(0)  # the placeholders only
    let_go(page, held)
    wait_ready(page)
    assert cards_on_page(page) == shown_codes(game)


# Elements no board is drawn with, that load, run, send or leave (issue 19).
FORBIDDEN = "meta, base, script, iframe, object, embed, form, link, a, img, style"
ELEMENTS_AND_HANDLERS = """(forbidden) => ({
  forbidden: [...document.querySelectorAll(forbidden)].map((e) => e.outerHTML).sort(),
  handlers: [...document.querySelectorAll("*")].flatMap((e) => [...e.attributes]
    .filter((a) => a.name.startsWith("on")).map((a) => `${e.tagName} ${a.name}`)),
})"""


def poisoned(data: dict, kind: str) -> dict:
    """The stored board ``data`` (version 2, valid) with one thing no board holds (``kind``
    "none": nothing)."""
    evil = "http://127.0.0.1:9/evil"
    board = json.loads(json.dumps(data["board"]))
    play_area = board[0]
    if kind == "markup":  # the old format, HTML, with a refresh to another site
        return {**{k: v for k, v in data.items() if k != "board"}, "version": 1,
                "html": f'<meta http-equiv="refresh" content="0;url={evil}"><div></div>'}
    if kind == "meta":
        play_area.append(["meta", {"http-equiv": "refresh", "content": f"0;url={evil}"}])
    elif kind == "handler":
        play_area[1]["onclick"] = "location.href = '/evil'"
    elif kind == "elements":  # elements no board holds, with no attribute to give them away
        play_area.extend([["script", {}, "location = '/evil'"], ["style", {}, "* { color: red }"],
                          ["iframe", {}], ["object", {}], ["form", {}], ["base", {}]])
    elif kind == "url":
        play_area[1]["href"] = "javascript:location='/evil'"
    return {**data, "board": board}


KINDS = ("none", "markup", "meta", "handler", "elements", "url")

# Written as a reloaded page starts, before static/js/wake.js reads it: the board the test put
# in sessionStorage, bound to the game as the page left it (the page hidden by the reload
# saved its timer's time): only what was put in it stands in the way of its first paint.
NEXT_BOARD = """{ const next = sessionStorage.getItem("next-board");
  if (next !== null) {
    sessionStorage.removeItem("next-board");
    const board = JSON.parse(next);
    board.game = localStorage.getItem("nestor.game");
    localStorage.setItem("nestor.board", JSON.stringify(board));
  } }"""


SOME_KINDS = ("none", "meta", "handler")
"""make test's: the good board, the meta refresh that sent the page away (issue 19) and an
event handler; make test-slow runs every kind (the allow-list itself: tests/test_markup.py)."""


@pytest.mark.own_page  # holds PyScript back with a route, adds init scripts
@pytest.mark.parametrize("kinds", [
    pytest.param(SOME_KINDS, id="some-kinds"),
    pytest.param(KINDS, id="every-kind", marks=pytest.mark.slow),
])
def test_a_stored_board_is_data_and_nothing_in_it_runs_or_navigates(
    page: Page, wait_ready, kinds: tuple[str, ...]
) -> None:
    # Issue 19 (3): the stored board was written into the page as HTML, and a
    # <meta http-equiv="refresh"> in it sent the page away. Each kind of stored board in
    # turn, on a reload with PyScript held back: the good one ("none") is painted; one with
    # anything no board holds paints nothing, and nothing in it runs, loads or navigates.
    game = Game("standard", 9)
    played_deal(page, wait_ready, game, 1)
    saves_done(page)
    before = page.evaluate(ELEMENTS_AND_HANDLERS, FORBIDDEN)
    data = json.loads(stored(page, "nestor.board") or "")
    assert data["version"] == 2 and "html" not in data
    page.add_init_script(NEXT_BOARD)
    navigations: list[str] = []
    requests: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.on("request", lambda request: requests.append(request.url))
    url = page.url
    for kind in kinds:
        navigations.clear()
        page.evaluate("board => sessionStorage.setItem('next-board', board)",
                      json.dumps(poisoned(data, kind)))
        held = hold_pyscript(page)
        page.reload(wait_until="domcontentloaded")
        if kind == "none":  # the board as stored: painted
            expect(page.locator("body")).to_have_attribute("data-waking", "")
            assert cards_on_page(page) == shown_codes(game)
        else:  # one node outside the board's lists, and nothing of it is painted
            expect(page.locator("body")).not_to_have_attribute("data-waking", "")
            expect(page.locator("#board [data-card]")).to_have_count(0)
        assert page.evaluate(ELEMENTS_AND_HANDLERS, FORBIDDEN) == before, kind
        let_go(page, held)
        wait_ready(page)
        assert page.evaluate(ELEMENTS_AND_HANDLERS, FORBIDDEN) == before, kind
        assert navigations == [url] and page.url == url, kind  # the reload, nothing after it
        assert cards_on_page(page) == shown_codes(game), kind
        expect(page.locator("#moves-made")).to_have_text("1")
        saves_done(page)
    assert not [u for u in requests if "/evil" in u or ":9/" in u]


@pytest.mark.own_page  # holds PyScript back with a route, adds init scripts
def test_a_german_return_visit_is_german_from_the_first_paint(
    page: Page, wait_ready
) -> None:
    open_game(page, wait_ready, "?variant=strict&deal=4")
    control(page, "settings").click()
    page.select_option("#opt-language", "de")
    expect(page.locator('#controls [data-action="undo"]')).to_have_text("Rückgängig")
    saves_done(page)
    held = hold_pyscript(page)
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("body")).to_have_attribute("data-waking", "")
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.locator('#controls [data-action="undo"]')).to_have_text("Rückgängig")
    expect(page.locator("#rules-title")).to_have_text("Spielregeln")
    expect(page.locator("#board")).to_contain_text("Vorrat")
    expect(page.locator("#status")).to_have_text("Das Spiel startet…")
    assert "Undo" not in page.inner_text("body")
    let_go(page, held)
    wait_ready(page)
    expect(page.locator('#controls [data-action="undo"]')).to_have_text("Rückgängig")


@pytest.mark.parametrize("size", [
    pytest.param((390, 844), id="390x844"),
    pytest.param((1280, 800), id="1280x800", marks=pytest.mark.slow),  # make test: the phone
])
def test_the_page_does_not_move_on_first_and_return_visits(
    site_context, base_url, wait_ready, size: tuple[int, int]
) -> None:
    context = site_context(base_url, viewport={"width": size[0], "height": size[1]},
                           service_workers="allow")  # a return visit as players make it
    context.add_init_script(CLS)
    page = context.new_page()
    open_game(page, wait_ready)
    next_frame(page, 100)
    first = page.evaluate("window.__cls")
    saves_done(page)
    page.reload()
    wait_ready(page)
    next_frame(page, 100)
    again = page.evaluate("window.__cls")
    assert first <= 0.02 and again <= 0.02, (first, again)

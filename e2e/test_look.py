"""The look of play (issue 11): pairs fly as the real cards, Strict's turned card, the win
(and that its celebration leaves nothing behind, issue 19); the loading spinner, still without
motion (issue 19)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import control, saves_done, still
from helpers import open_game, play
from lines import find_winnable
from playwright.sync_api import CDPSession, Page, Route, expect

from nestor import Game, Pair

LOOK = """code => {
  const e = document.querySelector(`[data-card="${code}"]`)
    || document.querySelector(`[data-flying="${code}"]`);
  const r = e.getBoundingClientRect();
  const corner = getComputedStyle(e.querySelector(".corner"));
  // A number card's big pip, or a court card's panel letter (nestor_web/view/board.py).
  const pip = getComputedStyle(e.querySelector(".pip, .court-rank"));
  return {w: r.width, h: r.height, corner: corner.fontSize, pip: pip.fontSize,
          radius: getComputedStyle(e).borderTopLeftRadius, text: e.textContent,
          colour: getComputedStyle(e).color};
}"""
"""The look of a card's element (on the board, else its flying copy)."""

PAUSE_AT = """share => {
  const all = document.getAnimations().filter(a => a.effect && a.effect.target
                                                   && a.effect.target.dataset.flying);
  for (const a of all) { a.pause(); a.currentTime = a.effect.getTiming().duration * share; }
  return all.length;
}"""
"""Pause every flight at ``share`` of its duration; how many there were."""

RESUME = "() => { for (const a of document.getAnimations()) a.play(); }"


def flying_look(page: Page, code: str) -> dict[str, object]:
    return page.evaluate(LOOK.replace("[data-card=", "[data-none="), code)


def same_look(flying: dict[str, object], card: dict[str, object]) -> None:
    """The same face, size and corners, to 0.05 px (the box is laid out in 1/64 px)."""
    assert flying["text"] == card["text"] and flying["colour"] == card["colour"]
    for key in ("w", "h", "corner", "pip", "radius"):
        a, b = (float(str(x).removesuffix("px")) for x in (flying[key], card[key]))
        assert abs(a - b) < 0.05, (key, flying[key], card[key])


def test_a_removed_pair_flies_as_the_real_cards(page: Page, wait_ready) -> None:
    page.emulate_media(reduced_motion="no-preference")
    open_game(page, wait_ready, "?variant=standard&deal=7")
    game = Game("standard", 7)
    # One pair from the tableau and, later, one with a reserve card (another card size).
    pairs = [m for m in game.legal_moves() if isinstance(m, Pair)]
    move = pairs[0]
    looks = {code: page.evaluate(LOOK, code) for code in move.cards}
    assert looks[move.first]["corner"] != "16px"  # the old copies' size (a real card's differs)
    play(page, move)
    assert page.evaluate(PAUSE_AT, 0.5) == 2
    for code in move.cards:
        same_look(flying_look(page, code), looks[code])
        box = page.locator(f'[data-flying="{code}"]').bounding_box()
        assert box is not None
        assert abs(box["width"] - looks[code]["w"]) < 0.5
        assert abs(box["height"] - looks[code]["h"]) < 0.5
    # The copies are decoration only: no card hook, hidden from screen readers.
    assert page.locator("[data-flying][data-card], [data-flying]:not([aria-hidden])").count() == 0
    page.evaluate(RESUME)
    expect(page.locator("[data-flying]")).to_have_count(0, timeout=5000)


@pytest.mark.slow  # make test-slow: a drawing detail after a win
def test_after_a_win_nothing_is_left_over_the_reserve_label(page: Page, wait_ready) -> None:
    page.emulate_media(reduced_motion="no-preference")
    deal, line = find_winnable("standard")
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    for move in line:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    # The win is celebrated, and a tap ends the celebration at once.
    expect(page.locator("body")).to_have_attribute("data-celebrating", "")
    page.locator(".celebration").click()
    expect(page.locator(".celebration")).to_have_count(0)
    expect(page.locator("body")).not_to_have_attribute("data-celebrating", "")
    expect(page.locator("[data-flying], .ghost")).to_have_count(0, timeout=5000)
    label = page.locator("#board .reserve .area-label")
    on_top = page.evaluate("""() => {
        const label = document.querySelector("#board .reserve .area-label");
        const r = label.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit === label || label.contains(hit);
    }""")
    expect(label).to_be_visible()
    assert on_top, "something covers the reserve label after the win"


def test_reduced_motion_flies_nothing(page: Page, wait_ready) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_game(page, wait_ready, "?variant=standard&deal=7")
    move = Game("standard", 7).legal_moves()[0]
    play(page, move)
    assert page.evaluate(PAUSE_AT, 0.5) == 0
    assert page.locator("[data-flying], .ghost").count() == 0


def test_strict_turned_card_flies_face_up_to_its_partner(page: Page, wait_ready) -> None:
    # Strict deal 4: three pairs, then the stock's 5S pairs with the 5H of column 6.
    page.emulate_media(reduced_motion="no-preference")
    open_game(page, wait_ready, "?variant=strict&deal=4")
    game = Game("strict", 4)
    for text in ("3H-3S", "6C-6H", "8C-8S"):
        game.push(text)
        play(page, game.moves[-1])
    expect(page.locator("[data-flying]")).to_have_count(0, timeout=5000)
    stock = page.locator('#board .card.back').bounding_box()
    assert stock is not None
    partner = page.evaluate(LOOK, "5H")
    partner_box = page.locator('#board [data-card="5H"]').bounding_box()
    assert partner_box is not None
    page.click('#controls [data-action="turn"]')
    assert game.push("stock") and game.last_turned() == "5S"
    assert page.evaluate(PAUSE_AT, 0.1) == 2
    # Face up on the stock, at the size of a card on the board.
    turned = flying_look(page, "5S")
    same_look(turned, {**partner, "text": "5♠♠", "colour": turned["colour"]})
    box = page.locator('[data-flying="5S"]').bounding_box()
    assert box is not None
    assert abs(box["x"] - stock["x"]) < 1 and abs(box["y"] - stock["y"]) < 1
    page.evaluate(PAUSE_AT, 0.6)  # on its partner
    box = page.locator('[data-flying="5S"]').bounding_box()
    assert box is not None
    assert abs(box["x"] - partner_box["x"]) < 1 and abs(box["y"] - partner_box["y"]) < 1
    page.evaluate(RESUME)
    expect(page.locator("[data-flying]")).to_have_count(0, timeout=5000)
    # It stays in view, face up, marked, until the next move.
    shown = page.locator('#board [data-card="5S"][data-turned]')
    expect(shown).to_be_visible()
    assert shown.evaluate("e => getComputedStyle(e).visibility") == "visible"
    move = game.legal_moves()[0]
    play(page, move)
    expect(page.locator("#board [data-turned]")).to_have_count(0)


def test_strict_lost_card_stays_face_up(page: Page, wait_ready) -> None:
    # Strict deal 7: one turn, and its 5S has no partner: the game is lost on it.
    page.emulate_media(reduced_motion="reduce")
    game = Game("strict", 7)
    open_game(page, wait_ready, "?variant=strict&deal=7")
    while game.outcome() is None:
        move = game.legal_moves()[0]
        game.push(move)
        play(page, move)
    assert game.position.unpaired == "5S"
    expect(page.locator("body")).to_have_attribute("data-outcome", "lost")
    card = page.locator('#board [data-card="5S"][data-turned]')
    expect(card).to_be_visible()
    expect(card).to_contain_text("5♠")


@pytest.mark.slow  # make test-slow: make test: a win's end screen (test_end_screen)
def test_a_key_ends_the_celebration_and_reduced_motion_has_none(page: Page, wait_ready) -> None:
    page.emulate_media(reduced_motion="no-preference")
    deal, line = find_winnable("vertical")
    open_game(page, wait_ready, f"?variant=vertical&deal={deal}")
    for move in line:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-celebrating", "")
    page.keyboard.press("Shift")
    expect(page.locator(".celebration")).to_have_count(0)
    page.keyboard.press("u")  # the last pair back, and again under reduced motion: no party
    page.emulate_media(reduced_motion="reduce")
    play(page, line[-1])
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")
    assert page.locator(".celebration").count() == 0


def keydown_listeners(cdp: CDPSession) -> int:
    """How many ``keydown`` listeners the page's document has (DevTools' own count)."""
    document = cdp.send("Runtime.evaluate", {"expression": "document"})["result"]["objectId"]
    try:
        found = cdp.send("DOMDebugger.getEventListeners", {"objectId": document})["listeners"]
    finally:
        cdp.send("Runtime.releaseObject", {"objectId": document})
    return sum(1 for listener in found if listener["type"] == "keydown")


def live_nodes(cdp: CDPSession) -> int:
    """How many DOM nodes the page keeps alive after a full garbage collection: those in the
    document and those detached but still referenced (``Performance.getMetrics``' "Nodes")."""
    cdp.send("HeapProfiler.collectGarbage")
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(int(m["value"]) for m in metrics if m["name"] == "Nodes")


@pytest.mark.slow  # make test-slow: a leak check over many wins
def test_wins_leave_no_listener_or_node_behind(
    page: Page, wait_ready: Callable[..., Page]
) -> None:
    """Issue 19 (6): each win's celebration left a document keydown listener and its
    confetti behind (3 -> 8 listeners over six wins, about 120 DOM nodes a game). Ten wins
    in one page (a deal's winning line tapped, then nine times its last pair taken back and
    made again), the celebration ended each way (a tap, a key, once by itself): the
    keydown listeners stay as many as before the first win, and the DOM nodes, attached or
    detached but kept, as many as after the 2nd."""
    page.emulate_media(reduced_motion="no-preference")
    deal, line = find_winnable("standard")
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    body = page.locator("body")
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Performance.enable")
        before = keydown_listeners(cdp)
        counts: list[tuple[int, int, int]] = []
        for win in range(10):
            for move in line if win == 0 else line[-1:]:
                play(page, move)
            expect(body).to_have_attribute("data-outcome", "won")
            expect(body).to_have_attribute("data-celebrating", "")
            signs = page.locator(".celebration span").count()
            assert signs > 0
            if win == 2:  # once it ends by itself, its last sign fallen (CELEBRATION_MS)
                pass
            elif win % 2 == 0:  # a tap, in a corner (what is under it is not tapped)
                page.locator(".celebration").click(position={"x": 4, "y": 4})
            else:
                page.keyboard.press("Shift")
            expect(body).not_to_have_attribute("data-celebrating", "", timeout=5000)
            expect(page.locator(".celebration")).to_have_count(0)
            still(page)
            attached = page.evaluate("document.getElementsByTagName('*').length")
            counts.append((keydown_listeners(cdp), attached, live_nodes(cdp)))
            page.locator('#controls [data-action="undo"]').click()  # the last pair back
            expect(page.locator("#cards-left")).to_have_text("2")
            still(page)
    finally:
        cdp.detach()
    # (keydown listeners, elements in the document, live DOM nodes) after each win.
    assert [listeners for listeners, _, _ in counts] == [before] * 10, (before, counts)
    (_, attached_2nd, live_2nd), (_, attached_10th, live_10th) = counts[1], counts[9]
    assert attached_10th == attached_2nd, counts
    # One celebration is 1 + 2 * signs nodes (its layer, each sign and its text): kept from
    # eight more wins, hundreds. What the page holds on to once (such as the element focused
    # before the end screen came) is less than one.
    assert live_10th - live_2nd < 1 + 2 * signs, counts


def test_sounds_are_off_by_default_and_play_once_set(page: Page, wait_ready) -> None:
    open_game(page, wait_ready, "?variant=standard&deal=7")
    game = Game("standard", 7)
    move = game.legal_moves()[0]
    game.push(move)
    play(page, move)
    assert page.evaluate("() => window.nestorSound === undefined")
    control(page, "settings").click()
    expect(page.locator("#opt-sounds")).not_to_be_checked()
    page.check("#opt-sounds")
    page.keyboard.press("Escape")
    expect(page.locator("#settings-dialog")).not_to_have_attribute("open", "")
    move = game.legal_moves()[0]
    play(page, move)
    page.wait_for_function("() => window.nestorSound === 'pair'")


def rows_of(page: Page, selector: str) -> int:
    """How many rows the visible buttons of ``selector`` take."""
    return page.evaluate("""sel => new Set([...document.querySelectorAll(sel)]
        .filter(b => b.offsetParent !== null)
        .map(b => Math.round(b.getBoundingClientRect().top))).size""", selector)


def test_panels_leave_the_board_in_place_and_controls_fit(page: Page, wait_ready) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    open_game(page, wait_ready, "?variant=strict&deal=4")
    assert rows_of(page, "#controls button") <= 2
    board = page.locator("#board").bounding_box()
    control(page, "settings").click()
    expect(page.locator("#settings-dialog")).to_have_attribute("open", "")
    page.check("#opt-four-colours")
    saves_done(page)
    assert page.locator("#board").bounding_box() == board
    assert page.evaluate("() => window.scrollY") == 0
    page.keyboard.press("Escape")
    # How to play, with the odds table in the page, in the player's language.
    control(page, "rules").click()
    odds = page.locator("#rules-dialog table.odds tbody tr")
    expect(odds).to_have_count(6)
    expect(odds.first).to_contain_text("53.29%")
    assert page.locator('#rules-dialog a[href$=".md"]').count() == 0
    page.keyboard.press("Escape")


@pytest.mark.slow  # make test-slow: the layout audit checks the statistics panel's fit
@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_statistics_fit_their_dialog_without_a_frame(page: Page, wait_ready) -> None:
    for width, height, language in ((390, 844, "en"), (1280, 800, "de"), (360, 640, "de")):
        page.set_viewport_size({"width": width, "height": height})
        page.add_init_script(
            f"localStorage.setItem('nestor.settings', JSON.stringify({{language: '{language}'}}))"
        )
        open_game(page, wait_ready, "?variant=standard&deal=7")
        control(page, "stats").click()
        dialog = page.locator("#stats-dialog")
        expect(dialog).to_have_attribute("open", "")
        wide, room = page.evaluate("""() => {
            const t = document.querySelector('#stats-dialog table');
            return [t.scrollWidth, t.parentElement.clientWidth]; }""")
        assert wide <= room, (width, language, wide, room)
        # The dialog holds the focus itself: no control or scroller is framed as it opens.
        assert page.evaluate("() => document.activeElement.id") == "stats-dialog"
        assert dialog.evaluate("d => getComputedStyle(d).outlineStyle") == "none"
        page.keyboard.press("Escape")


PYSCRIPT = "**/static/vendor/pyscript/core.js"
"""PyScript's loader: held back by a route, the page stays in its loading state."""

SPINNING = """() => document.querySelector("#loading .spinner").getAnimations().filter(
    (a) => a.playState === "running" && a.effect.getComputedTiming().endTime === Infinity
).length"""
"""How many endless animations run on the loading spinner (reading them brings its style up
to date first)."""


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_the_loading_spinner_turns_only_with_motion(
    page: Page, wait_ready: Callable[..., Page]
) -> None:
    """Issue 19 (7): the loading spinner turned under reduced motion and with the Animations
    setting off. PyScript held back, the page shows its loading line: under reduced motion
    its spinner stands still (and stays shown), with motion allowed it turns, and with the
    setting off (stored by an earlier visit) it stands still again."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(PYSCRIPT, hold)
    spinner = page.locator("#loading .spinner")
    page.emulate_media(reduced_motion="reduce")
    page.goto("/?variant=standard&deal=7", wait_until="domcontentloaded")
    expect(spinner).to_be_visible()
    expect(page.locator("#loading")).to_contain_text("Loading the game")
    assert page.evaluate(SPINNING) == 0, "the spinner turns under reduced motion"
    assert spinner.evaluate("e => getComputedStyle(e).animationName") == "none"
    page.emulate_media(reduced_motion="no-preference")  # wake.js follows the change
    page.wait_for_function(f"({SPINNING})() === 1", timeout=5000)  # the spinner turns
    # The player turned Animations off on an earlier visit.
    page.evaluate("localStorage.setItem('nestor.settings', JSON.stringify({animations: false}))")
    page.reload(wait_until="domcontentloaded")
    expect(spinner).to_be_visible()
    assert page.evaluate(SPINNING) == 0, "the spinner turns with the Animations setting off"
    # Let PyScript go (the last request held is the page's own): the game boots, as set.
    held[-1].continue_()
    page.unroute(PYSCRIPT, hold)
    wait_ready(page)
    expect(page.locator("#loading")).to_have_count(0)
    expect(page.locator("html")).to_have_attribute("data-animations", "false")

"""Issue 22 (9): the settings Show the time, Animations (off, slow, normal, fast), Left-handed
layout and Large card indices in the real page: each applies at once, the settings panel
still fits a 360 px phone in German, and a reload keeps them, in the first paint of the stored
board (static/js/wake.js, before Python) as after it."""

from __future__ import annotations

import json

import pytest
from conftest import control, saves_done, stored
from helpers import COUNTERS, hold_pyscript, let_go, mouse_drag, open_game, play
from playwright.sync_api import Page, expect

from nestor import Game, Pair

LAYOUT = """() => {
  const columns = [...document.querySelectorAll("#board .tableau .column")]
    .map(c => c.getBoundingClientRect());
  const spare = [...document.querySelectorAll('#board [data-region="spare"] .card')]
    .map(c => c.getBoundingClientRect());
  const corner = document.querySelector("#board .tableau .card .corner");
  return {
    first: columns[0].left, last: columns[columns.length - 1].right,
    from: Math.min(...spare.map(r => r.left)), to: Math.max(...spare.map(r => r.right)),
    corner: parseFloat(getComputedStyle(corner).fontSize),
    timer: document.getElementById("timer").offsetParent !== null,
  };
}"""
"""Where the board's first column starts and its last ends, where the reserve's cards start
and end, the corner's type size, and whether the timer is shown."""

RECORD = """() => {
  window.__timed = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.__timed.push([this.dataset.flying || this.dataset.card, options.duration]);
    return animate.call(this, frames, options);
  };
}"""
"""From now on keep each animation's element (a flying copy's card, or a card) and duration
in ``window.__timed`` (a fast flight may be over before the test could look at it)."""

LAST_MOVE = """() => getComputedStyle(document.querySelector("#board [data-last-move]"),
                                       "::after").animationDuration"""



def shown_counters(page: Page) -> list[str]:
    """The counters shown, by their labels, once each shows its separator "·" exactly when
    it does not start a line (e2e/test_layout.py COUNTERS)."""
    counters = page.evaluate(COUNTERS)
    assert all(c["separator"] != c["starts"] for c in counters), counters
    return [c["label"] for c in counters]

def timed(page: Page) -> list[list[object]]:
    """The animations recorded since the last call (:data:`RECORD`)."""
    return page.evaluate("() => window.__timed.splice(0)")


def settings_panel(page: Page) -> None:
    dialog = page.locator("#settings-dialog")
    if not dialog.evaluate("d => d.open"):
        control(page, "settings").click()
    expect(dialog).to_be_visible()


def close_panel(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(page.locator("#settings-dialog")).to_be_hidden()


def on_the_right(layout: dict[str, float]) -> None:
    assert abs(layout["to"] - layout["last"]) < 1.5, layout
    assert layout["from"] > layout["first"] + 40, layout


@pytest.mark.own_page  # holds PyScript back with a route on the reload
def test_time_layout_and_indices_apply_at_once_and_after_a_reload(
    page: Page, wait_ready
) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    pair = next(m for m in game.legal_moves() if isinstance(m, Pair))
    play(page, pair)  # a game saved, so the reload paints its stored board first
    before = page.evaluate(LAYOUT)
    assert before["timer"] and abs(before["from"] - before["first"]) < 1.5, before
    settings_panel(page)
    page.select_option('[data-setting="language"]', "de")
    for name, on in (("show_timer", True), ("left_handed", False), ("large_index", False)):
        assert page.is_checked(f'[data-setting="{name}"]') is on, name

    page.uncheck('[data-setting="show_timer"]')
    expect(page.locator("#timer")).to_be_hidden()
    # The counters line ends with the pairs, and no line with a lone separator.
    assert shown_counters(page) == ["Karten übrig", "Züge", "Paare"]
    page.check('[data-setting="left_handed"]')
    on_the_right(page.evaluate(LAYOUT))
    page.check('[data-setting="large_index"]')
    after = page.evaluate(LAYOUT)
    assert after["corner"] > before["corner"] * 1.2, (before, after)
    page.select_option('[data-setting="animations"]', "slow")
    # The panel, in German with every control, fits the phone's width.
    assert page.evaluate("""() => { const d = document.getElementById("settings-dialog");
        return [d.scrollWidth - d.clientWidth, document.documentElement.scrollWidth - 360]; }"""
                         ) == [0, 0]
    close_panel(page)
    saves_done(page)
    kept = json.loads(stored(page, "nestor.settings") or "{}")
    assert {k: kept.get(k) for k in ("show_timer", "left_handed", "large_index", "animations",
                                     "animation_speed")} == {
        "show_timer": False, "left_handed": True, "large_index": True, "animations": True,
        "animation_speed": "slow"}

    held = hold_pyscript(page)
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("body")).to_have_attribute("data-waking", "")
    root = page.locator("html")
    for name, value in (("show-timer", "false"), ("left-handed", "true"),
                        ("large-index", "true"), ("animations", "true"),
                        ("animation-speed", "slow")):
        expect(root).to_have_attribute(f"data-{name}", value)
    painted = page.evaluate(LAYOUT)  # the stored board, drawn as Python will draw it
    assert not painted["timer"] and painted["corner"] == after["corner"], painted
    on_the_right(painted)
    assert shown_counters(page) == ["Karten übrig", "Züge", "Paare"]
    let_go(page, held)
    wait_ready(page)
    woken = page.evaluate(LAYOUT)
    assert not woken["timer"] and woken["corner"] == after["corner"], woken
    on_the_right(woken)
    assert shown_counters(page) == ["Karten übrig", "Züge", "Paare"]
    for name, on in (("show_timer", False), ("left_handed", True), ("large_index", True)):
        assert page.is_checked(f'[data-setting="{name}"]') is on, name
    assert page.input_value('[data-setting="animations"]') == "slow"
    # Shown again: the timer comes back (with its separator unless it starts a line).
    settings_panel(page)
    page.check('[data-setting="show_timer"]')
    expect(page.locator("#timer")).to_be_visible()
    assert shown_counters(page) == ["Karten übrig", "Züge", "Paare", "Zeit"]


@pytest.mark.slow  # make test-slow: each speed's durations are tests/test_settings_more.py's
def test_the_animations_speed_times_the_flights_the_slide_back_and_the_marks(
    page: Page, wait_ready
) -> None:
    # The worker's page prefers reduced motion: with nothing chosen the menu says Off.
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    root = page.locator("html")
    assert page.input_value('[data-setting="animations"]') == "off"
    expect(root).to_have_attribute("data-animations", "false")
    page.evaluate(RECORD)
    durations: dict[str, object] = {}
    for speed in ("slow", "fast", "off"):
        settings_panel(page)
        page.select_option('[data-setting="animations"]', speed)
        expect(root).to_have_attribute("data-animation-speed", speed)
        expect(root).to_have_attribute("data-animations", "false" if speed == "off" else "true")
        close_panel(page)
        pair = next(m for m in game.legal_moves() if isinstance(m, Pair))
        game.push(pair)
        play(page, pair)
        flights = timed(page)
        assert sorted(str(card) for card, _ in flights) == sorted(pair.cards) or (
            speed == "off" and flights == []), (speed, flights)
        durations[speed] = {float(str(d)) for _, d in flights}
        if speed != "off":
            expect(page.locator("[data-flying]")).to_have_count(0, timeout=5000)
            durations[speed + " mark"] = page.evaluate(LAST_MOVE)
    assert durations["slow"] == {735.0} and durations["fast"] == {210.0}, durations
    assert durations["slow mark"] == "2.8s" and durations["fast mark"] == "0.8s", durations
    assert durations["off"] == set()
    # A card dropped off every partner slides back at the speed set (fast: 90 ms).
    settings_panel(page)
    page.select_option('[data-setting="animations"]', "fast")
    close_panel(page)
    card = sorted(game.position.available())[0]
    mouse_drag(page, card, (12.0, 12.0))  # over the page's title: no partner there
    expect(page.locator(f'[data-card="{card}"]')).to_have_attribute("data-dragging", "")
    page.mouse.up()
    assert [d for c, d in timed(page) if c == card] == [90], card

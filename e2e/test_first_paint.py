"""A first visit's board before Python: at ``/`` with nothing stored, static/js/wake.js paints
the guide's deal (static/js/first-visit.js, drawn at build time by the view code) with its
rings, its counters and the guide's first step, in the player's language; Python then plays
that very deal, draws the same cards in the same places, and applies the taps made meanwhile.
A first visit through a link names the deal in the header. PyScript is held back with a route
until the test lets it go (the service worker is blocked: what it serves never reaches a
route). Fresh profiles, marked ``first_visit``: the guide is due."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import saves_done, still, stored
from helpers import IN_REACH, hold_pyscript, let_go, next_frame
from playwright.sync_api import Page, expect

from nestor import deal_position
from nestor_web.app.tutorial import FIRST_VISIT_DEAL, TUTORIAL_VARIANT, tableau_pair

CARDS = """() => [...document.querySelectorAll("#board [data-card]")].map((card) => {
  const box = card.getBoundingClientRect();
  return {card: card.dataset.card, column: card.closest("[data-column]")?.dataset.column || "",
          x: Math.round(box.x), y: Math.round(box.y),
          ring: card.hasAttribute("data-tutorial-target")};
})"""
"""Each card on the board, in the page's order: its code, its column ("" in the reserve), where
it is, and whether the guide's ring is on it."""

SHEET = """() => {
  const sheet = document.getElementById("tutorial");
  const box = sheet.getBoundingClientRect();
  return {at: sheet.dataset.at, hidden: sheet.hidden, step: sheet.dataset.tutorial,
          title: document.getElementById("tutorial-title").textContent,
          text: document.getElementById("tutorial-text").textContent,
          y: Math.round(box.y), height: Math.round(box.height)};
}"""
"""The guide's sheet: its step, its words and where it lies."""

ROOT = """() => Object.fromEntries(
  [...document.documentElement.attributes].map((a) => [a.name, a.value]))"""
"""The root element's attributes (the settings the CSS follows, the language)."""

PHONE = {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True}

WATCH_WRITES = """() => {
  // Each element's words and each attribute written from now until the game is ready, as
  // found when it was: a write that left them as they were (at once, or there and back).
  const words = new Map([...document.querySelectorAll("body *")].map((e) => [e, e.textContent]));
  const first = new Map();  // element -> attribute -> its value before the first write
  const touched = new Set();  // elements whose children were written
  window.__wasted = null;
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes") {
        if (!first.has(r.target)) first.set(r.target, new Map());
        const before = first.get(r.target);
        if (!before.has(r.attributeName)) before.set(r.attributeName, r.oldValue);
      } else {
        touched.add(r.target.nodeType === 1 ? r.target : r.target.parentElement);
      }
    }
    if (!document.body.hasAttribute("data-ready")) return;
    observer.disconnect();
    const name = (e) => e.id ? `#${e.id}` : e.outerHTML.slice(0, 60);
    const wasted = [];
    for (const [element, before] of first) {
      for (const [attribute, value] of before) {
        if (element.getAttribute(attribute) === value) wasted.push(`${name(element)} ${attribute}`);
      }
    }
    for (const element of touched) {
      if (words.has(element) && element.textContent === words.get(element)) {
        wasted.push(`${name(element)} (words)`);
      }
    }
    window.__wasted = wasted;
  });
  observer.observe(document, {subtree: true, childList: true, characterData: true,
                              attributes: true, attributeOldValue: true});
}"""
"""Watch the page's writes until Python's first draw has made it ready (``window.__wasted``:
each element and attribute, or its words, written but left as they were)."""


def layout() -> list[tuple[str, str]]:
    """The first visit's deal as the engine deals it: (column, card), then the reserve."""
    position = deal_position(TUTORIAL_VARIANT, FIRST_VISIT_DEAL)
    cards = [(str(i), c) for i, column in enumerate(position.columns, 1) for c in column]
    return cards + [("", c) for c in position.reserve]


def the_pair() -> set[str]:
    first = tableau_pair(deal_position(TUTORIAL_VARIANT, FIRST_VISIT_DEAL))
    assert first is not None
    return set(first[0].cards)


def waking_first_visit(page: Page) -> list[dict[str, Any]]:
    """Open ``/`` with PyScript held back; check the painted board; return its cards."""
    expect(page.locator("body")).to_have_attribute("data-waking", "")
    expect(page.locator("body")).to_have_attribute("aria-busy", "true")
    assert not page.evaluate("document.body.hasAttribute('data-ready')")
    cards = page.evaluate(CARDS)
    assert [(c["column"], c["card"]) for c in cards] == layout()
    assert {c["card"] for c in cards if c["ring"]} == the_pair()
    expect(page.locator("#deal-number")).to_have_text(str(FIRST_VISIT_DEAL))
    expect(page.locator("#cards-left")).to_have_text("52")
    expect(page.locator(".waking-bar")).to_have_count(0)  # the loading line says it
    return cards


@pytest.mark.first_visit
def test_a_first_visit_shows_the_guides_deal_before_python_and_python_draws_the_same(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    page = site_context(base_url, viewport={"width": 1280, "height": 800}).new_page()
    held = hold_pyscript(page)
    page.goto("/", wait_until="domcontentloaded")
    before = waking_first_visit(page)
    expect(page.locator("#variant-title")).to_have_text("Standard")
    expect(page.locator("#deal-grade")).to_have_text("Easy")
    expect(page.locator("#status")).to_have_text("Loading the game…")
    sheet = page.evaluate(SHEET)
    assert not sheet["hidden"] and sheet["step"] == "pair"
    assert sheet["title"] == "Your first game, step 1 of 5"
    assert sheet["text"].startswith("The queen of clubs and the queen of hearts are both")
    assert "Click one, then the other" in sheet["text"]  # a mouse: as Python will say it
    expect(page.locator('#tutorial [data-action="tutorial-skip"]')).to_have_text("Skip the guide")
    expect(page.locator('#tutorial [data-action="tutorial-next"]')).to_be_hidden()
    page.evaluate("window.__painted = document.querySelector('#board [data-card]')")
    page.evaluate(WATCH_WRITES)
    root = page.evaluate(ROOT)
    let_go(page, held)
    wait_ready(page)
    expect(page.locator("body")).not_to_have_attribute("data-waking", "")
    # wake.js gave the root the default settings' attributes, as Python draws them: a change
    # there has the browser work out the whole page's style again.
    assert "data-theme" in root and page.evaluate(ROOT) == root
    # Python's first draw wrote only what changed: a write of what the page shows already
    # still has its style, and the page's layout, worked out again (the root's lang: all of
    # it), and measuring the guide's sheet again laid the page out once more.
    assert page.evaluate("window.__wasted") == []
    assert page.evaluate(CARDS) == before  # the same cards, in the same places, rings and all
    # Python found the board it would draw already there and kept it (writing it again laid
    # the whole board out once more): the cards painted are the very elements on the page.
    assert page.evaluate("window.__painted.isConnected")
    assert page.evaluate(SHEET) == sheet
    expect(page.locator("#deal-grade")).to_have_text("Easy")
    game = json.loads(stored(page, "nestor.game") or "")
    assert (game["variant"], game["deal"], game["cursor"]) == (
        TUTORIAL_VARIANT, FIRST_VISIT_DEAL, 0)


@pytest.mark.first_visit
def test_on_a_phone_python_keeps_the_sheet_wake_js_placed(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    """wake.js placed the guide's sheet clear of the cards; Python, finding the same sheet
    (step, words, rings) on the same board, leaves it there unmeasured (measuring it lays the
    page out: on a phone the longest part of Python's first draw)."""
    page = site_context(base_url, viewport={"width": 412, "height": 823}, has_touch=True,
                        is_mobile=True).new_page()
    held = hold_pyscript(page)
    page.goto("/", wait_until="domcontentloaded")
    waking_first_visit(page)
    sheet = page.evaluate(SHEET)
    page.evaluate(WATCH_WRITES)
    page.evaluate("""() => {
      const measure = Element.prototype.getBoundingClientRect;
      window.__sheetMeasured = 0;
      Element.prototype.getBoundingClientRect = function () {
        if (this.id === "tutorial" && !document.body.hasAttribute("data-ready")) {
          window.__sheetMeasured += 1;
        }
        return measure.call(this);
      };
    }""")
    let_go(page, held)
    wait_ready(page)
    assert page.evaluate("window.__wasted") == []
    assert page.evaluate("window.__sheetMeasured") == 0
    assert page.evaluate(SHEET) == sheet


COVERED = """() => {
  const sheet = document.getElementById("tutorial").getBoundingClientRect();
  return [...document.querySelectorAll("[data-tutorial-target]")].filter((ring) => {
    const box = ring.getBoundingClientRect();
    return sheet.left < box.right && box.left < sheet.right && sheet.top < box.bottom
      && box.top < sheet.bottom;
  }).map((ring) => ring.dataset.card || ring.dataset.action);
}"""
"""What the guide rings that its sheet lies over."""


@pytest.mark.first_visit
def test_a_phone_turned_while_the_first_board_wakes_keeps_the_rings_in_view(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    """Turned sideways before Python runs, the sheet goes where it leaves the rings in view,
    and Python, keeping the sheet wake.js placed, keeps it there; turned again once the game
    is ready, Python places it again. At the top, the page scrolled to its top shows the
    header's controls clear of the sheet; the guide skipped, nothing on the page moves."""
    page = site_context(base_url, viewport={"width": 390, "height": 844}, has_touch=True,
                        is_mobile=True).new_page()
    held = hold_pyscript(page)
    page.goto("/", wait_until="domcontentloaded")
    waking_first_visit(page)
    assert page.evaluate(COVERED) == []
    page.set_viewport_size({"width": 844, "height": 390})
    expect(page.locator("#tutorial")).to_have_attribute("data-at", "top")
    assert page.evaluate(COVERED) == []
    opened_at = page.evaluate("scrollY")
    page.evaluate("window.scrollTo(0, 0)")
    assert None not in page.evaluate(CONTROLS_REACH)
    page.evaluate("(y) => window.scrollTo(0, y)", opened_at)
    let_go(page, held)
    wait_ready(page)
    assert page.evaluate(COVERED) == []
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#tutorial")).to_have_attribute("data-at", "bottom")
    page.set_viewport_size({"width": 844, "height": 390})
    expect(page.locator("#tutorial")).to_have_attribute("data-at", "top")
    assert page.evaluate(COVERED) == []
    still(page)
    board_at = page.evaluate(BOARD_TOP)
    page.evaluate("window.scrollTo(0, 0)")
    reach = page.evaluate(CONTROLS_REACH)
    assert len(reach) > 4 and None not in reach, reach
    page.touchscreen.tap(*reach[-1])  # More: its menu opens
    expect(page.locator("#more-menu")).to_have_attribute("data-open", "")
    page.keyboard.press("Escape")
    expect(page.locator("#more-menu")).not_to_have_attribute("data-open", "")
    page.evaluate("(y) => window.scrollTo(0, y)", opened_at)
    assert page.evaluate(BOARD_TOP) == board_at
    page.locator('#tutorial [data-action="tutorial-skip"]').click()
    expect(page.locator("#tutorial")).to_be_hidden()
    assert page.evaluate(BOARD_TOP) == board_at


CONTROLS_REACH = """() => [...document.querySelectorAll("#variant, #controls button")]
  .filter((control) => control.getClientRects().length).map((control) => {
    const box = control.getBoundingClientRect();
    const hit = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
    return hit !== null && control.contains(hit) ? [box.x + 4, box.y + 4] : null;
  })"""
"""Where a tap reaches each control of the header shown (More the last), as IN_REACH."""

BOARD_TOP = "() => Math.round(document.getElementById('board').getBoundingClientRect().top)"


RINGS = "#board [data-tutorial-target]"

LINES_SHOWN = """() => {
  const words = document.getElementById("tutorial-text");
  const box = words.getBoundingClientRect();
  const sheet = document.getElementById("tutorial").getBoundingClientRect();
  const actions = document.querySelector(".tutorial-actions").getBoundingClientRect();
  const shown = Math.min(box.bottom, actions.top, sheet.bottom) - Math.max(box.top, sheet.top);
  return Math.floor(shown / parseFloat(getComputedStyle(words).lineHeight));
}"""
"""How many whole lines of the guide's words show in its sheet, above its buttons."""

SCROLLS_ABOVE = """() => {
  const section = document.getElementById("tutorial");
  const sheet = section.getBoundingClientRect();
  const room = document.scrollingElement.scrollHeight - scrollY - innerHeight;
  return [...document.querySelectorAll("#board [data-tutorial-target]")].filter((ring) => {
    const box = ring.getBoundingClientRect();
    const hit = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
    if (hit !== null && ring.contains(hit)) return false;  // in reach
    return section.dataset.at !== "bottom" || box.bottom - sheet.top > room;
  }).map((ring) => ring.dataset.card);
}"""
"""The rings out of reach that scrolling the page down cannot bring above the sheet (at the
foot: at the top it was to leave them all in reach)."""


@pytest.mark.first_visit
def test_with_the_largest_type_on_a_small_phone_the_rings_are_shown_above_the_sheet(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    """Type at 32 px (the player's setting) on a 360 x 640 phone: the header fills the screen
    and the sheet would cover the rings at the foot and at the top; it lies at the foot and the
    page is scrolled to show them above it, before Python runs and once it has (the phone
    turned and back). Tapped where they are, without scrolling, the two cards are played."""
    page = site_context(base_url, **PHONE).new_page()
    page.context.new_cdp_session(page).send(
        "Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 29}})
    held = hold_pyscript(page)
    page.goto("/", wait_until="domcontentloaded")
    waking_first_visit(page)
    reach = page.evaluate(IN_REACH, RINGS)
    assert None not in reach and len(reach) == 2, reach
    let_go(page, held)
    wait_ready(page)
    # Turned, and back: Python places it each time (a frame each, for the page to see the
    # resize: two changes in one frame may make no resize at all, the scroll clamped between).
    page.set_viewport_size({"width": 640, "height": 360})
    next_frame(page)
    page.set_viewport_size(PHONE["viewport"])
    next_frame(page)
    still(page)
    reach = page.evaluate(IN_REACH, RINGS)
    assert None not in reach and len(reach) == 2, reach
    for x, y in reach:  # the board stays put once the first is selected (the status line too)
        page.touchscreen.tap(x, y)
        still(page)
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator("#tutorial")).to_have_attribute("data-tutorial", "covered")
    still(page)
    # Its words are longer than the sheet and scroll inside it; Next stays in reach at its foot,
    # and lines of them show above it (half the screen held only the title and the buttons).
    reach = page.evaluate(IN_REACH, '#tutorial [data-action="tutorial-next"]')
    assert len(reach) == 1 and reach[0] is not None, reach
    assert page.evaluate(LINES_SHOWN) >= 3
    # Scrolled past their end, the words leave the page where it is.
    at = page.evaluate("scrollY")
    box = page.locator("#tutorial-text").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    for _ in range(3):
        page.mouse.wheel(0, 600)
        still(page)
    assert page.evaluate("document.getElementById('tutorial').scrollTop") > 0
    assert page.evaluate("scrollY") == at
    page.evaluate("document.getElementById('tutorial').scrollTop = 0")
    # Python placed the next step's sheet: its rings lie too far apart to be shown above it
    # at once; the first is in reach, and the page has room to scroll each other one above it.
    reach = page.evaluate(IN_REACH, RINGS)
    assert reach and reach[0] is not None, reach
    assert page.evaluate(SCROLLS_ABOVE) == [], reach
    # The player scrolls the last ring above the sheet and taps it: the page stays put.
    below = page.evaluate("""() => {
      const rings = document.querySelectorAll("#board [data-tutorial-target]");
      const sheet = document.getElementById("tutorial").getBoundingClientRect();
      return rings[rings.length - 1].getBoundingClientRect().bottom - sheet.top + 20;
    }""")
    if below > 0:
        page.evaluate("(by) => window.scrollBy(0, by)", below)
    at = page.evaluate("scrollY")
    reach = page.evaluate(IN_REACH, RINGS)
    assert reach[-1] is not None, reach
    page.touchscreen.tap(*reach[-1])
    still(page)
    assert page.evaluate("scrollY") == at
    # More's menu opens over the sheet, which comes back once the menu is closed.
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#controls [data-menu]").click()
    expect(page.locator("#more-menu")).to_have_attribute("data-open", "")
    expect(page.locator("#tutorial")).to_be_hidden()
    page.keyboard.press("Escape")
    expect(page.locator("#more-menu")).not_to_have_attribute("data-open", "")
    expect(page.locator("#tutorial")).to_be_visible()
    # Skip tapped: the board takes the focus, and the page stays put (the first available card
    # lies below the window).
    still(page)
    reach = page.evaluate(IN_REACH, '#tutorial [data-action="tutorial-skip"]')
    at = page.evaluate("scrollY")
    page.touchscreen.tap(*reach[0])
    expect(page.locator("#tutorial")).to_be_hidden()
    still(page)
    assert page.evaluate("document.activeElement.hasAttribute('data-card')")
    assert page.evaluate("scrollY") == at


def wide_with_the_largest_type(site_context: Any, base_url: str, wait_ready: Any) -> Page:
    """A first visit at ``/`` in a 1280 x 800 window with type at 32 px, once ready: the guide's
    sheet lies at the top."""
    page = site_context(base_url, viewport={"width": 1280, "height": 800}).new_page()
    page.context.new_cdp_session(page).send(
        "Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 29}})
    page.goto("/")
    wait_ready(page)
    expect(page.locator("#tutorial")).to_have_attribute("data-at", "top")
    return page


@pytest.mark.first_visit
def test_with_the_largest_type_python_shows_the_rings_above_the_sheet_when_the_window_shrinks(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    """Type at 32 px in a wide window, where the sheet finds room at the top; the window made
    a small phone's once the game is ready: Python lays the sheet at the foot and scrolls the
    rings above it."""
    page = wide_with_the_largest_type(site_context, base_url, wait_ready)
    page.set_viewport_size(PHONE["viewport"])
    expect(page.locator("#tutorial")).to_have_attribute("data-room", "")
    still(page)
    reach = page.evaluate(IN_REACH, RINGS)
    assert None not in reach and len(reach) == 2, reach


@pytest.mark.first_visit
def test_with_the_largest_type_the_header_can_be_scrolled_clear_of_the_sheet_at_the_top(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    """Type at 32 px in a wide window, the sheet at the top: the page scrolled to its top shows
    every control of the header clear of it; skipped further down, the sheet takes its room
    away and the page stays where it was."""
    page = wide_with_the_largest_type(site_context, base_url, wait_ready)
    page.evaluate("window.scrollTo(0, 0)")
    reach = page.evaluate(CONTROLS_REACH)
    assert len(reach) > 4 and None not in reach, reach
    page.evaluate("window.scrollBy(0, innerHeight / 2)")
    board_at = page.evaluate(BOARD_TOP)
    page.locator('#tutorial [data-action="tutorial-skip"]').click()
    expect(page.locator("#tutorial")).to_be_hidden()
    assert page.evaluate(BOARD_TOP) == board_at


@pytest.mark.first_visit
def test_a_german_phones_taps_on_the_waking_first_board_are_played(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    page = site_context(base_url, locale="de-DE", **PHONE).new_page()
    held = hold_pyscript(page)
    page.goto("/", wait_until="domcontentloaded")
    before = waking_first_visit(page)
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.locator("#deal-grade")).to_have_text("Leicht")
    expect(page.locator("#status")).to_have_text("Das Spiel wird geladen…")
    sheet = page.evaluate(SHEET)
    assert sheet["title"] == "Dein erstes Spiel, Schritt 1 von 5" and not sheet["hidden"]
    assert "Tippe die eine an" in sheet["text"]  # a touch screen: tapped
    for card in sorted(the_pair()):
        page.locator(f'#board [data-card="{card}"]').tap()
    assert page.evaluate("window.nestorWake.taps.length") == 2
    let_go(page, held)
    wait_ready(page)
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator("#tutorial")).to_have_attribute("data-tutorial", "covered")
    still(page)
    # The cards left are the ones painted, where they were painted.
    left = [{**c, "ring": False} for c in before if c["card"] not in the_pair()]
    assert [{**c, "ring": False} for c in page.evaluate(CARDS)] == left
    game = json.loads(stored(saves_done(page), "nestor.game") or "")
    assert (game["deal"], game["cursor"]) == (FIRST_VISIT_DEAL, 1)


@pytest.mark.first_visit
def test_a_phones_card_sizes_are_worked_out_once_as_lengths(
    site_context: Any, base_url: str
) -> None:
    """A phone's board derives its sizes from the container's through chains of calc()s:
    registered as lengths, each is worked out where it is set and a card inherits pixels,
    where as text every card would expand the chains again on each layout of the page."""
    context = site_context(base_url, **PHONE)
    page = context.new_page()
    hold_pyscript(page)  # never let go: only the first paint is looked at
    page.goto("/", wait_until="domcontentloaded")
    waking_first_visit(page)
    sizes = page.evaluate("""() => {
      const style = getComputedStyle(document.querySelector("#board .column > [data-card]"));
      return ["--card-w", "--card-h", "--peek", "--index", "--gap"].map(
        (name) => style.getPropertyValue(name));
    }""")
    assert all(re.fullmatch(r"\d+(\.\d+)?px", size) for size in sizes), sizes
    context.close()


@pytest.mark.first_visit
@pytest.mark.parametrize(("locale", "address", "title", "number"), [
    ("de-DE", "/?variant=strict&deal=0042", "Streng", "42"),
    pytest.param("en-US", "/?deal=7", "Standard", "7", marks=pytest.mark.slow),
])
def test_a_first_visit_through_a_link_names_the_deal_before_python(
    site_context: Any, base_url: str, locale: str, address: str, title: str, number: str
) -> None:
    context = site_context(base_url, locale=locale)
    page = context.new_page()
    hold_pyscript(page)  # never let go: only the first paint is looked at
    page.goto(address, wait_until="domcontentloaded")
    expect(page.locator("#variant-title")).to_have_text(title)
    expect(page.locator("#deal-number")).to_have_text(number)
    expect(page.locator(".deal-info")).to_be_visible()
    expect(page.locator("body")).not_to_have_attribute("data-waking", "")
    expect(page.locator("#board [data-card]")).to_have_count(0)  # no cards it cannot know
    expect(page.locator("#tutorial")).to_be_hidden()
    context.close()


@pytest.mark.first_visit
@pytest.mark.slow  # make test-slow: Skip, pressed before Python runs
def test_skip_pressed_on_the_waking_first_visit_ends_the_guide(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    page = site_context(base_url, **PHONE).new_page()
    held = hold_pyscript(page)
    page.goto("/", wait_until="domcontentloaded")
    waking_first_visit(page)
    page.locator('#tutorial [data-action="tutorial-skip"]').tap()
    expect(page.locator("#tutorial")).to_be_hidden()  # at once
    let_go(page, held)
    wait_ready(page)
    expect(page.locator("#tutorial")).to_be_hidden()
    assert stored(page, "nestor.tutorial") == "done"
    assert int(page.inner_text("#deal-number")) == FIRST_VISIT_DEAL


@pytest.mark.first_visit
def test_undo_pressed_over_the_sheets_room_leaves_the_rings_in_reach(
    site_context: Any, base_url: str, wait_ready: Any
) -> None:
    """Type at 24 px on a 390 x 844 phone, the reserve's step with the sheet at the top: the
    player scrolls Undo into view, in the room the sheet keeps above the page's content, and
    taps it; the pair comes back, the sheet goes to the foot, and the room's going moves the
    page: Python places the sheet again for the page as it then lies, the rings in reach."""
    page = site_context(base_url, viewport={"width": 390, "height": 844}, has_touch=True,
                        is_mobile=True).new_page()
    page.context.new_cdp_session(page).send(
        "Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 21}})
    page.goto("/")
    wait_ready(page)
    for card in sorted(the_pair()):
        page.locator(f'#board [data-card="{card}"]').tap()
        still(page)
    page.locator('#tutorial [data-action="tutorial-next"]').tap()
    expect(page.locator("#tutorial")).to_have_attribute("data-tutorial", "reserve")
    expect(page.locator("#tutorial")).to_have_attribute("data-at", "top")
    still(page)
    undo = page.locator('#controls [data-action="undo"]')
    undo.evaluate("(button) => button.scrollIntoView({block: 'center'})")
    reach = page.evaluate(IN_REACH, '#controls [data-action="undo"]')
    assert reach[0] is not None and page.evaluate("scrollY") > 0, reach
    page.touchscreen.tap(*reach[0])
    expect(page.locator("#moves-made")).to_have_text("0")
    still(page)
    reach = page.evaluate(IN_REACH, RINGS)
    assert reach and None not in reach, reach

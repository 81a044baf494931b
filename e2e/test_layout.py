"""Issue 22's layout audit: every panel and mode, at four sizes, in both languages and themes.

For each corner of the matrix (:data:`SIZES` x en/de x light/dark) one page walks through
the game, the More menu, each panel (How to play, Settings, Keys where it is offered,
Statistics, the review), the Copy-link box, the end screen of a lost game and a replay. In
each it asserts what a player would notice, without comparing pixels:

- no horizontal overflow of the page or of the panel;
- a panel opens at scroll 0 with its heading in view, inside the viewport, on a background
  of its theme (dark in the dark theme), the review's summary legible on it;
- nothing clipped: each visible control's box inside the viewport and its panel, its text
  not cut;
- in the game, the controls and the whole board on the screen, and on a phone in portrait
  the board using the screen's height (issue 22 (6): the cards left 45% of it empty);
- the board in view above an open end screen;
- axe-core (contrast included) clean;
- every icon control has an accessible name and shows a tooltip while it has the focus.

The screenshots of every mode go to ``build/layout-audit/<width>x<height>-<language>-<theme>/``.
``make test`` runs two corners (390x844 German dark, 1280x800 English light); ``make
test-slow`` runs all sixteen.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from conftest import axe_violations, control, still
from lines import losing_line
from playwright.sync_api import Page, expect
from test_end_screen import END, winnable_deal_lost_by_first_moves
from test_panels import CONTRAST, LUMINANCE
from test_play import open_game, play

from nestor import Game, Record
from nestor.link import record_query

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "layout-audit"

SIZES = ((360, 640), (390, 844), (844, 390), (1280, 800))
FAST = {(390, 844, "de", "dark"), (1280, 800, "en", "light")}
"""The corners ``make test`` runs; the others are marked slow."""

CORNERS = [
    pytest.param(w, h, language, theme, id=f"{w}x{h}-{language}-{theme}",
                 marks=() if (w, h, language, theme) in FAST else pytest.mark.slow)
    for (w, h) in SIZES for language in ("en", "de") for theme in ("light", "dark")
]

AUDIT = r"""([panel, scrolls]) => {
  const out = [];
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + [...e.attributes].filter((a) => a.name.startsWith("data-") && a.name !== "data-text")
      .map((a) => `[${a.name}="${a.value}"]`).join("")
    + ` "${(e.textContent || e.value || "").trim().slice(0, 24)}"`;
  const clipped = (e) => {  // inside a box of 1 px: shown to a screen reader only
    for (let a = e; a; a = a.parentElement) {
      const r = a.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return true;
    }
    return false;
  };
  const page = document.scrollingElement;
  if (page.scrollWidth > vw + 1) out.push(`the page is ${page.scrollWidth - vw} px too wide`);
  const scope = panel ? document.querySelector(panel) : document.body;
  if (panel) {
    const box = scope.getBoundingClientRect();
    if (scope.scrollWidth > scope.clientWidth + 1)
      out.push(`${panel} overflows by ${scope.scrollWidth - scope.clientWidth} px`);
    if (box.left < -1 || box.right > vw + 1 || box.top < -1 || box.bottom > vh + 1)
      out.push(`${panel} is not inside the viewport: ${JSON.stringify(box)}`);
    if (scope.scrollTop !== 0) out.push(`${panel} opened at scroll ${scope.scrollTop}`);
    const heading = scope.querySelector("h1, h2");
    if (heading) {
      const h = heading.getBoundingClientRect();
      if (h.top < box.top - 1 || h.bottom > Math.min(box.bottom, vh) + 1)
        out.push(`${panel}: its heading is out of view (${h.top}..${h.bottom})`);
    }
  }
  const controls = scope.querySelectorAll(
    "button, select, input:not([type=hidden]), textarea, a[href], summary");
  for (const c of controls) {
    if (!c.checkVisibility({visibilityProperty: true})) continue;
    const r = c.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -1 || r.right > vw + 1) out.push(`${name(c)} is cut by the viewport's side`);
    if (!panel && !scrolls && (r.top < -1 || r.bottom > vh + 1))
      out.push(`${name(c)} is off the screen (${Math.round(r.top)}..${Math.round(r.bottom)}`
               + ` of ${vh})`);
    if (panel) {
      const box = scope.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1)
        out.push(`${name(c)} sticks out of ${panel}`);
    }
    if (c.tagName === "BUTTON" && c.scrollWidth > c.clientWidth + 1)
      out.push(`${name(c)}: its text is cut (${c.scrollWidth} > ${c.clientWidth} px)`);
  }
  for (const e of scope.querySelectorAll("caption, h1, h2, h3, label, legend, th, dt, button")) {
    const words = (e.textContent || "").trim().split(/\s+/).filter(Boolean).length;
    if (words < 3 || !e.checkVisibility() || clipped(e)) continue;
    const range = document.createRange();
    range.selectNodeContents(e);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 1)
      .map((r) => Math.round(r.top))).size;
    if (lines >= words) out.push(`${name(e)} wraps one word a line`);
  }
  return out;
}"""
"""What a player would see wrong in the still page, one line each; ``panel`` is the
selector of the panel open (``null`` for the game itself), ``scrolls`` whether the page may
scroll down (the replay's list of moves): then only the sides are checked."""

BOARD = """() => {
  const board = document.getElementById("board").getBoundingClientRect();
  const cards = [...document.querySelectorAll("#board [data-card]")]
    .map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0);
  return {top: board.top, bottom: Math.max(...cards.map((r) => r.bottom)),
          left: Math.min(...cards.map((r) => r.left)),
          right: Math.max(...cards.map((r) => r.right)),
          width: innerWidth, height: innerHeight};
}"""

COUNTERS = """() => {
  const box = document.querySelector("#counters .counter-list").getBoundingClientRect();
  let top = null;
  return [...document.querySelectorAll("#counters .counter")].filter((c) => c.checkVisibility())
    .map((c) => {
      const r = c.getBoundingClientRect();
      const starts = top === null || Math.abs(r.top - top) > 2;
      top = r.top;
      return {label: c.firstElementChild.textContent.replace(":", ""), starts,
              separator: r.left >= box.left - 1};  // its "·" inside the box that clips
    });
}"""
"""The counters shown, in order: each one's label, whether it starts a line of the counters,
and whether its separator "·" (drawn before it) is in view."""


CHART_TEXT = """() => {
  const label = document.querySelector("#stats-dialog .chart svg text");
  const cell = document.querySelector("#stats-dialog table.stats td");
  return [label.getBoundingClientRect().height / 1.2,  // a line of SVG text is ~1.2 em high
          parseFloat(getComputedStyle(cell).fontSize)];
}"""
"""The statistics chart's text size as drawn (its rendered height) and the table's, in px."""

ICONS = "#controls button.icon, #counters button.icon"


class Audit:
    """One corner's walk: each :meth:`look` waits for a still page, writes its screenshot
    and keeps what is wrong there."""

    def __init__(self, page: Page, corner: str, theme: str) -> None:
        self.page = page
        self.theme = theme
        self.folder = SHOTS / corner
        self.folder.mkdir(parents=True, exist_ok=True)
        self.problems: list[str] = []

    def look(self, mode: str, panel: str | None = None, scrolls: bool = False) -> None:
        page = still(self.page)
        if panel and panel.endswith("-dialog"):  # issue 22 (2): panels stayed light at night
            light = page.locator(panel).evaluate(LUMINANCE)
            if not ((0 <= light < 0.1) if self.theme == "dark" else light > 0.8):
                self.problems.append(f"{mode}: its background's luminance is {light:.2f} "
                                     f"in the {self.theme} theme")
        page.screenshot(path=str(self.folder / f"{mode}.png"))
        self.problems += [f"{mode}: {p}" for p in page.evaluate(AUDIT, [panel, scrolls])]
        self.problems += [f"{mode}: axe {v}" for v in axe_violations(page, panel)]

    def keyboard(self) -> None:
        """Tab through the page from its top, as a keyboard player would: every icon control
        shown is reached, has an accessible name and shows a tooltip of it while it has the
        focus; and the controls are reached in the order they are on the screen (issue 22
        (6): Tab ran Variant, Hint, More, New deal, then the icons)."""
        page = self.page
        page.evaluate("() => window.scrollTo(0, 0)")
        page.locator("h1").click()  # Tab goes on from where the player last clicked
        tip = page.locator('[role="tooltip"]')
        icons = set(page.evaluate(f"""() => [...document.querySelectorAll("{ICONS}")]
            .filter((e) => e.checkVisibility()).map((e) => e.dataset.action || "menu")"""))
        reached: list[tuple[float, float, str]] = []
        for _ in range(40):
            page.keyboard.press("Tab")
            here = page.evaluate(FOCUSED)
            if here is None or here["board"]:
                break  # the game's controls are behind: the board's cards come next
            reached.append((here["top"], here["left"], here["name"]))
            if here["icon"]:
                icons.discard(here["action"])
                label = here["label"]
                if not label:
                    self.problems.append(f"keyboard: the icon {here['name']} has no name")
                elif not tip.is_visible() or tip.text_content() != label:
                    self.problems.append(f"keyboard: {label!r} has the focus, no tooltip shows")
        for action in sorted(icons):
            self.problems.append(f"keyboard: Tab never reached the icon {action!r}")
        for (top_a, left_a, a), (top_b, left_b, b) in itertools.pairwise(reached):
            if abs(top_a - top_b) < 8 and left_b < left_a:  # one row: left to right
                self.problems.append(f"keyboard: Tab goes from {a} back left to {b}")
            elif top_b < top_a - 8:
                self.problems.append(f"keyboard: Tab goes from {a} back up to {b}")
        page.keyboard.press("Escape")


FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const r = e.getBoundingClientRect();
  return {top: r.top, left: r.left, board: !!e.closest("#board"),
          icon: e.matches("button.icon"), action: e.dataset.action || "menu",
          label: e.getAttribute("aria-label") || e.textContent.trim(),
          name: e.tagName.toLowerCase() + (e.dataset.action ? `[${e.dataset.action}]` : "")
                + (e.id ? "#" + e.id : "")};
}"""
"""Where the keyboard focus is, or ``null`` on the page itself."""


@pytest.mark.long  # handed out first (conftest), as the other long ones
@pytest.mark.own_page  # adds an init script to its page
@pytest.mark.parametrize("width,height,language,theme", CORNERS)
def test_layout_audit(
    page: Page, wait_ready, width: int, height: int, language: str, theme: str
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    settings = json.dumps({"language": language, "theme": theme})
    page.add_init_script(f"localStorage.setItem('nestor.settings', {json.dumps(settings)})")
    audit = Audit(page, f"{width}x{height}-{language}-{theme}", theme)
    deal = winnable_deal_lost_by_first_moves()
    line = losing_line("standard", deal)
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    for move in line[:2]:
        play(page, move)
    audit.look("game")
    board = page.evaluate(BOARD)
    if not (board["top"] >= 0 and board["bottom"] <= height):
        audit.problems.append(f"game: the board is not all on the screen: {board}")
    if board["left"] < 0 or board["right"] > width:
        audit.problems.append(f"game: the board is wider than the screen: {board}")
    if width < height and width <= 600 and board["bottom"] < 0.7 * height:
        audit.problems.append(
            f"game: the board ends at {board['bottom']:.0f} px of {height}: "
            f"{100 - 100 * board['bottom'] / height:.0f}% of the screen is left empty below it")
    for counter in page.evaluate(COUNTERS):  # issue 22 (6): the line ended in a lone "·"
        if counter["separator"] == counter["starts"]:
            audit.problems.append(f"game: the counters line around {counter['label']!r} "
                                  f"{'begins with' if counter['starts'] else 'lacks'} a '·'")
    audit.keyboard()

    page.locator("#controls [data-menu]").click()
    expect(page.locator("#more-menu")).to_have_attribute("data-open", "")
    menu = page.evaluate(  # a wide screen shows only the list as a menu
        "() => getComputedStyle(document.getElementById('more-menu')).display === 'contents'"
        " ? '#more-menu .menu-list' : '#more-menu'")
    audit.look("more-menu", menu)
    page.keyboard.press("Escape")
    expect(page.locator("#more-menu")).not_to_have_attribute("data-open", "")

    for name in ("rules", "settings", "keys", "stats"):
        button = page.locator(f'#controls [data-action="{name}"]')
        if name == "keys" and button.evaluate("b => b.closest('[hidden]') !== null"):
            continue  # not offered (a phone has no keyboard to speak of)
        control(page, name).click()
        dialog = f"#{name}-dialog"
        expect(page.locator(dialog)).to_have_attribute("open", "")
        audit.look(name, dialog)
        if name == "stats":  # issue 22 (4): the chart's labels were twice the table's size
            chart, table = page.evaluate(CHART_TEXT)
            if chart > 1.1 * table:
                audit.problems.append(f"stats: the chart's text is {chart:.1f} px, "
                                      f"the table's {table:.1f} px")
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).not_to_have_attribute("open", "")

    page.locator('#counters [data-action="review"]').click()
    expect(page.locator("#review-dialog .review-summary")).to_be_visible()
    audit.look("review", "#review-dialog")
    # Its summary box kept a light yellow under the dark sheet's light text (axe left it
    # undecided): its own text over its own background, WCAG's contrast ratio.
    ratio = page.locator("#review-dialog .review-summary").evaluate(CONTRAST)
    if ratio < 4.5:
        audit.problems.append(f"review: its summary's contrast is {ratio:.2f}:1")
    page.keyboard.press("Escape")
    expect(page.locator("#review-dialog")).not_to_have_attribute("open", "")

    page.locator('#counters [data-action="copy-link"]').click()
    expect(page.locator("#link-panel")).to_be_visible()
    audit.look("link-box", "#link-panel")
    page.locator('#link-panel [data-action="link-close"]').click()

    for move in line[2:]:
        play(page, move)
    expect(page.locator(END)).to_be_visible()
    audit.look("end-screen", END)
    end, board = page.locator(END).bounding_box(), page.evaluate(BOARD)
    above = end["y"] - max(board["top"], 0)  # the board's height in view above the sheet
    beside = end["x"] - max(board["left"], 0)  # or its width to the left of a side panel
    if above < 0.25 * (board["bottom"] - board["top"]) and beside < 0.4 * (
            board["right"] - board["left"]):
        audit.problems.append(f"end-screen: it hides the board: {end}, the board {board}")
    page.keyboard.press("Escape")

    game = Game("standard", deal)
    for move in line[:5]:
        game.push(move)
    open_game(page, wait_ready, "?" + record_query(Record(game.variant, deal, tuple(game.moves))))
    expect(page.locator("#replay")).to_be_visible()
    page.keyboard.press("ArrowRight")
    audit.look("replay", scrolls=True)
    assert audit.problems == [], (
        f"{len(audit.problems)} layout problems (screenshots in {audit.folder}):\n"
        + "\n".join(audit.problems))

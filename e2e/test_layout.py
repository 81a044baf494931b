"""Issue 22's layout audit: every panel and mode, at six sizes, in both languages and themes,
and at the browser's default font sizes from 12 to 32 px.

For each corner of the matrix (:data:`SIZES` x en/de x light/dark; 320 px wide, and 640x400,
1280x800 at 200% zoom, among them; then :data:`TYPE_SIZES` x :data:`FONTS` x en/de x
light/dark and :data:`TYPE_ZOOMED`, the font size set as a player's browser setting would;
a 1280 px corner in large type also looks at its end screen at 200% zoom) one page walks through
the game with every control of the row offered (Install too), the More menu, each panel (How
to play, Settings with a backup made and its code pasted to restore, Keys where it is offered,
Statistics, the review), the Copy-link box, the end screen of a lost game, a replay and the
guide of the first game. In each it asserts what a player would notice, without comparing
pixels:

- no horizontal overflow of the page or of the panel;
- a panel opens at scroll 0 with its heading in view, inside the viewport, on a background
  of its theme (dark in the dark theme), the review's summary legible on it;
- nothing clipped: each visible control's box inside the viewport and its panel, its text
  not cut (a menu's choice shown whole, a counter whole), each Tab stop inside the window;
- in large type the page may scroll down (a phone holds a dozen letters a line), so there the
  sides are what must hold: the page never wider than the window;
- in the game, the controls and the whole board on the screen, and on a phone in portrait
  the board reaching 85% of the screen's height (issue 22 (6): the cards left 45% of it
  empty; issue 38: 30% at 390x844);
- the board in view above an open end screen;
- axe-core (contrast included) clean;
- every icon control has an accessible name and shows a tooltip while it has the focus.

Beside the walk, :func:`table_problems` measures each variant's fresh deal at the phone,
landscape and tablet sizes of issue 38 (the table's height, the smallest available card, the
covered cards' strips, scrolling); ``make test`` runs it in English and light, ``make
test-slow`` in the other three languages and themes.

A mode with a problem leaves its screenshot in
``build/layout-audit/<width>x<height>-<language>-<theme>/``; with ``NESTOR_LAYOUT_SHOTS=1`` in
the environment every mode does (for a look at them all).
``make test`` runs two corners (390x844 German dark; 1280x800 German light in 32 px type,
its end screen looked at again at 200% zoom, 640x400); ``make test-slow`` runs them all.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest
from conftest import axe_violations, control, still
from helpers import (
    CONTRAST,
    COUNTERS,
    END,
    LUMINANCE,
    open_game,
    play,
    winnable_deal_lost_by_first_moves,
)
from lines import losing_line
from playwright.sync_api import Page, expect

from nestor import Game, Record
from nestor.link import record_query

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "layout-audit"
EVERY_SHOT = os.environ.get("NESTOR_LAYOUT_SHOTS") == "1"
"""Whether each mode's screenshot is written, not only those of modes with a problem."""

SIZES = ((320, 568), (360, 640), (390, 844), (640, 400), (844, 390), (1280, 800))
FAST = {(390, 844, "de", "dark")}
"""The corners ``make test`` runs; the others are marked slow."""

TYPE_SIZES = ((360, 640), (390, 844), (1280, 800))
FONTS = (12, 20, 24, 28, 32)
"""Browsers' default font sizes a player may choose (16 px is the browser's own, above)."""
TYPE_FAST = {(1280, 800, "de", "light", 32)}
"""The large-type corners ``make test`` runs; the others are marked slow."""

TYPE_ZOOMED = [(640, 400, language, "light", font)
               for font in (24, 32) for language in ("en", "de")]
TYPE_ZOOMED += [(320, 568, language, "dark", 32) for language in ("en", "de")]
"""Large type at 200% zoom (1280x800 as 640x400) and on the narrowest phone: the end
screen's side panel and the replay's heading have the least room for their words there."""

TYPE_CORNERS = [
    pytest.param(w, h, language, theme, font, id=f"{w}x{h}-{language}-{theme}-{font}px",
                 marks=() if (w, h, language, theme, font) in TYPE_FAST else pytest.mark.slow)
    for (w, h, language, theme, font) in [
        (w, h, language, theme, font) for font in FONTS for (w, h) in TYPE_SIZES
        for language in ("en", "de") for theme in ("light", "dark")] + TYPE_ZOOMED
]

OFFER_INSTALL = """() => window.dispatchEvent(Object.assign(
  new Event("beforeinstallprompt", {cancelable: true}), {prompt: () => Promise.resolve()}))"""
"""Chromium offering to install the game (static/js/install.js shows its control then)."""

CORNERS = [
    pytest.param(w, h, language, theme, id=f"{w}x{h}-{language}-{theme}",
                 marks=() if (w, h, language, theme) in FAST else pytest.mark.slow)
    for (w, h) in SIZES for language in ("en", "de") for theme in ("light", "dark")
]

AUDIT = r"""([panel, scrolls, large]) => {
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
    if (box.left < -1 || box.right > vw + 1 || (!scrolls && (box.top < -1 || box.bottom > vh + 1)))
      out.push(`${panel} is not inside the viewport: ${JSON.stringify(box)}`);
    if (!scrolls && scope.scrollTop !== 0)
      out.push(`${panel} opened at scroll ${scope.scrollTop}`);
    const heading = scope.querySelector("h1, h2");
    if (heading && !scrolls) {
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
    if (c.tagName === "SELECT" && c.selectedIndex >= 0) {  // its choice shown whole
      const style = getComputedStyle(c);
      const pen = document.createElement("canvas").getContext("2d");
      pen.font = style.font;
      const text = pen.measureText(c.options[c.selectedIndex].text).width;
      const room = c.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (text > room + 1)
        out.push(`${name(c)}: its choice is cut (${Math.round(text)} > ${Math.round(room)} px)`);
    }
  }
  for (const e of scope.querySelectorAll("caption, h1, h2, h3, label, legend, th, dt, button")) {
    const words = (e.textContent || "").trim().split(/\s+/).filter(Boolean).length;
    if (words < 3 || !e.checkVisibility() || clipped(e)) continue;
    // Its words' lines: the boxes of its text alone (an icon, a field or a key's frame
    // beside the words starts no line), a line per top more than half a box below the last.
    const boxes = [];
    const texts = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let t = texts.nextNode(); t; t = texts.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(t);
      boxes.push(...[...range.getClientRects()].filter((r) => r.width > 1));
    }
    boxes.sort((a, b) => a.top - b.top);
    let lines = 0, last = -Infinity;
    for (const r of boxes) if (r.top > last + r.height / 2) { lines += 1; last = r.top; }
    // In large type a phone's line holds a dozen letters: a long word fills it (German's
    // at 32 px). Then only a squeezed one counts, narrower than the room around it.
    const around = e.parentElement.clientWidth;
    if (lines >= words && (!large || e.getBoundingClientRect().width < 0.75 * around))
      out.push(`${name(e)} wraps one word a line`);
  }
  return out;
}"""
"""What a player would see wrong in the still page, one line each; ``panel`` is the
selector of the panel open (``null`` for the game itself), ``scrolls`` whether the page may
scroll down (the replay's list of moves; the game and the More menu in large type: then only
the sides are checked), or the panel has been scrolled (its heading may be out of view);
``large`` whether the type is larger than the browser's own 16 px."""

BOARD = """() => {
  const board = document.getElementById("board").getBoundingClientRect();
  const cards = [...document.querySelectorAll("#board [data-card]")]
    .map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0);
  return {top: board.top, bottom: Math.max(...cards.map((r) => r.bottom)),
          left: Math.min(...cards.map((r) => r.left)),
          right: Math.max(...cards.map((r) => r.right)),
          width: innerWidth, height: innerHeight};
}"""

"""The counters shown, in order: each one's label, whether it starts a line of the counters,
whether its separator "·" (drawn before it) is in view, and whether its end is cut off."""


CHART_TEXT = """() => {
  const label = document.querySelector("#stats-dialog .chart svg text");
  const cell = document.querySelector("#stats-dialog table.stats td");
  return [label.getBoundingClientRect().height / 1.2,  // a line of SVG text is ~1.2 em high
          parseFloat(getComputedStyle(cell).fontSize)];
}"""
"""The statistics chart's text size as drawn (its rendered height) and the table's, in px."""

ICONS = "#controls button.icon, #counters button.icon"


class Audit:
    """One corner's walk: each :meth:`look` waits for a still page, keeps what is wrong
    there and writes its screenshot if anything is (every one with :data:`EVERY_SHOT`)."""

    def __init__(self, page: Page, corner: str, theme: str, font: int) -> None:
        self.page = page
        self.theme = theme
        self.large = font > 16
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
        before = len(self.problems)
        self.problems += [f"{mode}: {p}"
                          for p in page.evaluate(AUDIT, [panel, scrolls, self.large])]
        self.problems += [f"{mode}: axe {v}" for v in axe_violations(page, panel)]
        if EVERY_SHOT or len(self.problems) > before:
            page.screenshot(path=str(self.folder / f"{mode}.png"))

    def keyboard(self) -> None:
        """Tab through the page from its top, as a keyboard player would: every icon control
        shown is reached, has an accessible name and shows a tooltip of it while it has the
        focus; and the controls are reached in the order they stand on the page, a tall page
        scrolled down as Tab goes (issue 22 (6): Tab ran Variant, Hint, More, New deal, then
        the icons)."""
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
            # The page's own places: Tab scrolls a tall page to the control it reaches.
            reached.append((here["top"] + here["down"], here["left"], here["name"]))
            if here["left"] < -1 or here["right"] > here["width"] + 1 or here["scrolled"]:
                self.problems.append(
                    f"keyboard: the Tab stop {here['name']} is outside the window "
                    f"({here['left']:.0f}..{here['right']:.0f} of {here['width']} px, "
                    f"the page scrolled {here['scrolled']} px sideways)")
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
  return {top: r.top, left: r.left, right: r.right, width: document.documentElement.clientWidth,
          scrolled: window.scrollX, down: window.scrollY, board: !!e.closest("#board"),
          icon: e.matches("button.icon"), action: e.dataset.action || "menu",
          label: e.getAttribute("aria-label") || e.textContent.trim(),
          name: e.tagName.toLowerCase() + (e.dataset.action ? `[${e.dataset.action}]` : "")
                + (e.id ? "#" + e.id : "")};
}"""
"""Where the keyboard focus is, or ``null`` on the page itself."""


TABLE = r"""() => {
  const box = (e) => e.getBoundingClientRect();
  const cards = [...document.querySelectorAll("#board .card")].filter((c) => box(c).width > 0);
  const size = (list) => list.length ? Math.min(...list.map((c) => Math.min(box(c).width,
                                                                           box(c).height))) : null;
  const faces = (c) => [...c.querySelectorAll(".pip, .court-panel")]
    .filter((f) => f.checkVisibility({visibilityProperty: true}));
  const cut = [];
  // Each covered card: its strip (its part left of the card on it) shows its whole index and
  // nothing of its face; the card on top of a column shows its face whole.
  const strips = (list, across) => list.forEach((c, i) => {
    const r = box(c), next = list[i + 1] ? box(list[i + 1]) : null;
    const corner = box(c.querySelector(".corner"));
    if (corner.right > r.right + 0.5) cut.push(`${c.dataset.card}: its index is cut by its edge`);
    if (!next) {
      if (c.closest(".column") && faces(c).length === 0)
        cut.push(`${c.dataset.card}: the top card shows no face`);
      return;
    }
    const end = across ? next.left : next.top;
    if ((across ? corner.right : corner.bottom) > end + 0.5)
      cut.push(`${c.dataset.card}: its index is cut by the card on it`);
    for (const f of faces(c))
      if ((across ? box(f).left : box(f).top) < end - 0.5)
        cut.push(`${c.dataset.card}: a piece of its ${f.className} shows`);
  });
  document.querySelectorAll("#board .column").forEach(
    (col) => strips([...col.querySelectorAll(":scope > .card")], false));
  document.querySelectorAll("#board .reserve.overlapping .reserve-cards").forEach(
    (row) => strips([...row.querySelectorAll(":scope > .card")], true));
  const available = cards.filter((c) => c.matches("[data-available], [data-action=turn]"));
  const scroller = document.scrollingElement;
  return {bottom: Math.max(...cards.map((c) => box(c).bottom)), height: innerHeight,
          smallest: size(available),
          tableau: size(cards.filter((c) => c.closest(".column"))),
          reserve: size(cards.filter((c) => c.closest(".reserve"))),
          scrolls: scroller.scrollHeight > innerHeight || scroller.scrollWidth > innerWidth,
          cut};
}"""
"""A fresh deal's table as the player sees it: its lowest card's bottom, the smallest side of
the smallest available card (the stock pile counts), of the tableau's and of the reserve's
cards, whether the page scrolls, and each strip of a covered card that shows a cut piece of a
face or a cut index."""

PORTRAIT = ((390, 844), (360, 640))
"""Phones held upright, where the table fills the screen (issue 38's done-when sizes)."""
WHOLE = ((844, 390), (640, 360), (768, 1024), (1024, 768))
"""Phones held sideways and tablets, where the whole table is on the screen."""
TABLE_VARIANTS = ("standard", "vertical", "doublets", "strict", "overlapping")
FILLS = {"standard", "vertical", "doublets"}
"""The variants whose table reaches 85% of a phone's height (Strict's stock is one card)."""


def table_problems(page: Page, language: str, theme: str) -> list[str]:
    """Each variant's fresh deal (English or German, light or dark) measured at every size of
    :data:`PORTRAIT` and :data:`WHOLE`, the window resized under the same page; what a player
    would see wrong, one line each."""
    settings = json.dumps({"language": language, "theme": theme})
    page.add_init_script(f"localStorage.setItem('nestor.settings', {json.dumps(settings)})")
    problems = []
    for variant in TABLE_VARIANTS:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"/?variant={variant}&deal=7")
        page.wait_for_selector("body[data-ready]", state="attached")
        for width, height in PORTRAIT + WHOLE:
            page.set_viewport_size({"width": width, "height": height})
            table = still(page).evaluate(TABLE)
            where = f"{variant} at {width}x{height}"
            problems += [f"{where}: {cut}" for cut in table["cut"]]
            if table["scrolls"]:
                problems.append(f"{where}: the page scrolls (the table ends at "
                                f"{table['bottom']:.0f} px of {height})")
            if (width, height) not in PORTRAIT:
                continue
            if variant in FILLS and table["bottom"] < 0.85 * height:
                problems.append(f"{where}: the table ends at {table['bottom']:.0f} px, "
                                f"{100 * table['bottom'] / height:.0f}% of the height")
            if table["smallest"] < 44:
                problems.append(f"{where}: an available card is {table['smallest']:.1f} px")
            if table["reserve"] is not None and table["reserve"] < table["tableau"] - 0.5:
                problems.append(f"{where}: the reserve's cards ({table['reserve']:.1f} px) are "
                                f"smaller than the tableau's ({table['tableau']:.1f} px)")
    return problems


@pytest.mark.own_page  # adds an init script to its page
def test_a_phone_table_fills_the_screen_and_every_card_reads_and_is_easy_to_hit(
    page: Page
) -> None:
    """Issue 38 in English and the light theme: on a phone held upright each fresh table
    reaches 85% of the height, every available card at least 44 x 44 px, the reserve's no
    smaller than the tableau's; no covered card shows a cut piece of a face; sideways and on
    a tablet the page does not scroll."""
    problems = table_problems(page, "en", "light")
    assert problems == [], "\n".join(problems)


CHANGES = """() => {
  for (let i = 0; i < 10; i++) {
    document.getElementById("status").textContent = `Tap two cards ${i}`;
    document.body.offsetHeight; // laid out at once, each one
  }
}"""
"""Changes the status line's words ten times, the page laid out after each."""


@pytest.mark.own_page  # sets its page's size and default font size
def test_a_phone_lays_its_board_out_once_when_a_text_above_it_changes(
    page: Page, wait_ready
) -> None:
    """On a phone held upright at the default type the page's main part takes the rest of the
    screen unmeasured: a change of the words above the board resolves the page's styles once,
    where a board measured first was laid out at its least height and then at its own, its
    cards' styles resolved at each (three times per change). In large type it is measured, so
    that the page grows with what it holds."""
    page.set_viewport_size({"width": 412, "height": 823})
    page.goto("/?variant=standard&deal=7")
    wait_ready(page)
    still(page)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")

    def recalcs() -> float:
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "RecalcStyleCount")

    before = recalcs()
    page.evaluate(CHANGES)
    # Ten, and a tick of the clock or two between the readings.
    assert recalcs() - before <= 13
    main = """() => { const s = getComputedStyle(document.querySelector("main"));
                      return [s.flexBasis, s.minHeight]; }"""
    assert page.evaluate(main) == ["0px", "0px"]

    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 29}})
    page.reload()
    wait_ready(page)
    assert page.evaluate(main) == ["auto", "auto"]


@pytest.mark.slow  # make test-slow: the other languages and themes of the table's check
@pytest.mark.own_page  # adds an init script to its page
@pytest.mark.parametrize("language,theme", [("de", "dark"), ("en", "dark"), ("de", "light")])
def test_the_phone_table_in_every_language_and_theme(
    page: Page, language: str, theme: str
) -> None:
    problems = table_problems(page, language, theme)
    assert problems == [], "\n".join(problems)


@pytest.mark.long  # handed out first (conftest), as the other long ones
@pytest.mark.own_page  # adds an init script to its page
@pytest.mark.parametrize("width,height,language,theme", CORNERS)
def test_layout_audit(
    page: Page, wait_ready, width: int, height: int, language: str, theme: str
) -> None:
    walk(page, wait_ready, width, height, language, theme)


@pytest.mark.long  # handed out first (conftest), as the other long ones
@pytest.mark.own_page  # sets its page's default font size and adds an init script to it
@pytest.mark.parametrize("width,height,language,theme,font", TYPE_CORNERS)
def test_layout_audit_at_large_and_small_type(
    page: Page, wait_ready, width: int, height: int, language: str, theme: str, font: int
) -> None:
    """The walk with the browser's default font size set to ``font`` px (a player's setting
    for larger type; 16 is the browser's own): every control stays within the window."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font, "fixed": font - 3}})
        walk(page, wait_ready, width, height, language, theme, font)
    finally:
        cdp.detach()


def walk(page: Page, wait_ready, width: int, height: int, language: str, theme: str,
         font: int = 16) -> None:
    """One corner's audit: the game, every panel and mode in turn, its problems asserted
    none at the end."""
    page.set_viewport_size({"width": width, "height": height})
    settings = json.dumps({"language": language, "theme": theme})
    page.add_init_script(f"localStorage.setItem('nestor.settings', {json.dumps(settings)})")
    corner = f"{width}x{height}-{language}-{theme}" + ("" if font == 16 else f"-{font}px")
    audit = Audit(page, corner, theme, font)
    deal = winnable_deal_lost_by_first_moves()
    line = losing_line("standard", deal)
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    size = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    assert size == f"{font}px", f"the page's default font size is {size}, not {font}px"
    page.evaluate(OFFER_INSTALL)  # the widest row: the Install control shown too
    for move in line[:2]:
        play(page, move)
    tall = font > 16  # the page may scroll down: the sides are what must hold
    audit.look("game", scrolls=tall)
    board = page.evaluate(BOARD)
    if not tall and not (board["top"] >= 0 and board["bottom"] <= height):
        audit.problems.append(f"game: the board is not all on the screen: {board}")
    if board["left"] < 0 or board["right"] > width:
        audit.problems.append(f"game: the board is wider than the screen: {board}")
    # (Smaller type leaves more height than the columns' cards, as wide as the screen
    # allows, can spread down: then the check does not hold.)
    if font == 16 and width < height and width <= 600 and board["bottom"] < 0.85 * height:
        audit.problems.append(
            f"game: the board ends at {board['bottom']:.0f} px of {height}: "
            f"{100 - 100 * board['bottom'] / height:.0f}% of the screen is left empty below it")
    for counter in page.evaluate(COUNTERS):  # issue 22 (6): the line ended in a lone "·"
        if counter["separator"] == counter["starts"]:
            audit.problems.append(f"game: the counters line around {counter['label']!r} "
                                  f"{'begins with' if counter['starts'] else 'lacks'} a '·'")
        if counter["cut"]:
            audit.problems.append(f"game: the counter {counter['label']!r} is cut off")
    audit.keyboard()

    page.locator("#controls [data-menu]").click()
    expect(page.locator("#more-menu")).to_have_attribute("data-open", "")
    menu = page.evaluate(  # a wide screen shows only the list as a menu
        "() => getComputedStyle(document.getElementById('more-menu')).display === 'contents'"
        " ? '#more-menu .menu-list' : '#more-menu'")
    audit.look("more-menu", menu, scrolls=tall)
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
        if name == "settings":  # its progress: a backup made, a code pasted to restore
            with page.expect_download():
                page.locator(f'{dialog} [data-action="backup"]').click()
            code = page.locator("[data-backup-code]")
            expect(code).to_be_visible()
            page.locator(f'{dialog} [data-action="restore"]').click()
            page.locator("[data-restore-code]").fill(code.input_value())
            expect(page.locator("[data-restore-summary]")).to_be_visible()
            audit.look("backup", dialog, scrolls=True)
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
    # (Not in large type, nor on a phone 568 px tall: the sheet's half of the screen leaves
    # less than a quarter of the board in view above it there.)
    if not tall and height >= 600 and above < 0.25 * (board["bottom"] - board["top"]) and (
            beside < 0.4 * (board["right"] - board["left"])):
        audit.problems.append(f"end-screen: it hides the board: {end}, the board {board}")
    if tall and width >= 1280:  # the same window at 200% zoom: half as many px each way
        page.set_viewport_size({"width": width // 2, "height": height // 2})
        audit.look("end-screen-zoomed", END)
        page.set_viewport_size({"width": width, "height": height})
    page.keyboard.press("Escape")

    game = Game("standard", deal)
    for move in line[:5]:
        game.push(move)
    open_game(page, wait_ready, "?" + record_query(Record(game.variant, deal, tuple(game.moves))))
    expect(page.locator("#replay")).to_be_visible()
    page.keyboard.press("ArrowRight")
    audit.look("replay", scrolls=True)

    open_game(page, wait_ready)  # the lost game again; How to play's guide from there
    if page.locator(END).is_visible():
        page.keyboard.press("Escape")
        expect(page.locator(END)).to_be_hidden()
    control(page, "rules").click()
    page.locator('#rules-dialog [data-action="tutorial"]').click()
    expect(page.locator("#tutorial[data-tutorial]")).to_be_visible()
    audit.look("guide", "#tutorial")
    assert audit.problems == [], (
        f"{len(audit.problems)} layout problems (screenshots in {audit.folder}):\n"
        + "\n".join(audit.problems))

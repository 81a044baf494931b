"""What the browser tests do on the game's page, as a player does it, and what they read of it.

Fixtures and the test server live in conftest.py; the winning and losing lines in lines.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, axe_violations, control, saves_done
from playwright.sync_api import BrowserContext, Page, Route, expect

from nestor import Game, Move, Pair, TurnStock
from nestor.solver import Status, solve
from nestor_web.storage.progress import read_progress

END = "[data-end-screen]"
CORE = "**/static/vendor/pyscript/core.js"  # PyScript's entry: held back, Python waits

LUMINANCE = """d => {
    const colour = getComputedStyle(d).backgroundColor;
    if (!colour.startsWith("rgb(")) return -1;  // not an opaque sRGB colour
    const [r, g, b] = colour.match(/[0-9.]+/g).map(Number);
    const lin = (c) => {
        c /= 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}"""
"""An element's background's relative luminance (WCAG), -1 if it is not opaque."""

CONTRAST = """e => {
    const lum = (colour) => {
        const [r, g, b] = colour.match(/[0-9.]+/g).map(Number).map((c) => {
            c /= 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(e);
    const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
}"""
"""The contrast ratio (WCAG) of an element's text colour on its background colour."""

COUNTERS = """() => {
  const box = document.querySelector("#counters .counter-list").getBoundingClientRect();
  let top = null;
  return [...document.querySelectorAll("#counters .counter")].filter((c) => c.checkVisibility())
    .map((c) => {
      const r = c.getBoundingClientRect();
      const starts = top === null || Math.abs(r.top - top) > 2;
      top = r.top;
      return {label: c.firstElementChild.textContent.replace(":", ""), starts,
              separator: r.left >= box.left - 1,  // its "·" inside the box that clips
              cut: r.right > box.right + 1};
    });
}"""
"""The counters shown: each one's label, whether it starts a line, whether its separator is
inside the row's box and whether it is cut."""


# ---- waiting ---------------------------------------------------------------------------


NEXT_FRAME = """(after) => new Promise(done => {
    const bound = setTimeout(done, 2000);
    requestAnimationFrame(() => { clearTimeout(bound); setTimeout(done, after); });
})"""


def next_frame(page: Page, after_ms: int = 0) -> None:
    """Wait for the page's next frame, then ``after_ms`` more (a task queued after the frame).

    Bounded: a page that draws no frame (hidden, or its renderer stalled) lets the test go on
    after 2 s rather than hold its worker until the run's time limit.
    """
    page.evaluate(NEXT_FRAME, after_ms)


# ---- opening the game ------------------------------------------------------------------


def open_game(page: Page, wait_ready, query: str = "") -> Page:
    page.goto("/" + query)
    return wait_ready(page)


def open_tab(context: BrowserContext, wait_ready, query: str) -> Page:
    page = context.new_page()
    page.goto("/" + query)
    return wait_ready(page)


def hold_pyscript(page: Page) -> list[Route]:
    """Hold PyScript's requests back (Python does not start); the held routes."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(CORE, hold)
    return held


def let_go(page: Page, held: list[Route]) -> None:
    """Let the requests :func:`hold_pyscript` held go on."""
    for route in held:
        route.continue_()
    page.unroute(CORE)


# ---- playing -----------------------------------------------------------------------------


def play(page: Page, move: Move) -> None:
    """Play ``move`` by taps: its two cards, or the stock button."""
    if isinstance(move, TurnStock):
        page.click('#controls [data-action="turn"]')
        return
    assert isinstance(move, Pair)
    for card in move.cards:
        page.click(f'[data-card="{card}"][data-available]')


def play_in_front(page: Page, move: Move) -> None:
    """Play ``move`` in the tab ``page``, brought to the front first (the player looks at it:
    a tab behind draws no frames)."""
    page.bring_to_front()
    play(page, move)


def play_pairs(page: Page, game: Game, count: int = 1) -> None:
    """Tap the first legal pair ``count`` times, each also pushed on ``game``; the page shows
    the cards left after each."""
    for _ in range(count):
        move = next(m for m in game.legal_moves() if isinstance(m, Pair))
        for card in move.cards:
            page.click(f'[data-card="{card}"][data-available]')
        game.push(move)
        expect(page.locator("#cards-left")).to_have_text(str(game.position.cards_left()))


def centre(page: Page, card: str) -> tuple[float, float]:
    box = page.locator(f'#board [data-card="{card}"]').bounding_box()
    assert box is not None, card
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page: Page, card: str, to: tuple[float, float], steps: int = 8) -> None:
    """Press the mouse on ``card`` and move it to ``to``, the button still down."""
    x, y = centre(page, card)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(to[0], to[1], steps=steps)


def winnable_deal_lost_by_first_moves() -> int:
    """A standard deal the solver proves winnable that the first legal moves lose."""
    for deal in range(50):
        game = Game("standard", deal)
        while game.outcome() is None:
            game.push(game.legal_moves()[0])
        if not game.outcome().won and solve(  # type: ignore[union-attr]
            Game("standard", deal).start, known_order=False
        ).status is Status.WINNABLE:
            return deal
    raise AssertionError("no such deal")


def cli_grade(variant: str, deal: int) -> str:
    """The grade ``python -m nestor grade --json`` gives the deal."""
    out = subprocess.run(
        [sys.executable, "-m", "nestor", "grade", "--variant", variant, "--deal", str(deal),
         "--json"],
        cwd=ROOT, check=True, capture_output=True, text=True, timeout=120,
    ).stdout
    return str(json.loads(out)["grade"])


# ---- reading the page ----------------------------------------------------------------------


def cards_on_page(page: Page) -> list[str]:
    return page.locator("#board [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def shown_codes(game: Game) -> list[str]:
    """The cards ``game`` shows, in the page's order: the columns', then the reserve's."""
    pos = game.position
    return [c for col in pos.columns for c in col] + list(pos.reserve)


def no_violations(page: Page, state: str) -> None:
    """axe finds nothing on the page, once it is still; ``state`` names it in the failure."""
    found = axe_violations(page)
    assert found == [], f"axe, {state}:\n" + "\n".join(found)


# ---- backup and restore --------------------------------------------------------------------


def open_restore(page: Page) -> None:
    if not page.locator("#settings-dialog").evaluate("d => d.open"):
        control(page, "settings").click()
    if page.locator("#restore-box").is_hidden():
        page.locator('[data-action="restore"]').click()
    expect(page.locator("[data-restore-code]")).to_be_visible()


def back_up(page: Page) -> tuple[str, str]:
    """Back up from Settings: the file downloaded (its name and text) and the code shown."""
    control(page, "settings").click()
    with page.expect_download() as caught:
        page.locator('[data-action="backup"]').click()
    download = caught.value
    text = Path(download.path()).read_text()
    expect(page.locator("[data-backup-code]")).to_be_visible()
    code = page.locator("[data-backup-code]").input_value()
    assert code.startswith("NESTOR1:")
    assert read_progress(code).parts.stats.summary("doublets") == read_progress(
        text).parts.stats.summary("doublets")
    page.keyboard.press("Escape")
    return download.suggested_filename, text


def restore_file(page: Page, name: str, text: str, mode: str) -> str:
    """Restore ``text`` as a picked file, ``mode`` "merge" or "replace"; what it said it
    brings."""
    open_restore(page)
    page.locator("[data-restore-file]").set_input_files(
        {"name": name, "mimeType": "application/json", "buffer": text.encode()})
    summary = page.locator("[data-restore-summary]")
    expect(summary).to_be_visible()
    brings = page.locator("#restore-brings").inner_text()
    page.locator(f'[data-action="restore-{mode}"]').click()
    expect(page.locator("#restore-done")).to_be_visible()
    saves_done(page)
    return brings


def deploy(site_copy, build: int) -> None:
    """A new version: main.py marks the page with its build number; sw.js is rebuilt."""
    main = site_copy.root / "main.py"
    text = re.sub(r"\n# deployed build .*", "", main.read_text())
    main.write_text(
        text + f"\n# deployed build {build}\n"
        "from js import document  # noqa: E402\n"
        f'document.body.setAttribute("data-build", "{build}")\n'
    )
    site_copy.rebuild_sw()


IN_REACH = """(selector) => [...document.querySelectorAll(selector)].map((element) => {
  const box = element.getBoundingClientRect();
  const x = (box.left + box.right) / 2, y = (box.top + box.bottom) / 2;
  const hit = document.elementFromPoint(x, y);
  return hit !== null && element.contains(hit) ? [x, y] : null;
})"""
"""Where a tap reaches each element the selector finds, as the page lies: its centre, if that
is in the window and nothing (a sheet) lies over it; else null."""

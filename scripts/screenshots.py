#!/usr/bin/env python3
"""Take the screenshots of the README and docs/: a game in progress at phone and desktop
size, a drag, a replay and the daily deal.

Usage: .venv/bin/python scripts/screenshots.py [--out docs] [--variant standard --deal 7]
       [--daily 2026-12-01]

Serves the site on 127.0.0.1 with scripts/serve.py, opens it in Debian's chromium
(offline: every other host is unresolvable), plays a few pairs with the engine's
legal moves and writes ``screenshot-phone.png`` (390x844, dark theme) and
``screenshot-desktop.png`` (1280x800); then ``screenshot-drag-phone.png`` (390x844: the
same game, a card dragged half-way to its partner, held there), ``screenshot-replay-phone.png``
(390x844: the replay link of those moves, stepped to the third) and
``screenshot-daily-desktop.png`` (1280x800: the daily deal of ``--daily``, a few pairs played).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
from playwright.sync_api import Page, ViewportSize, sync_playwright  # noqa: E402
from serve import serve_in_thread  # noqa: E402

from nestor import Game, Pair  # noqa: E402
from nestor.daily import daily_deal, parse_date  # noqa: E402
from nestor.link import encode_moves  # noqa: E402

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def main() -> int:
    """Write the screenshots; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--deal", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--daily", default="2026-12-01", help="the daily deal's date")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    game = Game(args.variant, args.deal)
    for _ in range(args.pairs):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[0])
    selectable = next(iter(game.position.available()), None)
    server, origin = serve_in_thread(ROOT, quiet=True)
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium)
            for name, (width, height) in SIZES.items():
                # The phone at night (its dark theme, as the system asks), the desktop by day.
                page = browser.new_page(viewport={"width": width, "height": height},
                                        reduced_motion="reduce",
                                        color_scheme="dark" if name == "phone" else "light")
                page.goto(f"{origin}/?variant={args.variant}&deal={args.deal}")
                page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
                for move in game.moves:
                    assert isinstance(move, Pair)
                    for card in move.cards:
                        page.click(f'[data-card="{card}"][data-available]')
                if selectable:
                    page.click(f'[data-card="{selectable}"]')
                path = args.out / f"screenshot-{name}.png"
                page.screenshot(path=str(path))
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                print(f"wrote {shown} ({width}x{height})")
                page.close()
            phone: ViewportSize = {"width": 390, "height": 844}
            page = browser.new_page(viewport=phone, reduced_motion="reduce")
            page.goto(f"{origin}/?variant={args.variant}&deal={args.deal}")
            page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
            play(page, game)
            drag_half_way(page, game)
            write(page, args.out / "screenshot-drag-phone.png")
            page.mouse.up()
            page.close()
            page = browser.new_page(viewport=phone, reduced_motion="reduce")
            code = encode_moves(game.moves)
            page.goto(f"{origin}/?variant={args.variant}&deal={args.deal}&moves={code}")
            page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
            for _ in range(3):
                page.click('[data-replay-command="next"]')
            write(page, args.out / "screenshot-replay-phone.png")
            page.close()
            page = browser.new_page(viewport={"width": 1280, "height": 800},
                                    reduced_motion="reduce")
            page.goto(f"{origin}/?daily={args.daily}")
            page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
            variant, deal = daily_deal(parse_date(args.daily))
            daily = Game(variant, deal)
            for _ in range(3):
                legal = [m for m in daily.legal_moves() if isinstance(m, Pair)]
                if not legal:
                    break
                daily.push(legal[0])
            play(page, daily)
            write(page, args.out / "screenshot-daily-desktop.png")
            page.close()
            browser.close()
    finally:
        server.shutdown()
    return 0


def play(page: Page, game: Game) -> None:
    """Tap the pairs of ``game``'s moves on ``page``."""
    for move in game.moves:
        assert isinstance(move, Pair)
        for card in move.cards:
            page.click(f'[data-card="{card}"][data-available]')


def drag_half_way(page: Page, game: Game) -> None:
    """Press the mouse on an available card with a partner and move it half-way there (the
    button stays down: the card is in flight, ``data-dragging``)."""
    move = next(m for m in game.legal_moves() if isinstance(m, Pair))
    start = page.locator(f'[data-card="{move.cards[0]}"]').bounding_box()
    end = page.locator(f'[data-card="{move.cards[1]}"]').bounding_box()
    assert start and end
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=12)
    page.wait_for_selector("[data-dragging]")


def write(page: Page, path: Path) -> None:
    """Screenshot ``page`` to ``path`` and say so."""
    page.screenshot(path=str(path))
    size = page.viewport_size or {"width": 0, "height": 0}
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"wrote {shown} ({size['width']}x{size['height']})")


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Take the README's screenshots: a game in progress at phone and desktop size.

Usage: .venv/bin/python scripts/screenshots.py [--out docs] [--variant standard --deal 7]

Serves the site on 127.0.0.1 with scripts/serve.py, opens it in Debian's chromium
(offline: every other host is unresolvable), plays a few pairs with the engine's
legal moves and writes ``screenshot-phone.png`` (390x844) and
``screenshot-desktop.png`` (1280x800).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from serve import serve_in_thread  # noqa: E402

from nestor import Game, Pair  # noqa: E402

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def main() -> int:
    """Write the screenshots; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--deal", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=5)
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
                page = browser.new_page(viewport={"width": width, "height": height},
                                        reduced_motion="reduce")
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
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

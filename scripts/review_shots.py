#!/usr/bin/env python3
"""Take the screenshots of a review (docs/review.md): a lost game reviewed, phone and desktop.

Usage: .venv/bin/python scripts/review_shots.py [--out docs] [--variant standard --deal 1]

Serves the site on 127.0.0.1 with scripts/serve.py, opens it in Debian's chromium (offline),
loses the deal by always taking the first legal move (``e2e/lines.py``'s losing line),
opens the review and waits until it is worked out, and writes
``screenshot-review-<size>.png`` for each size asked (default: phone 390x844 and desktop
1280x800; ``--sizes 360x640`` and so on for others).
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

from nestor import Game, Outcome, Pair  # noqa: E402

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def losing_line(variant: str, deal: int) -> Game:
    """The game of ``deal`` played by always taking the first legal move (it must lose)."""
    game = Game(variant, deal)
    while game.outcome() is None:
        game.push(game.legal_moves()[0])
    assert game.outcome() is not Outcome.WON, "this line wins; pick another deal"
    return game


def main() -> int:
    """Write the screenshots; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--deal", type=int, default=1)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--sizes", nargs="*", default=None,
                        help="WxH sizes (named by the size); default: phone and desktop")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    sizes = SIZES if not args.sizes else {
        s: tuple(int(v) for v in s.split("x")) for s in args.sizes
    }
    game = losing_line(args.variant, args.deal)
    server, origin = serve_in_thread(ROOT, quiet=True)
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium)
            for name, (width, height) in sizes.items():
                page = browser.new_page(viewport={"width": width, "height": height},
                                        reduced_motion="reduce", locale=args.lang)
                page.goto(f"{origin}/?variant={args.variant}&deal={args.deal}")
                page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
                for move in game.moves:
                    if isinstance(move, Pair):
                        for card in move.cards:
                            page.click(f'#board [data-card="{card}"][data-available]')
                    else:
                        page.click('#board [data-action="turn"]')
                page.click('[data-action="review"]')
                page.wait_for_selector(
                    '#review-body .review-progress[data-done="true"]', timeout=60_000
                )
                page.wait_for_timeout(300)
                path = args.out / f"screenshot-review-{name}.png"
                page.screenshot(path=str(path))
                print(f"wrote {path}")
                page.close()
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())

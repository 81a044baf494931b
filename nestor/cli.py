"""The command line: ``python -m nestor COMMAND ...``.

Commands:
    deal      print the rectified layout of a deal (as text or JSON)
    replay    replay a game record and print the position it reaches
    variants  list the variants and their layouts

Exit status: 0 on success, 2 on bad input (the error goes to stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .cards import rank_label
from .deal import MAX_DEAL, SHUFFLE_VERSION, check_deal_number, deal_position
from .errors import NestorError
from .game import Record
from .position import Position
from .variants import VARIANTS, get_variant


def _deal_number(text: str) -> int:
    try:
        return check_deal_number(text)
    except NestorError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _variant_name(text: str) -> str:
    try:
        return get_variant(text).name
    except NestorError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def format_layout(position: Position) -> str:
    """Return a position as a small text picture: columns side by side, then reserve/stock."""
    def show(card: str) -> str:
        return f"{rank_label(card)}{card[1]}".rjust(3)

    depth = max((len(c) for c in position.columns), default=0)
    lines = [f"{position.variant.title}"]
    lines.append(" ".join(f"c{i + 1}".rjust(3) for i in range(len(position.columns))))
    for row in range(depth):
        lines.append(
            " ".join(show(col[row]) if row < len(col) else "   " for col in position.columns)
        )
    if position.variant.stock:
        lines.append(f"stock: {len(position.stock)} face down")
    else:
        lines.append("reserve: " + (" ".join(show(c).strip() for c in position.reserve) or "-"))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for ``python -m nestor``."""
    parser = argparse.ArgumentParser(
        prog="python -m nestor",
        description="Nestor, the pairing patience: deals, records and positions.",
        epilog=f"Deals use shuffle version {SHUFFLE_VERSION}; deal numbers run from 0 to "
        f"{MAX_DEAL - 1}. Variants: {', '.join(VARIANTS)}.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    deal = sub.add_parser(
        "deal",
        help="print the rectified layout of a deal",
        description="Print the layout of one deal after rectification: each column "
        "deepest card first (its last card is available), then the reserve in row order "
        "(overlapping: last is on top) or, in strict, the stock in turning order.",
    )
    deal.add_argument("--variant", type=_variant_name, default="standard",
                      help=f"one of: {', '.join(VARIANTS)} (default: standard)")
    deal.add_argument("--deal", type=_deal_number, required=True, metavar="N",
                      help=f"deal number, 0 to {MAX_DEAL - 1}")
    deal.add_argument("--json", action="store_true",
                      help='print {"variant", "deal", "columns", "reserve", "stock"} as JSON')
    deal.add_argument("--text", action="store_true", help="print the one-line position text")

    replay = sub.add_parser(
        "replay",
        help="replay a game record and print the position reached",
        description='Replay a record such as "standard 7 7H-7S KC-KD" (from the argument '
        "or, if none, from stdin) and print the position text and the outcome.",
    )
    replay.add_argument("record", nargs="?", help="the record; read from stdin if omitted")

    sub.add_parser("variants", help="list the variants", description="List every variant.")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 2 bad input)."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "deal":
            position = deal_position(args.variant, args.deal)
            if args.json:
                data = {"variant": args.variant, "deal": args.deal, **position.to_json()}
                print(json.dumps(data))
            elif args.text:
                print(position.to_text())
            else:
                print(f"deal {args.deal}, " + format_layout(position))
        elif args.command == "replay":
            text = args.record if args.record is not None else sys.stdin.read()
            game = Record.from_text(text).replay()
            print(game.position.to_text())
            outcome = game.outcome()
            print("outcome: " + ("in play" if outcome is None else
                                 f"{outcome.result} ({outcome.value})"))
        else:
            for v in VARIANTS.values():
                spare = f"stock of {v.spare}" if v.stock else f"reserve of {v.spare}"
                print(f"{v.name:12} {v.columns} x {v.depth}, {spare}: {v.summary}")
    except NestorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0

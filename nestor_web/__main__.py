"""``python -m nestor_web progress FILE [--json]``: what a backup of the game's progress holds
(see docs/playing.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict

from nestor_web.storage.progress import MAX_SIZE, ProgressError, read_progress


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser."""
    parser = argparse.ArgumentParser(
        prog="python -m nestor_web", description="Read what the Nestor game keeps."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    progress = commands.add_parser(
        "progress", help="summarize a backup of the player's progress (a file or a code)"
    )
    progress.add_argument("file", help="the backup file, or a file holding its code; - for stdin")
    progress.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _read(name: str) -> str:
    """The text of ``name`` (``-``: stdin), at most one character more than any backup (a huge
    file is refused unread); OSError, UnicodeDecodeError."""
    if name == "-":
        return sys.stdin.read(MAX_SIZE + 1)
    with open(name, encoding="utf-8") as handle:
        return handle.read(MAX_SIZE + 1)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0: read, 2: not a readable backup)."""
    args = build_parser().parse_args(argv)
    try:
        text = _read(args.file)
    except OSError as exc:
        print(f"error: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"error: {args.file}: not a backup: not UTF-8 text (progress.not_json)",
              file=sys.stderr)
        return 2
    try:
        progress = read_progress(text)
    except ProgressError as exc:
        print(f"error: {args.file}: {exc} ({exc.code})", file=sys.stderr)
        return 2
    summary = progress.parts.summary()
    if args.json:
        print(json.dumps(asdict(summary)))
    else:
        print(
            f"backup of {progress.date.isoformat()} (game {progress.game_version}): "
            f"{summary.games} games, {summary.won} won, {summary.daily_won} daily deals won, "
            f"{summary.in_progress} in progress"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m nestor_web progress FILE [--json]``: what a backup of the game's progress holds.

FILE holds a backup file (``nestor-progress-YYYY-MM-DD.json``) or its code (``NESTOR1:…``);
``-`` reads it from standard input. It is read as the page reads it
(:func:`nestor_web.storage.progress.read_progress`), and a summary printed: with ``--json``
one JSON object ``{"games", "won", "daily_won", "in_progress"}`` (all variants summed), else a
line of English. A file that is not a backup the game can read exits with status 2 and the
reason (English, with its code) on standard error.

The reader lives with the storage formats: the rules engine (``python -m nestor``) knows none
of them. Nothing here imports the browser's modules.
"""

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
    """The text of the file ``name`` (``-``: standard input), at most one character more than
    any backup (so a huge file is refused without reading it all).

    Raises:
        OSError: the file cannot be read. UnicodeDecodeError: it is not UTF-8 text.
    """
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

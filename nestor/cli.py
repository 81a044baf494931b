"""The command line: ``python -m nestor COMMAND ...``.

Commands:
    deal      print the rectified layout of a deal (as text or JSON)
    replay    replay a game record and print the position it reaches
    link      print the query of a game record's replay link (or read one back)
    review    review a game record: per move, was it still winnable; the turning point
    solve     solve positions read as JSON Lines on stdin
    odds      solve a range of deals and print the share that can be won (or, with
              --strategy, the share a strategy wins: nestor/strategies.py)
    daily     print the daily deal of a date (variant and deal number)
    grade     print a deal's difficulty: easy, medium, hard or unwinnable (nestor/grade.py)
    puzzle    print how many puzzles ship, or one of them (nestor/puzzles)
    variants  list the variants and their layouts

Exit status: 0 on success, 2 on bad input (the error goes to stderr).

The analysis behind ``odds`` lives in :mod:`nestor.analysis`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any, TextIO

from .analysis import odds
from .cards import rank_label
from .checks import whole_number
from .daily import DAILY_VARIANTS, DAILY_VERSION, daily_deal, parse_date
from .deal import MAX_DEAL, SHUFFLE_VERSION, check_deal_number, deal_position
from .errors import NestorError
from .game import Record
from .grade import GRADES, TIPS_PLAYOUTS, UNWINNABLE, Grade, grade
from .jsontext import loads
from .link import record_from_query, record_query
from .position import Move, Pair, Position
from .puzzles import MAX_HORIZON, PUZZLE_VARIANTS, Puzzle, get_puzzle, puzzles
from .review import DEFAULT_MAX_NODES, MoveReview, Review, review_steps, sliced
from .solver import Status, solve
from .steps import run_to_end
from .strategies import STRATEGIES, strategy_odds
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
    if position.variant.has_stock:
        cards = " ".join(show(c).strip() for c in position.stock) or "-"
        lines.append(f"stock, face down, in turning order: {cards}")
    else:
        cards = " ".join(show(c).strip() for c in position.reserve) or "-"
        top = " (overlapping: the last one is on top)" if position.variant.overlapping else ""
        lines.append(f"reserve{top}: {cards}")
    return "\n".join(lines)


def format_odds(report: dict[str, Any]) -> str:
    """The odds report as text lines."""
    n = report["deals"]
    first, last = report["start"], report["start"] + n - 1
    lines = [f"{report['variant']}: deals {first}..{last} ({n} deals, {report['seconds']} s)"]
    if "win_probability" in report:
        lo, hi = report["win_probability_interval"]
        lines.append(
            f"  win probability with best play, stock order unknown: "
            f"{report['win_probability']:.2%} (95% CI {lo:.2%} to {hi:.2%})"
        )
        lo, hi = report["order_known_interval"]
        lines.append(
            f"  winnable with the stock order known: {report['winnable']}/{n} = "
            f"{report['order_known']:.2%} (95% CI {lo:.2%} to {hi:.2%})"
        )
    else:
        lo, hi = report["interval"]
        lines.append(
            f"  winnable with perfect play: {report['winnable']}/{n} = "
            f"{report['share']:.2%} (95% CI {lo:.2%} to {hi:.2%})"
        )
    return "\n".join(lines)


def format_strategy_odds(report: dict[str, Any]) -> str:
    """The report of ``odds --strategy`` (:func:`nestor.strategies.strategy_odds`) as text.

    Two lines: ``VARIANT, strategy NAME: deals S..E (N deals, seed K, T s)``, then the share
    won with its 95% interval (Strict's ``perfect``: the mean chance with best play).
    """
    n = report["deals"]
    first, last = report["start"], report["start"] + n - 1
    lo, hi = report["interval"]
    head = (f"{report['variant']}, strategy {report['strategy']}: deals {first}..{last} "
            f"({n} deals, seed {report['seed']}, {report['seconds']} s)")
    if report["won"] is None:
        body = (f"  chance of winning with best play, stock order unknown (mean over the "
                f"deals): {report['share']:.2%} (95% CI {lo:.2%} to {hi:.2%})")
    else:
        body = (f"  won: {report['won']}/{n} = {report['share']:.2%} "
                f"(95% CI {lo:.2%} to {hi:.2%})")
    return head + "\n" + body


def format_grade(result: Grade) -> str:
    """A grade as one line of text, e.g. ``standard deal 4: hard (tips win 8/16 = 50%,
    narrow 5, 26 moves)``; Strict adds the chance with best play."""
    head = f"{result.variant} deal {result.deal}: {result.grade}"
    if result.grade == UNWINNABLE:
        line = f"{head}: no way of playing wins it as dealt, proved by the solver"
        if result.chance:
            line += f" (chance with best play, stock order unknown: {result.chance:.1%})"
        return line
    parts = [f"tips win {result.tips_wins}/{result.playouts} = {result.tips_win_rate:.0%}",
             f"narrow {result.narrow}", f"{result.line} moves"]
    if result.chance is not None:
        parts.insert(0, f"chance with best play {result.chance:.1%}")
    return f"{head} ({', '.join(parts)})"


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
    form = deal.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true",
                      help='print {"variant", "deal", "columns", "reserve", "stock"} as JSON')
    form.add_argument("--text", action="store_true", help="print the one-line position text")

    replay = sub.add_parser(
        "replay",
        help="replay a game record and print the position reached",
        description='Replay a record such as "standard 7 7H-7S KC-KD" (from the argument '
        "or, if none, from stdin) and print the position text and the outcome.",
    )
    replay.add_argument("record", nargs="?", help="the record; read from stdin if omitted")

    link = sub.add_parser(
        "link",
        help="print the query of a game record's replay link",
        description='Replay a record such as "standard 7 QC-QD 3C-3D" and print the query '
        "string of its replay link, variant=V&deal=N&moves=M (the moves code is described "
        "in nestor/link.py and docs/formats.md). With --read, the argument is such a query "
        "(with or without its ?) and the record it holds is printed. An illegal or "
        "malformed record exits 2 with the reason on stderr.",
    )
    link.add_argument("record", nargs="?", help="the record (or query); read from stdin if "
                      "omitted")
    link.add_argument("--read", action="store_true",
                      help="read a replay link's query and print its record")
    review_cmd = sub.add_parser(
        "review",
        help="review a game record: the turning point and the moves that kept it winnable",
        description='Review a record such as "standard 7 QC-QD 3C-3D" (from the argument or, '
        "if none, from stdin) with the exact solver and print one JSON object per move, in "
        'order: {"index" (from 0), "move", "winnable_before", "winnable_after" (true, false, '
        'or null when the solver gave up), "alternatives" (the other moves that kept it '
        'winnable, when this one lost it), "critical", "choices"}; strict, where the stock '
        'order is unknown: winnable_* are null and "chance_before", "chance_after", "cut" '
        '(and "turned" for a stock turn) give the chance with best play. Then one summary '
        'object, the only one without "index": {"turning_point", "alternatives", "result", '
        '"critical", "undecided", ...}. A bad record exits 2 with the reason on stderr.',
    )
    review_cmd.add_argument("record", nargs="?", help="the record; read from stdin if omitted")
    review_cmd.add_argument("--max-nodes", type=int, default=None, metavar="N",
                            help="the solver's budget per position (default "
                            "nestor.review.DEFAULT_MAX_NODES); past it a position is unknown")

    solve_cmd = sub.add_parser(
        "solve",
        help="solve positions read as JSON Lines on stdin",
        description="Read one position per line on stdin, in the shape `deal --json` prints "
        "(columns may be shorter or empty; reserve and stock hold what is left), and print one "
        'answer per line: {"winnable", "line", "nodes", "ms"}, plus "win_probability" for '
        'strict. A line is a list of pairs in play order; a stock turn is ["stock", card]. '
        "For strict, winnable and line assume the stock order given; win_probability is the "
        "chance with best play when the order is unknown. On a bad line the error goes to "
        "stderr, naming the line, and the exit status is 2.",
    )
    solve_cmd.add_argument("--max-nodes", type=int, default=None, metavar="N",
                           help="stop after N positions; the answer is then winnable: null")

    odds = sub.add_parser(
        "odds",
        help="solve deals S..S+N-1 and print the share that can be won",
        description="Solve a range of deals with perfect play and print the share that can "
        "be won with a 95%% confidence interval (strict: the mean chance with best play, "
        "stock order unknown, and the share winnable with the order known). With "
        "--strategy, play deals S..S+N-1 with that strategy instead (defined in "
        "nestor/strategies.py and docs/odds.md; ties drawn with a random source seeded "
        "from --seed, the variant, the strategy and the deal number) and print the share "
        "won with its 95%% Wilson interval; perfect is the solver's verdict (strict: the "
        "mean chance with best play).",
    )
    odds.add_argument("--variant", type=_variant_name, required=True,
                      help=f"one of: {', '.join(VARIANTS)}")
    odds.add_argument("--deals", type=int, required=True, metavar="N", help="how many deals")
    odds.add_argument("--start", type=_deal_number, default=0, metavar="S",
                      help="first deal number (default 0)")
    odds.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                      help="worker processes (default: one per core)")
    odds.add_argument("--strategy", choices=list(STRATEGIES), default=None,
                      help="play the deals with this strategy: " + ", ".join(STRATEGIES))
    odds.add_argument("--seed", type=int, default=0, metavar="K",
                      help="with --strategy: the seed of the tie-breaking draws (default 0)")
    odds.add_argument("--json", action="store_true", help="print the result as JSON")

    daily = sub.add_parser(
        "daily",
        help="print the daily deal of a date",
        description=f"Print the daily deal of a date: the same for everyone on that date "
        f"(formula version {DAILY_VERSION}: SplitMix64 seeded from the date's digits picks one "
        f"of {', '.join(DAILY_VARIANTS)}, then the deal number; see nestor/daily.py).",
    )
    daily.add_argument("date", nargs="?", default=None, metavar="YYYY-MM-DD",
                       help="the calendar date (default: today, in local time)")
    daily.add_argument("--json", action="store_true",
                       help='print {"date", "variant", "deal"} as JSON')

    grade_cmd = sub.add_parser(
        "grade",
        help="print a deal's difficulty grade and the figures it comes from",
        description=f"Grade one deal: {', '.join(GRADES)} or {UNWINNABLE} (proved by the "
        f"solver; strict: with the stock order dealt). The figures: tips_win_rate, the share "
        f"of {TIPS_PLAYOUTS} games of the tips strategy (ties drawn with seeds 0 to "
        f"{TIPS_PLAYOUTS - 1}) that win, and narrow, the positions of the solver's winning "
        "line where only one of two or more pairs keeps the game winnable (strict: keeps a "
        "chance above 0). The grade is read from the score tips_win_rate - narrow / 4, its "
        "ties broken by strict's chance with best play, then by the share of random games "
        "won, with cut points per variant measured over the first deals (nestor/grade.py, "
        "docs/odds.md). With --json, one object: "
        "{\"variant\", \"deal\", \"grade\", \"tips_win_rate\", \"narrow\", ...}. A bad "
        "variant or deal exits 2.",
    )
    grade_cmd.add_argument("--variant", type=_variant_name, required=True,
                           help=f"one of: {', '.join(VARIANTS)}")
    grade_cmd.add_argument("--deal", type=_deal_number, required=True, metavar="N",
                           help=f"deal number, 0 to {MAX_DEAL - 1}")
    grade_cmd.add_argument("--json", action="store_true", help="print the grade as JSON")

    puzzle_cmd = sub.add_parser(
        "puzzle",
        help="print how many puzzles ship, or one of them",
        description="A puzzle is a position of a real deal with two or more pairs, of which "
        "exactly one keeps the game winnable, while after any other every way of playing on "
        f"ends with no pair left within its horizon (at most {MAX_HORIZON} pairs, the wrong "
        f"one included); from the variants {', '.join(PUZZLE_VARIANTS)} (nestor/puzzles). "
        "--count prints how many ship; --id K prints puzzle K (from 1), with --json as "
        '{"id", "variant", "deal", "before", "choices", "answer", "horizon", "rating"} '
        'with pairs as lists of two card codes. An unknown id exits 2.',
    )
    which = puzzle_cmd.add_mutually_exclusive_group(required=True)
    which.add_argument("--count", action="store_true", help="print how many puzzles ship")
    which.add_argument("--id", type=_puzzle_id, metavar="K", help="print puzzle K")
    puzzle_cmd.add_argument("--json", action="store_true", help="print the puzzle as JSON")

    sub.add_parser("variants", help="list the variants", description="List every variant.")
    return parser


def _puzzle_id(text: str) -> int:
    try:
        return get_puzzle(int(text) if text.strip().isdigit() else text).id
    except NestorError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def format_puzzle(puzzle: Puzzle) -> str:
    """Puzzle ``puzzle`` in words: where it comes from, its rating, choices and answer."""
    before = " ".join(str(p) for p in puzzle.before) or "(none)"
    return (f"puzzle {puzzle.id}: {get_variant(puzzle.variant).title}, deal {puzzle.deal}, "
            f"rating {puzzle.rating}\n"
            f"pairs before: {before}\n"
            f"choices: {' '.join(str(p) for p in puzzle.choices())}\n"
            f"answer: {puzzle.answer} (any other loses within {puzzle.horizon} pairs)")


def line_json(position: Position, line: Iterable[Move]) -> list[list[str]]:
    """Return a line as JSON lists: ``[card, card]`` per pair, ``["stock", card]`` per turn."""
    out = []
    for move in line:
        if isinstance(move, Pair):
            out.append([move.first, move.second])
        else:
            out.append(["stock", position.stock[0]])
        position = position.apply(move)
    return out


def solve_lines(lines: Iterable[str], out: TextIO, max_nodes: int | None = None) -> None:
    """Answer each JSON position of ``lines`` on ``out`` (see ``solve --help``).

    Raises:
        NestorError: naming the line number, for the first line that is not a
            valid position (code ``cli.line``, details ``line`` from 1 and
            ``reason``, the code of the JSON or position error); answers before
            it have been written.
    """
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            data = loads(text)
        except NestorError as exc:
            raise NestorError(
                f"line {number}: not valid JSON ({exc})", code="cli.line", line=number,
                reason=exc.code,
            ) from None
        try:
            position = Position.from_json(data)
        except NestorError as exc:
            raise NestorError(
                f"line {number}: {exc}", code="cli.line", line=number, reason=exc.code
            ) from None
        start = time.perf_counter()
        result = solve(position, max_nodes)
        answer: dict[str, Any] = {
            "winnable": _json_status(result.known_order),
            "line": line_json(position, result.line),
            "nodes": result.nodes,
            "ms": round((time.perf_counter() - start) * 1000, 3),
        }
        if position.variant.has_stock:
            answer["win_probability"] = result.win_probability
        out.write(json.dumps(answer) + "\n")
        out.flush()


def review_lines(record: Record, out: TextIO, max_nodes: int | None = None) -> Review:
    """Write the review of ``record`` to ``out`` as JSON Lines (see ``review --help``).

    One object per move as soon as it is worked out, then the summary; returns
    the :class:`~nestor.review.Review`.

    Raises:
        RecordError: a move is illegal where it is played (``record.illegal_move``);
            nothing has been written then.
        NestorError: ``max_nodes`` is not a whole number of at least 1.
    """
    steps = review_steps(record, DEFAULT_MAX_NODES if max_nodes is None else max_nodes)

    def write(item: MoveReview) -> None:
        out.write(json.dumps(move_review_json(item, record.variant.has_stock)) + "\n")
        out.flush()

    result = run_to_end(sliced(steps, write))
    out.write(json.dumps(review_summary_json(result)) + "\n")
    out.flush()
    return result


def move_review_json(item: MoveReview, strict: bool) -> dict[str, Any]:
    """One move of a review as the JSON object ``review`` prints (see ``review --help``)."""
    data: dict[str, Any] = {
        "index": item.index,
        "move": str(item.move),
        "winnable_before": None if strict else _json_status(item.before),
        "winnable_after": None if strict else _json_status(item.after),
    }
    if strict:
        data["chance_before"] = item.chance_before
        data["chance_after"] = item.chance_after
        data["cut"] = item.cut
        if item.turned is not None:
            data["turned"] = item.turned
    data["alternatives"] = [str(m) for m in item.alternatives]
    data["critical"] = item.critical
    data["choices"] = [
        {"move": str(c.move), "chance": c.chance} if strict
        else {"move": str(c.move), "winnable": _json_status(c.status)}
        for c in item.choices
    ]
    return data


def review_summary_json(result: Review) -> dict[str, Any]:
    """The summary object ``review`` prints last (see ``review --help``)."""
    strict = result.position.variant.has_stock
    data: dict[str, Any] = {
        "turning_point": result.turning_point,
        "alternatives": [str(m) for m in result.alternatives],
        "result": "in play" if result.outcome is None else result.outcome.result,
        "moves": len(result.moves),
        "winnable_at_start": None if strict else _json_status(result.start),
        "critical": list(result.critical),
        "undecided": result.undecided,
    }
    if strict:
        data["chance_at_start"] = result.start_chance
        data["cuts"] = [{"index": i, "cut": cut} for i, cut in result.cuts]
    return data


def _json_status(status: Status | None) -> bool | None:
    """The ``winnable`` key of a ``solve`` answer: true, false, or null when unknown."""
    return None if status in (None, Status.UNKNOWN) else status is Status.WINNABLE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 2 bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace) -> int:
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
        elif args.command == "link":
            text = (args.record if args.record is not None else sys.stdin.read()).strip()
            if args.read:
                record = record_from_query(text)
                record.replay()
                print(record.to_text())
            else:
                print(record_query(Record.from_text(text).replay().record()))
        elif args.command == "review":
            text = args.record if args.record is not None else sys.stdin.read()
            review_lines(Record.from_text(text), sys.stdout, args.max_nodes)
        elif args.command == "daily":
            day = date.today() if args.date is None else parse_date(args.date)
            variant, number = daily_deal(day)
            if args.json:
                print(json.dumps({"date": day.isoformat(), "variant": variant, "deal": number}))
            else:
                print(f"{day.isoformat()}: {get_variant(variant).title}, deal {number}")
        elif args.command == "grade":
            result = grade(args.variant, args.deal)
            print(json.dumps(result.to_json()) if args.json else format_grade(result))
        elif args.command == "puzzle":
            if args.count:
                print(len(puzzles()))
            else:
                puzzle = get_puzzle(args.id)
                print(json.dumps(puzzle.to_json()) if args.json else format_puzzle(puzzle))
        elif args.command == "solve":
            solve_lines(sys.stdin, sys.stdout, args.max_nodes)
        elif args.command == "odds":
            whole_number(args.deals, "--deals", low=1, high=MAX_DEAL - args.start)
            if args.strategy is not None:
                report = strategy_odds(args.variant, args.strategy, args.start, args.deals,
                                       max(1, args.jobs), args.seed)
                print(json.dumps(report) if args.json else format_strategy_odds(report))
            else:
                report = odds(args.variant, args.start, args.deals, max(1, args.jobs))
                print(json.dumps(report) if args.json else format_odds(report))
        else:
            for v in VARIANTS.values():
                spare = f"stock of {v.spare}" if v.has_stock else f"reserve of {v.spare}"
                print(f"{v.name:12} {v.columns} x {v.depth}, {spare}: {v.summary}")
    except NestorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0

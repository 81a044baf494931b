"""Error codes: every error the engine raises has a code from ``CODES`` and its details."""

from __future__ import annotations

import ast
import io
import pickle
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from nestor import (
    CODES,
    CardError,
    DateError,
    DealNumberError,
    Game,
    HistoryError,
    IllegalMoveError,
    MoveError,
    NestorError,
    Pair,
    Position,
    PositionError,
    Record,
    RecordError,
    TurnStock,
    VariantError,
    check_deal_number,
    get_variant,
    parse_card,
    parse_move,
    whole_number,
)
from nestor import errors as errors_module
from nestor.cli import main, solve_lines
from nestor.daily import check_daily_date, parse_date
from nestor.graded_deals import deals_of_grade
from nestor.jsontext import MAX_DEPTH, load_object, loads
from nestor.link import decode_moves
from nestor.puzzles import HEADER as PUZZLES_HEADER
from nestor.puzzles import get_puzzle, puzzles, read_puzzles
from nestor.strategies import get_strategy

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "nestor"
STRICT_LOST = "strict 9S7H/7S9H/-/-/-/-/-/- - 5D 5C"


def engine_sources() -> list[Path]:
    """The engine's modules, except the solver (another part, coded separately)."""
    return sorted(
        p for p in ENGINE.rglob("*.py")
        if "solver" not in p.relative_to(ENGINE).parts[0]
    )


def text_position(variant: str, *columns: str, reserve: str = "-", stock: str = "-") -> str:
    n = get_variant(variant).columns
    return " ".join(
        [variant, "/".join(list(columns) + ["-"] * (n - len(columns))), reserve, stock, "-"]
    )


def strict_turned_up() -> Position:
    return Position.from_text(text_position("strict", stock="5C5DKHKS"))


def undo_fresh() -> None:
    Game("standard", 7).undo()


def redo_fresh() -> None:
    Game("standard", 7).redo()


# (code, what raises it, the error class, the details expected)
CASES: list[tuple[str, Callable[[], object], type[NestorError], dict[str, str | int]]] = [
    ("card.not_text", lambda: parse_card(7), CardError, {"type": "int"}),
    ("card.syntax", lambda: parse_card("1HX"), CardError, {"value": "1HX"}),
    ("card.rank", lambda: parse_card("XH"), CardError, {"value": "XH", "rank": "X"}),
    ("card.suit", lambda: parse_card("7x"), CardError, {"value": "7x", "suit": "X"}),
    ("variant.not_text", lambda: get_variant(None), VariantError, {"type": "NoneType"}),
    ("variant.unknown", lambda: get_variant(" Foo "), VariantError,
     {"value": " Foo ", "choices": "standard,strict,vertical,doublets,overlapping"}),
    ("strategy.unknown", lambda: get_strategy("lucky"), NestorError,
     {"value": "lucky", "choices": "random,uncover,reserve-last,longest,tips,greedy,perfect"}),
    ("number.not_whole", lambda: whole_number(2.0, "deals[3][1]"), NestorError,
     {"where": "deals[3][1]", "value": "2.0", "kind": "float"}),
    ("number.range", lambda: whole_number(7, "cursor", low=1, high=5), NestorError,
     {"where": "cursor", "value": "7", "low": 1, "high": 5}),
    ("number.too_small", lambda: whole_number(-3, "hints"), NestorError,
     {"where": "hints", "value": "-3", "low": 0}),
    ("deal.not_whole", lambda: check_deal_number(" 4x "), DealNumberError,
     {"where": "deal", "value": " 4x ", "kind": "str"}),
    ("deal.range", lambda: check_deal_number(2**32), DealNumberError,
     {"where": "deal", "value": "4294967296", "low": 0, "high": 2**32 - 1}),
    ("json.not_text", lambda: loads(b"[]"), NestorError, {"type": "bytes"}),
    ("json.invalid", lambda: loads('{\n  "a": }'), NestorError, {"line": 2, "column": 8}),
    ("json.number_too_long", lambda: loads("9" * 5000), NestorError, {}),
    ("json.too_deep", lambda: loads("[" * (MAX_DEPTH + 1)), NestorError, {"limit": MAX_DEPTH}),
    ("json.not_object", lambda: load_object("[1]"), NestorError, {"type": "list"}),
    ("json.version", lambda: load_object('{"version": true}', version=1), NestorError,
     {"value": "True", "expected": 1}),
    ("move.same_card", lambda: Pair("7H", "7h"), MoveError, {"card": "7H"}),
    ("move.ranks_differ", lambda: Pair("7S", "8H"), MoveError, {"first": "7S", "second": "8H"}),
    ("move.not_text", lambda: parse_move(None), MoveError, {"type": "NoneType"}),
    ("move.syntax", lambda: parse_move("7H 7S 7C"), MoveError, {"value": "7H 7S 7C"}),
    ("illegal.game_over", lambda: Position.from_text(STRICT_LOST).apply(TurnStock()),
     IllegalMoveError, {"outcome": "stock_unpaired"}),
    ("illegal.no_stock",
     lambda: Position.from_text(text_position("standard", "7H", "7S")).apply(TurnStock()),
     IllegalMoveError, {"variant": "standard"}),
    ("illegal.stock_empty",
     lambda: Position.from_text(text_position("strict", "7H", "7S")).apply(TurnStock()),
     IllegalMoveError, {}),
    ("illegal.tableau_empty", lambda: strict_turned_up().apply(TurnStock()),
     IllegalMoveError, {}),
    ("illegal.pair_left",
     lambda: Position.from_text(text_position("strict", "7H", "7S", "5C", stock="5D"))
     .apply(TurnStock()),
     IllegalMoveError, {"pair": "7H-7S"}),
    ("illegal.not_available",
     lambda: Position.from_text(text_position("standard", "7H5H", "5D7S", "KC", "KD"))
     .apply(Pair("7H", "7S")),
     IllegalMoveError, {"card": "7H", "place": "column", "column": 1}),
    ("position.not_text", lambda: Position.from_text(["x"]), PositionError, {"type": "list"}),
    ("position.not_object", lambda: Position.from_json("x"), PositionError, {"type": "str"}),
    ("position.fields", lambda: Position.from_text("standard - - -"), PositionError,
     {"found": 4}),
    ("position.unreadable",
     lambda: Position.from_text("standard 7H/7SQX/-/-/-/-/-/- - - -"), PositionError,
     {"where": "columns[1]", "value": "7SQX", "at": 3}),
    ("position.empty_field",
     lambda: Position.from_text("standard 7H//7S/-/-/-/-/- - - -"), PositionError,
     {"where": "columns[1]"}),
    ("position.unpaired_count",
     lambda: Position.from_text("strict -/-/-/-/-/-/-/- - 5C 5D7H"), PositionError,
     {"found": 2}),
    ("position.unknown_key", lambda: Position.from_json({"variant": "strict", "extra": 1}),
     PositionError, {"key": "extra"}),
    ("position.missing_key", lambda: Position.from_json({"variant": "strict"}), PositionError,
     {"key": "columns"}),
    ("position.columns_not_list",
     lambda: Position.from_json({"variant": "strict", "columns": "7H"}), PositionError, {}),
    ("position.not_cards",
     lambda: Position.from_json({"variant": "standard", "columns": [[]] * 8, "reserve": [7]}),
     PositionError, {"where": "reserve"}),
    ("position.card",
     lambda: Position.from_json({"variant": "standard", "columns": [[], [], ["7H", "ZZ"]]}),
     PositionError, {"where": "columns[2]", "value": "ZZ", "reason": "card.rank"}),
    ("position.unpaired_not_card",
     lambda: Position.from_json({"variant": "strict", "columns": [], "unpaired": 5}),
     PositionError, {}),
    ("position.variant_not_name", lambda: Position.from_json({"variant": 1, "columns": []}),
     PositionError, {}),
    ("position.columns", lambda: Position.from_text("standard 7H/7S - - -"), PositionError,
     {"variant": "standard", "expected": 8, "found": 2}),
    ("position.column_deep",
     lambda: Position.from_text(text_position("doublets", "AC2C3C4C5C")), PositionError,
     {"column": 1, "cards": 5, "depth": 4, "variant": "doublets"}),
    ("position.column_rank_twice",
     lambda: Position.from_text(text_position("standard", "9C", "7H5H7S")), PositionError,
     {"column": 2, "rank": "7"}),
    ("position.no_reserve",
     lambda: Position.from_text(text_position("strict", reserve="7H7S")), PositionError,
     {"variant": "strict"}),
    ("position.stock_too_big",
     lambda: Position.from_text(text_position("strict", stock="7H7S8H8S9C9D")), PositionError,
     {"limit": 4}),
    ("position.no_stock",
     lambda: Position.from_text(text_position("vertical", stock="7H7S")), PositionError,
     {"variant": "vertical"}),
    ("position.no_unpaired",
     lambda: Position.from_text("standard -/-/-/-/-/-/-/- 7S - 7H"), PositionError,
     {"variant": "standard"}),
    ("position.reserve_too_big",
     lambda: Position.from_text(text_position("overlapping", reserve="7H7S8H8S9C9D")),
     PositionError, {"cards": 6, "limit": 4, "variant": "overlapping"}),
    ("position.card_twice",
     lambda: Position.from_text(text_position("standard", "7H", "7H")), PositionError,
     {"card": "7H"}),
    ("position.odd_rank", lambda: Position.from_text(text_position("standard", "7H", "8S")),
     PositionError, {"rank": "7", "count": 1}),
    ("record.not_text", lambda: Record.from_text(None), RecordError, {"type": "NoneType"}),
    ("record.not_object", lambda: Game.from_json(["standard"]), RecordError, {"type": "list"}),
    ("record.fields", lambda: Record.from_text(" standard "), RecordError, {}),
    ("record.missing_key", lambda: Game.from_json({"variant": "standard", "moves": []}),
     RecordError, {"key": "deal"}),
    ("record.moves_not_list",
     lambda: Game.from_json({"variant": "standard", "deal": 7, "moves": "3C-3D"}),
     RecordError, {}),
    ("record.move",
     lambda: Game.from_json({"variant": "standard", "deal": 7, "moves": ["3C-3D", "7H-8S"]}),
     RecordError, {"index": 2, "reason": "move.ranks_differ"}),
    ("record.illegal_move",
     lambda: Game.from_json({"variant": "standard", "deal": 7, "moves": ["3C-3D", "3C-3D"]}),
     RecordError, {"index": 2, "move": "3C-3D", "reason": "illegal.not_available"}),
    ("moves.not_text", lambda: decode_moves(None), RecordError, {"type": "NoneType"}),
    ("moves.too_long", lambda: decode_moves("1" + "AB" * 100), RecordError, {"limit": 200}),
    ("moves.version", lambda: decode_moves("2AN"), RecordError,
     {"value": "2", "expected": "1"}),
    ("moves.character", lambda: decode_moves("1AN1"), RecordError, {"index": 4, "value": "1"}),
    ("moves.incomplete", lambda: decode_moves("1AN0A"), RecordError, {"index": 3}),
    ("moves.order", lambda: decode_moves("1NA"), RecordError, {"index": 1}),
    ("date.syntax", lambda: parse_date("1.12.2026"), DateError, {"value": "1.12.2026"}),
    ("date.unknown", lambda: parse_date("2026-02-30"), DateError, {"value": "2026-02-30"}),
    ("date.future", lambda: check_daily_date("2026-12-02", date(2026, 12, 1)), DateError,
     {"value": "2026-12-02", "today": "2026-12-01"}),
    ("date.early", lambda: check_daily_date("1999-12-31", date(2026, 12, 1)), DateError,
     {"value": "1999-12-31", "first": "2000-01-01"}),
    ("history.undo", undo_fresh, HistoryError, {}),
    ("history.redo", redo_fresh, HistoryError, {}),
    ("grade.unknown", lambda: deals_of_grade("standard", "easiest"), NestorError,
     {"grade": "easiest"}),
    ("puzzle.format", lambda: read_puzzles("# nestor puzzles 0\n"), NestorError,
     {"value": "# nestor puzzles 0"}),
    ("puzzle.line", lambda: read_puzzles(f"{PUZZLES_HEADER}\nstandard 7\n"), NestorError,
     {"id": 1, "value": "standard 7"}),
    ("puzzle.unknown", lambda: get_puzzle(0), NestorError,
     {"value": "0", "count": len(puzzles())}),
    ("cli.line", lambda: solve_lines(['{"variant": "standard", "columns": []}', "[1"],
                                     io.StringIO()),
     NestorError, {"line": 1, "reason": "position.columns"}),
]


NOT_RAISED_HERE = {"error", "solver.budget"}  # the default, and the solver's own


@pytest.mark.parametrize(("code", "raise_it", "cls", "details"), CASES, ids=[c[0] for c in CASES])
def test_each_code_is_raised_with_its_details(code, raise_it, cls, details):
    with pytest.raises(cls) as info:
        raise_it()
    error = info.value
    assert error.code == code
    assert error.details == details
    assert sorted(error.details) == sorted(CODES[code])
    for value in error.details.values():
        assert type(value) in (str, int)


def test_every_code_in_the_table_is_exercised():
    codes = [c[0] for c in CASES]
    assert len(codes) == len(set(codes))
    assert set(codes) == set(CODES) - NOT_RAISED_HERE
    assert all(len(set(names)) == len(names) for names in CODES.values())


# ---- the source: every error built in the engine names a code from the table -----------

ERROR_CLASSES = {
    name for name in dir(errors_module)
    if isinstance(getattr(errors_module, name), type)
    and issubclass(getattr(errors_module, name), NestorError)
}


def _constant(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def error_calls(path: Path) -> list[tuple[int, str | None, list[str], list[str]]]:
    """Each ``SomeError(...)`` in a module: (line, code, detail names, ``**`` expansions)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in ERROR_CLASSES and name != "error":
            continue
        keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
        expansions = [ast.unparse(k.value) for k in node.keywords if k.arg is None]
        code = keywords.pop("code", None)
        text = _constant(code) if code is not None else None
        if code is not None and text is None:
            text = ast.unparse(code)  # a passed-on code such as exc.code
        found.append((node.lineno, text, sorted(keywords), expansions))
    return found


def test_every_error_the_engine_builds_has_a_known_code_and_its_details():
    checked = 0
    for path in engine_sources():
        for line, code, names, expansions in error_calls(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            assert code is not None, f"{where}: an error without a code"
            if code in CODES:
                assert names == sorted(CODES[code]), where
                assert not expansions, where
            elif code == "exc.code":  # the same fault passed on: same details
                assert expansions == ["exc.details"] and not names, where
            else:  # whole_number builds its codes from a prefix
                assert path.name == "checks.py", f"{where}: unknown code {code}"
                suffix = code.rsplit(".", 1)[1].rstrip("'\"")
                assert f"number.{suffix}" in CODES, where
                for key in (f"number.{suffix}", f"deal.{suffix}"):
                    if key in CODES:
                        assert names == sorted(CODES[key]), where
            checked += 1
    assert checked > 60


def test_every_whole_number_call_uses_a_known_code_prefix():
    calls = 0
    for path in engine_sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "whole_number":
                keywords = {k.arg: k.value for k in node.keywords}
                prefix = _constant(keywords["code"]) if "code" in keywords else "number"
                assert prefix is not None, f"{path}:{node.lineno}"
                for suffix in ("not_whole", "range", "too_small"):
                    assert f"{prefix}.{suffix}" in CODES or (
                        suffix == "too_small" and "high" in keywords
                    ), f"{path}:{node.lineno}"
                calls += 1
    assert calls >= 3  # deal numbers, the cursor, the command line's --deals (odds' count)


# ---- wrapping keeps the code; messages stay English ---------------------------------------


def test_an_error_passed_on_as_another_class_keeps_its_code_and_details():
    with pytest.raises(RecordError) as info:
        Record.from_text("nestor 7")
    assert info.value.code == "variant.unknown"
    assert info.value.details["value"] == "nestor"
    with pytest.raises(RecordError) as info:
        Game.from_json_text("[" * 100)
    assert (info.value.code, info.value.details) == ("json.too_deep", {"limit": MAX_DEPTH})
    assert str(info.value) == (
        f"saved game is not valid JSON: nested more than {MAX_DEPTH} levels deep"
    )
    with pytest.raises(MoveError) as info:
        parse_move("7H-7Q")
    assert (info.value.code, info.value.details) == ("card.suit", {"value": "7Q", "suit": "Q"})
    assert str(info.value).startswith("bad move '7H-7Q': bad card '7Q'")
    with pytest.raises(NestorError) as info:
        load_object("{x", ("they are", "they have"))
    assert info.value.code == "json.invalid"
    assert str(info.value).startswith("they are not valid JSON (Expecting property name")


def test_messages_stay_the_english_ones_the_command_line_prints(capsys):
    with pytest.raises(VariantError) as info:
        get_variant("foo")
    assert str(info.value) == (
        "unknown variant 'foo'; choose one of: standard, strict, vertical, doublets, overlapping"
    )
    assert main(["replay", "standard 7 3C-3D 3C-3D"]) == 2
    assert capsys.readouterr().err == (
        "error: move 2 (3C-3D) is illegal: 3C is not available: it is no longer in play\n"
    )
    assert main(["odds", "--variant", "standard", "--deals", "0", "--jobs", "1"]) == 2
    assert capsys.readouterr().err == (
        "error: --deals 0 is out of range: use 1 to 4294967296\n"
    )


def test_errors_without_a_code_get_the_default_and_details_are_their_own():
    plain = NestorError("something")
    assert (plain.code, plain.details, str(plain)) == ("error", {}, "something")
    a = NestorError("a", code="history.undo")
    b = NestorError("b", code="history.undo")
    a.details["x"] = 1
    assert b.details == {}


def test_codes_and_details_survive_pickling():
    error = RecordError("move 3 (7H-7S) is illegal", code="record.illegal_move", index=3,
                        move="7H-7S", reason="illegal.not_available")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is RecordError
    assert (str(copy), copy.code, copy.details) == (str(error), error.code, error.details)

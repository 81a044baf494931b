"""The stored form of the player's puzzle record (:mod:`nestor_web.app.puzzle_record`)."""

from __future__ import annotations

from nestor import NestorError
from nestor.checks import whole_number
from nestor.daily import parse_date
from nestor.errors import clip
from nestor.jsontext import load_object

from ..app.puzzle_record import MAX_DAILY, PuzzleRecord, Try
from ..app.ranges import in_range
from .keys import json_text

RECORD_VERSION = 1

MAX_PUZZLE_ID = 100_000  # the largest puzzle id a record names (far more than ship), most tries

PUZZLE_RECORD_CODES: dict[str, tuple[str, ...]] = {
    "puzzles.entry": ("where",),  # a try that is not a list of its fields, or one too many
}
"""The codes of this codec's own refusals (besides ``json.*``, ``number.*``, ``range.*`` and
``date.*``), and the names of their details."""


def record_to_data(record: PuzzleRecord) -> dict[str, object]:
    return {
        "version": RECORD_VERSION,
        "tries": [[t.puzzle, t.rating, int(t.solved), t.at] for t in record.in_order()],
        "daily": [[d.isoformat(), t.puzzle, t.rating, int(t.solved), t.at]
                  for d, t in sorted(record.daily.items())],
    }


def record_to_text(record: PuzzleRecord) -> str:
    return json_text(record_to_data(record))


def record_from_text(text: str) -> PuzzleRecord:
    """The record of a stored text; raises NestorError (``json.*``, ``puzzles.entry``,
    ``number.*``, ``range.moment``, ``date.*``) for a text that is not one."""
    return record_from_data(load_object(text, ("they are", "they have")))


def record_from_data(data: dict[str, object]) -> PuzzleRecord:
    """The record of a JSON object (see :func:`record_from_text`)."""
    found = data.get("version")
    if type(found) is not int or found != RECORD_VERSION:  # (not true, not 1.0)
        raise NestorError(f"the puzzle record's version {clip(repr(found))} is unknown",
                          code="json.version", value=clip(repr(found)),
                          expected=RECORD_VERSION)
    record = PuzzleRecord()
    tries, daily = data.get("tries", []), data.get("daily", [])
    if not isinstance(tries, list) or len(tries) > MAX_PUZZLE_ID:
        raise _entry("tries")
    if not isinstance(daily, list) or len(daily) > MAX_DAILY:
        raise _entry("daily")
    for i, row in enumerate(tries):
        one = _try(row, f"tries[{i}]")
        record.tries[one.puzzle] = one
    for i, row in enumerate(daily):
        where = f"daily[{i}]"
        if not isinstance(row, list) or len(row) != 5:
            raise _entry(where)
        record.daily[parse_date(row[0])] = _try(row[1:], where)
    record.daily = dict(sorted(record.daily.items()))
    return record


def _try(row: object, where: str) -> Try:
    if not isinstance(row, list) or len(row) != 4:
        raise _entry(where)
    puzzle, rating, solved, at = row
    return Try(
        whole_number(puzzle, f"{where}[0]", low=1, high=MAX_PUZZLE_ID),
        whole_number(rating, f"{where}[1]", low=400, high=2800),
        whole_number(solved, f"{where}[2]", low=0, high=1) == 1,
        in_range(at, f"{where}[3]", "moment"),
    )


def _entry(where: str) -> NestorError:
    return NestorError(f"the puzzle record's {where} cannot be read", code="puzzles.entry",
                       where=where)

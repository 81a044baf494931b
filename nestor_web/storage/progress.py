"""The backup of the player's progress: its file, its copy-and-paste code, and its reader."""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from nestor import NestorError, __version__
from nestor.daily import parse_date
from nestor.errors import clip, type_name
from nestor.jsontext import loads

from ..app.backup import Parts, in_progress
from ..app.puzzle_record import PuzzleRecord
from ..app.saved import SavedGame
from ..app.settings import Settings
from ..app.statistics.record import Stats
from .codecs import game_from_text, game_to_text, settings_from_text, settings_to_text
from .keys import ARCHIVE_SIZE, json_text
from .puzzle_codec import record_from_data, record_to_data
from .stats_codec import stats_data_from_text, stats_to_text

FORMAT = "nestor-progress"  # a backup's "format"
PROGRESS_VERSION = 1  # the version of the file written
CODE_VERSION = 1
CODE_PREFIX = f"NESTOR{CODE_VERSION}:"

MAX_SIZE = 2_000_000  # the longest text read, file or code, in characters (a backup is ASCII)
GAME_VERSION = __version__

PROGRESS_CODES: dict[str, tuple[str, ...]] = {
    "progress.too_large": ("size", "limit"),  # longer than MAX_SIZE: refused before reading
    "progress.not_json": ("line", "column"),  # not JSON (nor a code); 0, 0: nested too deep
    "progress.truncated": (),  # a file (JSON object) or code that stops short
    "progress.code": (),  # a code whose characters or compressed data are damaged
    "progress.foreign": ("format",),  # JSON, but not a backup (format: what it says, clipped)
    "progress.newer": ("version", "known"),  # written by a newer game: a version not known yet
    "progress.version": ("value",),  # the version is not a whole number from 1 to MAX_VERSION
    "progress.part": ("where",),  # a part missing, of the wrong kind, or too long
    "progress.stats": ("reason",),  # the statistics cannot be read (a missing field, a name)
    "progress.numbers": ("reason",),  # the statistics' numbers disagree, or are out of range
    "progress.game": ("where", "reason"),  # a saved game cannot be read (where: game, archive[i])
    "progress.settings": ("name", "value"),  # a setting has a value it cannot take
    "progress.puzzles": ("reason",),  # the puzzle record cannot be read
    "progress.damaged": (),  # a reader met a value it did not foresee (never seen)
}
"""Every code :func:`read_progress` refuses with, and the names of its details (all given)."""

_NUMBER_CODES = ("number.", "range.")  # a statistics' number not whole, or out of its range

MAX_VERSION = 999_999  # the largest version read (a code's has at most 6 digits)

_VERSION_TEXT = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+_-]{0,39}")
_CODE_HEAD = re.compile(r"NESTOR(\d{1,6}):")
_CODE_BODY = re.compile(r"[A-Za-z0-9_-]*")
_CUT_NUMBER = re.compile(r"[-+.eE0-9]*")


class ProgressError(NestorError):
    """A text that is not a backup this game reads: ``error`` is the part reader's, or ``None``."""

    def __init__(
        self, message: str, *, code: str, error: NestorError | None = None, **details: str | int
    ) -> None:
        super().__init__(message, code=code, **details)
        self.error = error


@dataclass(frozen=True)
class Progress:
    """A backup read (:func:`read_progress`): what it holds, the version of the game that wrote it,
    the date it was made, and the version it was written in (before any upgrade)."""

    parts: Parts
    game_version: str
    date: date
    version: int = PROGRESS_VERSION


def backup_name(today: date) -> str:
    """The file name of a backup made on ``today``: ``nestor-progress-YYYY-MM-DD.json``."""
    return f"{FORMAT}-{today.isoformat()}.json"


def progress_text(parts: Parts, today: date, game_version: str = GAME_VERSION) -> str:
    """The backup file of ``parts`` made on ``today``, each top-level key on a line."""
    fields: list[tuple[str, object]] = [
        ("format", FORMAT),
        ("version", PROGRESS_VERSION),
        ("game_version", game_version),
        ("date", today.isoformat()),
        ("stats", json.loads(stats_to_text(parts.stats))),
        ("game", None if parts.game is None else json.loads(game_to_text(parts.game))),
        ("archive", [json.loads(game_to_text(g)) for g in parts.archive]),
        ("settings", json.loads(settings_to_text(parts.settings))),
    ]
    if parts.puzzles.tries or parts.puzzles.daily:  # none tried: the file as it always was
        fields.append(("puzzles", record_to_data(parts.puzzles)))
    lines = (f"{json.dumps(k)}:{json_text(v)}" for k, v in fields)
    return "{" + ",\n".join(lines) + "}\n"


def progress_to_code(text: str) -> str:
    """The code of backup ``text``: ``NESTOR1:`` and the text deflated, in unpadded base64url."""
    packed = zlib.compress(text.encode("utf-8"), 9)
    return CODE_PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


# UPGRADES[v] turns the object of a file of version v into one of version v + 1 ("version" too).
UPGRADES: dict[int, Callable[[dict[str, object]], dict[str, object]]] = {}


def read_progress(text: str) -> Progress:
    """Read a backup, the file's text or its code; raises ProgressError with one of
    :data:`PROGRESS_CODES` (``damaged`` for any other error a reader raises)."""
    if len(text) > MAX_SIZE:
        raise ProgressError(
            f"{len(text)} characters, more than any backup ({MAX_SIZE})",
            code="progress.too_large", size=len(text), limit=MAX_SIZE,
        )
    start = text.lstrip()
    try:
        return _read_file(_decode(start) if start.startswith("NESTOR") else text)
    except NestorError:
        raise
    except Exception as exc:  # a value no check foresaw: refused all the same, with a reason
        raise ProgressError(
            f"the backup cannot be read: {type_name(exc)}", code="progress.damaged"
        ) from None


def _decode(code: str) -> str:
    """The file text of a code (blanks inside it ignored)."""
    head = _CODE_HEAD.match(code)
    if head is None:
        raise ProgressError("not a code: it has no NESTOR<version>: prefix", code="progress.code")
    version = int(head.group(1))
    if version > CODE_VERSION:
        raise ProgressError(
            f"a code of version {version}: a newer game wrote it (this one reads "
            f"{CODE_VERSION})", code="progress.newer", version=version, known=CODE_VERSION,
        )
    if version != CODE_VERSION:
        raise ProgressError(f"there is no code of version {version}", code="progress.code")
    body = "".join(code[head.end():].split())
    if not _CODE_BODY.fullmatch(body):
        raise ProgressError("the code holds characters no code has", code="progress.code")
    if len(body) % 4 == 1:
        body = body[:-1]  # a character short of a byte: cut off there
    packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))  # alphabet checked above
    inflate = zlib.decompressobj()
    try:
        data = inflate.decompress(packed, MAX_SIZE + 1)
    except zlib.error:
        raise ProgressError("the code's data is damaged", code="progress.code") from None
    if len(data) > MAX_SIZE or inflate.unconsumed_tail:
        raise ProgressError(
            f"the code holds more than any backup ({MAX_SIZE} characters)",
            code="progress.too_large", size=len(data), limit=MAX_SIZE,
        )
    if not inflate.eof:
        raise ProgressError("the code stops short", code="progress.truncated")
    if inflate.unused_data:
        raise ProgressError("the code goes on after its data", code="progress.code")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProgressError("the code's data is not text", code="progress.code") from None


def _read_file(text: str) -> Progress:
    """Read the file's text (its shape: docs/formats.md)."""
    try:
        data = loads(text)
    except NestorError as exc:
        if exc.code == "json.invalid" and _cut_short(text, exc):
            raise ProgressError(
                f"the backup stops short ({exc})", code="progress.truncated", error=exc
            ) from None
        line, column = exc.details.get("line", 0), exc.details.get("column", 0)
        raise ProgressError(
            f"not a backup: not JSON ({exc})", code="progress.not_json", error=exc,
            line=int(line), column=int(column),
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        shown = "" if found is None else clip(found if isinstance(found, str) else repr(found))
        raise ProgressError(
            f"not a backup of this game: JSON with format {shown!r}" if shown else
            f"not a backup of this game: JSON {type_name(data)} with no format",
            code="progress.foreign", format=shown,
        )
    version = data.get("version")
    if type(version) is not int or not 1 <= version <= MAX_VERSION:  # (not true, not 1.0)
        shown = clip(repr(version))
        raise ProgressError(
            f"the backup's version {shown} is not one", code="progress.version", value=shown
        )
    if version > PROGRESS_VERSION:
        raise ProgressError(
            f"a backup of version {version}: a newer game wrote it (this one reads "
            f"{PROGRESS_VERSION})", code="progress.newer", version=version,
            known=PROGRESS_VERSION,
        )
    for older in range(version, PROGRESS_VERSION):
        data = UPGRADES[older](data)
    return _read_current(data, version)


def _cut_short(text: str, exc: NestorError) -> bool:
    """Is ``text``, refused with ``exc``, a JSON object cut short (in a string, number or word)?"""
    if not text.lstrip().startswith("{"):
        return False
    if str(exc).find("Unterminated string") >= 0:
        return True  # a string runs to the end of the text
    line, column = exc.details.get("line", 1), exc.details.get("column", 1)
    lines = text.split("\n")
    pos = sum(len(part) + 1 for part in lines[: int(line) - 1]) + int(column) - 1
    tail = text[pos:].rstrip()
    if not tail:
        return True
    words = ("true", "false", "null")
    return any(w.startswith(tail) for w in words) or bool(_CUT_NUMBER.fullmatch(tail))


def _read_current(data: dict[str, object], written: int) -> Progress:
    game_version = data.get("game_version")
    if not isinstance(game_version, str) or not _VERSION_TEXT.fullmatch(game_version):
        raise _part("game_version", "is not a version of the game")
    try:
        made = parse_date(data.get("date"))
    except NestorError as exc:
        raise _part("date", "is not a date", exc) from None
    stats = _read_stats(_object(data, "stats"))
    game = None if data.get("game") is None else _read_game(_object(data, "game"), "game")
    archive_data = data.get("archive")
    if not isinstance(archive_data, list):
        raise _part("archive", "is not a list")
    if len(archive_data) > ARCHIVE_SIZE:
        raise _part("archive", f"holds more than {ARCHIVE_SIZE} games")
    archive: list[SavedGame] = []
    deals = {game.key} if game is not None else set()
    for i, item in enumerate(archive_data):
        where = f"archive[{i}]"
        if not isinstance(item, dict):
            raise _part(where, "is not an object")
        saved = _read_game(item, where)
        if saved.key in deals:
            raise _part(where, "is of a deal the backup holds already")
        if not in_progress(saved):
            raise _part(where, "is not a game in progress")
        deals.add(saved.key)
        archive.append(saved)
    settings = _read_settings(_object(data, "settings"))
    puzzles = PuzzleRecord() if data.get("puzzles") is None else _read_puzzles(
        _object(data, "puzzles"))
    return Progress(Parts(stats, game, tuple(archive), settings, puzzles), game_version, made,
                    written)


def _object(data: dict[str, object], key: str) -> dict[str, object]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise _part(key, "is missing" if value is None else "is not an object")
    return value


def _part(where: str, what: str, error: NestorError | None = None) -> ProgressError:
    return ProgressError(
        f"the backup's {where!r} {what}", code="progress.part", error=error, where=where
    )


def _refused(what: str, exc: NestorError, code: str, **details: str | int) -> ProgressError:
    return ProgressError(f"the backup's {what}: {exc}", code=code, error=exc, **details)


def _read_stats(data: dict[str, object]) -> Stats:
    """The statistics part; bad numbers raise ``progress.numbers``, the rest ``progress.stats``."""
    try:
        values = stats_data_from_text(json.dumps(data))
    except NestorError as exc:
        code = "progress.numbers" if exc.code.startswith(_NUMBER_CODES) else "progress.stats"
        raise _refused("statistics cannot be read", exc, code, reason=exc.code) from None
    try:
        return Stats.restore(values)
    except NestorError as exc:
        raise _refused("statistics disagree", exc, "progress.numbers", reason=exc.code) from None


def _read_game(data: dict[str, object], where: str) -> SavedGame:
    try:
        return game_from_text(json.dumps(data))
    except NestorError as exc:
        raise _refused(f"{where} cannot be read", exc, "progress.game", where=where,
                       reason=exc.code) from None


def _read_settings(data: dict[str, object]) -> Settings:
    try:
        return settings_from_text(json.dumps(data))
    except NestorError as exc:
        name, value = exc.details.get("name", ""), exc.details.get("value", "")
        raise _refused("settings cannot be used", exc, "progress.settings", name=str(name),
                       value=str(value)) from None


def _read_puzzles(data: dict[str, object]) -> PuzzleRecord:
    try:
        return record_from_data(data)
    except NestorError as exc:
        raise _refused("puzzle record cannot be read", exc, "progress.puzzles",
                       reason=exc.code) from None

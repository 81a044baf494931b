"""The statistics as stored text: :func:`stats_to_text` and :func:`stats_from_text`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nestor import MAX_DEAL, VARIANTS, DealNumberError, NestorError
from nestor.checks import whole_number
from nestor.daily import parse_date
from nestor.errors import clip
from nestor.jsontext import load_object

from ..app.ranges import day_in_range, in_range
from ..app.statistics.data import (
    DEAL_STATES,
    RESULTS,
    DailyRecord,
    DealEntry,
    Settlement,
    StatsData,
    VariantCounts,
)
from ..app.statistics.record import Stats
from .keys import json_text

STATS_VERSION = 3
READ_VERSIONS = (1, 2, 3)

_COUNT_FIELDS = {
    "played": "played", "won": "won", "won_assisted": "won_with_help",
    "streak": "streak", "best_streak": "best_streak",
}
"""The stored name of each counter of a variant -> its field in ``VariantCounts``."""


def stats_to_text(stats: Stats) -> str:
    """The stored text of ``stats`` (its shape: docs/formats.md)."""
    data = stats.snapshot()
    return json_text({
        "version": STATS_VERSION,
        "variants": {
            name: {k: getattr(c, field) for k, field in _COUNT_FIELDS.items()}
            | {"fastest_ms": c.fastest_ms}
            for name, c in data.counts.items()
        },
        "deals": [[e.variant, e.deal, e.start_ms, e.state, e.helped] for e in data.deals],
        "history": [
            [s.time_ms, s.variant, s.deal, s.result, s.taken_back] for s in data.history
        ],
        "resets": dict(data.resets),
        "daily": {
            "won": [day.isoformat() for day in data.daily.won],
            "best_streak": data.daily.best_streak,
            "reset_ms": data.daily.reset_ms,
        },
    })


def stats_from_text(text: str, now_ms: int | None = None) -> Stats:
    """Read statistics text (dates won up to ``now_ms``, default now); raises NestorError."""
    return Stats.restore(stats_data_from_text(text, now_ms))


def stats_data_from_text(text: str, now_ms: int | None = None) -> StatsData:
    """The values of statistics text, each checked alone (type, range); raises NestorError."""
    data = load_object(text, ("they are", "they have"))
    version = data.get("version")
    if isinstance(version, bool) or version not in READ_VERSIONS:
        load_object(text, ("they are", "they have"), STATS_VERSION)  # raises: says which
    counts = _read_counts(_part(data, "variants", dict))
    deals = tuple(_deal(row, f"deals[{i}]") for i, row in enumerate(_part(data, "deals", list)))
    size = 4 if version == 1 else 5  # (version 1's history rows have no taken_back)
    history = tuple(
        _settlement(row, f"history[{i}]", size)
        for i, row in enumerate(_part(data, "history", list))
    )
    if version == 1:
        if sum(1 for e in deals if e.state == "playing") > 1:
            raise NestorError("more than one game is unsettled in 'deals'")
        return StatsData(counts, deals, history)
    resets = {
        _variant_name(name, "a key of 'resets'"): in_range(value, f"resets[{name!r}]", "moment")
        for name, value in _part(data, "resets", dict).items()
    }
    daily = DailyRecord() if version == 2 else _read_daily(_part(data, "daily", dict), now_ms)
    return StatsData(counts, deals, history, resets, daily)


def _part(data: dict[str, object], key: str, kind: type) -> Any:  # noqa: ANN401 (dict or list)
    if key not in data:
        raise NestorError(f"{key!r} is missing")
    value = data[key]
    if not isinstance(value, kind):
        noun = "an object" if kind is dict else "a list"
        raise NestorError(f"{key!r} must be {noun}, not {clip(repr(value))}")
    return value


def _deal_number(value: object, where: str) -> int:
    return whole_number(value, where, high=MAX_DEAL - 1, code="deal", error=DealNumberError)


def _variant_name(value: object, where: str) -> str:
    if not isinstance(value, str) or value not in VARIANTS:
        raise NestorError(f"{where} must be a variant name, not {clip(repr(value))}")
    return value


def _one_of(value: object, choices: Sequence[str], where: str) -> str:
    if not isinstance(value, str) or value not in choices:
        names = ", ".join(repr(c) for c in choices)
        raise NestorError(f"{where} must be one of {names}, not {clip(repr(value))}")
    return value


def _row(value: object, size: int, where: str) -> list[object]:
    if not isinstance(value, list) or len(value) != size:
        raise NestorError(f"{where} must be a list of {size} values, not {clip(repr(value))}")
    return value


def _read_counts(data: dict[str, object]) -> dict[str, VariantCounts]:
    counts = {}
    for name, value in data.items():
        _variant_name(name, "a key of 'variants'")
        if not isinstance(value, dict):
            raise NestorError(f"variants[{name!r}] must be an object, not {clip(repr(value))}")
        fields = {}
        for field, attribute in _COUNT_FIELDS.items():
            if field not in value:
                raise NestorError(f"variants[{name!r}] has no {field!r}")
            fields[attribute] = in_range(value[field], f"variants[{name!r}][{field!r}]", "count")
        fastest = value.get("fastest_ms")
        if fastest is not None:
            fields["fastest_ms"] = in_range(fastest, f"variants[{name!r}]['fastest_ms']", "win")
        counts[name] = VariantCounts(**fields)
    return counts


def _deal(raw: object, where: str) -> DealEntry:
    variant, deal, start, state, helped = _row(raw, 5, where)
    return DealEntry(
        _variant_name(variant, f"{where}[0]"),
        _deal_number(deal, f"{where}[1]"),
        None if start is None else in_range(start, f"{where}[2]", "moment"),
        _one_of(state, DEAL_STATES, f"{where}[3]"),
        _bool(helped, f"{where}[4]"),
    )


def _settlement(raw: object, where: str, size: int) -> Settlement:
    row = _row(raw, size, where)
    return Settlement(
        in_range(row[0], f"{where}[0]", "moment"),
        _variant_name(row[1], f"{where}[1]"),
        _deal_number(row[2], f"{where}[2]"),
        _one_of(row[3], RESULTS, f"{where}[3]"),
        _bool(row[4], f"{where}[4]") if size > 4 else False,
    )


def _read_daily(data: dict[str, object], now_ms: int | None) -> DailyRecord:
    days = []
    for i, text in enumerate(_part(data, "won", list)):
        try:
            day = parse_date(text)
        except NestorError as exc:
            raise NestorError(f"daily['won'][{i}]: {exc}", code=exc.code, **exc.details) from None
        days.append(day_in_range(day, f"daily['won'][{i}]", now_ms))
    if "best_streak" not in data:
        raise NestorError("'daily' has no 'best_streak'")
    reset = data.get("reset_ms")
    return DailyRecord(
        tuple(days),
        in_range(data["best_streak"], "daily['best_streak']", "count"),
        None if reset is None else in_range(reset, "daily['reset_ms']", "moment"),
    )


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise NestorError(f"{where} must be true or false, not {clip(repr(value))}")
    return value

"""Words for the errors the player can meet, from their ``code`` and ``details``."""

from __future__ import annotations

from collections.abc import Mapping

from nestor import VARIANTS, NestorError

from .i18n import N_, _, thousands, variant_title
from .texts import setting_label

ERROR_WORDS: Mapping[str, str] = {
    "variant.unknown": N_("there is no variant called “{value}”"),
    "variant.not_text": N_("a variant name must be text"),
    "deal.not_whole": N_("“{value}” is not a whole number"),
    "deal.range": N_("a deal number runs from 0 to {high}, not {value}"),
    "date.syntax": N_("“{value}” is not a date written as YYYY-MM-DD"),
    "date.unknown": N_("there is no date {value}"),
    "date.future": N_("the daily deal of {value} is not out yet (today is {today})"),
    "date.early": N_("there is no daily deal of {value}: the first is of {first}"),
    "number.not_whole": N_("“{where}” must be a whole number, not {kind}"),
    "number.range": N_("“{where}” must lie between {low} and {high}, not {value}"),
    "number.too_small": N_("“{where}” must be {low} or more, not {value}"),
    "range.duration": N_("“{where}” is a time longer than a century"),
    "range.win": N_("“{where}” is a time longer than a century"),
    "range.too_fast": N_("“{where}” is a win faster than anyone plays (under {low} ms)"),
    "range.help": N_("“{where}” counts more help than one game can hold (over {high})"),
    "range.date": N_("“{where}” is {value}, a date no daily deal was won on (they run from {first} "
                     "to {last})"),
    "range.moment": N_("“{where}” is a date after the year 9999"),
    "range.count": N_("“{where}” counts more than anyone can play (over {high})"),
    "stats.wins": N_("{variant} has more wins ({wins}) than games played ({played})"),
    "stats.streak": N_("the streak in {variant} ({streak}) is longer than its best ({best})"),
    "stats.best_streak": N_("the best streak in {variant} ({best}) is longer than its wins "
                            "({wins})"),
    "stats.daily_streak": N_("the best daily streak ({best}) is longer than the days up to the "
                             "last date won ({days})"),
    "json.invalid": N_("the text is not valid JSON"),
    "json.too_deep": N_("the text is nested too deeply"),
    "json.not_object": N_("the text is not a JSON object"),
    "json.number_too_long": N_("the text holds a number too long to read"),
    "json.version": N_("the format version {value} is unknown"),
    "record.missing_key": N_("the game record has no “{key}”"),
    "record.moves_not_list": N_("the game record's moves are not a list"),
    "record.illegal_move": N_("move {index} ({move}) is not allowed there"),
    "record.move": N_("move {index} cannot be read"),
    "moves.too_long": N_("the moves are longer than any game"),
    "moves.version": N_("the moves are written in a form this version of the game does not know "
                        "(“{value}”)"),
    "moves.character": N_("character {index} of the moves, “{value}”, stands for no card"),
    "moves.incomplete": N_("move {index} has only one card"),
    "moves.order": N_("move {index} is written the wrong way round"),
    "puzzle.unknown": N_("there is no puzzle “{value}”: the puzzles are numbered 1 to {count}"),
    "puzzles.entry": N_("the tried puzzle at “{where}” cannot be read"),
    "setting.unknown": N_("there is no setting called “{name}”"),
    "setting.value": N_("the setting “{name}” cannot be {value}"),
}
"""Words for each error code; the error's ``details`` fill the fields."""

KIND_WORDS: Mapping[str, str] = {
    "bool": N_("a yes/no value"),
    "str": N_("text"),
    "float": N_("a decimal number"),
    "NoneType": N_("nothing"),
    "list": N_("a list"),
    "dict": N_("an object"),
    "": N_("a value of another kind"),
}
"""Words for the kind of a value that is not a whole number (an error's ``kind``)."""

ERROR_FALLBACK: Mapping[str, str] = {
    "VariantError": N_("the variant is unknown"),
    "DealNumberError": N_("the deal number is not one the game knows"),
    "DateError": N_("the date cannot be used"),
    "RecordError": N_("the game record does not replay"),
    "IllegalMoveError": N_("a move is not allowed there"),
    "MoveError": N_("a move cannot be read"),
    "PositionError": N_("the position is not possible"),
    "CardError": N_("a card cannot be read"),
}
"""Words for an error whose code has none, by the error's class (or a base class)."""


def error_text(error: NestorError) -> str:
    """An engine error in the player's language, from its ``code`` and ``details``."""
    code = getattr(error, "code", "")
    details = {k: str(v) for k, v in (getattr(error, "details", None) or {}).items()}
    if code.startswith("setting.") and "name" in details:
        details["name"] = setting_label(details["name"])  # as its control is labelled
    if "kind" in details:
        typed = (details.get("where"), details["kind"]) == ("deal", "str")  # a link's text
        details["kind"] = _(KIND_WORDS.get(details["kind"], KIND_WORDS[""]))
        if code == "deal.not_whole" and not typed:
            code = "number.not_whole"  # a stored value: its place and kind, never its repr
    if code.startswith(("range.", "stats.")):
        raw = getattr(error, "details", None) or {}
        for name, value in raw.items():
            if isinstance(value, int) and name != "value":
                details[name] = thousands(value)
        if details.get("variant") in VARIANTS:
            details["variant"] = variant_title(details["variant"])
    words = ERROR_WORDS.get(code)
    if words is not None:
        try:
            return _(words).format(**details)
        except (KeyError, IndexError):
            pass  # a detail missing: say what kind of problem it is
    for cls in type(error).__mro__:
        if cls.__name__ in ERROR_FALLBACK:
            return _(ERROR_FALLBACK[cls.__name__])
    return _("the data is damaged")

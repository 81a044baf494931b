"""Exceptions raised by the rules package, each with a code and its arguments.

Every error is a :class:`NestorError`, itself a :class:`ValueError`, so callers
that only care about "bad input" can catch one class. The subclasses say which
kind of input was wrong. ``str(exc)`` is an English message for developers
(the command line prints it); ``exc.code`` and ``exc.details`` say the same
thing without words, so a user interface can word it in any language.

Codes are dotted, stable identifiers. :data:`CODES` lists every code the
package raises with the names of its details, always all of them. Detail
values are numbers or language-neutral text: card codes, variant names, a
clipped copy of the bad value (text as it was given, other values as their
``repr``), a Python type name (``type``), a field name or a JSON path
(``where``, e.g. ``"cursor"``, ``"columns[2]"``: columns count from 0 in a
path, from 1 in a ``column`` detail), or another code (``reason``, the error
an error wraps: ``"record.move"`` with reason ``"card.rank"``). When an error
is re-raised as another class for the same fault, it keeps its code and
details (an unknown variant in a record is a :class:`RecordError` with code
``"variant.unknown"``).
"""

from __future__ import annotations

CODES: dict[str, tuple[str, ...]] = {
    # cards.parse_card
    "card.not_text": ("type",),  # the card is not a str
    "card.syntax": ("value",),  # not a rank then a suit
    "card.rank": ("value", "rank"),  # unknown rank character
    "card.suit": ("value", "suit"),  # unknown suit character
    # variants.get_variant
    "variant.not_text": ("type",),
    "variant.unknown": ("value", "choices"),  # choices: the names, comma separated
    # strategies.get_strategy
    "strategy.unknown": ("value", "choices"),  # choices: the names, comma separated
    # checks.whole_number with code "number" (its default) or "deal" (deal numbers);
    # where: the field or path; low, high: the allowed range, both included
    "number.not_whole": ("where", "value", "kind"),  # not an int, or a bool; kind: its type
    "number.range": ("where", "value", "low", "high"),
    "number.too_small": ("where", "value", "low"),  # below low, no upper bound
    "deal.not_whole": ("where", "value", "kind"),  # also a text that is not decimal digits
    "deal.range": ("where", "value", "low", "high"),
    # jsontext
    "json.not_text": ("type",),
    "json.invalid": ("line", "column"),  # where the parser stopped, from 1
    "json.number_too_long": (),  # an integer with too many digits to convert
    "json.too_deep": ("limit",),  # nested more than limit levels
    "json.not_object": ("type",),  # load_object: valid JSON but not an object
    "json.version": ("value", "expected"),  # load_object: another format version
    # position: Pair and parse_move
    "move.same_card": ("card",),
    "move.ranks_differ": ("first", "second"),
    "move.not_text": ("type",),
    "move.syntax": ("value",),  # not two cards or "stock"
    # position: Position.apply / is_legal (IllegalMoveError)
    "illegal.game_over": ("outcome",),  # outcome: "won", "no_pair" or "stock_unpaired"
    "illegal.no_stock": ("variant",),  # a stock turn in a variant without a stock
    "illegal.stock_empty": (),
    "illegal.tableau_empty": (),  # Strict: pair the turned-up stock instead
    "illegal.pair_left": ("pair",),  # a stock turn while this pair is available
    # place: "column" (covered; column says which, from 1), "reserve" (under the
    # top card), "stock" (face down) or "gone" (no longer in play); column 0 unless "column"
    "illegal.not_available": ("card", "place", "column"),
    # position: Position.checked, from_text, from_json (PositionError)
    "position.not_text": ("type",),
    "position.not_object": ("type",),
    "position.fields": ("found",),  # the text has found fields, not 5
    "position.unreadable": ("where", "value", "at"),  # at: the character, from 1
    "position.empty_field": ("where",),  # a field with no cards, not "-"
    "position.unpaired_count": ("found",),  # more than one unpaired card
    "position.unknown_key": ("key",),
    "position.missing_key": ("key",),  # the first of "variant", "columns" missing
    "position.columns_not_list": (),
    "position.not_cards": ("where",),  # not a list of card codes
    "position.card": ("where", "value", "reason"),  # reason: a card.* code
    "position.unpaired_not_card": (),
    "position.variant_not_name": (),
    "position.columns": ("variant", "expected", "found"),  # number of columns
    "position.column_deep": ("column", "cards", "depth", "variant"),
    "position.column_rank_twice": ("column", "rank"),
    "position.no_reserve": ("variant",),  # reserve cards in a variant with a stock
    "position.stock_too_big": ("limit",),  # stock plus unpaired card
    "position.no_stock": ("variant",),  # stock cards in a variant without one
    "position.no_unpaired": ("variant",),  # an unpaired card in a variant without a stock
    "position.reserve_too_big": ("cards", "limit", "variant"),
    "position.card_twice": ("card",),
    "position.odd_rank": ("rank", "count"),
    # game: Record, Game
    "record.not_text": ("type",),
    "record.not_object": ("type",),
    "record.fields": (),  # the text lacks the variant or the deal number
    "record.missing_key": ("key",),
    "record.moves_not_list": (),
    "record.move": ("index", "reason"),  # move index (from 1) unreadable; reason: move.*/card.*
    "record.illegal_move": ("index", "move", "reason"),  # reason: an illegal.* code
    # link: the moves code of a replay link (decode_moves)
    "moves.not_text": ("type",),
    "moves.too_long": ("limit",),  # more characters than limit
    "moves.version": ("value", "expected"),  # value: the first character ("" if none)
    "moves.character": ("index", "value"),  # character index (from 1) is no card or move
    "moves.incomplete": ("index",),  # move index (from 1) is a pair with one card
    "moves.order": ("index",),  # move index (from 1): the pair's cards in the wrong order
    "history.undo": (),  # nothing to undo
    "history.redo": (),  # nothing to redo
    # daily: parse_date, check_daily_date (DateError); value: the date as given, clipped
    "date.syntax": ("value",),  # not YYYY-MM-DD
    "date.unknown": ("value",),  # no such date (2026-02-30)
    "date.future": ("value", "today"),  # a daily deal after today: both ISO dates
    "date.early": ("value", "first"),  # a daily deal before the first (daily.FIRST_DAY)
    # graded_deals: deals_of_grade, pick_deal
    "grade.unknown": ("grade",),  # not easy, medium, hard or unwinnable
    # puzzles: the shipped set (read_puzzles, get_puzzle)
    "puzzle.format": ("value",),  # value: the file's first line, clipped
    "puzzle.line": ("id", "value"),  # the line of puzzle id cannot be read
    "puzzle.unknown": ("value", "count"),  # not a whole number from 1 to count
    # cli
    "cli.line": ("line", "reason"),  # solve: input line (from 1) is not a position
    # the solver (nestor.solver) and any error raised without a code
    "solver.budget": (),  # the node budget ran out (internal, caught by solve)
    "error": (),  # no code given
}
"""Every error code the package raises, mapped to the names of its details."""


def clip(text: str, limit: int = 60) -> str:
    """Shorten ``text`` for an error message: at most ``limit`` characters, then "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class NestorError(ValueError):
    """Base class of every error this package raises on bad input or play.

    Args:
        message: the English developer message, ``str(exc)``.
        code: a key of :data:`CODES`, e.g. ``"variant.unknown"``.
        **details: the code's arguments, ``str`` or ``int`` each (see :data:`CODES`).

    Attributes:
        code: the error's code.
        details: its arguments, a new dict per error.
    """

    def __init__(self, message: str, *, code: str = "error", **details: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.details: dict[str, str | int] = details


def type_name(value: object) -> str:
    """The name of ``value``'s type, as error details give it (``"NoneType"``, ``"dict"``)."""
    return type(value).__name__


class CardError(NestorError):
    """A card code could not be read (e.g. ``"1H"``, ``"TX"``, ``""``)."""


class DateError(NestorError):
    """A calendar date could not be used (a daily deal's date, see :mod:`nestor.daily`)."""


class VariantError(NestorError):
    """A variant name is not one of :data:`nestor.variants.VARIANTS`."""


class DealNumberError(NestorError):
    """A deal number is not an integer in ``0 <= n < 2**32``."""


class PositionError(NestorError):
    """A position (text or JSON) is malformed or impossible."""


class MoveError(NestorError):
    """A move's notation could not be read."""


class IllegalMoveError(NestorError):
    """A well-formed move that the rules do not allow in this position."""


class HistoryError(NestorError):
    """Undo with nothing to undo, or redo with nothing to redo."""


class RecordError(NestorError):
    """A game record (text or JSON) is malformed or does not replay."""

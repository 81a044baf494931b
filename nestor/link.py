"""Replay links: a game record as a URL query, with the moves in a compact, versioned code.

A replay link's query is ``variant=V&deal=N&moves=M`` (:func:`record_query`), e.g.
``variant=standard&deal=7&moves=1CPLYer`` for the record ``"standard 7 3C-3D QC-QD 5H-5S"``.
``M`` (:func:`encode_moves`, :func:`decode_moves`) is the version character ``1``, then each
card as one base64url digit, its place in new-deck order (:data:`nestor.cards.DECK`), a pair's
cards in that order, and ``0`` for a Strict stock turn: each record has exactly one code.
Malformed codes raise :class:`~nestor.errors.RecordError` (``moves.*`` codes). The code in
full: docs/formats.md, "Replay links".
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import parse_qs, urlencode

from .cards import DECK, deck_index
from .deal import check_deal_number
from .errors import MoveError, NestorError, RecordError, clip, type_name
from .game import Record
from .position import Move, Pair, TurnStock
from .variants import get_variant

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
"""The base64url digits in value order: a character's index is its value."""

MOVES_VERSION = "1"
"""The version character that starts a moves code written by :func:`encode_moves`."""

STOCK = ALPHABET[len(DECK)]
"""The character of a stock turn: ``"0"``, value 52."""

MAX_MOVES_TEXT = 200
"""The longest moves code read. A game has at most 26 pairs and a few stock turns (no more
than 60 characters): anything longer is refused before it is read."""

_VALUE = {char: value for value, char in enumerate(ALPHABET)}


def encode_moves(moves: Iterable[Move]) -> str:
    """The moves code of ``moves`` (see the module's docstring), version first.

    >>> encode_moves([Pair("QC", "QD"), TurnStock()])
    '1LY0'
    """
    parts = [MOVES_VERSION]
    for move in moves:
        if isinstance(move, TurnStock):
            parts.append(STOCK)
        else:
            parts.append(ALPHABET[deck_index(move.first)] + ALPHABET[deck_index(move.second)])
    return "".join(parts)


def decode_moves(text: str) -> tuple[Move, ...]:
    """Read a moves code written by :func:`encode_moves`.

    >>> [str(m) for m in decode_moves("1LY0")]
    ['QC-QD', 'stock']

    Raises:
        RecordError: the code is malformed (codes in the module's docstring); the message
            names the character or the move.
    """
    if not isinstance(text, str):
        raise RecordError(
            f"the moves must be text, not {type_name(text)}",
            code="moves.not_text", type=type_name(text),
        )
    if len(text) > MAX_MOVES_TEXT:
        raise RecordError(
            f"the moves are longer than any game ({len(text)} characters, at most "
            f"{MAX_MOVES_TEXT})", code="moves.too_long", limit=MAX_MOVES_TEXT,
        )
    if text[:1] != MOVES_VERSION:
        raise RecordError(
            f"the moves start with {clip(text[:1])!r}, not the version {MOVES_VERSION!r}",
            code="moves.version", value=clip(text[:1]), expected=MOVES_VERSION,
        )
    values = []
    for index, char in enumerate(text[1:], 2):
        value = _VALUE.get(char)
        if value is None or value > len(DECK):
            raise RecordError(
                f"character {index} of the moves, {char!r}, stands for no card or move",
                code="moves.character", index=index, value=char,
            )
        values.append(value)
    moves: list[Move] = []
    at = 0
    while at < len(values):
        number = len(moves) + 1
        if values[at] == len(DECK):
            moves.append(TurnStock())
            at += 1
            continue
        if at + 1 == len(values) or values[at + 1] == len(DECK):
            raise RecordError(
                f"move {number} has only one card", code="moves.incomplete", index=number
            )
        first, second = DECK[values[at]], DECK[values[at + 1]]
        try:
            pair = Pair(first, second)
        except MoveError as exc:
            raise RecordError(
                f"move {number}: {exc}", code="record.move", index=number, reason=exc.code
            ) from None
        if pair.first != first:
            raise RecordError(
                f"move {number}: {second} must come before {first}",
                code="moves.order", index=number,
            )
        moves.append(pair)
        at += 2
    return tuple(moves)


def record_query(record: Record) -> str:
    """The query of the replay link of ``record``: ``"variant=V&deal=N&moves=M"`` (no
    ``?``; the order of the keys is always this one)."""
    return urlencode({
        "variant": record.variant.name, "deal": record.deal, "moves": encode_moves(record.moves)
    })


def is_replay_query(query: str) -> bool:
    """Whether the URL query (with or without its ``?``) is a replay link's: it has
    ``moves``."""
    return "moves" in parse_qs(query.lstrip("?"), keep_blank_values=True)


def record_from_query(query: str) -> Record:
    """The record in a replay link's query (with or without its ``?``; of a key given twice,
    the first counts). Whether its moves are legal is left to :meth:`Record.replay`.

    Raises:
        RecordError: a key missing (``record.missing_key``), a bad variant or deal number
            (their own codes, e.g. ``variant.unknown``, ``deal.range``), malformed moves
            (the codes of :func:`decode_moves`).
    """
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    for key in ("variant", "deal", "moves"):
        if key not in params:
            raise RecordError(
                f"a replay link needs {key!r}", code="record.missing_key", key=key
            )
    try:
        variant = get_variant(params["variant"][0])
        deal = check_deal_number(params["deal"][0])
    except NestorError as exc:
        raise RecordError(str(exc), code=exc.code, **exc.details) from None
    return Record(variant, deal, decode_moves(params["moves"][0]))

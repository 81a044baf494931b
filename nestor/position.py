"""Positions, moves and the rules of play.

A :class:`Position` is immutable: :meth:`Position.apply` returns a new one, so
positions can be kept in a history, compared and used as dictionary keys.

The rules (sources: ``shared/seeds`` 000 "Playing"/"Winning"/"Variants", 001):

* Available cards are the last card of each column and the reserve cards the
  variant opens (all of them, or only the top one for the overlapping reserve).
* A move removes two available cards of equal rank: two column cards, a column
  card and a reserve card, or two reserve cards where both are available.
* Strict: the stock is turned one card at a time, and only when no pair is
  available. The turned card is removed with the available card of its rank
  (there is at most one, since no pair was available); if there is none, the
  turned card stays face up and the game is lost.
* The game is won when no card is left; this is checked before any loss.

Our rules where the sources are silent:

* Overlapping reserve: only the top reserve card is available, so two reserve
  cards never pair with each other directly; the card below becomes available
  once the top one has been paired away.
* Strict with the tableau empty and cards still in the stock: there is nothing
  left for a turned card to pair with, yet the stock's cards can only be pairs
  (cards leave in pairs, so every rank has an even number left). We turn the
  whole stock face up: its cards become available and are paired with each
  other as usual, which always wins.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from .cards import RANKS, deck_index, parse_card, rank_of
from .errors import CardError, IllegalMoveError, MoveError, PositionError, clip, type_name
from .variants import Variant, get_variant

Area = Literal["column", "reserve", "stock"]


class Place(NamedTuple):
    """Where an available card lies: ``area`` and ``slot``, its index within it.

    For ``"column"`` the slot is the column (0-based); for ``"reserve"`` and
    ``"stock"`` it is the card's index in :attr:`Position.reserve` or
    :attr:`Position.stock`.
    """

    area: Area
    slot: int


@dataclass(frozen=True, order=True)
class Pair:
    """The move that removes two available cards of equal rank.

    The two codes are stored in new-deck order, so ``Pair("7S", "7H")`` equals
    ``Pair("7H", "7S")``. Notation: ``"7H-7S"``.

    Raises:
        CardError: if a code is not a card.
        MoveError: if both codes are the same card (code ``move.same_card``) or
            their ranks differ (``move.ranks_differ``).
    """

    first: str
    second: str

    def __post_init__(self) -> None:
        a, b = parse_card(self.first), parse_card(self.second)
        if a == b:
            raise MoveError(
                f"a pair needs two different cards, got {a} twice", code="move.same_card", card=a
            )
        if rank_of(a) != rank_of(b):
            raise MoveError(
                f"{a} and {b} are not a pair: their ranks differ",
                code="move.ranks_differ", first=a, second=b,
            )
        if deck_index(a) > deck_index(b):
            a, b = b, a
        object.__setattr__(self, "first", a)
        object.__setattr__(self, "second", b)

    @property
    def cards(self) -> tuple[str, str]:
        """The two card codes, in new-deck order."""
        return (self.first, self.second)

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


@dataclass(frozen=True)
class TurnStock:
    """Strict only: turn the top stock card. Notation: ``"stock"``."""

    def __str__(self) -> str:
        return "stock"


Move = Pair | TurnStock
"""A move: a :class:`Pair` or :class:`TurnStock`."""


def parse_move(text: str) -> Move:
    """Read a move from its notation: ``"7H-7S"`` (also ``"7h 7s"``, ``"10H-10S"``) or ``"stock"``.

    Raises:
        MoveError: if the text is not a move, naming what is wrong: code
            ``move.not_text``, ``move.syntax``, or the code of the card or pair
            error (``card.*``, ``move.same_card``, ``move.ranks_differ``).
    """
    if not isinstance(text, str):
        raise MoveError(
            f"a move must be text, not {type_name(text)}",
            code="move.not_text", type=type_name(text),
        )
    clean = text.strip()
    if clean.lower() == "stock":
        return TurnStock()
    parts = [p for p in re.split(r"[\s\-+,]+", clean) if p]
    if len(parts) != 2:
        raise MoveError(
            f"bad move {clip(text)!r}: write a pair as '7H-7S', or 'stock'",
            code="move.syntax", value=clip(text),
        )
    try:
        return Pair(parts[0], parts[1])
    except (CardError, MoveError) as exc:
        raise MoveError(f"bad move {clip(text)!r}: {exc}", code=exc.code, **exc.details) from None


class Outcome(Enum):
    """How a finished game ended."""

    WON = "won"
    NO_PAIR = "no pair left"
    STOCK_UNPAIRED = "stock card can't pair"

    @property
    def won(self) -> bool:
        """``True`` for a win."""
        return self is Outcome.WON

    @property
    def result(self) -> str:
        """``"won"`` or ``"lost"``."""
        return "won" if self.won else "lost"


_CARD_TOKEN = re.compile(r"(10|[2-9TJQKA])([CDHS])", re.IGNORECASE)


def _label(where: str) -> str:
    """The English name of a field given as a path: ``"columns[2]"`` -> ``"column 3"``."""
    if where.startswith("columns["):
        return f"column {int(where[8:-1]) + 1}"
    return "unpaired card" if where == "unpaired" else where


def _parse_cards(text: str, where: str) -> tuple[str, ...]:
    """Read a run of card codes written together (``"7H10SKC"``), ``"-"`` for none.

    ``where`` names the field as a path (``"columns[2]"``, ``"reserve"``).
    """
    what = _label(where)
    if text == "-":
        return ()
    cards = []
    pos = 0
    while pos < len(text):
        m = _CARD_TOKEN.match(text, pos)
        if m is None:
            raise PositionError(
                f"{what}: cannot read a card at {text[pos:pos + 3]!r} "
                f"(character {pos + 1} of {clip(text)!r})",
                code="position.unreadable", where=where, value=clip(text), at=pos + 1,
            )
        cards.append(parse_card(m.group(0)))
        pos = m.end()
    if not cards:
        raise PositionError(
            f"{what}: empty; write '-' for no cards", code="position.empty_field", where=where
        )
    return tuple(cards)


def _write_cards(cards: Iterable[str]) -> str:
    return "".join(cards) or "-"


_WHERE = {
    "column": "it is covered in column {column}",
    "reserve": "it lies under the top reserve card",
    "stock": "it is face down in the stock",
    "gone": "it is no longer in play",
}
"""The end of the English message of ``illegal.not_available``, by place."""


@dataclass(frozen=True)
class Position:
    """The cards left in play, where they lie, and the variant's rules.

    Attributes:
        variant: the :class:`~nestor.variants.Variant` being played.
        columns: one tuple per column, deepest card first; the last card of a
            column is its available card.
        reserve: the reserve in row order (overlapping reserve: last is on top).
        stock: Strict's face-down stock in turning order (``stock[0]`` next).
        unpaired: Strict only: a turned stock card that could not pair, which
            ends the game; else ``None``.

    Construct positions with :func:`nestor.deal.deal_position`,
    :meth:`from_text`, :meth:`from_json` or :meth:`checked`; the plain
    constructor does not validate.
    """

    variant: Variant
    columns: tuple[tuple[str, ...], ...]
    reserve: tuple[str, ...] = ()
    stock: tuple[str, ...] = ()
    unpaired: str | None = None

    # ---- construction and validation -------------------------------------------------

    @classmethod
    def checked(
        cls,
        variant: Variant,
        columns: Iterable[Iterable[str]],
        reserve: Iterable[str] = (),
        stock: Iterable[str] = (),
        unpaired: str | None = None,
    ) -> Position:
        """Build a position from card texts and check that play could reach it.

        Raises:
            CardError: a card code is unreadable.
            PositionError: wrong number of columns, a column deeper than the
                deal, two cards of one rank in a column, a card twice, an odd
                number of cards of a rank, or reserve/stock/unpaired cards in a
                variant without them (the message names which; codes
                ``position.columns`` .. ``position.odd_rank`` in
                :data:`nestor.errors.CODES`).
        """
        cols = tuple(tuple(parse_card(c) for c in col) for col in columns)
        res = tuple(parse_card(c) for c in reserve)
        stk = tuple(parse_card(c) for c in stock)
        turned = parse_card(unpaired) if unpaired is not None else None
        v = variant
        if len(cols) != v.columns:
            raise PositionError(
                f"{v.name} has {v.columns} columns, but the position has {len(cols)}",
                code="position.columns", variant=v.name, expected=v.columns, found=len(cols),
            )
        for i, col in enumerate(cols, 1):
            if len(col) > v.depth:
                raise PositionError(
                    f"column {i} holds {len(col)} cards; {v.name} deals only {v.depth}",
                    code="position.column_deep", column=i, cards=len(col), depth=v.depth,
                    variant=v.name,
                )
            ranks = Counter(rank_of(c) for c in col)
            twice = sorted((r for r, n in ranks.items() if n > 1), key=RANKS.index)
            if twice:
                raise PositionError(
                    f"column {i} holds two cards of rank {twice[0]}, which the deal never does",
                    code="position.column_rank_twice", column=i, rank=twice[0],
                )
        if v.has_stock:
            if res:
                raise PositionError(
                    f"{v.name} has a stock, not a reserve: reserve must be empty",
                    code="position.no_reserve", variant=v.name,
                )
            if len(stk) + (turned is not None) > v.spare:
                raise PositionError(
                    f"the stock holds at most {v.spare} cards",
                    code="position.stock_too_big", limit=v.spare,
                )
        else:
            if stk:
                raise PositionError(
                    f"{v.name} has no stock: stock must be empty",
                    code="position.no_stock", variant=v.name,
                )
            if turned is not None:
                raise PositionError(
                    f"{v.name} has no stock, so no turned stock card",
                    code="position.no_unpaired", variant=v.name,
                )
            if len(res) > v.spare:
                raise PositionError(
                    f"the reserve holds {len(res)} cards; {v.name} has only {v.spare}",
                    code="position.reserve_too_big", cards=len(res), limit=v.spare,
                    variant=v.name,
                )
        everything = [c for col in cols for c in col] + list(res) + list(stk)
        if turned is not None:
            everything.append(turned)
        seen: set[str] = set()
        for card in everything:
            if card in seen:
                raise PositionError(
                    f"card {card} appears twice", code="position.card_twice", card=card
                )
            seen.add(card)
        counts = Counter(rank_of(c) for c in everything)
        odd = [r for r in RANKS if counts[r] % 2]
        if odd:
            raise PositionError(
                f"rank {odd[0]} has {counts[odd[0]]} cards left; cards leave in pairs, "
                "so every rank must have an even number",
                code="position.odd_rank", rank=odd[0], count=counts[odd[0]],
            )
        return cls(v, cols, res, stk, turned)

    # ---- rules -----------------------------------------------------------------------
    #
    # Positions are immutable, so each answer is worked out once, on first use, and
    # kept (``cached_property`` stores it in the instance; it is not a field, so it
    # takes no part in ``==`` and ``hash``). What is handed out cannot be changed.

    @cached_property
    def _places(self) -> dict[str, Place]:
        avail: dict[str, Place] = {}
        if self.unpaired is None:
            for i, col in enumerate(self.columns):
                if col:
                    avail[col[-1]] = Place("column", i)
            n = len(self.reserve)
            first = max(0, n - 1) if self.variant.overlapping else 0
            for j in range(first, n):
                avail[self.reserve[j]] = Place("reserve", j)
            if self.stock_turned_up:
                for j, card in enumerate(self.stock):
                    avail[card] = Place("stock", j)
        return avail

    def available(self) -> Mapping[str, Place]:
        """Return the available cards, each mapped to its :class:`Place` (read-only).

        Order: columns left to right, then reserve (or, in Strict with an empty
        tableau, the stock). Empty once the game is lost on an unpaired stock
        card. Worked out once per position; the view returned is read-only.
        """
        return MappingProxyType(self._places)

    @property
    def stock_turned_up(self) -> bool:
        """Strict with the tableau empty: the stock's cards lie face up and are available.

        ``True`` when stock cards are left, every column is empty and no stock
        card is unpaired (see the module docstring).
        """
        return bool(self.stock) and self.unpaired is None and not any(self.columns)

    def partners(self, card: str) -> tuple[str, ...]:
        """The available cards ``card`` can pair with, in :meth:`available` order.

        Those of ``card``'s rank other than ``card``; ``()`` if ``card`` (a
        canonical code) is not available.
        """
        avail = self._places
        if card not in avail:
            return ()
        rank = rank_of(card)
        return tuple(c for c in avail if c != card and rank_of(c) == rank)

    def newly_available(self, before: Position) -> tuple[str, ...]:
        """The cards available here that were not available in ``before``.

        In :meth:`available` order. After a move, ``before`` being the position
        it was played in: the cards the move uncovered (or turned up).
        """
        was = before._places
        return tuple(c for c in self._places if c not in was)

    @cached_property
    def _cards(self) -> frozenset[str]:
        cards = {c for col in self.columns for c in col}
        cards.update(self.reserve, self.stock)
        if self.unpaired is not None:
            cards.add(self.unpaired)
        return frozenset(cards)

    def __contains__(self, card: object) -> bool:
        """``card in position``: the card (a canonical code) is still in play.

        In a column (covered or not), the reserve, the stock, or the unpaired
        stock card.
        """
        return isinstance(card, str) and card in self._cards

    @cached_property
    def _pairs(self) -> tuple[Pair, ...]:
        by_rank: dict[str, list[str]] = {}
        for card in self._places:
            by_rank.setdefault(rank_of(card), []).append(card)
        out = []
        for cards in by_rank.values():
            for i in range(len(cards)):
                for j in range(i + 1, len(cards)):
                    out.append(Pair(cards[i], cards[j]))
        return tuple(out)

    def pairs(self) -> tuple[Pair, ...]:
        """Return every pair of available cards of equal rank (may be empty).

        Grouped by rank in order of the ranks' first available card, each group
        in :meth:`available` order. Worked out once per position.
        """
        return self._pairs

    def can_turn_stock(self) -> bool:
        """Strict: ``True`` if turning a stock card is legal now (no pair, cards in play)."""
        return (
            self.variant.has_stock
            and bool(self.stock)
            and self.unpaired is None
            and any(self.columns)
            and not self.pairs()
        )

    def legal_moves(self) -> list[Move]:
        """Return every legal move: the pairs, or Strict's stock turn when stuck.

        A new list each call; :meth:`pairs` order.
        """
        moves: list[Move] = list(self.pairs())
        if not moves and self.can_turn_stock():
            moves.append(TurnStock())
        return moves

    def is_legal(self, move: Move) -> bool:
        """``True`` if ``move`` can be applied to this position."""
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    def _check(self, move: Move) -> None:
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMoveError(
                f"the game is over ({outcome.value})",
                code="illegal.game_over", outcome=outcome.name.lower(),
            )
        if isinstance(move, TurnStock):
            if not self.variant.has_stock:
                raise IllegalMoveError(
                    f"{self.variant.name} has no stock to turn",
                    code="illegal.no_stock", variant=self.variant.name,
                )
            if not self.stock:
                raise IllegalMoveError("the stock is empty", code="illegal.stock_empty")
            if not any(self.columns):
                raise IllegalMoveError(
                    "the tableau is empty: pair the stock cards instead",
                    code="illegal.tableau_empty",
                )
            found = self.pairs()
            if found:
                raise IllegalMoveError(
                    f"the stock can be turned only when no pair is left, and {found[0]} is",
                    code="illegal.pair_left", pair=str(found[0]),
                )
            return
        avail = self._places
        for card in move.cards:
            if card not in avail:
                place, column = self._where(card)
                raise IllegalMoveError(
                    f"{card} is not available: {_WHERE[place].format(column=column)}",
                    code="illegal.not_available", card=card, place=place, column=column,
                )

    def _where(self, card: str) -> tuple[str, int]:
        """Where an unavailable card is: ``(place, column)`` as in ``illegal.not_available``."""
        for i, col in enumerate(self.columns, 1):
            if card in col:
                return "column", i
        if card in self.reserve:
            return "reserve", 0
        if card in self.stock:
            return "stock", 0
        return "gone", 0

    def apply(self, move: Move) -> Position:
        """Return the position after ``move``.

        Raises:
            IllegalMoveError: if the move is not legal here; the message says why
                (codes ``illegal.*`` in :data:`nestor.errors.CODES`).
        """
        self._check(move)
        if isinstance(move, TurnStock):
            card = self.stock[0]
            match = next(
                (c for c in self._places if rank_of(c) == rank_of(card)), None
            )
            rest = self.stock[1:]
            if match is None:
                return Position(self.variant, self.columns, self.reserve, rest, card)
            return self._without((match,), stock=rest)
        return self._without(move.cards, stock=self.stock)

    def _without(self, cards: Iterable[str], stock: tuple[str, ...]) -> Position:
        avail = self._places
        columns = list(self.columns)
        gone = set()
        for card in cards:
            place = avail[card]
            if place.area == "column":
                columns[place.slot] = columns[place.slot][:-1]
            else:
                gone.add(card)
        reserve = tuple(c for c in self.reserve if c not in gone)
        stock = tuple(c for c in stock if c not in gone)
        return Position(self.variant, tuple(columns), reserve, stock, self.unpaired)

    @cached_property
    def _outcome(self) -> Outcome | None:
        if self.is_empty():
            return Outcome.WON
        if self.unpaired is not None:
            return Outcome.STOCK_UNPAIRED
        if not self.pairs() and not self.can_turn_stock():
            return Outcome.NO_PAIR
        return None

    def outcome(self) -> Outcome | None:
        """Return how the game ended here, or ``None`` while it goes on.

        A win (no card left) is checked first; then a Strict stock card that
        could not pair; then "no pair left" when no legal move remains. Worked
        out once per position.
        """
        return self._outcome

    def is_empty(self) -> bool:
        """``True`` if every card has been removed."""
        return not (any(self.columns) or self.reserve or self.stock or self.unpaired)

    def cards_left(self) -> int:
        """Number of cards still in play (tableau, reserve, stock, unpaired card)."""
        return (
            sum(len(c) for c in self.columns)
            + len(self.reserve)
            + len(self.stock)
            + (self.unpaired is not None)
        )

    # ---- notation ------------------------------------------------------------------------

    def to_text(self) -> str:
        """Return the position text: five fields separated by single spaces.

        ``variant tableau reserve stock unpaired`` where the tableau is the
        columns separated by ``/`` (each deepest card first) and every other
        field is its cards written together; ``-`` stands for no cards. Example:
        ``standard 9C4HQS/.../KD - - -``. :meth:`from_text` reads it back.
        """
        tableau = "/".join(_write_cards(col) for col in self.columns)
        return " ".join(
            (
                self.variant.name,
                tableau,
                _write_cards(self.reserve),
                _write_cards(self.stock),
                self.unpaired or "-",
            )
        )

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read a position written by :meth:`to_text` (codes in any case, ``10`` for ``T``).

        Raises:
            PositionError: wrong field count, unreadable cards, or an
                impossible position (see :meth:`checked`); codes
                ``position.not_text``, ``position.fields``, ``position.unreadable``,
                ``position.empty_field``, ``position.unpaired_count`` and those
                of :meth:`checked`.
            VariantError: unknown variant name.
        """
        if not isinstance(text, str):
            raise PositionError(
                f"a position must be text, not {type_name(text)}",
                code="position.not_text", type=type_name(text),
            )
        fields = text.split()
        if len(fields) != 5:
            raise PositionError(
                f"a position has 5 fields (variant tableau reserve stock unpaired), "
                f"found {len(fields)}",
                code="position.fields", found=len(fields),
            )
        name, tableau, reserve, stock, unpaired = fields
        variant = get_variant(name)
        columns = [
            _parse_cards(col, f"columns[{i}]") for i, col in enumerate(tableau.split("/"))
        ]
        turned = _parse_cards(unpaired, "unpaired")
        if len(turned) > 1:
            raise PositionError(
                "there is at most one unpaired stock card",
                code="position.unpaired_count", found=len(turned),
            )
        try:
            return cls.checked(
                variant,
                columns,
                _parse_cards(reserve, "reserve"),
                _parse_cards(stock, "stock"),
                turned[0] if turned else None,
            )
        except CardError as exc:  # pragma: no cover - _parse_cards already checked
            raise PositionError(str(exc), code=exc.code, **exc.details) from None

    def to_json(self) -> dict[str, Any]:
        """Return ``{"variant", "columns", "reserve", "stock"}`` (plus ``"unpaired"`` if set).

        Lists of card codes, columns deepest card first; the shape that
        ``python -m nestor deal --json`` prints.
        """
        data: dict[str, Any] = {
            "variant": self.variant.name,
            "columns": [list(col) for col in self.columns],
            "reserve": list(self.reserve),
            "stock": list(self.stock),
        }
        if self.unpaired is not None:
            data["unpaired"] = self.unpaired
        return data

    @classmethod
    def from_json(cls, data: object) -> Position:
        """Read the shape :meth:`to_json` writes (a ``"deal"`` key is ignored).

        Raises:
            PositionError: missing or mistyped keys, bad cards, impossible
                position; codes ``position.not_object``, ``position.unknown_key``,
                ``position.missing_key``, ``position.columns_not_list``,
                ``position.not_cards``, ``position.card``,
                ``position.unpaired_not_card``, ``position.variant_not_name``, a
                ``card.*`` code for a bad unpaired card, and those of :meth:`checked`.
            VariantError: unknown variant.
        """
        if not isinstance(data, dict):
            raise PositionError(
                f"a position must be a JSON object, not {type_name(data)}",
                code="position.not_object", type=type_name(data),
            )
        unknown = set(data) - {"variant", "deal", "columns", "reserve", "stock", "unpaired"}
        if unknown:
            key = sorted(unknown)[0]
            raise PositionError(
                f"unknown key {key!r} in position", code="position.unknown_key", key=clip(str(key))
            )
        missing = [k for k in ("variant", "columns") if k not in data]
        if missing:
            raise PositionError(
                "a position needs the keys 'variant' and 'columns'",
                code="position.missing_key", key=missing[0],
            )

        def cards(value: object, where: str) -> list[str]:
            what = _label(where)
            if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                raise PositionError(
                    f"{what} must be a list of card codes", code="position.not_cards", where=where
                )
            out = []
            for card in value:
                try:
                    out.append(parse_card(card))
                except CardError as exc:
                    raise PositionError(
                        f"{what}: {exc}",
                        code="position.card", where=where, value=clip(card), reason=exc.code,
                    ) from None
            return out

        columns = data["columns"]
        if not isinstance(columns, list):
            raise PositionError(
                "'columns' must be a list of lists of card codes", code="position.columns_not_list"
            )
        unpaired = data.get("unpaired")
        if unpaired is not None and not isinstance(unpaired, str):
            raise PositionError(
                "'unpaired' must be a card code or null", code="position.unpaired_not_card"
            )
        variant = data["variant"]
        if not isinstance(variant, str):
            raise PositionError(
                "'variant' must be a variant name", code="position.variant_not_name"
            )
        try:
            return cls.checked(
                get_variant(variant),
                [cards(col, f"columns[{i}]") for i, col in enumerate(columns)],
                cards(data.get("reserve", []), "reserve"),
                cards(data.get("stock", []), "stock"),
                parse_card(unpaired) if unpaired is not None else None,
            )
        except CardError as exc:
            raise PositionError(str(exc), code=exc.code, **exc.details) from None

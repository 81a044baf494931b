"""A game: one deal played move by move, with undo, redo and a record.

Modelled on python-chess's ``Board.push``/``pop`` and OpenSpiel's state,
whose serialisation is the action history: a game is fully described by its
variant, deal number and moves, and :class:`Record` is exactly that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .checks import whole_number
from .deal import check_deal_number, deal_position
from .errors import HistoryError, MoveError, NestorError, RecordError, type_name
from .jsontext import loads
from .position import Move, Outcome, Position, TurnStock, parse_move
from .variants import Variant, get_variant


@dataclass(frozen=True)
class Record:
    """A game record: variant, deal number and the moves in play order.

    Text form (``to_text``): ``"<variant> <deal> <move> <move> ..."``, e.g.
    ``"standard 7 7H-7S KC-KD stock"``. JSON form: ``{"variant", "deal",
    "moves"}`` with moves as notation strings.
    """

    variant: Variant
    deal: int
    moves: tuple[Move, ...] = ()

    def to_text(self) -> str:
        """Return the record as one line of text (see class docstring)."""
        return " ".join([self.variant.name, str(self.deal), *(str(m) for m in self.moves)])

    @classmethod
    def from_text(cls, text: str) -> Record:
        """Read a record written by :meth:`to_text`.

        Raises:
            RecordError: if a field is missing (codes ``record.not_text``,
                ``record.fields``) or a move is unreadable (``record.move``: the
                message names the move's number); the variant and deal number
                errors are reported as RecordError too, with their own codes
                (``variant.*``, ``deal.*``).
        """
        if not isinstance(text, str):
            raise RecordError(
                f"a game record must be text, not {type_name(text)}",
                code="record.not_text", type=type_name(text),
            )
        fields = text.split()
        if len(fields) < 2:
            raise RecordError(
                "a game record starts with the variant and the deal number", code="record.fields"
            )
        return cls._build(fields[0], fields[1], fields[2:])

    def to_json(self) -> dict[str, Any]:
        """Return ``{"variant": str, "deal": int, "moves": [str, ...]}``."""
        return {
            "variant": self.variant.name,
            "deal": self.deal,
            "moves": [str(m) for m in self.moves],
        }

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read the shape :meth:`to_json` writes.

        Raises:
            RecordError: missing keys, wrong types, unknown variant, bad deal
                number or unreadable move (codes ``record.not_object``,
                ``record.missing_key``, ``record.moves_not_list``, and those of
                :meth:`from_text`).
        """
        if not isinstance(data, dict):
            raise RecordError(
                f"a game record must be a JSON object, not {type_name(data)}",
                code="record.not_object", type=type_name(data),
            )
        for key in ("variant", "deal", "moves"):
            if key not in data:
                raise RecordError(
                    f"a game record needs the key {key!r}", code="record.missing_key", key=key
                )
        moves = data["moves"]
        if not isinstance(moves, list):
            raise RecordError("'moves' must be a list of move texts", code="record.moves_not_list")
        return cls._build(data["variant"], data["deal"], moves)

    @classmethod
    def _build(cls, variant: object, deal: object, moves: list[Any]) -> Record:
        try:
            v = get_variant(variant)  # type: ignore[arg-type]
            n = check_deal_number(deal)
        except NestorError as exc:
            raise RecordError(str(exc), code=exc.code, **exc.details) from None
        parsed = []
        for i, text in enumerate(moves, 1):
            try:
                parsed.append(parse_move(text))
            except MoveError as exc:
                raise RecordError(
                    f"move {i}: {exc}", code="record.move", index=i, reason=exc.code
                ) from None
        return cls(v, n, tuple(parsed))

    def replay(self) -> Game:
        """Return the game after playing every move from the deal.

        Raises:
            RecordError: if a move is illegal where it is played (names it; code
                ``record.illegal_move``, details ``index`` from 1, ``move`` its
                notation, ``reason`` the ``illegal.*`` code).
        """
        game = Game(self.variant, self.deal)
        for i, move in enumerate(self.moves, 1):
            try:
                game.push(move)
            except NestorError as exc:
                raise RecordError(
                    f"move {i} ({move}) is illegal: {exc}",
                    code="record.illegal_move", index=i, move=str(move), reason=exc.code,
                ) from None
        return game


class Game:
    """One deal in play: the positions reached, the moves, and an undo cursor.

    ``moves`` holds every move made, including those undone and not yet
    redone; ``cursor`` is how many of them are in effect. A new move drops the
    undone ones, as in every editor.

    Args:
        variant: a :class:`Variant` or its name.
        deal: the deal number.

    Raises:
        VariantError, DealNumberError: on a bad variant or deal number.
    """

    def __init__(self, variant: Variant | str, deal: int) -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.deal = check_deal_number(deal)
        self._positions: list[Position] = [deal_position(self.variant, self.deal)]
        self._moves: list[Move] = []
        self._cursor = 0

    @property
    def start(self) -> Position:
        """The dealt position."""
        return self._positions[0]

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[self._cursor]

    @property
    def cursor(self) -> int:
        """How many moves are in effect (0 at the deal)."""
        return self._cursor

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves in effect, in play order."""
        return tuple(self._moves[: self._cursor])

    @property
    def all_moves(self) -> tuple[Move, ...]:
        """Every move made, including undone ones that can be redone."""
        return tuple(self._moves)

    def last_turned(self) -> str | None:
        """Strict: the stock card that the last move in effect turned up (whether it paired
        or was left unpaired), or ``None`` when that move was not a stock turn (or no move
        is in effect).

        >>> game = Game("strict", 7)
        >>> game.last_turned() is None
        True
        """
        if self._cursor and isinstance(self._moves[self._cursor - 1], TurnStock):
            return self._positions[self._cursor - 1].stock[0]
        return None

    def outcome(self) -> Outcome | None:
        """The current position's outcome (``None`` while the game goes on)."""
        return self.position.outcome()

    def legal_moves(self) -> list[Move]:
        """The legal moves in the current position."""
        return self.position.legal_moves()

    def push(self, move: Move | str) -> Position:
        """Play ``move`` (a move or its notation) and return the new position.

        Undone moves are dropped, unless ``move`` is the next undone one, in
        which case it is simply redone and the rest are kept.

        Raises:
            MoveError: unreadable notation.
            IllegalMoveError: the move is not legal here.
        """
        if isinstance(move, str):
            move = parse_move(move)
        new = self.position.apply(move)
        if self._cursor < len(self._moves) and self._moves[self._cursor] == move:
            self._cursor += 1
            return self.position
        del self._moves[self._cursor :]
        del self._positions[self._cursor + 1 :]
        self._moves.append(move)
        self._positions.append(new)
        self._cursor += 1
        return new

    def can_undo(self) -> bool:
        """``True`` if a move is in effect."""
        return self._cursor > 0

    def can_redo(self) -> bool:
        """``True`` if an undone move can be redone."""
        return self._cursor < len(self._moves)

    def undo(self) -> Move:
        """Take back the last move in effect and return it.

        Raises:
            HistoryError: if no move is in effect (code ``history.undo``).
        """
        if not self.can_undo():
            raise HistoryError("nothing to undo", code="history.undo")
        self._cursor -= 1
        return self._moves[self._cursor]

    def redo(self) -> Move:
        """Play again the last undone move and return it.

        Raises:
            HistoryError: if there is nothing to redo (code ``history.redo``).
        """
        if not self.can_redo():
            raise HistoryError("nothing to redo", code="history.redo")
        move = self._moves[self._cursor]
        self._cursor += 1
        return move

    def record(self) -> Record:
        """The record of the moves in effect."""
        return Record(self.variant, self.deal, self.moves)

    def to_json(self) -> dict[str, Any]:
        """Return the game for saving: the record of *all* moves plus ``"cursor"``.

        Shape: ``{"variant": str, "deal": int, "moves": [str, ...], "cursor": int}``.
        """
        data = Record(self.variant, self.deal, tuple(self._moves)).to_json()
        data["cursor"] = self._cursor
        return data

    @classmethod
    def from_json(cls, data: object) -> Game:
        """Rebuild a game saved by :meth:`to_json`, undo/redo position included.

        Raises:
            RecordError: malformed data, an illegal move, or a cursor out of
                range (codes of :meth:`Record.from_json` and :meth:`Record.replay`;
                ``number.not_whole`` or ``number.range`` with ``where`` ``"cursor"``).
        """
        record = Record.from_json(data)
        assert isinstance(data, dict)
        cursor = whole_number(
            data.get("cursor", len(record.moves)), "cursor", high=len(record.moves),
            error=RecordError,
        )
        game = record.replay()
        game._cursor = cursor
        return game

    @classmethod
    def from_json_text(cls, text: str) -> Game:
        """Like :meth:`from_json`, from a JSON string.

        Raises:
            RecordError: if the text is not JSON (the ``json.*`` code of
                :func:`nestor.jsontext.loads`) or the game is not valid.
        """
        try:
            data = loads(text)
        except NestorError as exc:
            raise RecordError(
                f"saved game is not valid JSON: {exc}", code=exc.code, **exc.details
            ) from None
        return cls.from_json(data)

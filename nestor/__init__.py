"""Nestor, the pairing patience: the rules engine.

Pure Python, standard library only; the same files run under CPython (tests,
command line) and Pyodide in the browser.

Quick tour::

    >>> from nestor import Game
    >>> game = Game("standard", 7)
    >>> move = game.legal_moves()[0]
    >>> _ = game.push(move)
    >>> game.undo() == move
    True
"""

from .cards import DECK, RANKS, SUITS, card_name, parse_card, rank_of
from .deal import MAX_DEAL, SHUFFLE_VERSION, check_deal_number, deal_layout, deal_position
from .errors import (
    CardError,
    DealNumberError,
    HistoryError,
    IllegalMoveError,
    MoveError,
    NestorError,
    PositionError,
    RecordError,
    VariantError,
)
from .game import Game, Record
from .position import Move, Outcome, Pair, Place, Position, TurnStock, parse_move
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant

__version__ = "0.1.0"

__all__ = [
    "DECK", "RANKS", "SUITS", "card_name", "parse_card", "rank_of",
    "MAX_DEAL", "SHUFFLE_VERSION", "check_deal_number", "deal_layout", "deal_position",
    "CardError", "DealNumberError", "HistoryError", "IllegalMoveError", "MoveError",
    "NestorError", "PositionError", "RecordError", "VariantError",
    "Game", "Record",
    "Move", "Outcome", "Pair", "Place", "Position", "TurnStock", "parse_move",
    "DEFAULT_VARIANT", "VARIANTS", "Variant", "get_variant",
]

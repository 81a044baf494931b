"""Nestor, the pairing patience: the rules engine.

Pure Python, standard library only; the same files run under CPython (tests,
command line) and Pyodide in the browser.

Modules: :mod:`~nestor.cards` (card codes), :mod:`~nestor.variants`,
:mod:`~nestor.deal` (deal numbers, the shuffle), :mod:`~nestor.daily` (the daily deal of
a date), :mod:`~nestor.position` (the rules: a position's available cards, pairs,
partners, outcome),
:mod:`~nestor.game` (a game with undo and its record), :mod:`~nestor.errors`
(every error with a code and details, listed in ``CODES``),
:mod:`~nestor.checks` (``whole_number``), :mod:`~nestor.jsontext` (safe JSON
reading), :mod:`~nestor.solver`, :mod:`~nestor.analysis` (odds, intervals,
finding a winnable deal), :mod:`~nestor.review` (a game's review: the turning
point, the alternatives, the critical moments) and :mod:`~nestor.cli`
(``python -m nestor``). The solver, the analysis and the review are imported
from their modules, not from here.

Quick tour::

    >>> from nestor import Game
    >>> game = Game("standard", 7)
    >>> move = game.legal_moves()[0]
    >>> _ = game.push(move)
    >>> game.undo() == move
    True
"""

from .cards import DECK, RANKS, SUITS, card_name, parse_card, rank_of
from .checks import whole_number
from .deal import MAX_DEAL, SHUFFLE_VERSION, check_deal_number, deal_layout, deal_position
from .errors import (
    CODES,
    CardError,
    DateError,
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
    "whole_number",
    "MAX_DEAL", "SHUFFLE_VERSION", "check_deal_number", "deal_layout", "deal_position",
    "CODES", "CardError", "DateError", "DealNumberError", "HistoryError", "IllegalMoveError",
    "MoveError",
    "NestorError", "PositionError", "RecordError", "VariantError",
    "Game", "Record",
    "Move", "Outcome", "Pair", "Place", "Position", "TurnStock", "parse_move",
    "DEFAULT_VARIANT", "VARIANTS", "Variant", "get_variant",
]

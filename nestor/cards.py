"""Cards and their two-character codes.

A card is represented by its canonical code, a plain ``str`` of two
characters: the rank (``A 2 3 4 5 6 7 8 9 T J Q K``) then the suit
(``C D H S``); ``"TH"`` is the ten of hearts. Suits never matter to the rules
of Nestor, only ranks do.
"""

from __future__ import annotations

from .errors import CardError, clip, type_name

RANKS = "A23456789TJQK"
"""The thirteen ranks, ace low, in code form."""

SUITS = "CDHS"
"""The four suits in code form: clubs, diamonds, hearts, spades."""

RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack",
    "Q": "queen", "K": "king",
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RED_SUITS = frozenset("DH")

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""All 52 codes in new-deck order: clubs A..K, diamonds, hearts, spades."""

_DECK_INDEX = {card: i for i, card in enumerate(DECK)}


def parse_card(text: str) -> str:
    """Return the canonical code of one card.

    Accepts ``"TH"``, ``"th"``, ``"10H"`` and ``"10h"`` (surrounding blanks
    are ignored) and returns ``"TH"``.

    Raises:
        CardError: if ``text`` is not a card, naming what is wrong (codes
            ``card.not_text``, ``card.syntax``, ``card.rank``, ``card.suit``).
    """
    if not isinstance(text, str):
        raise CardError(
            f"a card code must be text, not {type_name(text)}",
            code="card.not_text", type=type_name(text),
        )
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    if len(code) != 2:
        raise CardError(
            f"bad card {clip(text)!r}: a card is a rank (A 2-9 T J Q K, or 10) "
            "then a suit (C D H S)",
            code="card.syntax", value=clip(text),
        )
    rank, suit = code[0], code[1]
    if rank not in RANKS:
        raise CardError(
            f"bad card {clip(text)!r}: unknown rank {rank!r} (use A 2-9 T J Q K)",
            code="card.rank", value=clip(text), rank=rank,
        )
    if suit not in SUITS:
        raise CardError(
            f"bad card {clip(text)!r}: unknown suit {suit!r} (use C D H S)",
            code="card.suit", value=clip(text), suit=suit,
        )
    return code


def rank_of(card: str) -> str:
    """Return the rank character of a canonical card code (``"TH"`` -> ``"T"``)."""
    return card[0]


def deck_index(card: str) -> int:
    """Return the card's place (0..51) in new-deck order; used to sort cards."""
    return _DECK_INDEX[card]


def card_name(card: str) -> str:
    """Return the English name of a card, e.g. ``"ten of hearts"``."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def rank_label(card: str) -> str:
    """Return the rank as printed on a card face: ``"10"`` for tens, else the code's rank."""
    return "10" if card[0] == "T" else card[0]

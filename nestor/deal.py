"""Deal numbers, the shuffle and the rectified deal.

Shuffle version 1 (``SHUFFLE_VERSION``) -- frozen: changing any step below
changes every deal, so a change needs a new version number, never an edit.

1. Start from new-deck order (:data:`nestor.cards.DECK`: clubs A..K, then
   diamonds, hearts, spades).
2. Seed a SplitMix64 generator with the deal number (``0 <= n < 2**32``).
3. Fisher-Yates: for ``i`` from 51 down to 1, swap position ``i`` with a
   position ``j`` drawn uniformly from ``0..i``. A draw below ``m`` takes 64-bit
   outputs, rejects those at or above the largest multiple of ``m`` that fits
   in 64 bits, and returns the remainder modulo ``m`` (no bias).
4. Index 0 of the result is the top of the deck, dealt first.

The rectified deal (sources: seeds 000 "Setup" and 001 "Rules"): deal row by
row, left to right. A card whose rank is already in the column it would go to
is put at the bottom of the deck and the next card is tried instead. The
cards left after the tableau are the reserve (in the order dealt: for the
overlapping reserve the last is on top) or, in Strict, the stock (the top of
the deck is turned first).

Our rule where the sources are silent -- the misdeal: if every card left in
the deck repeats a rank already in the column being dealt, no card can go
there. The whole deal is then a misdeal: all 52 cards are gathered, shuffled
again by step 3 (starting from the order the last shuffle produced, with the
same generator carrying on), and dealt again from the start. This repeats
until a deal succeeds. Deals 49, 56 and 1013 of ``standard`` (and of the other
8x6 variants) and deal 2716 of ``doublets`` are such misdeals.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from .cards import DECK, rank_of
from .checks import whole_number
from .errors import DealNumberError, clip
from .position import Position
from .variants import Variant, get_variant

GRADES = ("easy", "medium", "hard")
"""The grades of a winnable deal, easiest first (:mod:`nestor.grade` works them out)."""

UNWINNABLE = "unwinnable"
"""The grade of a deal that no way of playing wins."""

GRADE_NAMES = (*GRADES, UNWINNABLE)
"""Every grade a deal can have, easiest first."""

SHUFFLE_VERSION = 1
"""Version of the shuffle and deal procedure described in this module."""

MAX_DEAL = 2**32
"""Deal numbers are integers with ``0 <= n < MAX_DEAL``."""

_MASK64 = (1 << 64) - 1


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood, 2014), 64-bit outputs.

    Pure integer arithmetic, so every Python on every machine draws the same
    numbers from the same seed.
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        """Return the next 64-bit output, ``0 <= x < 2**64``."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, m: int) -> int:
        """Return an integer drawn uniformly from ``0 <= x < m`` (``m >= 1``)."""
        limit = (1 << 64) - ((1 << 64) % m)
        while True:
            x = self.next()
            if x < limit:
                return x % m


def check_deal_number(number: object) -> int:
    """Return ``number`` as a valid deal number.

    Accepts an ``int`` or a string of decimal digits (blanks ignored).

    Raises:
        DealNumberError: if it is not an integer with ``0 <= n < 2**32``: code
            ``"deal.not_whole"`` (details ``where``: ``"deal"``, ``value``: the
            text as given, or the clipped ``repr``, ``kind``: its type's name) or
            ``"deal.range"`` (``where``, ``value``, ``low``: 0, ``high``: ``MAX_DEAL - 1``).
    """
    if isinstance(number, str):
        text = number.strip()
        if not text.isascii() or not text.isdigit():
            raise DealNumberError(
                f"bad deal number {clip(number)!r}: use a whole number from 0 to {MAX_DEAL - 1}",
                code="deal.not_whole", where="deal", value=clip(number), kind="str",
            )
        if len(text.lstrip("0")) > len(str(MAX_DEAL)):  # also keeps int() off huge texts
            raise DealNumberError(
                f"deal {clip(text)} is out of range: use 0 to {MAX_DEAL - 1}",
                code="deal.range", where="deal", value=clip(text), low=0, high=MAX_DEAL - 1,
            )
        number = int(text)
    return whole_number(
        number, "deal", high=MAX_DEAL - 1, code="deal", error=DealNumberError
    )


def shuffle(deck: Sequence[str], rng: SplitMix64) -> list[str]:
    """Return a Fisher-Yates shuffle of ``deck`` drawn from ``rng`` (step 3 above)."""
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def shuffled_deck(number: int) -> list[str]:
    """Return the first shuffle for deal ``number``: 52 codes, top card first.

    Raises:
        DealNumberError: if ``number`` is not a valid deal number.
    """
    return shuffle(DECK, SplitMix64(check_deal_number(number)))


def rectify(
    deck: Sequence[str], columns: int, depth: int
) -> tuple[list[list[str]], list[str]] | None:
    """Deal ``deck`` (top card first) into ``columns`` columns of ``depth`` cards.

    Returns ``(tableau, rest)``: each column deepest card first, and the cards
    left over in deck order; or ``None`` on a misdeal (no card left in the deck
    can go to the column being dealt).
    """
    pile = deque(deck)
    tableau: list[list[str]] = [[] for _ in range(columns)]
    ranks: list[set[str]] = [set() for _ in range(columns)]
    for _row in range(depth):
        for col in range(columns):
            for _attempt in range(len(pile)):
                card = pile.popleft()
                if rank_of(card) not in ranks[col]:
                    tableau[col].append(card)
                    ranks[col].add(rank_of(card))
                    break
                pile.append(card)
            else:
                return None
    return tableau, list(pile)


def deal_layout(variant: Variant, number: int) -> tuple[list[list[str]], list[str]]:
    """Return the rectified layout of deal ``number`` in ``variant``.

    Returns ``(tableau, spare)``: ``variant.columns`` lists of ``variant.depth``
    codes, deepest first, and the ``variant.spare`` leftover cards in deck
    order (the reserve's row order, or the stock's turning order).

    Raises:
        DealNumberError: if ``number`` is not a valid deal number.
    """
    rng = SplitMix64(check_deal_number(number))
    deck = shuffle(DECK, rng)
    while True:
        dealt = rectify(deck, variant.columns, variant.depth)
        if dealt is not None:
            return dealt
        deck = shuffle(deck, rng)


def deal_position(variant: Variant | str, number: int) -> Position:
    """Return the starting :class:`~nestor.position.Position` of deal ``number``.

    ``variant`` is a :class:`Variant` or its name. The spare cards become the
    reserve, or the stock when ``variant.has_stock`` is set.

    Raises:
        VariantError: unknown variant name.
        DealNumberError: if ``number`` is not a valid deal number.
    """
    v = get_variant(variant) if isinstance(variant, str) else variant
    tableau, spare = deal_layout(v, number)
    columns = tuple(tuple(col) for col in tableau)
    if v.has_stock:
        return Position(v, columns, (), tuple(spare))
    return Position(v, columns, tuple(spare), ())

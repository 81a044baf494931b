"""The grades of the first deals of every variant, graded once and shipped with the game.

Grading a deal (:func:`nestor.grade.grade`) is too slow to do while the player waits, so "New
deal: Hard" draws from this table: the grade of deals ``0 .. GRADED_DEALS - 1`` of every
variant, one of :data:`LETTERS` a deal (``e`` Easy, ``m`` Medium, ``h`` Hard, ``u``
Unwinnable), stored two bits a deal in :data:`DATA_FILE` and read through this module's loader
(out of the page's archive as from a checkout). ``make graded-deals`` writes the table and the
values between the ``BEGIN TABLE``/``END TABLE`` lines below: never edit them by hand.
:data:`CUTS_FINGERPRINT` names the cut points it was graded with (docs/odds.md). Standard
library only; nothing here imports the solver.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Collection
from functools import cache
from pathlib import Path

from .errors import NestorError, clip
from .variants import VARIANTS, get_variant

__all__ = [
    "CUTS_FINGERPRINT",
    "DATA_FILE",
    "GRADED_DEALS",
    "LETTERS",
    "TABLE",
    "cuts_fingerprint",
    "deals_of_grade",
    "known_grade",
    "pick_deal",
    "unpack",
]

LETTERS = {"e": "easy", "m": "medium", "h": "hard", "u": "unwinnable"}
"""The table's letter of each grade (:data:`nestor.grade.GRADES` and ``"unwinnable"``)."""

_LETTER_OF = {grade: letter for letter, grade in LETTERS.items()}


def cuts_fingerprint(cuts_repr: str) -> str:
    """The first 16 hex digits of the SHA-256 of ``cuts_repr`` (``repr(nestor.grade.CUTS)``):
    what :data:`CUTS_FINGERPRINT` holds for the cut points the table was graded with."""
    return hashlib.sha256(cuts_repr.encode("utf-8")).hexdigest()[:16]


# BEGIN TABLE (written by scripts/grade_table.py --table; do not edit)
GRADED_DEALS = 10000
CUTS_FINGERPRINT = "ffb9fc4c87b5995c"
# END TABLE

DATA_FILE = "graded_deals.bin"
"""The grades' file, beside this module: for each variant in the order of
:data:`nestor.variants.VARIANTS`, ``ceil(GRADED_DEALS / 4)`` bytes, four deals a byte, the
first in its two highest bits; a grade is the index of its letter in :data:`LETTERS`."""

_PLANES = tuple(
    bytes(ord(tuple(LETTERS)[(byte >> (6 - 2 * k)) & 3]) for byte in range(256))
    for k in range(4)
)
"""For each of the four deals of a byte, its letter (an ASCII code), by the byte."""


def unpack(data: bytes, deals: int) -> dict[str, str]:
    """The table of :data:`DATA_FILE`'s bytes ``data`` holding ``deals`` deals a variant.

    Raises:
        ValueError: ``data`` is not as long as that.
    """
    size = -(-deals // 4)
    if len(data) != size * len(VARIANTS):
        raise ValueError(f"{DATA_FILE} holds {len(data)} bytes, not {size * len(VARIANTS)}")
    table = {}
    for i, name in enumerate(VARIANTS):
        part = data[i * size:(i + 1) * size]
        letters = bytearray(4 * size)
        for k, plane in enumerate(_PLANES):
            letters[k::4] = part.translate(plane)
        table[name] = letters[:deals].decode("ascii")
    return table


def _read() -> bytes:
    """The bytes of :data:`DATA_FILE`: through this module's loader (a zipimporter reads it out
    of the archive the module came from), else from the file system."""
    path = os.path.join(os.path.dirname(__file__), DATA_FILE)
    get_data = getattr(__spec__.loader, "get_data", None) if __spec__ else None
    if get_data is None:
        return Path(path).read_bytes()
    data: bytes = get_data(path)
    return data


TABLE: dict[str, str] = unpack(_read(), GRADED_DEALS)
"""The grade letters of deals ``0 .. GRADED_DEALS - 1``, by variant name."""


def known_grade(variant: str, deal: int) -> str | None:
    """The grade of ``deal`` of ``variant`` from the table (``"easy"``, ``"medium"``,
    ``"hard"`` or ``"unwinnable"``), or ``None`` for a deal beyond it.

    Raises:
        VariantError: unknown variant.
    """
    letters = TABLE.get(get_variant(variant).name, "")
    if 0 <= deal < len(letters):
        return LETTERS[letters[deal]]
    return None


@cache
def deals_of_grade(variant: str, grade: str) -> tuple[int, ...]:
    """The deal numbers of the table graded ``grade`` in ``variant``, in order.

    Raises:
        VariantError: unknown variant. NestorError: code ``"grade.unknown"`` (detail
            ``grade``) for a grade that is not one of :data:`LETTERS`' values.
    """
    if grade not in _LETTER_OF:
        raise NestorError(f"unknown grade {clip(repr(grade))}", code="grade.unknown",
                          grade=clip(grade))
    letter = _LETTER_OF[grade]
    letters = TABLE.get(get_variant(variant).name, "")
    return tuple(n for n, c in enumerate(letters) if c == letter)


def pick_deal(
    variant: str, grade: str, rng: random.Random, avoid: Collection[int] = ()
) -> int | None:
    """A deal of ``variant`` graded ``grade``, drawn at random (``rng``) from the table,
    leaving out the deals in ``avoid`` (those the player has played) while others remain;
    ``None`` if the table holds no deal of that grade.

    Raises:
        VariantError, NestorError: as :func:`deals_of_grade`.
    """
    deals = deals_of_grade(get_variant(variant).name, grade)
    if not deals:
        return None
    fresh = [n for n in deals if n not in avoid] if avoid else deals
    return rng.choice(fresh or deals)

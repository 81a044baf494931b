"""The five variants of Nestor, described as data.

Every rule that differs between variants is a field of :class:`Variant`; the
engine reads those fields and never tests a variant's name.

Sources: ``shared/seeds`` 000 (the default game and Strict, Vertical,
Doublets) and 001 (Hoffmann's layout and the overlapping reserve).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import DECK
from .errors import VariantError, clip, type_name


@dataclass(frozen=True)
class Variant:
    """One way to lay out and play Nestor.

    Attributes:
        name: the identifier used in URLs, records and the command line.
        title: a short human name.
        columns: number of tableau columns.
        depth: cards dealt to each column (rows of the deal).
        has_stock: ``True`` if the spare cards form a face-down stock (Strict)
            instead of a face-up reserve.
        overlapping: the reserve is one overlapping row and only its top card
            (the last one dealt) is available (source 001); ``False``: every
            reserve card is available.
        summary: one sentence for the variant picker and the rules text.
    """

    name: str
    title: str
    columns: int
    depth: int
    has_stock: bool
    overlapping: bool
    summary: str

    @property
    def spare(self) -> int:
        """Cards left over after the tableau is dealt (reserve or stock size)."""
        return len(DECK) - self.columns * self.depth


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "standard", "Standard", 8, 6, False, False,
            "Eight columns of six, and four reserve cards that are all available.",
        ),
        Variant(
            "strict", "Strict", 8, 6, True, False,
            "The four spare cards are a face-down stock, turned one by one only when "
            "no pair is left; a turned card that cannot pair loses the game.",
        ),
        Variant(
            "vertical", "Vertical", 7, 6, False, False,
            "Seven columns of six, and ten reserve cards that are all available.",
        ),
        Variant(
            "doublets", "Doublets", 12, 4, False, False,
            "Twelve columns of four, and four reserve cards that are all available.",
        ),
        Variant(
            "overlapping", "Overlapping reserve", 8, 6, False, True,
            "Eight columns of six; the four reserve cards overlap in one row and only "
            "the top one is available.",
        ),
    )
}
"""All variants by name, in the order the game lists them."""

DEFAULT_VARIANT = "standard"


def get_variant(name: str) -> Variant:
    """Return the variant called ``name`` (case and blanks ignored).

    Raises:
        VariantError: if there is no such variant; the message lists the valid
            names (codes ``variant.not_text``, ``variant.unknown``).
    """
    if not isinstance(name, str):
        raise VariantError(
            f"a variant name must be text, not {type_name(name)}",
            code="variant.not_text", type=type_name(name),
        )
    key = name.strip().lower()
    try:
        return VARIANTS[key]
    except KeyError:
        raise VariantError(
            f"unknown variant {clip(name)!r}; choose one of: {', '.join(VARIANTS)}",
            code="variant.unknown", value=clip(name), choices=",".join(VARIANTS),
        ) from None

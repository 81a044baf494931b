"""What a card's face shows: the corner, and below it the big pip or, for a court card, a
framed court panel (static/css/faces.css draws it).

The court cards are told apart at a glance from each other and from the number cards: a jack,
queen or king has an inner frame in its suit's colour (seen even on a covered card, in the
strip a column shows of it) and, where its face is uncovered, a panel with its rank letter
large over a motif of its own drawn as inline SVG (no image file, nothing fetched): the king
a crown, the queen a rose, the jack a sword. Number cards and aces keep the single big pip.
The face is decoration (``aria-hidden``): the card's accessible name says what it is.
"""

from __future__ import annotations

from html import escape

COURT_RANKS = frozenset("JQK")
"""The rank codes (a card code's first letter) of the court cards."""

# Each motif is drawn in a 24 x 24 box in the card's colour (fill="currentColor"): the king's
# crown of three points on a band, the queen's rose of five petals round a heart, the jack's
# upright sword with its cross guard. Shapes that differ in outline, not only in detail, so
# they part at the small sizes of a phone.
_MOTIFS: dict[str, str] = {
    "K": (
        '<path d="M3 17 4.5 6.5 9 11 12 3.5 15 11 19.5 6.5 21 17z"/>'
        '<path d="M3 18.5h18V21H3z"/>'
        '<circle cx="4.5" cy="5" r="1.6"/><circle cx="12" cy="2.4" r="1.6"/>'
        '<circle cx="19.5" cy="5" r="1.6"/>'
    ),
    "Q": (
        '<circle cx="12" cy="5.5" r="4"/><circle cx="18" cy="10" r="4"/>'
        '<circle cx="15.8" cy="17" r="4"/><circle cx="8.2" cy="17" r="4"/>'
        '<circle cx="6" cy="10" r="4"/>'
        '<circle cx="12" cy="12" r="3" fill="#fffdf7"/><circle cx="12" cy="12" r="1.6"/>'
    ),
    "J": (
        '<path d="M11 1.5h2l.9 13.5h-3.8z"/>'
        '<path d="M5.5 15h13v2.2h-13z"/>'
        '<path d="M10.9 17.2h2.2v3.6h-2.2z"/>'
        '<circle cx="12" cy="22" r="1.7"/>'
    ),
}


def is_court(code: str) -> bool:
    """Whether the card ``code`` (e.g. ``"QH"``) is a jack, queen or king."""
    return code[:1] in COURT_RANKS


def face_class(code: str) -> str:
    """The extra classes of a card's element for its face: ``" court court-K"`` for a king
    (so CSS can draw the frame and panel), ``""`` for a number card or an ace."""
    return f" court court-{code[0]}" if is_court(code) else ""


def face_html(code: str, rank: str, suit: str) -> str:
    """The inner HTML of the face of card ``code``: its corner (``rank`` as printed, in the
    player's language, and the ``suit`` symbol), then the big pip of a number card or an ace,
    or the court panel (frame, rank letter large over the rank's motif) of a jack, queen or king.

    ``rank`` and ``suit`` are escaped here; ``code`` must be a card code (``"TD"``, ``"KS"``).
    """
    rank, suit = escape(rank), escape(suit)
    corner = (
        f'<span class="corner" aria-hidden="true"><span class="rank">{rank}</span>'
        f'<span class="suit">{suit}</span></span>'
    )
    if not is_court(code):
        return corner + f'<span class="pip" aria-hidden="true">{suit}</span>'
    motif = (
        '<svg class="motif" viewBox="0 0 24 24" focusable="false" aria-hidden="true" '
        f'fill="currentColor">{_MOTIFS[code[0]]}</svg>'
    )
    return (
        '<span class="frame" aria-hidden="true"></span>'
        + corner
        + f'<span class="court-panel" aria-hidden="true"><span class="court-rank">{rank}'
        f"</span>{motif}</span>"
    )

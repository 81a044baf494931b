"""What a card's face shows: the corner, then the big pip of a number card or an ace, or a
court card's framed panel (its rank letter large over a motif drawn as inline SVG: the
king's crown, the queen's rose, the jack's sword; static/css/faces.css draws the rest).
The face is decoration (``aria-hidden``): the card's accessible name says what it is.
"""

from __future__ import annotations

from .markup import Node

COURT_RANKS = frozenset("JQK")
"""The rank codes (a card code's first letter) of the court cards."""

_HIDDEN = {"aria-hidden": "true"}


def _circles(*circles: str) -> list[Node]:
    """``circle`` elements from ``"cx cy r"`` strings."""
    return [["circle", dict(zip(("cx", "cy", "r"), c.split(), strict=True))] for c in circles]


# Each motif in a 24 x 24 box in the card's colour: shapes that differ in outline, so they
# part at the small sizes of a phone.
_MOTIFS: dict[str, list[Node]] = {
    "K": [
        ["path", {"d": "M3 17 4.5 6.5 9 11 12 3.5 15 11 19.5 6.5 21 17z"}],
        ["path", {"d": "M3 18.5h18V21H3z"}],
        *_circles("4.5 5 1.6", "12 2.4 1.6", "19.5 5 1.6"),
    ],
    "Q": [
        *_circles("12 5.5 4", "18 10 4", "15.8 17 4", "8.2 17 4", "6 10 4"),
        ["circle", {"cx": "12", "cy": "12", "r": "3", "fill": "#fffdf7"}],
        *_circles("12 12 1.6"),
    ],
    "J": [
        ["path", {"d": "M11 1.5h2l.9 13.5h-3.8z"}],
        ["path", {"d": "M5.5 15h13v2.2h-13z"}],
        ["path", {"d": "M10.9 17.2h2.2v3.6h-2.2z"}],
        *_circles("12 22 1.7"),
    ],
}


def is_court(code: str) -> bool:
    """Whether the card ``code`` (e.g. ``"QH"``) is a jack, queen or king."""
    return code[:1] in COURT_RANKS


def face_class(code: str) -> str:
    """The extra classes of a card's element for its face: ``" court court-K"`` for a king,
    ``""`` for a number card or an ace."""
    return f" court court-{code[0]}" if is_court(code) else ""


def face_nodes(code: str, rank: str, suit: str) -> list[Node]:
    """The face of card ``code`` as nodes: its corner (``rank`` as printed, ``suit`` symbol),
    then the big pip, or a court card's frame and panel."""
    corner: Node = ["span", {"class": "corner", **_HIDDEN},
                    ["span", {"class": "rank"}, rank], ["span", {"class": "suit"}, suit]]
    if not is_court(code):
        return [corner, ["span", {"class": "pip", **_HIDDEN}, suit]]
    motif = ["svg", {"class": "motif", "viewBox": "0 0 24 24", "focusable": "false",
                     **_HIDDEN, "fill": "currentColor"}, *_MOTIFS[code[0]]]
    return [
        ["span", {"class": "frame", **_HIDDEN}],
        corner,
        ["span", {"class": "court-panel", **_HIDDEN}, ["span", {"class": "court-rank"}, rank],
         motif],
    ]

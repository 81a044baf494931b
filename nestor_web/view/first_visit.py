"""What a first visit paints before Python runs (static/js/first-visit.js, written by
scripts/build_shell.py): the guide's deal, in each language. The page never imports it."""

from __future__ import annotations

from typing import Any

from ..app.session import Session
from .board import MARK, board_view, first_paint
from .tutorial import step_text, tutorial_view

POINTERS = ("touch", "mouse")
"""The ways of pointing a page may start with: the guide's words are written for each."""


def first_visit_paint(session: Session) -> dict[str, Any]:
    """What wake.js paints of ``session`` (its guide on the first step) in the language set
    now: ``board`` (rings on what the guide points at), ``counters`` by element id, ``guide``."""
    view = tutorial_view(session)
    step = session.tutorial
    if view is None or step is None:
        raise ValueError("the session shows no guide")
    cards = view.cards

    def ring(node: object) -> object:
        if not isinstance(node, list):
            return node  # a text
        tag, attributes, *children = node
        if attributes.get("data-card") in cards:
            attributes = {**attributes, MARK: ""}
        return [tag, attributes, *(ring(child) for child in children)]

    board, counters = first_paint(board_view(session))
    texts = {pointer: step_text(step, pointer) for pointer in POINTERS}
    return {
        "board": [ring(node) for node in board],
        "counters": counters,
        "guide": {"step": view.step, "title": view.title, "text": texts,
                  "next": view.next_label, "skip": view.skip_label},
    }

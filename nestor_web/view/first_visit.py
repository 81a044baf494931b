"""What a first visit paints before Python runs (static/js/first-visit.js, written by
scripts/build_shell.py): the guide's deal as the first draw shows it, in each language.
Build time only: the page never imports this module.
"""

from __future__ import annotations

from typing import Any

from ..app.session import Session
from .board import board_view, first_paint
from .tutorial import MARK, step_text, tutorial_view

POINTERS = ("touch", "mouse")
"""The ways of pointing a page starts with (:attr:`Session.pointer` before the first press):
the guide's words are written for each, and the page picks one as Python will."""


def ring(nodes: list[object], cards: tuple[str, ...]) -> list[object]:
    """``nodes`` (a board as :func:`~nestor_web.view.board.first_paint` gives it) with the
    guide's ring (:data:`~nestor_web.view.tutorial.MARK`) on each card of ``cards``."""

    def mark(node: object) -> object:
        if not isinstance(node, list):
            return node  # a text
        tag, attributes, *children = node
        if attributes.get("data-card") in cards:
            attributes = {**attributes, MARK: ""}
        return [tag, attributes, *(mark(child) for child in children)]

    return [mark(node) for node in nodes]


def first_visit_paint(session: Session) -> dict[str, Any]:
    """What wake.js paints of ``session`` (a first visit's, its guide on its first step), in
    the language set now: ``board`` (the play area as data, rings on what the guide points
    at), ``counters`` (texts by element id), and ``guide``: its step, title, text for each of
    :data:`POINTERS`, and the words of Next and Skip."""
    view = tutorial_view(session)
    if view is None:
        raise ValueError("the session shows no guide")
    board, counters = first_paint(board_view(session))
    step = session.tutorial
    assert step is not None
    texts = {pointer: step_text(step, pointer) for pointer in POINTERS}
    return {
        "board": ring(board, view.cards),
        "counters": counters,
        "guide": {"step": view.step, "title": view.title, "text": texts,
                  "next": view.next_label, "skip": view.skip_label},
    }

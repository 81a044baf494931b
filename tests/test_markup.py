"""The board as nodes (nestor_web/view/markup.py, view/board.py): the page's HTML and the
stored first paint both come from them."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from nestor import VARIANTS, Game
from nestor_web.app.session import Session
from nestor_web.storage.codecs import board_to_text
from nestor_web.view import i18n
from nestor_web.view.board import board_view, first_paint, play_area, render_board
from nestor_web.view.markup import ATTRIBUTE, ELEMENTS, html

STORED = Path(__file__).parent / "data" / "boards-v2.json"
"""Stored boards (``nestor.board``, version 2) as the view wrote them before it built nodes."""


class Tree(HTMLParser):
    """HTML read back into nodes, to hold the page's HTML to the stored nodes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.top: list[Any] = []
        self.open: list[list[Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = {"viewbox": "viewBox"}  # html.parser lowers names; the DOM keeps SVG's case
        element = [tag, {name.get(k, k): v or "" for k, v in attrs}]
        (self.open[-1] if self.open else self.top).append(element)
        self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        assert self.open.pop()[0] == tag

    def handle_data(self, data: str) -> None:
        self.open[-1].append(data)


def nodes_of(markup: str) -> list[Any]:
    tree = Tree()
    tree.feed(markup)
    tree.close()
    assert not tree.open
    return tree.top


def positions(seed: int, per_variant: int) -> list[Session]:
    """Sessions in random states of play of every variant, some with a card selected."""
    rng = random.Random(seed)
    sessions = []
    for name in VARIANTS:
        for _ in range(per_variant):
            session = Session(Game(name, rng.randrange(1, 10_000)), rng=random.Random(seed))
            for _ in range(rng.randrange(0, 20)):
                pairs = session.position.pairs()
                if not pairs:
                    break
                session.game.push(rng.choice(pairs))
            available = sorted(session.position.available())
            if available and rng.random() < 0.5:
                session.tap(rng.choice(available))
            sessions.append(session)
    return sessions


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_pages_html_is_the_stored_board(seed: int) -> None:
    for session in positions(seed, 4):
        view = board_view(session)
        assert nodes_of(render_board(view)) == first_paint(view)[0] == [play_area(view)]


def stored_states() -> Iterator[tuple[str, Session]]:
    """The states of play of :data:`STORED`, with their languages."""
    session = Session(Game("standard", 7), rng=random.Random(0))
    pair = session.position.pairs()[0]
    session.tap(pair.first)
    session.tap(pair.second)
    session.tap(sorted(session.position.available())[0])
    yield "de", session
    session = Session(Game("strict", 4), rng=random.Random(0))
    for text in ("3H-3S", "6C-6H", "8C-8S", "stock"):
        session.game.push(text)
    yield "en", session
    game = Game("strict", 584)  # random play empties its tableau with stock left
    rng = random.Random(584)
    while game.outcome() is None and any(game.position.columns):
        game.push(rng.choice(game.legal_moves()))
    assert game.position.stock_turned_up
    yield "de", Session(game, rng=random.Random(0))
    session = Session(Game("overlapping", 3), rng=random.Random(0))
    session.game.push(session.position.pairs()[0])
    yield "en", session


def test_the_stored_board_keeps_its_format_to_the_byte() -> None:
    # static/js/wake.js paints what earlier versions stored: the format does not move.
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    try:
        for (language, session), kept in zip(stored_states(), stored, strict=True):
            i18n.set_language(language)
            board, counters = first_paint(board_view(session))
            assert board_to_text("game", language, board, counters) == kept["text"], kept["state"]
    finally:
        i18n.set_language(i18n.DEFAULT_LANGUAGE)


def test_texts_and_values_are_escaped() -> None:
    node = ["span", {"class": "a&b", "aria-label": '"x"', "data-on": ""}, "1 < 2 & 3"]
    assert html(node) == (
        '<span class="a&amp;b" aria-label="&quot;x&quot;" data-on>1 &lt; 2 &amp; 3</span>'
    )
    svg = ["svg", {"viewBox": "0 0 24 24"}, ["path", {"d": "M3 17z"}], ["circle", {"r": "2"}]]
    assert html(svg) == '<svg viewBox="0 0 24 24"><path d="M3 17z"/><circle r="2"/></svg>'
    assert html(["div", {}]) == "<div></div>"


def test_the_board_uses_only_the_listed_elements_and_attributes() -> None:
    seen: set[str] = set()

    def walk(nodes: list[Any]) -> None:
        for node in nodes:
            if not isinstance(node, str):
                seen.add(node[0])
                assert all(ATTRIBUTE.fullmatch(name) for name in node[1])
                walk(node[2:])

    for session in positions(4, 3):
        walk(first_paint(board_view(session))[0])
    assert seen == set(ELEMENTS)

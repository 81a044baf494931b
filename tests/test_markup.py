"""The board's markup as data (nestor_web/view/markup.py), as the first paint stores it."""

from __future__ import annotations

import random
import re
from html import escape
from typing import Any

import pytest

from nestor import VARIANTS, Game
from nestor_web.app.session import Session
from nestor_web.view.board import board_view, render_board
from nestor_web.view.markup import ELEMENTS, element_tree

START_TAG = re.compile(r"<[a-z]+[^>]*>")
ATTRIBUTE = re.compile(r'\s+([a-zA-Z-]+)(="[^"]*")?')


def valued(html: str) -> str:
    """``html`` with each bare attribute given its value ``=""``."""

    def attribute(match: re.Match[str]) -> str:
        return f" {match.group(1)}" + (match.group(2) or '=""')

    return START_TAG.sub(lambda tag: ATTRIBUTE.sub(attribute, tag.group()), html)


SVG_SHAPES = ("path", "circle")  # written self-closed by nestor_web/view/faces.py


def to_html(nodes: list[Any]) -> str:
    """The markup of ``nodes`` as the view writes it (escaped as html.escape does), each
    attribute with its value (a bare one as ``=""``, which is the same to a browser)."""
    out = []
    for node in nodes:
        if isinstance(node, str):
            out.append(escape(node, quote=False))
            continue
        tag, attributes, *children = node
        attrs = "".join(f' {name}="{escape(value)}"' for name, value in attributes.items())
        if tag in SVG_SHAPES and not children:
            out.append(f"<{tag}{attrs}/>")
        else:
            out.append(f"<{tag}{attrs}>{to_html(children)}</{tag}>")
    return "".join(out)


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
def test_the_board_reads_back_to_the_same_markup(seed: int) -> None:
    for session in positions(seed, 4):
        html = render_board(board_view(session))
        nodes = element_tree(html)
        assert to_html(nodes) == valued(html)
        assert len(nodes) == 1 and nodes[0][0] == "div"  # the play area


def test_texts_and_values_are_unescaped_data() -> None:
    nodes = element_tree('<span class="a&amp;b" aria-label="&quot;x&quot;">1 &lt; 2 &amp; 3</span>')
    assert nodes == [["span", {"class": "a&b", "aria-label": '"x"'}, "1 < 2 & 3"]]
    assert element_tree('<button type="button" data-available disabled></button>') == [
        ["button", {"type": "button", "data-available": "", "disabled": ""}]
    ]
    svg = element_tree('<svg viewBox="0 0 24 24"><path d="M3 17z"/><circle cx="1" r="2"/></svg>')
    assert svg == [["svg", {"viewBox": "0 0 24 24"}, ["path", {"d": "M3 17z"}],
                    ["circle", {"cx": "1", "r": "2"}]]]


@pytest.mark.parametrize("html", [
    '<meta http-equiv="refresh" content="0;url=/x">',
    "<script>alert(1)</script>",
    '<div onclick="alert(1)"></div>',
    '<div style="color:red"></div>',
    '<a href="/x">x</a>',
    '<iframe src="/x"></iframe>',
    "<div><span></div></span>",
    "<div>",
    "</div>",
    "<div>a</div><",
    "<div class='single'></div>",
    "<!-- a comment --><div></div>",
])
def test_markup_the_view_does_not_write_is_refused(html: str) -> None:
    with pytest.raises(ValueError):
        element_tree(html)


def test_the_board_uses_only_the_listed_elements() -> None:
    seen: set[str] = set()

    def walk(nodes: list[Any]) -> None:
        for node in nodes:
            if not isinstance(node, str):
                seen.add(node[0])
                walk(node[2:])

    for session in positions(4, 3):
        walk(element_tree(render_board(board_view(session))))
    assert seen == set(ELEMENTS)

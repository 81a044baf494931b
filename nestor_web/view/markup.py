"""The view's own markup as data: a tree of elements, attributes and texts.

The stored board (``nestor.board``, :func:`nestor_web.storage.codecs.board_to_text`) keeps
the board as :func:`element_tree` gives it, not as HTML, so that static/js/wake.js builds the
first paint of a return visit with DOM calls from a list of allowed elements and attributes
(:data:`ELEMENTS`, :data:`ATTRIBUTE`), and never parses stored text as markup.

A node is a text (``str``) or an element ``[tag, {name: value}, child, ...]``: a JSON array
whose first item is the tag, whose second maps each attribute to its value (``""`` for a
bare attribute such as ``disabled``), and whose other items are its children, in order.

This reads only the markup this package writes (:mod:`nestor_web.view.board`): start and end
tags, self-closed SVG shapes, quoted attribute values, entities as :func:`html.escape` writes
them. Anything else raises :class:`ValueError`.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

Node = str | list[Any]
"""A text, or an element ``[tag, attributes, *children]`` (see the module docstring)."""

ELEMENTS = ("button", "circle", "div", "path", "section", "span", "svg")
"""The elements the board is drawn with (the same list as ``TAGS`` in static/js/wake.js)."""

ATTRIBUTE = re.compile(
    r"(?:class|role|type|disabled|focusable|viewBox|fill|d|cx|cy|r"
    r"|aria-[a-z]+|data-[a-z]+(?:-[a-z]+)*)"
)
"""The attribute names the board uses (``ATTRIBUTE`` in static/js/wake.js): no event
handler, no URL, no style."""

_TOKEN = re.compile(
    r"<(?P<end>/)?(?P<tag>[a-z]+)(?P<attrs>(?:\s+[a-zA-Z][a-zA-Z-]*(?:=\"[^\"<>]*\")?)*)\s*"
    r"(?P<empty>/)?>|(?P<text>[^<]+)"
)
_ATTR = re.compile(r"\s+([a-zA-Z][a-zA-Z-]*)(?:=\"([^\"]*)\")?")


def element_tree(html: str) -> list[Node]:
    """The nodes of ``html`` (the view's markup), top level first, as JSON-ready lists.

    Raises:
        ValueError: ``html`` holds something this package does not write: an element or
            attribute outside :data:`ELEMENTS` and :data:`ATTRIBUTE`, a tag left open or
            closed twice, or text the tokens do not cover.
    """
    top: list[Node] = []
    stack: list[list[Any]] = []
    at = 0
    for match in _TOKEN.finditer(html):
        if match.start() != at:
            raise ValueError(f"unexpected markup at {at}: {html[at:at + 40]!r}")
        at = match.end()
        children = stack[-1] if stack else top
        text = match.group("text")
        if text is not None:
            children.append(unescape(text))
            continue
        tag = match.group("tag")
        if match.group("end"):
            if not stack or stack[-1][0] != tag or match.group("attrs"):
                raise ValueError(f"</{tag}> closes nothing open at {match.start()}")
            stack.pop()
            continue
        if tag not in ELEMENTS:
            raise ValueError(f"element <{tag}> is not one the board uses")
        attributes: dict[str, str] = {}
        for name, value in _ATTR.findall(match.group("attrs")):
            if not ATTRIBUTE.fullmatch(name):
                raise ValueError(f"attribute {name} of <{tag}> is not one the board uses")
            attributes[name] = unescape(value)
        element: list[Any] = [tag, attributes]
        children.append(element)
        if not match.group("empty"):
            stack.append(element)
    if at != len(html):
        raise ValueError(f"unexpected markup at {at}: {html[at:at + 40]!r}")
    if stack:
        raise ValueError(f"<{stack[-1][0]}> is never closed")
    return top

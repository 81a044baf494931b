"""The view's markup as data, a tree of nodes, and its HTML: the page gets their HTML, the
stored first paint keeps the nodes, which static/js/wake.js builds with DOM calls from the
same allow-list (:data:`ELEMENTS`, :data:`ATTRIBUTE`)."""

from __future__ import annotations

import re
from html import escape
from typing import Any

from ..app.settings import Settings

Node = str | list[Any]
"""A text, or an element ``[tag, {name: value}, *children]`` (``""`` for a bare attribute)."""

ELEMENTS = ("button", "circle", "div", "path", "section", "span", "svg")
"""The elements the board is drawn with (``TAGS`` in static/js/wake.js)."""

ATTRIBUTE = re.compile(
    r"(?:class|role|type|disabled|focusable|viewBox|fill|d|cx|cy|r"
    r"|aria-[a-z]+|data-[a-z]+(?:-[a-z]+)*)"
)
"""The attribute names the board uses (``ATTRIBUTE`` in static/js/wake.js)."""

ROOT_FLAGS = {
    name: "data-" + name.replace("_", "-")
    for name in ("four_colours", "highlight_partners", "show_timer", "left_handed", "large_index")
}
"""The settings the root element shows to the CSS as ``"true"``/``"false"``, by name."""

_SHAPES = ("path", "circle")  # written self-closed when they have no children


def html(node: Node) -> str:
    """The HTML of ``node``, its texts and attribute values escaped."""
    if isinstance(node, str):
        return escape(node, quote=False)
    tag, attributes, *children = node
    start = tag + "".join(
        f' {name}="{escape(value)}"' if value else f" {name}"
        for name, value in attributes.items()
    )
    if not children and tag in _SHAPES:
        return f"<{start}/>"
    return f"<{start}>{''.join(html(child) for child in children)}</{tag}>"


def root_attributes(settings: Settings, motion: str) -> dict[str, str]:
    """The root element's attributes the CSS follows, ``motion`` the animation speed in
    effect (static/js/wake.js sets the same before Python runs)."""
    flags = {a: "true" if getattr(settings, n) else "false" for n, a in ROOT_FLAGS.items()}
    return {"data-theme": settings.theme, "data-animations": str(motion != "off").lower(),
            "data-animation-speed": motion, **flags}


"""Reading JSON that may come from anywhere (saved games, the command line).

Python's ``json`` parser recurses once per level of nesting: a text like
``"[" * 100000`` raises ``RecursionError`` under CPython and, in the browser,
overflows the WebAssembly stack and stops the interpreter. :func:`loads`
measures the nesting first and refuses anything deeper than any shape this
project writes.
"""

from __future__ import annotations

import json
import re

MAX_DEPTH = 16
"""Deepest nesting accepted; the deepest shape we read (a position) has depth 2."""

_STRINGS = re.compile(r'"(?:\\.|[^"\\])*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def loads(text: str, max_depth: int = MAX_DEPTH) -> object:
    """Parse JSON ``text`` like :func:`json.loads`, refusing deep nesting.

    Raises:
        ValueError: if the text is not JSON, is nested deeper than
            ``max_depth``, or holds an integer too long to convert.
    """
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > max_depth:
                raise ValueError(f"nested more than {max_depth} levels deep")
        else:
            depth -= 1
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ValueError(f"nested more than {max_depth} levels deep") from None

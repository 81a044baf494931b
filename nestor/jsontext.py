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

from .errors import NestorError, clip

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


def load_object(
    text: str, subject: tuple[str, str] = ("it is", "it has"), version: int | None = None
) -> dict[str, object]:
    """Parse stored text that must be a JSON object, of format ``version`` if given.

    ``subject`` starts the messages, e.g. ``("they are", "they have")``, so a
    caller can say "Your settings could not be read: they are not valid JSON".

    Raises:
        NestorError: not JSON (or nested too deep), not an object, or another
            format version (``True`` is not version 1, though ``True == 1``).
    """
    try:
        data = loads(text)
    except ValueError as exc:
        raise NestorError(f"{subject[0]} not valid JSON ({clip(str(exc))})") from None
    if not isinstance(data, dict):
        raise NestorError(f"{subject[0]} not a JSON object")
    if version is not None:
        found = data.get("version")
        if isinstance(found, bool) or found != version:
            raise NestorError(f"{subject[1]} an unknown format version ({clip(repr(found))})")
    return data

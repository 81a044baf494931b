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

from .errors import NestorError, clip, type_name

MAX_DEPTH = 16
"""Deepest nesting accepted; the deepest shape we read (a position) has depth 2."""

_STRINGS = re.compile(r'"(?:\\.|[^"\\])*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def loads(text: str, max_depth: int = MAX_DEPTH) -> object:
    """Parse JSON ``text`` like :func:`json.loads`, refusing deep nesting.

    Raises:
        NestorError: (a ``ValueError``) if the text is not text (code
            ``json.not_text``), not JSON (``json.invalid``, details ``line``,
            ``column``), is nested deeper than ``max_depth`` (``json.too_deep``,
            ``limit``), or holds an integer too long to convert
            (``json.number_too_long``). The message is :mod:`json`'s own.
    """
    if not isinstance(text, str):
        raise NestorError(
            f"JSON must be text, not {type_name(text)}", code="json.not_text", type=type_name(text)
        )
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > max_depth:
                raise _too_deep(max_depth)
        else:
            depth -= 1
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise NestorError(
            str(exc), code="json.invalid", line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise _too_deep(max_depth) from None
    except ValueError as exc:  # an integer longer than int() converts
        raise NestorError(str(exc), code="json.number_too_long") from None


def _too_deep(max_depth: int) -> NestorError:
    return NestorError(
        f"nested more than {max_depth} levels deep", code="json.too_deep", limit=max_depth
    )


def load_object(
    text: str, subject: tuple[str, str] = ("it is", "it has"), version: int | None = None
) -> dict[str, object]:
    """Parse stored text that must be a JSON object, of format ``version`` if given.

    ``subject`` starts the messages, e.g. ``("they are", "they have")``, so a
    caller can say "Your settings could not be read: they are not valid JSON".

    Raises:
        NestorError: not JSON or nested too deep (the code of :func:`loads`),
            not an object (``json.not_object``, detail ``type``), or another
            format version (``json.version``, details ``value``: the clipped
            ``repr`` of the version found, ``expected``; ``True`` is not
            version 1, though ``True == 1``).
    """
    try:
        data = loads(text)
    except NestorError as exc:
        raise NestorError(
            f"{subject[0]} not valid JSON ({clip(str(exc))})", code=exc.code, **exc.details
        ) from None
    if not isinstance(data, dict):
        raise NestorError(
            f"{subject[0]} not a JSON object", code="json.not_object", type=type_name(data)
        )
    if version is not None:
        found = data.get("version")
        if isinstance(found, bool) or found != version:
            raise NestorError(
                f"{subject[1]} an unknown format version ({clip(repr(found))})",
                code="json.version", value=clip(repr(found)), expected=version,
            )
    return data

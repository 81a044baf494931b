"""Exceptions raised by the rules package.

Every error is a :class:`NestorError`, itself a :class:`ValueError`, so callers
that only care about "bad input" can catch one class. The subclasses say which
kind of input was wrong; the message names the exact part.
"""

from __future__ import annotations


def clip(text: str, limit: int = 60) -> str:
    """Shorten ``text`` for an error message: at most ``limit`` characters, then "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class NestorError(ValueError):
    """Base class of every error this package raises on bad input or play."""


class CardError(NestorError):
    """A card code could not be read (e.g. ``"1H"``, ``"TX"``, ``""``)."""


class VariantError(NestorError):
    """A variant name is not one of :data:`nestor.variants.VARIANTS`."""


class DealNumberError(NestorError):
    """A deal number is not an integer in ``0 <= n < 2**32``."""


class PositionError(NestorError):
    """A position (text or JSON) is malformed or impossible."""


class MoveError(NestorError):
    """A move's notation could not be read."""


class IllegalMoveError(NestorError):
    """A well-formed move that the rules do not allow in this position."""


class HistoryError(NestorError):
    """Undo with nothing to undo, or redo with nothing to redo."""


class RecordError(NestorError):
    """A game record (text or JSON) is malformed or does not replay."""

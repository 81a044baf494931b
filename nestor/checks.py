"""Checks of values read from outside (records, saves, links), with coded errors."""

from __future__ import annotations

from .errors import NestorError, clip, type_name


def number_text(number: int) -> str:
    """``number`` in decimal, clipped for an error message (even past Python's digit limit)."""
    try:
        return clip(str(number))
    except ValueError:  # more digits than int -> str converts
        return "-…" if number < 0 else "…"


def whole_number(
    value: object,
    where: str,
    *,
    low: int = 0,
    high: int | None = None,
    code: str = "number",
    error: type[NestorError] = NestorError,
) -> int:
    """Return ``value`` if it is a whole number with ``low <= value`` (and ``value <= high``).

    A whole number is an ``int`` that is not a ``bool``; texts and floats are not.

    Args:
        value: the value to check.
        where: what it is, for the message and the ``where`` detail: a field name or
            a JSON path such as ``"cursor"`` or ``"deals[3][1]"``.
        low, high: the range allowed, both ends included; ``high=None``: no upper end.
        code: the first part of the error code: ``"number"`` or ``"deal"``.
        error: the class of the error raised, :class:`NestorError` or a subclass.

    Raises:
        NestorError (``error``): code ``<code>.not_whole`` (details ``where``,
            ``value``: its clipped ``repr``, ``kind``: its type's name, ``"bool"`` for a
            boolean) if ``value`` is not a whole number;
            ``<code>.range`` (``where``, ``value``, ``low``, ``high``) if it is
            outside ``low..high``; ``<code>.too_small`` (``where``, ``value``,
            ``low``) if it is below ``low`` and there is no ``high``. See
            :data:`nestor.errors.CODES`.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        kind = "a boolean" if isinstance(value, bool) else type_name(value)
        raise error(
            f"{where} must be a whole number, not {kind}",
            code=f"{code}.not_whole", where=where, value=clip(repr(value)),
            kind=type_name(value),
        )
    if value < low or (high is not None and value > high):
        shown = str(value) if abs(value) < 10**30 else "with more than 30 digits"
        text = number_text(value)
        if high is None:
            raise error(
                f"{where} {shown} is out of range: use {low} or more",
                code=f"{code}.too_small", where=where, value=text, low=low,
            )
        raise error(
            f"{where} {shown} is out of range: use {low} to {high}",
            code=f"{code}.range", where=where, value=text, low=low, high=high,
        )
    return value

"""The grades the page worked out itself, kept for the statistics' wins per grade."""

from __future__ import annotations

from collections.abc import Mapping

from nestor import MAX_DEAL, NestorError, get_variant
from nestor.deal import GRADE_NAMES
from nestor.graded_deals import CUTS_FINGERPRINT
from nestor.jsontext import load_object

from ..app.statistics.data import Key
from .keys import json_text

GRADES_VERSION = 1

GRADE_MEMORY = 5000  # most grades kept (all variants), as many as the statistics' deals


def grades_to_text(grades: Mapping[Key, str], cuts: str = CUTS_FINGERPRINT) -> str:
    """The stored text of the last :data:`GRADE_MEMORY` ``grades``, by the cut points ``cuts``."""
    rows = [[v, d, g] for (v, d), g in list(grades.items())[-GRADE_MEMORY:]]
    return json_text({"version": GRADES_VERSION, "cuts": cuts, "grades": rows})


def grades_from_text(text: str | None, cuts: str = CUTS_FINGERPRINT) -> dict[Key, str]:
    """The grades kept in ``text`` (``None``: nothing stored), oldest first; ``{}`` if unreadable or
    worked out with other cut points than ``cuts`` (a cache: the page grades those deals again)."""
    if text is None:
        return {}
    try:
        data = load_object(text)
    except NestorError:
        return {}
    rows = data.get("grades")
    if data.get("version") != GRADES_VERSION or data.get("cuts") != cuts or type(rows) is not list:
        return {}
    read = (_row(row) for row in rows[-GRADE_MEMORY:])
    return dict(row for row in read if row is not None)


def _row(row: object) -> tuple[Key, str] | None:
    """One stored ``[variant, deal, grade]``, or ``None`` if it is not one."""
    if not isinstance(row, list) or len(row) != 3:
        return None
    variant, deal, grade = row
    if grade not in GRADE_NAMES or type(deal) is not int or not 0 <= deal < MAX_DEAL:
        return None  # (a variant that is not one: get_variant raises)
    try:
        return (get_variant(variant).name, deal), grade
    except NestorError:
        return None

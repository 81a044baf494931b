"""The plausible range of every number the game keeps of a player's play.

A number outside its range is not one play could have made (a damaged or forged text): the
text holding it is unreadable, as any damaged text is (a stored value is set aside and
reported, a backup refused). No words, no storage format: the codecs check their fields
with :func:`in_range`, the view words the codes of :data:`RANGE_CODES`.

* a **duration** (the timer of a game, the fastest win), in milliseconds: 0 to a century,
  :data:`LONGEST_MS`;
* a **moment** (when a game started or settled, when statistics were reset), in
  milliseconds since 1970-01-01 UTC: 0 to the last millisecond of the year 9999,
  :data:`LATEST_MS` (the last a date can name);
* a **count** (games played, won, streaks; hints, Solve's moves and tries in one game):
  0 to :data:`MOST`, a thousand million (a game every three seconds, day and night, for a
  century).
"""

from __future__ import annotations

from nestor import NestorError
from nestor.checks import number_text, whole_number

LONGEST_MS = 3_155_760_000_000
"""The longest duration kept: a century (100 years of 365.25 days), in milliseconds."""

LATEST_MS = 253_402_300_799_999
"""The latest moment kept: 9999-12-31 23:59:59.999 UTC, in milliseconds since 1970."""

MOST = 1_000_000_000
"""The largest count kept."""

LARGEST = {"duration": LONGEST_MS, "moment": LATEST_MS, "count": MOST}
"""The upper end of each kind's range (every range starts at 0)."""

RANGE_CODES: dict[str, tuple[str, ...]] = {
    "range.duration": ("where", "value", "high"),  # a duration longer than a century
    "range.moment": ("where", "value", "high"),  # a moment after the year 9999
    "range.count": ("where", "value", "high"),  # a count over MOST
}
"""The codes :func:`in_range` raises above a range, and the names of their details: where
(the field or its JSON path), value (clipped) and high (the range's end)."""


def in_range(value: object, where: str, kind: str) -> int:
    """``value`` if it is a whole number from 0 to the end of ``kind``'s range
    (``"duration"``, ``"moment"`` or ``"count"``).

    Raises:
        NestorError: code ``number.not_whole`` or ``number.too_small`` (as
            :func:`nestor.checks.whole_number`), or ``range.<kind>`` above the range.
    """
    number = whole_number(value, where)
    high = LARGEST[kind]
    if number > high:
        shown = number_text(number)
        raise NestorError(
            f"{where} {shown} is not a plausible {kind}: more than {high}",
            code=f"range.{kind}", where=where, value=shown, high=high,
        )
    return number


def clamped(value: int, kind: str) -> int:
    """``value`` brought into ``kind``'s range (what the game writes is always read back)."""
    return min(max(0, value), LARGEST[kind])


__all__ = ["LARGEST", "LATEST_MS", "LONGEST_MS", "MOST", "RANGE_CODES", "clamped", "in_range"]

"""The review's timeline as inline SVG (:func:`timeline_svg`): how the game stood after each
move, winnable at the top, lost at the bottom; static/css/review.css draws it, by class."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from itertools import groupby

WIDTH, HEIGHT = 320, 76
"""The drawing's size in SVG units (it is scaled to its box)."""

LEFT, RIGHT, TOP, BOTTOM = 58.0, 10.0, 10.0, 12.0
"""Margins around the plot, in SVG units (the axis labels sit in the left one)."""


@dataclass(frozen=True)
class Point:
    """How the game stood at one place: ``state`` (``"winnable"``, ``"lost"``, ``"unknown"``,
    ``"pending"``), ``value`` its height from 0.0 (lost) to 1.0, ``None`` when not known."""

    state: str
    value: float | None = None


def x_of(place: int, total: int) -> float:
    """The x of place ``place`` (0: the deal, ``i + 1``: after move ``i``) of ``total`` moves."""
    span = WIDTH - LEFT - RIGHT
    return LEFT + span * place / max(1, total)


def y_of(value: float) -> float:
    """The y of a height ``value`` (0.0 .. 1.0; 1.0 at the top)."""
    return TOP + (1.0 - value) * (HEIGHT - TOP - BOTTOM)


def point_at(fraction: float, total: int) -> int | None:
    """The move (0-based) whose point is nearest to ``fraction`` of the drawing's width
    (0.0: its left edge, 1.0: its right edge); ``None`` when the game has no move."""
    if total < 1:
        return None
    x = fraction * WIDTH
    place = round((x - LEFT) / (WIDTH - LEFT - RIGHT) * total)
    return max(0, min(total - 1, place - 1))


def _fmt(number: float) -> str:
    return f"{number:.1f}".rstrip("0").rstrip(".")


def timeline_svg(
    start: Point,
    points: Sequence[Point],
    total: int,
    turning: int | None,
    chosen: int | None,
    labels: tuple[str, str],
) -> str:
    """The SVG of the timeline: ``start`` (the deal), the ``points`` reviewed so far of ``total``
    moves, the ``turning`` and ``chosen`` move indexes (or ``None``), the axis ``labels``
    (top, bottom); each point a ``circle`` with ``data-review-go="i"``."""
    parts = [
        f'<svg class="timeline-svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'aria-hidden="true" focusable="false">',
        f'<rect class="tl-plot" x="{_fmt(LEFT)}" y="{_fmt(TOP)}" '
        f'width="{_fmt(WIDTH - LEFT - RIGHT)}" height="{_fmt(HEIGHT - TOP - BOTTOM)}"/>',
    ]
    for value, label in ((1.0, labels[0]), (0.0, labels[1])):
        y = y_of(value)
        parts.append(
            f'<line class="tl-grid" x1="{_fmt(LEFT)}" y1="{_fmt(y)}" '
            f'x2="{_fmt(WIDTH - RIGHT)}" y2="{_fmt(y)}"/>'
            f'<text class="tl-label" x="{_fmt(LEFT - 4)}" y="{_fmt(y + 3.5)}" '
            f'text-anchor="end">{escape(label)}</text>'
        )
    places = [start, *points[:total]]
    # The line: through consecutive known points, broken around unknown or pending ones.
    for known, run in groupby(enumerate(places), key=lambda item: item[1].value is not None):
        xy = [f"{_fmt(x_of(i, total))},{_fmt(y_of(point.value or 0.0))}" for i, point in run]
        if known and len(xy) > 1:
            parts.append(f'<polyline class="tl-line" points="{" ".join(xy)}"/>')
    if turning is not None and 0 <= turning < total:
        mark = _fmt(x_of(turning + 1, total))
        parts.append(
            f'<line class="tl-turning" data-turning-mark="{turning}" x1="{mark}" '
            f'y1="{_fmt(TOP - 6)}" x2="{mark}" y2="{_fmt(HEIGHT - BOTTOM + 6)}"/>'
        )
    middle = y_of(0.5)
    if start.value is not None:
        parts.append(
            f'<circle class="tl-start tl-{start.state}" cx="{_fmt(x_of(0, total))}" '
            f'cy="{_fmt(y_of(start.value))}" r="2.5"/>'
        )
    radius = 3.5 if total <= 40 else 2.5
    for index, point in enumerate(points[:total]):
        if point.state == "pending":
            continue
        x = x_of(index + 1, total)
        y = middle if point.value is None else y_of(point.value)
        parts.append(
            f'<circle class="tl-point tl-{point.state}" data-review-go="{index}" '
            f'cx="{_fmt(x)}" cy="{_fmt(y)}" r="{radius}"/>'
        )
    if chosen is not None and 0 <= chosen < total:
        point = points[chosen] if chosen < len(points) else Point("pending")
        y = middle if point.value is None else y_of(point.value)
        parts.append(
            f'<circle class="tl-chosen" cx="{_fmt(x_of(chosen + 1, total))}" '
            f'cy="{_fmt(y)}" r="{radius + 3}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)

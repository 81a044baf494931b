"""A small inline SVG chart of settled games: one bar per game and the running win rate
(:func:`chart_svg`; its words :data:`CHART_LABELS`, passed translated as ``labels``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape

from nestor import NestorError
from nestor.errors import clip

from ..app.statistics.data import RESULTS, Settlement
from .i18n import N_

CHART_LABELS: Mapping[str, str] = {
    "won": N_("won"),
    "assisted": N_("won with help"),
    "lost": N_("lost"),
    "rate": N_("win rate"),
    "games": N_("games"),
    "empty": N_("no games yet"),
}
"""Default words of :func:`chart_svg`; pass ``labels`` to replace any of them."""

CHART_COLOURS = {"won": "#15803d", "assisted": "#b45309", "lost": "#b91c1c"}
"""Bar colours; the bars also differ in height (won tallest, lost shortest)."""

_BAR_HEIGHT = {"won": 1.0, "assisted": 0.6, "lost": 0.25}
_INK = "#16161a"
_PAPER = "#fffdf7"
_RATE = "#1d4ed8"
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: str) -> str:
    """``value`` made safe for XML text and attribute values (invalid characters dropped)."""
    return escape(_NOT_XML.sub("", value), quote=True)


def _n(x: float) -> str:
    return f"{x:.1f}".removesuffix(".0")


def chart_svg(
    results: Sequence[Settlement],
    width: int = 320,
    height: int = 120,
    *,
    title: str = "Recent games",
    labels: Mapping[str, str] | None = None,
) -> str:
    """An SVG of the settled ``results``, oldest on the left: a bar per game, the running win
    rate, a legend, a summary as ``aria-label``; ``width``, ``height`` in CSS pixels (at least
    120 by 60). Raises NestorError for a size too small, an unknown label key or result."""
    if isinstance(width, bool) or not isinstance(width, int) or width < 120:
        raise NestorError(f"the chart width must be a whole number >= 120, not {width!r}")
    if isinstance(height, bool) or not isinstance(height, int) or height < 60:
        raise NestorError(f"the chart height must be a whole number >= 60, not {height!r}")
    words = dict(CHART_LABELS)
    for key, value in (labels or {}).items():
        if key not in CHART_LABELS:
            raise NestorError(f"unknown chart label {key!r}")
        words[key] = value
    for s in results:
        if s.result not in RESULTS:
            names = ", ".join(repr(r) for r in RESULTS)
            raise NestorError(f"a chart result must be one of {names}, not {clip(repr(s.result))}")

    n = len(results)
    tally = {r: sum(1 for s in results if s.result == r) for r in RESULTS}
    wins = tally["won"] + tally["assisted"]
    if n:
        summary = (
            f"{title}: {n} {words['games']}: {tally['won']} {words['won']}, "
            f"{tally['assisted']} {words['assisted']}, {tally['lost']} {words['lost']}; "
            f"{words['rate']} {wins / n:.0%}."
        )
    else:
        summary = f"{title}: {words['empty']}."

    font = 10
    legend_h = font + 6
    left, right, top = 34.0, width - 6.0, 9.0
    bottom = height - legend_h - 4.0
    bars_h = (bottom - top) * 0.38
    rate_bottom = bottom - bars_h - 6.0
    plot_w = right - left

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="nestor-stats-chart" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{_text(summary)}" font-family="system-ui, sans-serif" '
        f'font-size="{font}">',
        f"<title>{_text(summary)}</title>",
        f'<rect class="paper" width="{width}" height="{height}" rx="4" fill="{_PAPER}"/>',
    ]
    # Scale of the win rate: 0 %, 50 %, 100 %.
    for frac in (0.0, 0.5, 1.0):
        y = rate_bottom - frac * (rate_bottom - top)
        dash = "" if frac == 0.0 else ' stroke-dasharray="2 3"'
        out.append(
            f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(right)}" y2="{_n(y)}" '
            f'stroke="#9ca3af" stroke-width="1"{dash}/>'
        )
        out.append(
            f'<text x="{_n(left - 3)}" y="{_n(y + 3)}" text-anchor="end" '
            f'fill="{_INK}">{frac:.0%}</text>'
        )
    out.append(
        f'<line x1="{_n(left)}" y1="{_n(bottom)}" x2="{_n(right)}" y2="{_n(bottom)}" '
        f'stroke="{_INK}" stroke-width="1"/>'
    )
    if not n:
        out.append(
            f'<text x="{_n(left + plot_w / 2)}" y="{_n((top + bottom) / 2)}" '
            f'text-anchor="middle" fill="{_INK}">{_text(words["empty"])}</text>'
        )
    else:
        slot = plot_w / n
        gap = min(2.0, slot * 0.2)  # between bars; bars are at most 16 px wide
        points = []
        so_far = 0
        for i, s in enumerate(results):
            x = left + i * slot
            h = bars_h * _BAR_HEIGHT[s.result]
            bar_w = min(max(slot - gap, 0.5), 16.0)
            out.append(
                f'<rect class="{s.result}" x="{_n(x + (slot - bar_w) / 2)}" y="{_n(bottom - h)}" '
                f'width="{_n(bar_w)}" height="{_n(h)}" '
                f'fill="{CHART_COLOURS[s.result]}">'
                f"<title>{_text(f'{s.variant} {s.deal}: {words[s.result]}')}</title></rect>"
            )
            so_far += s.is_win
            rate = so_far / (i + 1)
            points.append((x + slot / 2, rate_bottom - rate * (rate_bottom - top)))
        path = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        out.append(
            f'<polyline class="rate" points="{path}" fill="none" stroke="{_RATE}" '
            'stroke-width="2" '
            'stroke-linejoin="round"/>'
        )
        lx, ly = points[-1]
        out.append(f'<circle class="rate" cx="{_n(lx)}" cy="{_n(ly)}" r="2.5" fill="{_RATE}"/>')
    # Legend: swatches as tall as the bars they stand for, then the rate line;
    # smaller type when the words would not fit the width.
    def advance(word: str, size: float) -> float:
        return 0.9 * size + 0.55 * size * len(word) + size

    size = float(font)
    needed = sum(advance(words[r], size) for r in RESULTS) + 1.5 * size + advance(
        words["rate"], size)
    size = max(5.0, size * min(1.0, (width - 12) / needed))
    x = 6.0
    base = height - 4.0
    for result in RESULTS:
        h = 0.2 * size + 0.8 * size * _BAR_HEIGHT[result]
        out.append(
            f'<rect class="{result}" x="{_n(x)}" y="{_n(base - h)}" width="{_n(0.6 * size)}" '
            f'height="{_n(h)}" '
            f'fill="{CHART_COLOURS[result]}"/>'
        )
        out.append(
            f'<text x="{_n(x + 0.9 * size)}" y="{_n(base)}" font-size="{_n(size)}" '
            f'fill="{_INK}">{_text(words[result])}</text>'
        )
        x += advance(words[result], size)
    out.append(
        f'<line class="rate" x1="{_n(x)}" y1="{_n(base - 0.4 * size)}" x2="{_n(x + 1.2 * size)}" '
        f'y2="{_n(base - 0.4 * size)}" stroke="{_RATE}" stroke-width="2"/>'
    )
    out.append(
        f'<text x="{_n(x + 1.5 * size)}" y="{_n(base)}" font-size="{_n(size)}" '
        f'fill="{_INK}">{_text(words["rate"])}</text>'
    )
    out.append("</svg>")
    return "".join(out)

"""The statistics dialog's content: a table of every variant, the wins per grade of the
variant in play, a chart of settled games (inline SVG), the reset control."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape

from nestor import VARIANTS, NestorError
from nestor.errors import clip

from ..app.session import Session
from ..app.statistics.data import DEAL_MEMORY, RESULTS, Settlement
from .daily import daily_stats_html
from .i18n import N_, _, ngettext, percent, thousands, variant_title
from .words import grade_name

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
                f'width="{_n(bar_w)}" height="{_n(h)}" fill="{CHART_COLOURS[s.result]}">'
                f"<title>{_text(f'{s.variant} {s.deal}: {words[s.result]}')}</title></rect>"
            )
            so_far += s.is_win
            rate = so_far / (i + 1)
            points.append((x + slot / 2, rate_bottom - rate * (rate_bottom - top)))
        path = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        out.append(
            f'<polyline class="rate" points="{path}" fill="none" stroke="{_RATE}" '
            'stroke-width="2" stroke-linejoin="round"/>'
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
            f'height="{_n(h)}" fill="{CHART_COLOURS[result]}"/>'
            f'<text x="{_n(x + 0.9 * size)}" y="{_n(base)}" font-size="{_n(size)}" '
            f'fill="{_INK}">{_text(words[result])}</text>'
        )
        x += advance(words[result], size)
    out.append(
        f'<line class="rate" x1="{_n(x)}" y1="{_n(base - 0.4 * size)}" x2="{_n(x + 1.2 * size)}" '
        f'y2="{_n(base - 0.4 * size)}" stroke="{_RATE}" stroke-width="2"/>'
        f'<text x="{_n(x + 1.5 * size)}" y="{_n(base)}" font-size="{_n(size)}" '
        f'fill="{_INK}">{_text(words["rate"])}</text>'
    )
    out.append("</svg>")
    return "".join(out)


def _duration(ms: int | None) -> str:
    """A fastest win as the table shows it, ``"4:07 min"``."""
    if ms is None:
        return "–"
    seconds = (max(0, ms) + 500) // 1000
    return _("{minutes}:{seconds:02d} min").format(minutes=seconds // 60, seconds=seconds % 60)


def _table(
    table: str, caption: str, head: list[str], rows: list[tuple[str, str, list[str]]]
) -> str:
    """A statistics table (``table``: its attributes) in a region that scrolls sideways, by
    keyboard too; ``rows`` are (attributes, name, cells), each cell labelled ``data-head``
    with its column's ``head``. Every text is escaped here."""
    body = "".join(
        f'<tr{attrs}><th scope="row">{escape(name)}</th>'
        + "".join(f'<td data-head="{escape(h)}">{escape(c)}</td>'
                  for h, c in zip(head[1:], cells, strict=True)) + "</tr>"
        for attrs, name, cells in rows
    )
    caption = escape(caption)
    return (
        f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
        f'<table {table}><caption>{caption}</caption>'
        "<thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' for h in head)
        + "</tr></thead><tbody>" + body + "</tbody></table></div>"
    )


def _rate(rate: float | None) -> str:
    return percent(rate) if rate is not None else "–"


def grades_html(session: Session, kept: Mapping[tuple[str, int], str] | None = None) -> str:
    """The wins per grade of the variant in play over the deals the statistics remember
    (``<table data-grades>``, a row ``data-grade-row="easy"`` … per grade), and a note of what
    it counts and how many deals are not graded yet (``kept``: grades worked out before)."""
    variant = session.game.variant.name
    records, unknown = session.grade_records(variant, kept)
    rows = [(f' data-grade-row="{r.grade}"', grade_name(r.grade),
             [str(r.played), str(r.won), _rate(r.win_rate)]) for r in records]
    table = _table(
        'class="stats grades" data-grades', _("Games by grade, {variant}").format(
            variant=variant_title(variant)),
        [_("Grade"), _("Played"), _("Won"), _("Win rate")], rows)
    note = _("Counted over the deals the game remembers: the last {count} deals played, all "
             "variants together.").format(count=thousands(DEAL_MEMORY))
    if unknown:
        note += " " + ngettext(
            "{count} deal played is not graded yet.", "{count} deals played are not graded yet.",
            unknown,
        ).format(count=unknown)
    return table + f'<p class="grades-note" data-deal-memory="{DEAL_MEMORY}">{escape(note)}</p>'


def stats_html(
    session: Session, confirm_reset: bool = False,
    kept_grades: Mapping[tuple[str, int], str] | None = None,
) -> str:
    """The statistics dialog's content (see the module docstring); ``confirm_reset``: the
    reset control at its confirmation step."""
    head = [
        _("Variant"), _("Played"), _("Won"), _("Won with help"), _("Win rate"),
        _("Streak"), _("Best streak"), _("Fastest win"),
    ]
    rows = []
    for name in VARIANTS:
        s = session.stats.summary(name)
        rows.append(("", variant_title(name), [
            str(s.played), str(s.won), str(s.won_with_help), _rate(s.win_rate),
            str(s.streak), str(s.best_streak), _duration(s.fastest_ms),
        ]))
    table = _table('class="stats"', _("Games per variant"), head, rows)
    variant = session.game.variant.name
    chart = chart_svg(
        session.stats.history(variant, last=40),
        title=_("Recent games, {variant}").format(variant=variant_title(variant)),
        labels={key: _(word) for key, word in CHART_LABELS.items()},
    )
    if confirm_reset:
        question = escape(_("Reset all statistics? This cannot be undone."))
        yes, keep = escape(_("Yes, reset")), escape(_("Keep them"))
        # A backup offered first (a file and its code, as Settings makes it).
        first = escape(_("Back up my progress first"))
        reset = (
            f'<p class="confirm">{question} '
            f'<button type="button" data-action="stats-backup">{first}</button> '
            f'<button type="button" data-action="stats-reset-confirm">{yes}</button> '
            f'<button type="button" data-action="stats-reset-cancel">{keep}</button></p>'
            '<p id="stats-backup-words" role="status"></p>'
        )
    else:
        ask = escape(_("Reset statistics…"))
        reset = f'<p><button type="button" data-action="stats-reset">{ask}</button></p>'
    return (table + daily_stats_html(session) + grades_html(session, kept_grades)
            + f'<div class="chart">{chart}</div>' + reset)

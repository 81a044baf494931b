"""The statistics dialog's content: a table of every variant, the wins per grade of the
variant in play, a chart, the reset control."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from nestor import VARIANTS

from ..app.session import Session
from ..app.statistics.data import DEAL_MEMORY
from .chart import CHART_LABELS, chart_svg
from .daily import daily_stats_html
from .i18n import _, ngettext, percent, thousands, variant_title
from .words import grade_name


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

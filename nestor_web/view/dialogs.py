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
    """A fastest win as the table shows it, ``"4:07 min"`` (whole numbers only: any ``int``
    is worded)."""
    if ms is None:
        return "–"
    seconds = (max(0, ms) + 500) // 1000
    return _("{minutes}:{seconds:02d} min").format(minutes=seconds // 60, seconds=seconds % 60)


def grades_html(session: Session, kept: Mapping[tuple[str, int], str] | None = None) -> str:
    """The wins per grade of the variant in play, over the deals the statistics
    remember: a table ``<table data-grades>``, one row ``data-grade-row="easy"`` (…) per
    grade, and a note saying that it counts only the deals remembered
    (:data:`~nestor_web.app.statistics.data.DEAL_MEMORY`) and how many settled deals are not
    graded yet (``kept``: the grades the page worked out before)."""
    variant = session.game.variant.name
    records, unknown = session.grade_records(variant, kept)
    head = [_("Grade"), _("Played"), _("Won"), _("Win rate")]
    rows = "".join(
        f'<tr data-grade-row="{r.grade}"><th scope="row">{escape(grade_name(r.grade))}</th>'
        + "".join(
            f'<td data-head="{escape(h)}">{escape(c)}</td>'
            for h, c in zip(head[1:], (
                str(r.played), str(r.won),
                percent(r.win_rate) if r.win_rate is not None else "–",
            ), strict=True)
        ) + "</tr>"
        for r in records
    )
    caption = escape(_("Games by grade, {variant}").format(variant=variant_title(variant)))
    note = _(
        "Counted over the deals the game remembers: the last {count} deals played, all "
        "variants together."
    ).format(count=thousands(DEAL_MEMORY))
    if unknown:
        note += " " + ngettext(
            "{count} deal played is not graded yet.", "{count} deals played are not graded yet.",
            unknown,
        ).format(count=unknown)
    note = f'<p class="grades-note" data-deal-memory="{DEAL_MEMORY}">{escape(note)}</p>'
    return (
        f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
        f'<table class="stats grades" data-grades><caption>{caption}</caption>'
        "<thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' for h in head)
        + "</tr></thead><tbody>" + rows + "</tbody></table></div>" + note
    )


def stats_html(
    session: Session, confirm_reset: bool = False,
    kept_grades: Mapping[tuple[str, int], str] | None = None,
) -> str:
    """The statistics dialog's content: a table of every variant, the wins per grade of the
    variant in play (:func:`grades_html`, ``kept_grades`` the grades the page worked out
    before), the current variant's recent results as a chart, and the reset control (with
    its confirmation step when ``confirm_reset``)."""
    head = [
        _("Variant"), _("Played"), _("Won"), _("Won with help"), _("Win rate"),
        _("Streak"), _("Best streak"), _("Fastest win"),
    ]
    rows = []
    for name in VARIANTS:
        s = session.stats.summary(name)
        cells = [
            str(s.played), str(s.won), str(s.won_with_help),
            percent(s.win_rate) if s.win_rate is not None else "–",
            str(s.streak), str(s.best_streak), _duration(s.fastest_ms),
        ]
        rows.append(
            f'<tr><th scope="row">{escape(variant_title(name))}</th>'
            + "".join(
                f'<td data-head="{escape(h)}">{escape(c)}</td>'
                for h, c in zip(head[1:], cells, strict=True)
            ) + "</tr>"
        )
    caption = escape(_("Games per variant"))
    table = (
        # A region of its own: where the table is wider than the panel it scrolls sideways,
        # and the keyboard can scroll it too (axe: scrollable-region-focusable).
        f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
        f'<table class="stats"><caption>{caption}</caption>'
        "<thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' for h in head)
        + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>"
    )
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

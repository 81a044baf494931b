"""The daily deal's words: its label beside the deal, the share text (date, result, pairs,
help: nothing that spoils the deal), its statistics."""

from __future__ import annotations

from datetime import date
from html import escape

from nestor import DECK

from ..app.session import Session
from .i18n import _, ngettext, thousands, variant_title

PAIRS = len(DECK) // 2


def day_text(day: date) -> str:
    """A date as the daily deal names it in every language, as its link: ``"2026-12-01"``."""
    return day.isoformat()


def daily_label(session: Session) -> str | None:
    """The words beside the deal number while a daily deal is played, else ``None``."""
    if session.daily is None:
        return None
    return _("Daily deal of {date}").format(date=day_text(session.daily))


def share_text(session: Session) -> str | None:
    """The text Share copies for the daily deal in play (``None``: none is), which does not
    spoil the deal."""
    if session.daily is None:
        return None
    outcome = session.position.outcome()
    result = _("in play") if outcome is None else _("won") if outcome.won else _("lost")
    return _("Nestor, daily deal of {date} ({variant}): {result}, {pairs} of {total} pairs, "
             "{help}.").format(
        date=day_text(session.daily), variant=variant_title(session.game.variant.name),
        result=result, pairs=session.pairs_removed(), total=PAIRS,
        help=_("with help") if session.help.used else _("no help"),
    )


def share_status(copied: bool) -> str:
    """What the page says after Share: copied, or copy the text shown by hand."""
    if copied:
        return _("Copied to the clipboard.")
    return _("The clipboard could not be used: select the text below and copy it.")


def daily_stats_html(session: Session) -> str:
    """The daily deal's line in the statistics dialog."""
    s = session.stats.daily_summary(session.today())
    line = ngettext(
        "Daily deal: {days} date won, daily streak {streak}, best daily streak {best}.",
        "Daily deal: {days} dates won, daily streak {streak}, best daily streak {best}.",
        s.days_won,
    ).format(days=thousands(s.days_won), streak=thousands(s.streak), best=thousands(s.best_streak))
    today = _("Today's daily deal is won.") if s.won_today else _("Today's daily deal is not won "
                                                                  "yet.")
    return f'<p class="daily-stats" data-daily-streak="{s.streak}">{escape(line)} ' \
        f"{escape(today)}</p>"

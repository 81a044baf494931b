"""The end screen: :func:`end_view` makes what a finished game shows, :func:`render_end`
its HTML."""

from __future__ import annotations

from dataclasses import astuple, dataclass, replace
from html import escape
from typing import TYPE_CHECKING

from nestor import Outcome

from ..app.ending import DailyWin, Ending
from ..app.session import Session
from .daily import PAIRS, day_text
from .i18n import N_, _, card_name, ngettext, percent, thousands
from .words import clock_text, streak_text

if TYPE_CHECKING:  # a solution exists only once the solver ran (and was imported)
    from nestor.solver import Solution

BUTTONS: tuple[tuple[str, str], ...] = (
    ("review", N_("Review")),  # the review panel (App.open_review, nestor_web/browser/review.py)
    ("restart", N_("Play again")),
    ("new", N_("New deal")),
    ("undo", N_("Undo")),
    ("copy-link", N_("Copy link")),
)
"""The end screen's buttons, in order: the page's command (``data-action``) and its word."""


@dataclass(frozen=True)
class EndView:
    """What the end screen shows, as texts: ``outcome`` (``"won"``/``"lost"``), ``time``
    (``None``: the timer is hidden), the verdict on the deal, a daily win's line, the
    ``buttons`` (``(action, word)``)."""

    outcome: str
    title: str
    reason: str
    time: str | None
    pairs: str
    help: str
    helped: bool
    verdict_label: str
    verdict: str
    verdict_kind: str
    streak: str
    daily: str | None
    daily_counted: bool
    can_undo: bool
    buttons: tuple[tuple[str, str], ...]
    close: str
    label: str

    def without_verdict(self) -> tuple[object, ...]:
        """Everything but the verdict (a verdict alone is updated in place)."""
        return astuple(replace(self, verdict="", verdict_kind=""))


def end_view(session: Session, ending: Ending) -> EndView | None:
    """The end screen of ``session``'s game, or ``None`` while the game goes on."""
    position = session.position
    outcome = position.outcome()
    if outcome is None:
        return None
    if outcome is Outcome.WON:
        title, reason = _("You won!"), _("Every card is paired off.")
    elif outcome is Outcome.STOCK_UNPAIRED:
        title = _("Game lost")
        reason = _("The stock card, the {card}, can't pair with any available card.").format(
            card=card_name(position.unpaired or ""))
    else:
        title, reason = _("Game lost"), _("No pair is left to remove.")
    label, verdict, kind = verdict_words(session, ending)
    daily = ending.daily_win(session)
    return EndView(
        outcome=outcome.result,
        title=title,
        reason=reason,
        time=clock_text(session.elapsed_ms()) if session.settings.show_timer else None,
        pairs=_("{pairs} of {total}").format(pairs=session.pairs_removed(), total=PAIRS),
        help=help_words(session),
        helped=session.help.used,
        verdict_label=label,
        verdict=verdict,
        verdict_kind=kind,
        streak=streak_text(session),
        daily=None if daily is None else daily_words(daily),
        daily_counted=daily is not None and daily.counted,
        can_undo=session.game.can_undo(),
        buttons=tuple((action, _(word)) for action, word in BUTTONS),
        close=_("Close the result"),
        label=_("What next"),
    )


def daily_words(win: DailyWin) -> str:
    """What a daily deal's win did to the daily streak (a late win: the run it made ending on
    its date), or why it did not count."""
    date = day_text(win.day)
    if not win.counted:
        return _("Daily deal of {date}: this game was started after that date, so the win counts "
                 "as an ordinary game, not for the daily streak.").format(date=date)
    if win.late:
        return ngettext(
            "Daily deal of {date} won: it counts for its own date, a run of {count} day "
            "ending that day; best daily streak {best}.",
            "Daily deal of {date} won: it counts for its own date, a run of {count} days "
            "ending that day; best daily streak {best}.",
            win.run,
        ).format(date=date, count=thousands(win.run), best=thousands(win.best_streak))
    return ngettext("Daily deal of {date} won: daily streak {count} day.",
                    "Daily deal of {date} won: daily streak {count} days.",
                    win.streak).format(date=date, count=thousands(win.streak))


def help_words(session: Session) -> str:
    """Whether help was used in this game: ``"None"``, or ``"Used: …"`` and which."""
    used = session.help
    if not used.used:
        return _("None")
    parts = [words.format(count=count) for count, words in (
        (used.hints, ngettext("{count} hint", "{count} hints", used.hints)),
        (used.solver_moves,
         ngettext("{count} move by Solve", "{count} moves by Solve", used.solver_moves)),
        (used.replayed, ngettext("started from a replay after {count} move",
                                 "started from a replay after {count} moves", used.replayed)),
        (used.reviewed, ngettext("tried again from its review {count} time",
                                 "tried again from its review {count} times", used.reviewed)),
    ) if count]
    return _("Used: {help}").format(help=", ".join(parts))


def chance_words(chance: float) -> str:
    """Strict's chance as a whole percentage, never "0%" above nothing nor "100%" below
    certainty."""
    if 0 < chance < 0.005:
        return _("under 1%")
    if 0.995 <= chance < 1:
        return _("over 99%")
    return percent(chance)


def verdict_words(session: Session, ending: Ending) -> tuple[str, str, str]:
    """``(question, answer, kind)`` of the verdict on the deal from its first position."""
    strict = session.game.variant.has_stock
    question = (
        _("Chance to win from the start, with best play (stock order unknown)") if strict
        else _("Could the deal be won from the start?")
    )
    if ending.won_by_play(session):
        return question, _("Yes: you won it"), "won"
    solution = ending.verdict(session)
    if solution is None:
        return question, _("Working it out…"), "working"
    return (question, *_answer(solution, strict))


def _answer(solution: Solution, strict: bool) -> tuple[str, str]:
    from nestor.solver import Status

    if solution.status is Status.UNKNOWN:
        return _("Unknown: the solver gave up before it could tell"), "unknown"
    if strict and solution.win_probability is not None:
        return chance_words(solution.win_probability), "chance"
    if solution.status is Status.WINNABLE:
        return _("Yes: the solver found a winning line"), "winnable"
    return _("No: the solver tried every way of playing it"), "lost"


def render_end(view: EndView) -> str:
    """The HTML inside ``[data-end-screen]``: ``#end-title``, ``#end-reason``, the facts
    (``data-end-fact``), the ``data-action`` buttons, ``data-end-command="close"``."""
    facts = (("time", _("Time"), view.time), ("pairs", _("Pairs made"), view.pairs),
             ("help", _("Help"), view.help))
    rows = "".join(
        f'<div class="end-fact"><dt>{escape(term)}</dt>'
        f'<dd data-end-fact="{key}">{escape(value)}</dd></div>'
        for key, term, value in facts if value is not None
    )
    rows += (
        f'<div class="end-fact end-verdict"><dt>{escape(view.verdict_label)}</dt>'
        f'<dd id="end-verdict" data-end-fact="verdict" data-verdict="{view.verdict_kind}" '
        f'aria-live="polite">{escape(view.verdict)}</dd></div>'
    )
    buttons = "".join(
        f'<button type="button" data-action="{action}"'
        f'{" disabled" if action == "undo" and not view.can_undo else ""}>'
        f"{escape(word)}</button>"
        for action, word in view.buttons
    )
    close = escape(view.close)
    daily = "" if view.daily is None else (
        f'<p class="end-daily" data-end-daily="{"counted" if view.daily_counted else "not"}">'
        f"{escape(view.daily)}</p>"
    )
    return (
        '<div class="end-head">'
        f'<h2 id="end-title" data-end-outcome="{view.outcome}">{escape(view.title)}</h2>'
        f'<button type="button" class="end-close" data-end-command="close" '
        f'aria-label="{close}" title="{close}">'
        '<svg viewBox="0 0 20 20" aria-hidden="true"><path d="M5.4 4 10 8.6 14.6 4 16 5.4 '
        '11.4 10 16 14.6 14.6 16 10 11.4 5.4 16 4 14.6 8.6 10 4 5.4z"/></svg></button></div>'
        f'<p id="end-reason">{escape(view.reason)}</p>'
        f'<dl class="end-facts">{rows}</dl>'
        f'<p class="end-streak">{escape(view.streak)}</p>{daily}'
        f'<div class="end-actions" role="group" aria-label="{escape(view.label)}">'
        f"{buttons}</div>"
    )


def reopen_words() -> str:
    """The word of the button that brings a closed end screen back."""
    return _("Show the result")

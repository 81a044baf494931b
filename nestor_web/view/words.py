"""Every sentence the game says about play, in the player's language: notices,
announcements, hints, the status line."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from nestor import Move, Outcome, Place, Position, TurnStock

from ..app.events import (
    DealChanged,
    Event,
    HintShown,
    Moved,
    Problem,
    TookBack,
    TutorialChanged,
    WentBack,
)
from ..app.session import Session
from .errors import error_text
from .i18n import LANGUAGES, N_, _, card_name, ngettext, percent
from .texts import TEXTS

if TYPE_CHECKING:  # a solution exists only once the solver ran (and was imported)
    from nestor.solver import Solution

    from ..app.events import PairCount

# ---- notices ------------------------------------------------------------------------------

PROBLEM_WORDS: Mapping[str, str] = {
    "link.variant": N_("The link's variant could not be used: {error}."),
    "link.deal": N_("The link's deal number could not be used: {error}."),
    "link.replay": N_("The replay link could not be shown: {error}. Your game and statistics are "
                      "as they were."),
    "link.daily": N_("The link's daily deal could not be opened: {error}. Your game and statistics "
                     "are as they were."),
    "link.puzzle": N_("The link's puzzle could not be opened: {error}. Your game and statistics "
                      "are as they were."),
    "puzzles.unreadable": N_("Your puzzle record could not be read: {error}. It was set aside, and "
                             "your puzzle rating starts again."),
    "puzzles.unreadable.lost": N_("Your puzzle record could not be read: {error}. No copy of it "
                                  "could be kept, as the browser's storage refused one "
                                  "({refusal}). Your puzzle rating starts again."),
    "save.unreadable": N_("Your saved game could not be read: {error}. It was set aside and a new "
                          "game started."),
    "settings.unreadable": N_("Your settings could not be read: {error}. They were set aside and "
                              "the defaults are used."),
    "settings.partly": N_("One of your settings could not be read: {error}. It is back to its "
                          "default, and your other settings are as you left them."),
    "settings.partly.lost": N_("One of your settings could not be read: {error}. It is back to its "
                               "default, and your other settings are as you left them; no copy of "
                               "the stored settings could be kept, as the browser's storage "
                               "refused one ({refusal})."),
    "stats.unreadable": N_("Your statistics could not be read: {error}. They were set aside and "
                           "start again from zero."),
    "archive.unreadable": N_("The games you left in progress could not be read; they were set "
                             "aside."),
    "archive.entry": N_("Your earlier game of this deal could not be read ({error}). It was set "
                        "aside, and the deal starts afresh."),
    "storage.refused": N_("Your progress could not be saved: the browser's storage refused it "
                          "({error}). The game goes on, but it may be lost when the page closes."),
    "storage.refused.kept": N_("The browser's storage refused part of your progress ({error}). "
                               "Nothing is lost: the game keeps it in its second store, and saves "
                               "it in both again once the browser takes it."),
    "save.unreadable.lost": N_("Your saved game could not be read: {error}. No copy of it could be "
                               "kept, as the browser's storage refused one ({refusal}). A new game "
                               "started."),
    "settings.unreadable.lost": N_("Your settings could not be read: {error}. No copy of them "
                                   "could be kept, as the browser's storage refused one "
                                   "({refusal}). The defaults are used."),
    "stats.unreadable.lost": N_("Your statistics could not be read: {error}. No copy of them could "
                                "be kept, as the browser's storage refused one ({refusal}). They "
                                "start again from zero."),
    "archive.unreadable.lost": N_("The games you left in progress could not be read. No copy of "
                                  "them could be kept, as the browser's storage refused one "
                                  "({refusal})."),
    "archive.entry.lost": N_("Your earlier game of this deal could not be read ({error}). No copy "
                             "of it could be kept, as the browser's storage refused one "
                             "({refusal}). The deal starts afresh."),
    "storage.forbidden": N_("This browser does not let the game save: progress will be lost."),
    "storage.forbidden.one_store": N_("This browser lets the game save in only one of its two "
                                      "stores: your progress is kept, but two open tabs of the "
                                      "game will not follow each other's moves."),
    "language.missing": N_("The texts for {language} are missing from this copy of the game, so it "
                           "speaks English."),
    "setting.refused": N_("That setting could not be changed: {error}."),
    "deal.refused": N_("That deal could not be started: {error}."),
    "winnable.not_found": N_("No winnable deal was found quickly; this one may not be."),
    "game.other_tab": N_("This game was played on in another tab; its newer position is shown "
                         "here."),
}
"""The notice of each problem code."""

REFUSAL_WORDS: Mapping[str, str] = {
    "QuotaExceededError": N_("the storage is full"),
    "SecurityError": N_("the browser does not allow storage here"),
}
"""Words for the errors a browser's storage refuses a write with, by the error's name."""


def refusal_text(name: str) -> str:
    """Why the storage refused a write, from the error's name."""
    words = REFUSAL_WORDS.get(name)
    return name if words is None else _(words)


def problem_text(problem: Problem) -> str:
    """The notice for ``problem``, in the player's language."""
    fields = dict(problem.args)
    if problem.error is not None:
        fields["error"] = error_text(problem.error)
    if problem.code in ("storage.refused", "storage.refused.kept") and "error" in fields:
        fields["error"] = refusal_text(fields["error"])
    if "refusal" in fields:
        fields["refusal"] = refusal_text(fields["refusal"])
    if "language" in fields:
        fields["language"] = LANGUAGES.get(fields["language"], fields["language"])
    return _(PROBLEM_WORDS[problem.code]).format(**fields)


def notice_text(problems: Iterable[Problem]) -> str | None:
    """All notices as one text, oldest first; ``None`` when there are none."""
    return " ".join(problem_text(p) for p in problems) or None


# ---- moves and announcements ---------------------------------------------------------------


def move_words(move: Move) -> str:
    """A move in words: ``"the seven of hearts and the seven of spades"``, or the stock turn."""
    if isinstance(move, TurnStock):
        return _("the turn of a stock card")
    return _("the {first} and the {second}").format(
        first=card_name(move.first), second=card_name(move.second))


def place_words(place: Place) -> str:
    """Where an available card lies: "in column 3", "in the reserve", "in the stock"."""
    if place.area == "column":
        return _("in column {number}").format(number=place.slot + 1)
    if place.area == "stock":
        return _("in the stock")
    return _("in the reserve")


def moved_text(event: Moved) -> str:
    """What a screen reader hears after a move: what left, what it uncovered, the end."""
    if event.turned is not None:
        if event.turned in event.removed:
            text = _("Turned the {card} from the stock and removed it with its pair.")
        else:
            text = _("Turned the {card} from the stock; it cannot pair.")
        text = text.format(card=card_name(event.turned))
    else:
        text = _("Removed {move}.").format(move=move_words(event.move))
    places = [
        _("the {card} {place}").format(card=card_name(card), place=place_words(place))
        for card, place in event.uncovered
    ]
    if places:
        text += " " + _("Now available: {cards}.").format(cards=", ".join(places))
    if event.outcome is not None:
        text += " " + (_("You won!") if event.outcome.won else _("The game is lost."))
    return text


def announcement(events: Iterable[Event], session: Session) -> str | None:
    """The live region's sentence for what a command did (``None``: nothing), and the
    guide's new step."""
    events = tuple(events)
    said = _announcement(events, session)
    if session.tutorial is not None and any(
        isinstance(e, TutorialChanged) and e.step is not None for e in events
    ):
        from .tutorial import tutorial_view

        view = tutorial_view(session)
        if view is not None:
            said = " ".join(x for x in (said, f"{view.title}: {view.text}") if x)
    return said


def _announcement(events: tuple[Event, ...], session: Session) -> str | None:
    for event in events:
        if isinstance(event, Moved):
            return moved_text(event)
        if isinstance(event, TookBack):
            return _("Took back: {move}.").format(move=move_words(event.move))
        if isinstance(event, WentBack):
            return _("Back at the position before move {number}, {move}: the moves after it can be "
                     "redone.").format(number=event.index + 1, move=move_words(event.move))
        if isinstance(event, HintShown) and event.count is not None:
            return pair_count_text(event.count)
        if isinstance(event, HintShown) and session.hint_solution is not None:
            return hint_text(session.position, session.hint_solution)
        if isinstance(event, DealChanged):
            if event.returned:
                return _("Back to the game you left, as you left it.")
            if event.left:
                return _("Left the game in progress: Undo brings it back.")
            return None
    return None


# ---- the solver's answers ------------------------------------------------------------------


def hint_text(position: Position, solution: Solution) -> str:
    """The sentence that shows a hint for ``position``, given its solution."""
    from nestor.solver import Status

    move = solution.best_move
    if solution.status is Status.UNKNOWN:
        return _("The solver ran out of time on this position: no hint this time.")
    if move is None:
        if position.variant.has_stock and solution.win_probability:
            return _("No move is needed: the game is already won.")
        return _("No winning line remains from here: every way of playing on loses.")
    if isinstance(move, TurnStock):
        text = _("Hint: turn the next stock card.")
    else:
        text = _("Hint: remove the {first} and the {second}.").format(
            first=card_name(move.first), second=card_name(move.second))
    if solution.win_probability is not None:
        text += " " + _("Chance to win with best play: {percent}.").format(
            percent=percent(solution.win_probability))
    return text


def pair_count_text(count: PairCount) -> str:
    """A hint's first step: how many pairs can be made, and how many of them lose."""
    pairs, losing = count.pairs, count.losing
    made = ngettext("{count} pair can be made", "{count} pairs can be made", pairs).format(
        count=pairs)
    if losing == 0 and count.unknown == 0:
        what = ngettext("it keeps the game winnable", "none of them loses the game", pairs)
    elif losing == pairs:
        what = ngettext("and it loses the game", "and every one of them loses the game", pairs)
    elif losing == 0:
        what = ngettext("the solver could not tell about one of them",
                        "the solver could not tell about {count} of them",
                        count.unknown).format(count=count.unknown)
    else:
        what = ngettext("one of them loses the game", "{count} of them lose the game",
                        losing).format(count=losing)
    if losing == pairs:
        return _("{pairs}, {what}: no winning line remains.").format(pairs=made, what=what)
    return _("{pairs}; {what}. Press Hint again to see the best one.").format(
        pairs=made, what=what)


GRADE_WORDS: Mapping[str, str] = {
    **{grade: TEXTS[f"difficulty-{grade}"] for grade in ("easy", "medium", "hard")},
    "unwinnable": N_("Unwinnable"),
}
"""The name of each grade of a deal (:data:`nestor.deal.GRADE_NAMES`)."""


def grade_name(grade: str | None) -> str:
    """The name of a deal's ``grade`` ("" for ``None``: not known yet)."""
    return "" if grade is None else _(GRADE_WORDS[grade])


def indicator_text(solution: Solution | None) -> str:
    """The winnable indicator's sentence (``None``: the solver is still working)."""
    if solution is None:
        return _("Checking whether the game can still be won…")
    from nestor.solver import Status

    if solution.status is Status.UNKNOWN:
        return _("Winnable: unknown (the solver ran out of time)")
    if solution.win_probability is not None:
        return _("Chance to win with best play: {percent}").format(
            percent=percent(solution.win_probability))
    return _("Winnable: yes") if solution.status is Status.WINNABLE else _("Winnable: no, not any "
                                                                           "more")


# ---- the status line -----------------------------------------------------------------------


def status_text(session: Session) -> str:
    """The status line: what the solver does, the hint, the outcome, or what to do next."""
    position = session.position
    outcome = position.outcome()
    if session.thinking == "hint":
        return _("Thinking…")
    if session.thinking == "deal":
        return _("Looking for a winnable deal…")
    if session.solving and outcome is None:
        return _("Solve is playing the winning line, one pair at a time: press Stop to take over.")
    if session.hint_solution is not None:
        return hint_text(position, session.hint_solution)
    if session.hint_count is not None and session.hint_count[0] == position:
        return pair_count_text(session.hint_count[1])
    if outcome is not None:
        return f"{outcome_text(session)} {streak_text(session)}"
    if position.can_turn_stock():
        return _("No pair is left: turn the next stock card.")
    advice, selected = _POINTER_WORDS.get(session.pointer, _POINTER_WORDS["touch"])
    if session.selected is not None and session.selected in position.available():
        return _(selected).format(card=card_name(session.selected))
    return _(advice)


_POINTER_WORDS: Mapping[str, tuple[str, str]] = {
    "touch": (N_("Tap two available cards of the same rank to remove them."),
              N_("Selected the {card}: now tap another card of the same rank.")),
    "mouse": (N_("Click two available cards of the same rank to remove them."),
              N_("Selected the {card}: now click another card of the same rank.")),
    "keyboard": (N_("Choose two available cards of the same rank (arrow keys, then Enter) to "
                    "remove them."),
                 N_("Selected the {card}: now choose another card of the same rank.")),
}
"""What to do, and what to do after a selection (``{card}``), by :attr:`Session.pointer`."""


def outcome_text(session: Session) -> str:
    """How the game ended (the position in play has an outcome)."""
    position = session.position
    outcome = position.outcome()
    if outcome is Outcome.WON:
        return _("You won! Every card is paired off.")
    if outcome is Outcome.STOCK_UNPAIRED:
        return _("Game lost: the stock card, the {card}, can't pair with any available "
                 "card.").format(card=card_name(position.unpaired or ""))
    return _("Game lost: no pair is left to remove.")


def streak_text(session: Session) -> str:
    """The variant's streak after the game that just ended."""
    stats = session.stats.summary(session.game.variant.name)
    return _("Streak: {streak} (best {best}).").format(streak=stats.streak, best=stats.best_streak)


def clock_text(ms: int) -> str:
    """The timer as the board shows it: ``"4:07"``, ``"1:02:09"`` from one hour."""
    seconds = max(0, ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def page_title(variant_title: str, deal: int) -> str:
    """The document's title."""
    return _("Nestor – {variant}, deal {deal}").format(variant=variant_title, deal=deal)

"""Every sentence the game says about play: notices, announcements, hints, the status line.

Made here, in the player's language, from the values the other rooms hand over: problems
(:class:`~nestor_web.app.events.Problem`), engine errors (their ``code`` and ``details``),
events, positions and solver answers. Nothing here changes state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from nestor import VARIANTS, Move, NestorError, Outcome, Place, Position, TurnStock

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
from .i18n import LANGUAGES, N_, _, card_name, ngettext, percent, thousands, variant_title
from .texts import setting_label

if TYPE_CHECKING:  # a solution exists only once the solver ran (and was imported)
    from nestor.solver import Solution

    from ..app.events import PairCount

# ---- engine errors --------------------------------------------------------------------------

ERROR_WORDS: Mapping[str, str] = {
    "variant.unknown": N_("there is no variant called “{value}”"),
    "variant.not_text": N_("a variant name must be text"),
    "deal.not_whole": N_("“{value}” is not a whole number"),
    "deal.range": N_("a deal number runs from 0 to {high}, not {value}"),
    "date.syntax": N_("“{value}” is not a date written as YYYY-MM-DD"),
    "date.unknown": N_("there is no date {value}"),
    "date.future": N_("the daily deal of {value} is not out yet (today is {today})"),
    "date.early": N_("there is no daily deal of {value}: the first is of {first}"),
    "number.not_whole": N_("“{where}” must be a whole number, not {kind}"),
    "number.range": N_("“{where}” must lie between {low} and {high}, not {value}"),
    "number.too_small": N_("“{where}” must be {low} or more, not {value}"),
    "range.duration": N_("“{where}” is a time longer than a century"),
    "range.win": N_("“{where}” is a time longer than a century"),
    "range.too_fast": N_("“{where}” is a win faster than anyone plays (under {low} ms)"),
    "range.help": N_("“{where}” counts more help than one game can hold (over {high})"),
    "range.date": N_(
        "“{where}” is {value}, a date no daily deal was won on (they run from {first} to "
        "{last})"
    ),
    "range.moment": N_("“{where}” is a date after the year 9999"),
    "range.count": N_("“{where}” counts more than anyone can play (over {high})"),
    "stats.wins": N_("{variant} has more wins ({wins}) than games played ({played})"),
    "stats.streak": N_("the streak in {variant} ({streak}) is longer than its best ({best})"),
    "stats.best_streak": N_(
        "the best streak in {variant} ({best}) is longer than its wins ({wins})"
    ),
    "stats.daily_streak": N_(
        "the best daily streak ({best}) is longer than the days up to the last date won "
        "({days})"
    ),
    "json.invalid": N_("the text is not valid JSON"),
    "json.too_deep": N_("the text is nested too deeply"),
    "json.not_object": N_("the text is not a JSON object"),
    "json.number_too_long": N_("the text holds a number too long to read"),
    "json.version": N_("the format version {value} is unknown"),
    "record.missing_key": N_("the game record has no “{key}”"),
    "record.moves_not_list": N_("the game record's moves are not a list"),
    "record.illegal_move": N_("move {index} ({move}) is not allowed there"),
    "record.move": N_("move {index} cannot be read"),
    "moves.too_long": N_("the moves are longer than any game"),
    "moves.version": N_(
        "the moves are written in a form this version of the game does not know (“{value}”)"
    ),
    "moves.character": N_("character {index} of the moves, “{value}”, stands for no card"),
    "moves.incomplete": N_("move {index} has only one card"),
    "moves.order": N_("move {index} is written the wrong way round"),
    "puzzle.unknown": N_("there is no puzzle “{value}”: the puzzles are numbered 1 to {count}"),
    "puzzles.entry": N_("the tried puzzle at “{where}” cannot be read"),
    "setting.unknown": N_("there is no setting called “{name}”"),
    "setting.value": N_("the setting “{name}” cannot be {value}"),
}
"""Words for the error codes the player can meet (the engine's, see ``nestor.errors.CODES``,
the settings', the ranges' and the statistics', see
:data:`~nestor_web.app.ranges.RANGE_CODES` and
:data:`~nestor_web.app.statistics.STATS_CODES`); the error's ``details`` fill the fields,
numbers with the language's thousands sign, a variant by its title."""

KIND_WORDS: Mapping[str, str] = {
    "bool": N_("a yes/no value"),
    "str": N_("text"),
    "float": N_("a decimal number"),
    "NoneType": N_("nothing"),
    "list": N_("a list"),
    "dict": N_("an object"),
    "": N_("a value of another kind"),
}
"""Words for the kind of a value that is not a whole number (an error's ``kind``: its type's
name; ``""``: any other), so that no refusal quotes a value as Python writes it."""

ERROR_FALLBACK: Mapping[str, str] = {
    "VariantError": N_("the variant is unknown"),
    "DealNumberError": N_("the deal number is not one the game knows"),
    "DateError": N_("the date cannot be used"),
    "RecordError": N_("the game record does not replay"),
    "IllegalMoveError": N_("a move is not allowed there"),
    "MoveError": N_("a move cannot be read"),
    "PositionError": N_("the position is not possible"),
    "CardError": N_("a card cannot be read"),
}
"""Words for an error whose code has none, by the error's class (or a base class)."""


def error_text(error: NestorError) -> str:
    """An engine error in the player's language, from its ``code`` and ``details``."""
    code = getattr(error, "code", "")
    details = {k: str(v) for k, v in (getattr(error, "details", None) or {}).items()}
    if code.startswith("setting.") and "name" in details:
        details["name"] = setting_label(details["name"])  # as its control is labelled
    if "kind" in details:
        typed = (details.get("where"), details["kind"]) == ("deal", "str")  # a link's text
        details["kind"] = _(KIND_WORDS.get(details["kind"], KIND_WORDS[""]))
        if code == "deal.not_whole" and not typed:
            code = "number.not_whole"  # a stored value: its place and kind, never its repr
    if code.startswith(("range.", "stats.")):
        raw = getattr(error, "details", None) or {}
        for name, value in raw.items():
            if isinstance(value, int) and name != "value":
                details[name] = thousands(value)
        if details.get("variant") in VARIANTS:
            details["variant"] = variant_title(details["variant"])
    words = ERROR_WORDS.get(code)
    if words is not None:
        try:
            return _(words).format(**details)
        except (KeyError, IndexError):
            pass  # a detail missing: say what kind of problem it is
    for cls in type(error).__mro__:
        if cls.__name__ in ERROR_FALLBACK:
            return _(ERROR_FALLBACK[cls.__name__])
    return _("the data is damaged")


# ---- notices ------------------------------------------------------------------------------

PROBLEM_WORDS: Mapping[str, str] = {
    "link.variant": N_("The link's variant could not be used: {error}."),
    "link.deal": N_("The link's deal number could not be used: {error}."),
    "link.replay": N_(
        "The replay link could not be shown: {error}. Your game and statistics are as they "
        "were."
    ),
    "link.daily": N_(
        "The link's daily deal could not be opened: {error}. Your game and statistics are "
        "as they were."
    ),
    "link.puzzle": N_(
        "The link's puzzle could not be opened: {error}. Your game and statistics are as they "
        "were."
    ),
    "puzzles.unreadable": N_(
        "Your puzzle record could not be read: {error}. It was set aside, and your puzzle "
        "rating starts again."
    ),
    "puzzles.unreadable.lost": N_(
        "Your puzzle record could not be read: {error}. No copy of it could be kept, as the "
        "browser's storage refused one ({refusal}). Your puzzle rating starts again."
    ),
    "save.unreadable": N_(
        "Your saved game could not be read: {error}. It was set aside and a new game started."
    ),
    "settings.unreadable": N_(
        "Your settings could not be read: {error}. They were set aside and the defaults "
        "are used."
    ),
    "settings.partly": N_(
        "One of your settings could not be read: {error}. It is back to its default, and "
        "your other settings are as you left them."
    ),
    "settings.partly.lost": N_(
        "One of your settings could not be read: {error}. It is back to its default, and "
        "your other settings are as you left them; no copy of the stored settings could be "
        "kept, as the browser's storage refused one ({refusal})."
    ),
    "stats.unreadable": N_(
        "Your statistics could not be read: {error}. They were set aside and start again "
        "from zero."
    ),
    "archive.unreadable": N_(
        "The games you left in progress could not be read; they were set aside."
    ),
    "archive.entry": N_(
        "Your earlier game of this deal could not be read ({error}). It was set aside, and "
        "the deal starts afresh."
    ),
    "storage.refused": N_(
        "Your progress could not be saved: the browser's storage refused it ({error}). The "
        "game goes on, but it may be lost when the page closes."
    ),
    "storage.refused.kept": N_(
        "The browser's storage refused part of your progress ({error}). Nothing is lost: the "
        "game keeps it in its second store, and saves it in both again once the browser "
        "takes it."
    ),
    "save.unreadable.lost": N_(
        "Your saved game could not be read: {error}. No copy of it could be kept, as the "
        "browser's storage refused one ({refusal}). A new game started."
    ),
    "settings.unreadable.lost": N_(
        "Your settings could not be read: {error}. No copy of them could be kept, as the "
        "browser's storage refused one ({refusal}). The defaults are used."
    ),
    "stats.unreadable.lost": N_(
        "Your statistics could not be read: {error}. No copy of them could be kept, as the "
        "browser's storage refused one ({refusal}). They start again from zero."
    ),
    "archive.unreadable.lost": N_(
        "The games you left in progress could not be read. No copy of them could be kept, "
        "as the browser's storage refused one ({refusal})."
    ),
    "archive.entry.lost": N_(
        "Your earlier game of this deal could not be read ({error}). No copy of it could be "
        "kept, as the browser's storage refused one ({refusal}). The deal starts afresh."
    ),
    "storage.forbidden": N_("This browser does not let the game save: progress will be lost."),
    "storage.forbidden.one_store": N_(
        "This browser lets the game save in only one of its two stores: your progress is "
        "kept, but two open tabs of the game will not follow each other's moves."
    ),
    "language.missing": N_(
        "The texts for {language} are missing from this copy of the game, so it speaks English."
    ),
    "setting.refused": N_("That setting could not be changed: {error}."),
    "deal.refused": N_("That deal could not be started: {error}."),
    "winnable.not_found": N_("No winnable deal was found quickly; this one may not be."),
    "game.other_tab": N_(
        "This game was played on in another tab; its newer position is shown here."
    ),
}
"""The notice of each problem code."""

REFUSAL_WORDS: Mapping[str, str] = {
    "QuotaExceededError": N_("the storage is full"),
    "SecurityError": N_("the browser does not allow storage here"),
}
"""Words for the errors a browser's storage refuses a write with, by the error's name."""


def refusal_text(name: str) -> str:
    """Why the storage refused a write, in the player's language: words for the errors of
    :data:`REFUSAL_WORDS`, else the error's own name (or message) as the store gave it."""
    words = REFUSAL_WORDS.get(name)
    return name if words is None else _(words)


def problem_text(problem: Problem) -> str:
    """The notice for ``problem``, in the player's language."""
    fields = problem.arg
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
        first=card_name(move.first), second=card_name(move.second)
    )


def place_words(place: Place) -> str:
    """Where an available card lies: "in column 3", "in the reserve", "in the stock"."""
    if place.area == "column":
        return _("in column {number}").format(number=place.slot + 1)
    if place.area == "stock":
        return _("in the stock")
    return _("in the reserve")


def moved_text(event: Moved) -> str:
    """What a screen reader hears after a move: what left, what it uncovered, the end.

    Example: "Removed the seven of hearts and the seven of spades. Now available: the nine
    of clubs in column 3."
    """
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
    """The live region's sentence for what a command did, or ``None`` (nothing to say); then
    the guided first game's new step (heading and sentence), if it showed one."""
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
    """The sentence for what a command did (:func:`announcement`)."""
    for event in events:
        if isinstance(event, Moved):
            return moved_text(event)
        if isinstance(event, TookBack):
            return _("Took back: {move}.").format(move=move_words(event.move))
        if isinstance(event, WentBack):
            return _(
                "Back at the position before move {number}, {move}: the moves after it can "
                "be redone."
            ).format(number=event.index + 1, move=move_words(event.move))
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
            first=card_name(move.first), second=card_name(move.second)
        )
    if solution.win_probability is not None:
        text += " " + _("Chance to win with best play: {percent}.").format(
            percent=percent(solution.win_probability)
        )
    return text


def pair_count_text(count: PairCount) -> str:
    """A hint's first step: how many pairs can be made, and how many of them lose the game
    (a hint that says a move exists without giving it away)."""
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


CHECKING = N_("Checking whether the game can still be won…")

GRADE_WORDS: Mapping[str, str] = {
    "easy": N_("Easy"),
    "medium": N_("Medium"),
    "hard": N_("Hard"),
    "unwinnable": N_("Unwinnable"),
}
"""The name of each grade of a deal (:data:`nestor_web.app.grades.GRADE_NAMES`)."""


def grade_name(grade: str | None) -> str:
    """The name of a deal's ``grade`` in the player's language ("" for ``None``: not known
    yet)."""
    return "" if grade is None else _(GRADE_WORDS[grade])



def indicator_text(solution: Solution | None) -> str:
    """The winnable indicator's sentence (``None``: the solver is still working)."""
    if solution is None:
        return _(CHECKING)
    from nestor.solver import Status

    if solution.status is Status.UNKNOWN:
        return _("Winnable: unknown (the solver ran out of time)")
    if solution.win_probability is not None:
        return _("Chance to win with best play: {percent}").format(
            percent=percent(solution.win_probability)
        )
    return _("Winnable: yes") if solution.status is Status.WINNABLE else _(
        "Winnable: no, not any more"
    )


# ---- the status line -----------------------------------------------------------------------


def status_text(session: Session) -> str:
    """One sentence for the status line: what the solver does, the hint, the outcome, or
    what to do next."""
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
    if session.selected is not None and session.selected in position.available():
        return _selected_words(session.pointer).format(card=card_name(session.selected))
    return _advice_words(session.pointer)


def _advice_words(pointer: str) -> str:
    """What to do, for the way the player points (:attr:`Session.pointer`): a mouse player
    is not told to tap."""
    if pointer == "mouse":
        return _("Click two available cards of the same rank to remove them.")
    if pointer == "keyboard":
        return _("Choose two available cards of the same rank (arrow keys, then Enter) to "
                 "remove them.")
    return _("Tap two available cards of the same rank to remove them.")


def _selected_words(pointer: str) -> str:
    """After a selection, what to do next (``{card}``: the card selected), for the way the
    player points."""
    if pointer == "mouse":
        return _("Selected the {card}: now click another card of the same rank.")
    if pointer == "keyboard":
        return _("Selected the {card}: now choose another card of the same rank.")
    return _("Selected the {card}: now tap another card of the same rank.")


def outcome_text(session: Session) -> str:
    """How the game ended (the position in play has an outcome)."""
    position = session.position
    outcome = position.outcome()
    if outcome is Outcome.WON:
        return _("You won! Every card is paired off.")
    if outcome is Outcome.STOCK_UNPAIRED:
        return _(
            "Game lost: the stock card, the {card}, can't pair with any available card."
        ).format(card=card_name(position.unpaired or ""))
    return _("Game lost: no pair is left to remove.")


def streak_text(session: Session) -> str:
    """The variant's streak after the game that just ended (the statistics settle a game
    at its winning or losing move, so this is the new value)."""
    stats = session.stats.summary(session.game.variant.name)
    return _("Streak: {streak} (best {best}).").format(
        streak=stats.streak, best=stats.best_streak
    )


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

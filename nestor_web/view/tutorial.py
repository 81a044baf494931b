"""The guided first game's words and what it points at, from the session's
:class:`~nestor_web.app.tutorial.TutorialStep`, for the way the player points."""

from __future__ import annotations

from dataclasses import dataclass

from ..app.session import Session
from ..app.tutorial import TUTORIAL_STEPS, TutorialStep
from .i18n import N_, _, card_name


@dataclass(frozen=True)
class TutorialView:
    """What the guide shows: its ``step``, texts, the ``cards`` and ``control`` (a
    ``data-action``, or ``""``) it points at; ``next_label`` is "" while the step waits."""

    step: str
    title: str
    text: str
    cards: tuple[str, ...]
    control: str
    next_label: str
    skip_label: str


_TAKE = {
    "touch": N_("Tap one, then the other, to remove them as a pair."),
    "mouse": N_("Click one, then the other, to remove them as a pair."),
    "keyboard": N_("Choose one with the arrow keys and Enter, then the other, to remove them as "
                   "a pair."),
}
"""How to remove a pair, by the way the player points."""


def _take(pointer: str) -> str:
    return _(_TAKE.get(pointer, _TAKE["touch"]))


def step_text(step: TutorialStep, pointer: str) -> str:
    """The sentence of ``step`` (``pointer``: :attr:`Session.pointer`)."""
    cards = [card_name(c) for c in step.cards]
    if step.step == "pair":
        return _("The {first} and the {second} are both available: no card lies on them, and "
                 "they are of one rank.").format(first=cards[0], second=cards[1]) + " " + (
                     _take(pointer))
    if step.step == "covered":
        said = _("The {card} in column {column} is covered: the {top} lies on it. A covered "
                 "card cannot be taken until every card on it is gone.").format(
                     card=cards[0], column=step.column, top=cards[1])
        if len(cards) > 2:
            said += " " + _("So the {partner}, of the same rank, must wait for it.").format(
                partner=cards[2])
        return said
    if step.step == "reserve":
        if step.waits:
            return _("The reserve's cards are all available, whatever lies in the tableau. "
                     "Pair the {first} with the {second}.").format(
                         first=cards[0], second=cards[1]) + " " + _take(pointer)
        if step.loses:
            return _("The reserve's cards are all available, whatever lies in the tableau. The "
                     "{first} could pair with the {second} now, but that would lose this game: "
                     "keep it for later.").format(first=cards[0], second=cards[1])
        return _("The reserve's cards are all available, whatever lies in the tableau; none "
                 "of them pairs now, so they wait for a partner.")
    if step.step == "undo":
        if pointer == "keyboard":
            return _("Changed your mind? Undo takes back the last pair. Press U (or Undo) now.")
        return _("Changed your mind? Undo takes back the last pair. Press Undo now.")
    return _("That is the whole game: remove all 52 cards, two of one rank at a time. When no "
             "pair is left, the game is lost; Hint helps when you are stuck. The rest of "
             "this game is yours.")


def tutorial_view(session: Session) -> TutorialView | None:
    """What the guide shows for ``session``, or ``None`` while no guide runs."""
    step = session.tutorial
    if step is None:
        return None
    last = step.step == TUTORIAL_STEPS[-1]
    return TutorialView(
        step=step.step,
        title=_("Your first game, step {number} of {count}").format(
            number=step.number, count=len(TUTORIAL_STEPS)),
        text=step_text(step, session.pointer),
        cards=step.cards,
        control="undo" if step.step == "undo" else "",
        next_label="" if step.waits else (_("Play on") if last else _("Next")),
        skip_label="" if last else _("Skip the guide"),
    )

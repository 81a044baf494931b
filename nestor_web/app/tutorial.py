"""The guided first game on an Easy deal, its steps worked out from the board: a pair that keeps
the game winnable, a covered card, a reserve pair, Undo, done (:data:`TUTORIAL_STEPS`)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from nestor import Game, Pair, Position, deal_position
from nestor.cards import rank_of

TUTORIAL_STEPS = ("pair", "covered", "reserve", "undo", "done")

TUTORIAL_VARIANT = "standard"

DEAL_TRIES = 12  # Easy deals looked at for one the guide can show every step on

FIRST_VISIT_DEAL = 20
"""The Easy deal of a first visit's guide: the same for everyone, so the build draws its board."""

FIRST_VISIT_OPENING = ("QC", "QH")
""":func:`tableau_pair` on :data:`FIRST_VISIT_DEAL`, kept: a first visit runs no solver."""


@dataclass(frozen=True)
class TutorialStep:
    """One step of the guide: the ``cards`` it points at, the ``column`` (from 1) of a covered
    card, whether it ``waits`` for a move (not Next), and whether its reserve pair ``loses``."""

    step: str
    cards: tuple[str, ...] = ()
    column: int = 0
    waits: bool = False
    loses: bool = False

    @property
    def number(self) -> int:
        return TUTORIAL_STEPS.index(self.step) + 1


def _best(position: Position, pairs: list[Pair]) -> tuple[Pair, bool] | None:
    """The first of ``pairs`` keeping the game winnable, ``True``; else the first, ``False``."""
    from nestor.solver import Status, solve

    good = next((p for p in pairs if solve(position.apply(p)).status is Status.WINNABLE), None)
    if good is not None:
        return good, True
    return (pairs[0], False) if pairs else None


def tableau_pair(position: Position) -> tuple[Pair, bool] | None:
    """A pair of two tableau cards and whether it keeps the game winnable (as :func:`_best`)."""
    places = position.available()
    pairs = [p for p in position.pairs() if all(places[c].area == "column" for c in p.cards)]
    return _best(position, pairs)


def reserve_pair(position: Position) -> tuple[Pair, bool] | None:
    """A pair of a reserve card and whether it keeps the game winnable (as :func:`_best`)."""
    places = position.available()
    pairs = [p for p in position.pairs() if any(places[c].area == "reserve" for c in p.cards)]
    return _best(position, pairs)


def tutorial_deal(rng: random.Random, played: Iterable[int] = ()) -> int:
    """An Easy deal the guide can show every step on (winnable tableau then reserve pairs), else
    the first Easy deal looked at."""
    from nestor.graded_deals import pick_deal

    avoid = set(played)
    first: int | None = None
    for _ in range(DEAL_TRIES):
        deal = pick_deal(TUTORIAL_VARIANT, "easy", rng, avoid)
        if deal is None:
            break
        first = deal if first is None else first
        avoid.add(deal)
        position = deal_position(TUTORIAL_VARIANT, deal)
        opening = tableau_pair(position)
        if opening is not None and opening[1]:
            after = reserve_pair(position.apply(opening[0]))
            if after is not None and after[1]:
                return deal
    return first if first is not None else 0


def tutorial_step(name: str, game: Game) -> TutorialStep:
    """Step ``name`` for ``game``'s position (a step with nothing to show gives the next)."""
    position = game.position
    if name == "pair":
        first: tuple[Pair, bool] | None = (Pair(*FIRST_VISIT_OPENING), True)  # no solver run
        if (game.variant.name, game.deal, game.cursor) != (TUTORIAL_VARIANT, FIRST_VISIT_DEAL, 0):
            first = tableau_pair(position)
        if first is None:
            return tutorial_step("covered", game)
        return TutorialStep("pair", first[0].cards, waits=True)
    if name == "covered":  # a covered card, preferring one whose rank has an available card
        places = position.available()
        found = []
        for i, column in enumerate(position.columns, 1):
            if len(column) > 1:
                partner = [c for c in places if rank_of(c) == rank_of(column[-2])][:1]
                found.append(TutorialStep("covered", (*column[-2:], *partner), i))
        if not found:
            return tutorial_step("reserve", game)
        return next((f for f in found if len(f.cards) == 3), found[0])
    if name == "reserve":
        offered = reserve_pair(position)
        if offered is None:
            return TutorialStep("reserve", tuple(position.reserve))
        pair, keeps = offered  # a pair that loses is shown, with Next
        return TutorialStep("reserve", pair.cards, waits=keeps, loses=not keeps)
    if name == "undo":
        if game.cursor == 0:
            return tutorial_step("done", game)
        return TutorialStep("undo", waits=True)
    return TutorialStep("done")


def step_after(name: str, game: Game) -> TutorialStep:
    """The step after ``name`` for the position of ``game``."""
    return tutorial_step(TUTORIAL_STEPS[TUTORIAL_STEPS.index(name) + 1], game)

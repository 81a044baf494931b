"""What the puzzle mode shows: its board, its choices, the player's record, and its words
(:func:`puzzle_view`)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..app.puzzle import PuzzleTry
from ..app.puzzle_record import PuzzleRecord
from ..app.session import Session
from ..app.settings import Settings
from .board import board_view, mark_cards, render_board, still
from .i18n import _, ngettext, thousands, variant_title
from .words import move_words


@dataclass(frozen=True)
class PuzzleView:
    """Everything the puzzle mode shows: texts, ``board`` and ``choices_html`` (HTML), the
    ``phase``, ``result`` (``"solved"``, ``"failed"`` or ``""``), ``choosing`` (choices and Hint
    live), ``show_over`` (Skip live)."""

    title: str
    prompt: str
    record: str
    board: str
    choices_html: str
    phase: str
    result: str
    choosing: bool
    show_over: bool


def puzzle_title(attempt: PuzzleTry) -> str:
    """The puzzle's heading: its number (or "From your game"), variant and rating."""
    puzzle = attempt.puzzle
    variant = variant_title(puzzle.variant)
    rating = thousands(puzzle.rating)
    if puzzle.id < 1:
        return _("Puzzle from your game: {variant}, rated {rating}").format(
            variant=variant, rating=rating)
    if attempt.daily is not None:
        return _("Daily puzzle {number}: {variant}, rated {rating}").format(
            number=puzzle.id, variant=variant, rating=rating)
    return _("Puzzle {number}: {variant}, rated {rating}").format(
        number=puzzle.id, variant=variant, rating=rating)


def prompt_text(attempt: PuzzleTry) -> str:
    """What the player reads (and hears) about the try now."""
    answer = move_words(attempt.puzzle.answer)
    count = len(attempt.choices)
    if attempt.phase == "choose":
        return ngettext("{count} pair can be made, and only one keeps the game winnable. Find it.",
                        "{count} pairs can be made, and only one keeps the game winnable. Find it.",
                        count).format(count=count)
    if attempt.phase == "solved":
        return _("Solved: {pair} is the one pair that keeps the game winnable.").format(
            pair=answer)
    if attempt.phase == "refute":
        chosen = move_words(attempt.chosen) if attempt.chosen else ""
        if attempt.shown <= 1:
            return _("Not this one: after {pair} the game is lost. Watch why.").format(
                pair=chosen)
        return _("Then {pair} (pair {step} of {total}).").format(
            pair=move_words(attempt.line[attempt.shown - 1]), step=attempt.shown,
            total=len(attempt.line))
    if attempt.hinted:
        return _("The answer: {pair} is the one pair that keeps the game winnable. This "
                 "puzzle counts as not solved.").format(pair=answer)
    return ngettext("No pair was left after {count} pair. The one that keeps the game winnable is "
                    "{pair}, marked on the board.",
                    "No pair was left after {count} pairs. The one that keeps the game winnable is "
                    "{pair}, marked on the board.",
                    len(attempt.line)).format(count=len(attempt.line), pair=answer)


def record_text(record: PuzzleRecord) -> str:
    """The player's puzzle record in a line: rating, streak and tries."""
    tried = len(record.tries)
    return ngettext(
        "Your puzzle rating: {rating}. Streak: {streak}. Solved {solved} of {tried} puzzle.",
        "Your puzzle rating: {rating}. Streak: {streak}. Solved {solved} of {tried} puzzles.",
        tried,
    ).format(rating=thousands(record.rating()), streak=thousands(record.streak()),
             solved=thousands(record.solved()), tried=thousands(tried))


def puzzle_board_html(attempt: PuzzleTry, settings: Settings) -> str:
    """The board as the game draws it: its cards can be tapped while the player chooses; once
    the puzzle is over the answer's two cards carry ``data-hint`` and ``data-answer``."""
    session = Session(attempt.game(), settings=settings)
    session.selected = attempt.selected
    over = attempt.over
    if over:
        session.hint = attempt.puzzle.answer
    view = board_view(session)
    if attempt.phase != "choose":
        view = still(view)
    return mark_cards(render_board(view), attempt.puzzle.answer.cards if over else (),
                      "data-answer")


def puzzle_view(attempt: PuzzleTry, record: PuzzleRecord, settings: Settings) -> PuzzleView:
    """Return what to draw for ``attempt`` (see :class:`PuzzleView`)."""
    result = {"solved": "solved", "refute": "failed", "failed": "failed"}.get(attempt.phase, "")
    choosing = attempt.phase == "choose"
    return PuzzleView(
        title=puzzle_title(attempt),
        prompt=prompt_text(attempt),
        record=record_text(record),
        board=puzzle_board_html(attempt, settings),
        choices_html=choices_html(attempt, choosing),
        phase=attempt.phase,
        result=result,
        choosing=choosing,
        show_over=attempt.phase == "refute",
    )


def choices_html(attempt: PuzzleTry, choosing: bool) -> str:
    """The ``<li>`` entries of ``#puzzle-choices``: a button per pair (``data-pair``), the
    answer marked ``data-answer`` once the puzzle is over, the chosen pair ``aria-current``."""
    items = []
    for pair in attempt.choices:
        answer = attempt.over and pair == attempt.puzzle.answer
        attrs = f' data-pair="{pair.cards[0]} {pair.cards[1]}"'
        if answer:
            attrs += " data-answer"
        if pair == attempt.chosen:
            attrs += ' aria-current="true"'
        if not choosing:
            attrs += " disabled"
        label = move_words(pair)
        if answer:
            label = _("{pair} (the answer)").format(pair=label)
        items.append(f'<li><button type="button"{attrs}>{escape(label)}</button></li>')
    return "".join(items)

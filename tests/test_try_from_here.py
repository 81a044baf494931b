"""The review's "Try from here" (Session.try_from): the game goes back to the position before
a move of its review, the moves after it stay for redo, and a game continued so counts as
won with help (Help.reviewed, saved by storage/codecs.py; old saves still read)."""

from __future__ import annotations

import json

import pytest

from nestor import Game, NestorError, Outcome, Record
from nestor.review import review
from nestor.solver import Status, solve
from nestor_web.app.events import WentBack
from nestor_web.app.saved import Help, SavedGame
from nestor_web.app.session import Session
from nestor_web.app.statistics.record import Stats
from nestor_web.storage.codecs import game_from_text, game_to_text
from nestor_web.view import i18n
from nestor_web.view.words import announcement


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def lost_session(stats: Stats) -> Session:
    """Standard deal 1 lost by always taking the first legal move (its turning point is
    move 13, index 12; nestor.review says so)."""
    session = Session(Game("standard", 1), stats=stats, clock=lambda: 5000)
    while session.game.outcome() is None:
        move = session.game.legal_moves()[0]
        session.pair(*move.cards)  # type: ignore[union-attr]
    assert session.game.outcome() is Outcome.NO_PAIR
    return session


def test_try_from_here_goes_back_keeps_the_rest_for_redo_and_counts_as_help():
    stats = Stats()
    session = lost_session(stats)
    record = session.game.record()
    assert review(record).turning_point == 12
    assert stats.summary("standard").played == 1
    events = session.try_from(12)
    assert events == (WentBack(12, record.moves[12]),)
    assert session.game.cursor == 12 and session.game.outcome() is None
    assert session.position == Record(record.variant, 1, record.moves[:12]).replay().position
    assert session.game.all_moves == record.moves  # the moves after it, kept for redo
    assert session.help == Help(reviewed=1) and session.help.used
    # The loss is taken back, as Undo takes it back: the game goes on.
    summary = stats.summary("standard")
    assert (summary.played, summary.won, summary.won_with_help) == (1, 0, 0)
    session.redo()
    assert session.game.cursor == 13 and session.game.all_moves[12] == record.moves[12]


def test_a_game_won_after_trying_from_here_counts_as_won_with_help():
    stats = Stats()
    session = lost_session(stats)
    record = session.game.record()
    turning = review(record).turning_point
    assert turning is not None
    session.try_from(turning)
    line = solve(session.position).line
    assert solve(session.position).known_order is Status.WINNABLE
    for move in line:
        session.pair(*move.cards)  # type: ignore[attr-defined]
    assert session.game.position.is_empty()
    summary = stats.summary("standard")
    assert (summary.played, summary.won, summary.won_with_help) == (1, 0, 1)


def test_try_from_here_outside_the_moves_in_effect_does_nothing():
    session = lost_session(Stats())
    cursor = session.game.cursor
    assert session.try_from(cursor) == () and session.try_from(-1) == ()
    assert session.try_from(99) == ()
    assert session.game.cursor == cursor and session.help == Help()
    assert Session(Game("standard", 1)).try_from(0) == ()


def test_reviewed_help_is_saved_only_when_there_is_some_and_old_saves_read_as_none():
    game = Record.from_text("standard 1 QH-QS").replay()
    plain = game_to_text(SavedGame(game, Help(hints=1)))
    assert '"reviewed"' not in plain
    text = game_to_text(SavedGame(game, Help(replayed=2, reviewed=3)))
    assert '"reviewed":3' in text
    assert game_from_text(text).help == Help(replayed=2, reviewed=3)
    old = json.loads(plain)
    assert "reviewed" not in old and game_from_text(plain).help == Help(hints=1)
    with pytest.raises(NestorError):
        game_from_text(text.replace('"reviewed":3', '"reviewed":-1'))


def test_the_announcement_of_try_from_here_in_both_languages():
    session = lost_session(Stats())
    events = session.try_from(12)
    said = announcement(events, session)
    assert said == (
        "Back at the position before move 13, the king of diamonds and the king of spades: "
        "the moves after it can be redone."
    )
    i18n.set_language("de")
    german = announcement(events, session)
    assert german is not None and german.startswith("Zurück in der Stellung vor Zug 13")


def test_the_end_screen_names_the_help_of_trying_from_the_review_and_offers_the_review():
    from nestor_web.view.end import BUTTONS, help_words

    session = lost_session(Stats())
    assert help_words(session) == "None"
    session.try_from(12)
    assert help_words(session) == "Used: tried again from its review 1 time"
    i18n.set_language("de")
    assert "1-mal aus der Auswertung neu versucht" in help_words(session)
    assert BUTTONS[0][0] == "review"  # its Review button opens the review (App.open_review)

"""The replay of a game record (nestor_web/app/replay.py and view/replay.py), and playing on
from it (Session.play_from, counted with help, and saved so)."""

from __future__ import annotations

import pytest

from nestor import Game, Pair, Record, TurnStock
from nestor.link import record_query
from nestor_web.app.replay import PlayChanged, Replay, Stepped, link_query, replay_request
from nestor_web.app.saved import Help, SavedGame
from nestor_web.app.session import Session
from nestor_web.app.settings import Settings
from nestor_web.app.statistics.record import Stats
from nestor_web.storage.codecs import game_from_text, game_to_text
from nestor_web.view import i18n
from nestor_web.view.replay import move_label, replay_board_html, replay_view
from nestor_web.view.words import problem_text

RECORD = Record.from_text("strict 0 4D-4H KC-KD AD-AS 8D-8H 7D-7S stock stock 3D-3H")


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_a_replay_starts_at_the_deal_and_steps_through_every_position():
    replay = Replay(RECORD)
    assert (replay.cursor, replay.length) == (0, 8)
    assert replay.position == Game("strict", 0).position
    assert replay.command("previous") == ()
    assert replay.command("next") == (Stepped(1, Pair("4D", "4H")),)
    assert replay.command("last") == (Stepped(8),)
    assert replay.position == RECORD.replay().position
    assert replay.next_move is None
    assert replay.command("next") == ()
    assert replay.command("first") == (Stepped(0),)
    for n in range(1, 9):
        replay.go(n)
        assert replay.position == Record(RECORD.variant, 0, RECORD.moves[:n]).replay().position
    assert replay.go(99) == () and replay.cursor == 8  # clamped
    assert replay.go(-5) == (Stepped(0),)
    assert replay.command("nonsense") == ()


def test_play_goes_on_by_ticks_stops_at_the_end_and_restarts_from_the_deal():
    replay = Replay(RECORD)
    assert replay.tick() == ()  # not playing
    assert replay.command("play") == (PlayChanged(True),)
    for n in range(1, 8):
        assert replay.tick() == (Stepped(n, RECORD.moves[n - 1]),)
    assert replay.tick() == (Stepped(8, RECORD.moves[7]), PlayChanged(False))
    assert not replay.playing and replay.tick() == ()
    assert replay.command("play") == (PlayChanged(True), Stepped(0))  # from the deal again
    assert replay.command("next") == (PlayChanged(False), Stepped(1, RECORD.moves[0]))
    replay.command("play")
    assert replay.command("play") == (PlayChanged(False),)


def test_game_at_the_position_keeps_the_later_moves_for_redo():
    replay = Replay(RECORD)
    replay.go(5)
    game = replay.game()
    assert game.cursor == 5 and game.all_moves == RECORD.moves
    assert game.position == replay.position
    game.redo()
    assert isinstance(game.moves[-1], TurnStock)


def test_replay_request_reads_the_query_and_reports_bad_links():
    assert replay_request("?variant=standard&deal=7") == (None, None)
    replay, problem = replay_request("?" + record_query(RECORD))
    assert problem is None and replay is not None and replay.record == RECORD
    assert replay.query() == "?" + record_query(RECORD)
    for query, code, words in (
        ("?variant=strict&deal=0&moves=1cP", "moves.order", "move 1 is written the wrong way"),
        ("?variant=strict&deal=0&moves=1CP", "record.illegal_move", "move 1 (3C-3D) is not"),
        ("?variant=strict&deal=x&moves=1", "deal.not_whole", "“x” is not a whole number"),
        # The broken links e2e/test_replay.py opens (make test two of them, make test-slow all).
        ("?variant=standard&deal=9&moves=1CPx", "moves.incomplete", "move 2 has only one card"),
        ("?variant=standard&deal=9&moves=2CP", "moves.version",
         "this version of the game does not know"),
        ("?variant=nope&deal=9&moves=1CP", "variant.unknown", "there is no variant called “nope”"),
        ("?variant=standard&deal=7&moves=1CPCP", "record.illegal_move",
         "move 2 (3C-3D) is not allowed there"),
    ):
        replay, problem = replay_request(query)
        assert replay is None and problem is not None
        assert problem.code == "link.replay" and problem.error is not None
        assert problem.error.code == code
        text = problem_text(problem)
        assert text.startswith("The replay link could not be shown: ") and words in text
        i18n.set_language("de")
        assert problem_text(problem).startswith("Der Link zur Wiederholung")
        i18n.set_language("en")


def test_link_query_is_the_moves_in_effect():
    game = RECORD.replay()
    game.undo()
    assert link_query(game) == "?" + record_query(Record(RECORD.variant, 0, RECORD.moves[:-1]))


def test_play_from_here_counts_with_help_and_settles_the_game_left():
    clock = iter(range(1000, 10**6, 1000))
    stats = Stats()
    session = Session(Game("standard", 7), stats=stats, clock=lambda: next(clock))
    session.tap("3C")
    session.tap("3D")
    assert stats.summary("standard").played == 1
    replay = Replay(RECORD)
    replay.go(4)
    events = session.play_from(replay.game())
    assert session.key == ("strict", 0) and session.game.cursor == 4
    assert session.help == Help(replayed=4) and session.help.used
    assert session.game.can_redo()
    assert events and getattr(events[0], "resumed", False)
    assert stats.summary("standard").played == 1  # deal 7 settled (lost), not counted again
    # From the deal itself, no help.
    replay.go(0)
    session.play_from(replay.game())
    assert session.help == Help() and not session.help.used


def winning_record() -> Record:
    from nestor.solver import Status, solve

    for deal in range(50):
        game = Game("standard", deal)
        result = solve(game.position)
        if result.known_order is Status.WINNABLE:
            return Record(game.variant, deal, tuple(result.line))
    raise AssertionError("no winnable deal")


def test_a_game_won_from_a_replay_counts_as_won_with_help():
    record = winning_record()
    stats = Stats()
    session = Session(Game("standard", 7), stats=stats, clock=lambda: 5000)
    replay = Replay(record)
    replay.go(len(record.moves) - 2)
    session.play_from(replay.game())
    session.redo()
    session.redo()
    assert session.game.position.is_empty()
    summary = stats.summary("standard")
    assert (summary.played, summary.won, summary.won_with_help) == (1, 0, 1)


def test_replayed_help_is_saved_only_when_there_is_some():
    game = RECORD.replay()
    assert '"replayed"' not in game_to_text(SavedGame(game, Help(hints=1)))
    text = game_to_text(SavedGame(game, Help(replayed=5)))
    assert '"replayed":5' in text
    assert game_from_text(text).help == Help(replayed=5)


def test_the_view_words_and_draws_the_replay():
    replay = Replay(RECORD)
    view = replay_view(replay, Settings())
    assert view.title == "Replay: Strict, deal 0"
    assert view.step == "The deal, before the first move (8 moves in the record)."
    assert view.result is None and view.can_play_from and view.play_label == "Play"
    assert [m.label for m in view.moves[:2]] == ["Deal", "1. 4♦ 4♥"]
    assert view.moves[0].current and not view.moves[1].current
    # A picture: no card can be tapped; the next move's two cards are marked.
    assert "data-available" not in view.board
    assert view.board.count("<button") == view.board.count("data-action=\"turn\"") == 1
    assert "disabled>" in view.board  # the stock pile cannot be turned from here
    assert view.board.count("data-next") == 2
    assert 'data-card="4D" data-next' in view.board and 'data-card="4H" data-next' in view.board
    replay.go(5)  # the next move turns the stock
    view = replay_view(replay, Settings())
    assert "data-next" not in view.board and "data-hint" in view.board
    assert view.moves[6].label == "6. stock" and move_label(6, TurnStock()) == "6. stock"
    assert view.step == "Move 5 of 8: the seven of diamonds and the seven of spades."
    replay.go(8)
    view = replay_view(replay, Settings())
    assert view.result == "The record ends here; the game was not over."
    assert replay_board_html(replay, Settings()) == view.board
    i18n.set_language("de")
    view = replay_view(replay, Settings())
    assert view.title == f"Wiederholung: {i18n.variant_title('strict')}, Spiel 0"
    assert view.step.startswith("Zug 8 von 8: ")


def test_a_lost_record_says_how_it_was_lost():
    lost = Record.from_text("strict 7 3C-3D stock")
    replay = Replay(lost)
    replay.go(2)
    view = replay_view(replay, Settings())
    assert view.result is not None and view.result.startswith("The game was lost: the stock")
    assert not view.can_play_from

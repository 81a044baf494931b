"""The page's loop (nestor_web/browser/controller.py), as tests/webpage.py runs it: a command
is drawn first and saved in the next task, one save for any number of draws before it, and a
save another tab made is taken in before the next command acts."""

from __future__ import annotations

import json
import random

from webpage import Page, SharedStore

from nestor_web.storage.keys import SAVE_KEY


def _pair(page: Page) -> tuple[str, str]:
    move = page.session.position.pairs()[0]
    return move.first, move.second


def test_a_command_is_drawn_first_and_saved_in_the_next_task() -> None:
    store = SharedStore()
    page = Page(store, "?variant=standard&deal=7", random.Random(0))
    page.run(())
    saved = store.data[SAVE_KEY]
    first, second = _pair(page)
    page.run(page.session.tap(first), settle=False)
    page.run(page.session.tap(second), settle=False)
    # Drawn: the pair is gone from the view; not saved yet, and one save waits for both.
    assert page.screen.view is not None and page.screen.view.cards_left == 50
    assert store.data[SAVE_KEY] == saved
    assert page.controller.save_pending and page.tasks.pending_save
    assert len(page.tasks.waiting) == 1
    page.tasks.run_all()
    assert not page.controller.save_pending and not page.tasks.pending_save
    assert json.loads(store.data[SAVE_KEY])["moves"] == [f"{first}-{second}"]


def test_another_tabs_save_is_taken_in_before_the_next_command_acts() -> None:
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=7", random.Random(0))
    tab_b = Page(store.tab(), "?variant=standard&deal=7", random.Random(0))
    first, second = _pair(tab_b)
    tab_b.tap(first)
    tab_b.tap(second)
    # Tab A has not taken in B's storage event; its next command catches up first, so the
    # card B paired is gone before A's tap is played.
    assert tab_a.session.game.moves == ()
    events = tab_a.controller.run(lambda: tab_a.session.tap(first))
    assert [str(m) for m in tab_a.session.game.moves] == [f"{first}-{second}"]
    assert events == ()  # the card is no longer on the board: the tap did nothing


def test_solving_and_thinking_are_session_commands_with_events() -> None:
    from nestor_web.app.events import SolverBusy

    page = Page(query="?variant=standard&deal=7", rng=random.Random(0))
    session = page.session
    assert session.stop_solving() == ()  # not playing: nothing happens
    assert session.start_solving() == (SolverBusy(True, None),) and session.solving
    assert session.think("hint") == (SolverBusy(True, "hint"),) and session.thinking == "hint"
    assert session.stop_solving() == (SolverBusy(False, "hint"),) and not session.solving
    assert session.think(None) == (SolverBusy(False, None),) and session.thinking is None
    # Drawn as any command's events: the status line says what the solver is busy with.
    page.run(session.think("deal"))
    assert page.screen.view is not None and page.events == (SolverBusy(False, "deal"),)


def test_the_board_is_built_once_a_draw_and_saved_as_drawn(monkeypatch) -> None:
    from nestor_web.browser import controller
    from nestor_web.storage.codecs import board_to_text
    from nestor_web.storage.keys import BOARD_KEY
    from nestor_web.view.board import first_paint

    built = []

    def board_view(session):  # the view's own, counted
        built.append(real(session))
        return built[-1]

    real = controller.board_view
    monkeypatch.setattr(controller, "board_view", board_view)
    store = SharedStore()
    page = Page(store, "?variant=standard&deal=7", random.Random(0))
    first, second = _pair(page)
    page.tap(first)
    page.tap(second)
    # Two draws, two boards: the saves store the board drawn, and build none of their own.
    assert len(built) == 2 and page.screen.view is built[-1]
    board, counters = first_paint(built[-1])
    assert store.data[BOARD_KEY] == board_to_text(store.data[SAVE_KEY], "en", board, counters)

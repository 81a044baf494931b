"""The session keeps the statistics: played, won, with help, lost on leaving; the statistics
dialog; the screen-reader announcements."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from html.parser import HTMLParser

from webpage import Page

from nestor import Pair, deal_position
from nestor.solver import Solution, Status, solve
from nestor_web.app.events import HintShown
from nestor_web.storage.keys import STATS_KEY, UNREADABLE, MemoryStore
from nestor_web.storage.stats_codec import stats_from_text
from nestor_web.view.dialogs import stats_html
from nestor_web.view.words import clock_text


def ticking_clock() -> Callable[[], int]:
    """A clock one second on at every reading, in milliseconds (the session's ``clock``)."""
    now = [1_000_000]

    def tick() -> int:
        now[0] += 1000
        return now[0]

    return tick


def clocked_page(store: MemoryStore, query: str) -> Page:
    return Page(store, query, random.Random(0), clock=ticking_clock(),
                timer_clock=ticking_clock())


def winnable(variant: str, start: int = 0) -> int:
    return next(d for d in range(start, start + 200) if solve(deal_position(variant, d)).line)


def test_a_clean_win_a_loss_and_an_assisted_win_are_counted() -> None:
    store = MemoryStore()
    deal = winnable("doublets")
    page = clocked_page(store, f"?variant=doublets&deal={deal}")
    session = page.session
    page.win()
    summary = session.stats.summary("doublets")
    assert (summary.played, summary.won, summary.won_with_help) == (1, 1, 0)
    assert summary.fastest_ms == session.elapsed_ms() > 0  # the timer's, as it stopped
    assert stats_from_text(store.data[STATS_KEY]) == session.stats

    # A restart and a second win of the same deal count nothing more.
    page.restart()
    page.win()
    assert session.stats.summary("doublets").won == 1

    # One move in another deal, then leave it: while Undo can bring it back, nothing
    # settles; the first move of the next deal makes it a loss, and the streak ends.
    page.open_deal("doublets", deal + 1)
    move = session.game.legal_moves()[0]
    page.tap(move.cards[0])  # type: ignore[union-attr]
    page.tap(move.cards[1])  # type: ignore[union-attr]
    page.new_deal()
    summary = session.stats.summary("doublets")
    assert (summary.played, summary.streak, summary.best_streak) == (2, 1, 1)
    move = session.game.legal_moves()[0]
    page.tap(move.cards[0])  # type: ignore[union-attr]
    page.tap(move.cards[1])  # type: ignore[union-attr]
    summary = session.stats.summary("doublets")
    assert (summary.played, summary.streak, summary.best_streak) == (3, 0, 1)
    assert stats_from_text(store.data[STATS_KEY]) == session.stats

    # A hint, then a win: won with help.
    other = winnable("doublets", deal + 2)
    page.open_deal("doublets", other)
    assert page.show_hint(solve(session.game.position))
    assert session.help.hints == 1 and session.help.used
    page.win()
    summary = session.stats.summary("doublets")
    assert (summary.played, summary.won, summary.won_with_help) == (4, 1, 1)
    saved = json.loads(store.data[STATS_KEY])
    assert saved["variants"]["doublets"]["won_assisted"] == 1


def test_the_fastest_win_is_the_time_the_timer_shows_whatever_the_clock_does() -> None:
    """The computer's clock set back before the last pair: the timer said 6.8 s, the
    statistics kept 385 ms (the clock's difference), shown as "0:00 min"."""
    deal = winnable("doublets")
    wall, steady = [1_000_000], [50_000]
    page = Page(MemoryStore(), f"?variant=doublets&deal={deal}", random.Random(0),
                clock=lambda: wall[0], timer_clock=lambda: steady[0])
    session = page.session
    line = solve(session.game.position).line
    for i, move in enumerate(line):
        assert isinstance(move, Pair)
        if i:
            steady[0] += 6_800 // (len(line) - 1)
            wall[0] = 1_000_385 if i == len(line) - 1 else wall[0] + 250
        page.tap(move.first)
        page.tap(move.second)
    assert session.game.position.is_empty()
    shown = session.elapsed_ms()
    assert shown == (6_800 // (len(line) - 1)) * (len(line) - 1) > 6_000
    assert session.stats.summary("doublets").fastest_ms == shown
    assert page.view().timer == clock_text(shown)


def lost_deal(variant: str = "standard") -> int:
    """A deal the solver proves lost from its start, with pairs to play: its hint shows no
    move."""
    for deal in range(200):
        position = deal_position(variant, deal)
        solution = solve(position)
        if solution.best_move is None and not solution.line and position.pairs():
            return deal
    raise AssertionError("no lost deal")


def test_a_hint_that_shows_no_move_is_no_help() -> None:
    """Changed on purpose: "No winning line remains…" shows no move, so it does not count as
    help (before, every hint asked for counted, and the win after it was "with help")."""
    page = Page(MemoryStore(), f"?variant=standard&deal={lost_deal()}", random.Random(0))
    solution = solve(page.session.position)
    assert page.show_hint(solution) == (HintShown(None),)
    assert page.announcement == "No winning line remains from here: every way of playing on loses."
    assert page.view().status == page.announcement
    assert page.session.help.hints == 0 and not page.session.help.used
    assert not page.view().helped
    assert json.loads(page.store.get("nestor.game") or "")["hints"] == 0
    # A hint that shows a move counts.
    page.open_deal("standard", winnable("standard"))
    shown = solve(page.session.position)
    assert isinstance(shown, Solution) and shown.best_move is not None
    assert page.show_hint(shown) == (HintShown(shown.best_move),)
    assert page.session.help.hints == 1 and page.view().helped
    assert json.loads(page.store.get("nestor.game") or "")["hints"] == 1


def test_a_win_after_a_hint_that_showed_no_move_is_a_clean_win() -> None:
    """Issue 10: a hint that shows no move ("No winning line remains from here") is no help,
    so a win after undoing back to a winnable position counts as won, not won with help."""
    deal = winnable("standard")
    page = clocked_page(MemoryStore(), f"?variant=standard&deal={deal}")
    session = page.session
    # Follow the winning line until one move loses the game (with pairs still left).
    while True:
        position = session.position
        losing = next(
            (m for m in position.legal_moves()
             if position.apply(m).pairs() and solve(position.apply(m)).status is Status.LOST),
            None,
        )
        if losing is not None:
            break
        move = solve(position).line[0]
        assert isinstance(move, Pair)
        page.play_pair(move.first, move.second)
    assert isinstance(losing, Pair)
    page.play_pair(losing.first, losing.second)
    assert page.show_hint(solve(session.position)) == (HintShown(None),)
    assert page.view().status == "No winning line remains from here: every way of playing on loses."
    assert session.help.hints == 0 and not page.view().helped
    assert json.loads(page.store.get("nestor.game") or "")["hints"] == 0
    assert page.undo()
    page.win()
    assert session.position.is_empty()
    summary = session.stats.summary("standard")
    assert (summary.played, summary.won, summary.won_with_help) == (1, 1, 0)
    assert stats_from_text(page.store.get(STATS_KEY) or "") == session.stats


def test_unreadable_statistics_are_set_aside() -> None:
    store = MemoryStore({STATS_KEY: '{"version": 99}', "another.app": "x"})
    page = Page(store, "", random.Random(0))
    assert page.notice is not None and "statistics could not be read" in page.notice
    assert store.data[STATS_KEY + UNREADABLE] == '{"version": 99}'
    assert store.data["another.app"] == "x"


class Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.actions: list[str] = []

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        if tag == "tr":
            self.rows.append([])
        if tag == "button":
            self.actions.append(dict(attrs)["data-action"])

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        if self.rows and data.strip():
            self.rows[-1].append(data.strip())


def test_statistics_dialog_content() -> None:
    page = clocked_page(MemoryStore(), "?variant=vertical&deal=3")
    page.win()
    html = stats_html(page.session)
    cells = Cells()
    cells.feed(html)
    vertical = next(r for r in cells.rows if r and r[0] == "Vertical")
    assert vertical[1:5] == ["1", "1", "0", "100%"]
    assert cells.actions == ["stats-reset"]
    confirm = Cells()
    confirm.feed(stats_html(page.session, confirm_reset=True))
    # A backup offered first (issue 23 (5)), then the reset or not.
    assert confirm.actions == ["stats-backup", "stats-reset-confirm", "stats-reset-cancel"]
    assert 'role="img"' in html


def test_announcements_say_what_left_and_what_was_uncovered() -> None:
    page = Page(MemoryStore(), "?variant=standard&deal=7", random.Random(0))
    move = page.session.game.legal_moves()[0]
    assert isinstance(move, Pair)
    page.tap(move.first)
    page.tap(move.second)
    text = page.announcement or ""
    assert text.startswith("Removed the ")
    assert "Now available:" in text and "in column" in text
    page.undo()
    assert (page.announcement or "").startswith("Took back: the ")

"""The session keeps the statistics: played, won, with help, lost on leaving."""

from __future__ import annotations

import json
import random

from nestor import Pair, deal_position
from nestor.solver import solve
from nestor_web.session import MemoryStorage, Session
from nestor_web.stats import STATS_KEY, Stats


def clocked(session: Session) -> list[int]:
    now = [1_000_000]

    def tick() -> int:
        now[0] += 1000
        return now[0]

    session.clock = tick
    return now


def play_line(session: Session) -> None:
    for move in solve(session.game.position).line:
        assert isinstance(move, Pair)
        session.tap(move.first)
        session.tap(move.second)


def winnable(variant: str) -> int:
    return next(d for d in range(100) if solve(deal_position(variant, d)).winnable)


def test_a_clean_win_a_loss_and_an_assisted_win_are_counted() -> None:
    storage = MemoryStorage()
    deal = winnable("doublets")
    session = Session.open(storage, f"?variant=doublets&deal={deal}", random.Random(0))
    clocked(session)
    play_line(session)
    summary = session.stats.summary("doublets")
    assert (summary.played, summary.won, summary.won_assisted) == (1, 1, 0)
    assert summary.fastest_ms == 25 * 1000  # 26 moves, one second apart
    assert Stats.from_json_text(storage.data[STATS_KEY]) == session.stats

    # A restart and a second win of the same deal count nothing more.
    session.restart()
    play_line(session)
    assert session.stats.summary("doublets").won == 1

    # One move in another deal, then leave it: a loss, and the streak ends.
    session.open_deal("doublets", deal + 1)
    move = session.game.legal_moves()[0]
    session.tap(move.cards[0])  # type: ignore[union-attr]
    session.tap(move.cards[1])  # type: ignore[union-attr]
    session.new_deal()
    summary = session.stats.summary("doublets")
    assert (summary.played, summary.streak, summary.best_streak) == (2, 0, 1)

    # A hint, then a win: won with help.
    other = next(d for d in range(deal + 2, 200)
                 if solve(deal_position("doublets", d)).winnable)
    session.open_deal("doublets", other)
    session.show_hint(solve(session.game.position))
    play_line(session)
    summary = session.stats.summary("doublets")
    assert (summary.played, summary.won, summary.won_assisted) == (3, 1, 1)
    saved = json.loads(storage.data[STATS_KEY])
    assert saved["variants"]["doublets"]["won_assisted"] == 1


def test_unreadable_statistics_are_set_aside() -> None:
    storage = MemoryStorage({STATS_KEY: '{"version": 99}', "another.app": "x"})
    session = Session.open(storage, "", random.Random(0))
    assert session.notice is not None and "statistics could not be read" in session.notice
    assert storage.data[STATS_KEY + ".unreadable"] == '{"version": 99}'
    assert storage.data["another.app"] == "x"


def test_statistics_dialog_content() -> None:
    from html.parser import HTMLParser

    from nestor_web.view import stats_html

    session = Session.open(MemoryStorage(), "?variant=vertical&deal=3", random.Random(0))
    clocked(session)
    play_line(session)
    html = stats_html(session)

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.rows: list[list[str]] = []
            self.actions: list[str] = []

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                self.rows.append([])
            if tag == "button":
                self.actions.append(dict(attrs)["data-action"])

        def handle_data(self, data):
            if self.rows and data.strip():
                self.rows[-1].append(data.strip())

    cells = Cells()
    cells.feed(html)
    vertical = next(r for r in cells.rows if r and r[0] == "Vertical")
    assert vertical[1:5] == ["1", "1", "0", "100%"]
    assert cells.actions == ["stats-reset"]
    confirm = Cells()
    confirm.feed(stats_html(session, confirm_reset=True))
    assert confirm.actions == ["stats-reset-confirm", "stats-reset-cancel"]
    assert 'role="img"' in html


def test_announcements_say_what_left_and_what_was_uncovered() -> None:
    session = Session.open(MemoryStorage(), "?variant=standard&deal=7", random.Random(0))
    move = session.game.legal_moves()[0]
    assert isinstance(move, Pair)
    session.tap(move.first)
    session.tap(move.second)
    text = session.announcement or ""
    assert text.startswith("Removed the ")
    assert "Now available:" in text and "in column" in text
    session.undo()
    assert (session.announcement or "").startswith("Took back: the ")

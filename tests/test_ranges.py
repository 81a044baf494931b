"""Every number the game keeps has a plausible range (nestor_web.app.ranges): the statistics,
the saved game and the backup refuse a number outside it, with a code the view words in
English and German; what the game writes is always inside; and whatever the statistics hold,
their dialog is drawn."""

from __future__ import annotations

import json
import random
import time
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from webpage import Page

from nestor import Game, NestorError
from nestor.daily import FIRST_DAY
from nestor_web.app.ranges import (
    LARGEST,
    LATEST_MS,
    LONGEST_MS,
    MOST,
    MOST_HELP,
    SHORTEST_WIN_MS,
    SMALLEST,
    in_range,
    latest_day,
)
from nestor_web.app.saved import Help, SavedGame
from nestor_web.app.session import Session
from nestor_web.app.statistics.data import DailyRecord, StatsData, VariantCounts
from nestor_web.app.statistics.record import Stats
from nestor_web.storage.codecs import game_from_text, game_to_text
from nestor_web.storage.keys import SAVE_KEY, STATS_KEY, UNREADABLE, MemoryStore
from nestor_web.storage.progress import ProgressError, read_progress
from nestor_web.storage.stats_codec import stats_from_text, stats_to_text
from nestor_web.view import i18n
from nestor_web.view.backup import refusal_text
from nestor_web.view.dialogs import stats_html
from nestor_web.view.words import clock_text

DAY = date(2026, 12, 1)
DAYS = (DAY - FIRST_DAY).days + 1
"""The days from the first daily deal through DAY: the longest best daily streak up to DAY."""


def top_stats() -> Stats:
    """Statistics with every number at the top of its range, as the rules allow."""
    counts = VariantCounts(MOST, MOST, 0, MOST, MOST, LONGEST_MS)
    return Stats.restore(StatsData(
        {"standard": counts}, (), (), {"standard": LATEST_MS},
        DailyRecord((DAY,), DAYS, LATEST_MS),
    ))


def stats_text(change: Any) -> str:
    """The text of :func:`top_stats` with ``change`` made to its data."""
    data = json.loads(stats_to_text(top_stats()))
    data["history"] = [[LATEST_MS, "standard", 1, "won", False]]
    data["deals"] = [["standard", 1, LATEST_MS, "won", False]]
    change(data)
    return json.dumps(data)


FIELDS: dict[str, tuple[str, Any]] = {
    "played": ("count", lambda d, v: d["variants"]["standard"].update(played=v)),
    "fastest_ms": ("win", lambda d, v: d["variants"]["standard"].update(fastest_ms=v)),
    "deal start": ("moment", lambda d, v: d["deals"][0].__setitem__(2, v)),
    "history time": ("moment", lambda d, v: d["history"][0].__setitem__(0, v)),
    "reset": ("moment", lambda d, v: d["resets"].update(standard=v)),
    "daily reset": ("moment", lambda d, v: d["daily"].update(reset_ms=v)),
    "daily best streak": ("count", lambda d, v: d["daily"].update(best_streak=v)),
}
"""Each number of the statistics, its kind of range, and how to set it."""


def test_the_top_of_every_range_is_read_back() -> None:
    text = stats_text(lambda d: None)
    assert json.loads(stats_to_text(stats_from_text(text))) == json.loads(text)


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(sorted(FIELDS)), st.integers(1, 10**400))
def test_a_statistics_number_over_its_range_is_refused(field: str, over: int) -> None:
    kind, change = FIELDS[field]
    value = LARGEST[kind] + over
    with pytest.raises(NestorError) as caught:
        stats_from_text(stats_text(lambda d: change(d, value)))
    assert caught.value.code == f"range.{kind}"


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from(["hints", "solver_moves", "replayed", "reviewed", "elapsed_ms"]),
       st.integers(0, 10**400))
def test_a_saved_games_number_is_read_inside_its_range_and_refused_outside(
    field: str, value: int
) -> None:
    data = json.loads(game_to_text(SavedGame(Game("standard", 5))))
    data[field] = value
    high = LONGEST_MS if field == "elapsed_ms" else MOST_HELP
    if value <= high:
        assert game_from_text(json.dumps(data)) is not None
    else:
        with pytest.raises(NestorError) as caught:
            game_from_text(json.dumps(data))
        assert caught.value.code == ("range.duration" if field == "elapsed_ms" else "range.help")


def test_a_best_daily_streak_longer_than_the_days_up_to_its_last_date_won_is_refused() -> None:
    def best(days: tuple[date, ...], streak: int) -> Stats:
        return Stats.restore(StatsData({}, (), (), {}, DailyRecord(days, streak)))

    assert best((DAY,), DAYS).daily_summary(DAY).best_streak == DAYS
    for days, streak, longest in (((DAY,), DAYS + 1, DAYS), ((), 1, 0)):
        with pytest.raises(NestorError) as caught:
            best(days, streak)
        assert caught.value.code == "stats.daily_streak"
        assert caught.value.details == {"best": streak, "days": longest}


def test_what_the_game_writes_is_always_inside_the_ranges(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A timer run past a century is written as a century, and read back.
    saved = SavedGame(Game("standard", 5), Help(), LONGEST_MS + 5_000)
    assert game_from_text(game_to_text(saved)).elapsed_ms == LONGEST_MS
    # The computer's clock past the year 9999, or before 1970: the statistics' times stay
    # in range, so what they record is read back.
    for now, kept in ((LATEST_MS + 10**9, LATEST_MS), (-5_000, 0)):
        monkeypatch.setattr(time, "time", lambda now=now: now / 1000)
        session = Session(Game("standard", 5))
        assert session.clock() == kept
        move = session.game.legal_moves()[0]
        session.pair(*move.cards)  # type: ignore[union-attr]
        assert stats_from_text(stats_to_text(session.stats)) == session.stats


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from(sorted(LARGEST)), st.integers(-10, 10**400))
def test_in_range_takes_exactly_the_range(kind: str, value: int) -> None:
    if SMALLEST.get(kind, 0) <= value <= LARGEST[kind]:
        assert in_range(value, "x", kind) == value
    else:
        with pytest.raises(NestorError) as caught:
            in_range(value, "x", kind)
        assert caught.value.code in ("number.too_small", "range.too_fast", f"range.{kind}")
        assert len(str(caught.value)) < 200  # a clipped value, even of 400 digits


# ---- the issue's backups, refused with the reason, in English and German ----------------


def backup_with(change: Any) -> str:
    """A backup of a page that won a deal, with ``change`` made to its data."""
    page = Page(MemoryStore(), "?variant=doublets&deal=3", random.Random(0))
    session = page.session
    from nestor.solver import solve

    for move in solve(session.game.position).line:
        page.play_pair(move.first, move.second)  # type: ignore[union-attr]
    data = json.loads(page.storage.export_progress(session))
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_issues_absurd_backups_are_refused_with_the_reason(
    language: str, request: pytest.FixtureRequest
) -> None:
    cases = {
        "fastest": (lambda d: d["stats"]["variants"]["doublets"].update(
            fastest_ms=int("4" * 400)), {
            "en": "The statistics in this backup do not add up: “variants['doublets']"
                  "['fastest_ms']” is a time longer than a century. Nothing was changed.",
            "de": "Die Statistik in dieser Sicherung geht nicht auf: „variants['doublets']"
                  "['fastest_ms']“ ist eine Zeit von mehr als einem Jahrhundert. Es wurde "
                  "nichts geändert."}),
        "played": (lambda d: d["stats"]["variants"]["doublets"].update(played=2**63), {
            "en": "“variants['doublets']['played']” counts more than anyone can play (over "
                  "1,000,000,000)",
            "de": "„variants['doublets']['played']“ zählt mehr, als jemand spielen kann (über "
                  "1.000.000.000)"}),
        "won": (lambda d: d["stats"]["variants"]["doublets"].update(won=2), {
            "en": "Doublets has more wins (2) than games played (1)",
            "de": "Dubletten hat mehr Siege (2) als gespielte Spiele (1)"}),
        "elapsed": (lambda d: d["game"].update(elapsed_ms=int("9" * 400)), {
            "en": "A game in this backup cannot be read (game): “elapsed_ms” is a time longer "
                  "than a century. Nothing was changed.",
            "de": "„elapsed_ms“ ist eine Zeit von mehr als einem Jahrhundert"}),
        "daily": (lambda d: d["stats"]["daily"].update(best_streak=int("9" * 400)), {
            "en": "“daily['best_streak']” counts more than anyone can play",
            "de": "„daily['best_streak']“ zählt mehr, als jemand spielen kann"}),
    }
    backups = {name: backup_with(change) for name, (change, _words) in cases.items()}
    if language == "de":
        request.getfixturevalue("german")
    for name, (_change, words) in cases.items():
        with pytest.raises(ProgressError) as caught:
            read_progress(backups[name])
        text = refusal_text(caught.value)
        assert words[language] in text, (name, text)


# ---- stored values out of range are unreadable; the dialog is drawn whatever it holds -------


@pytest.mark.parametrize(
    ("key", "text", "code"),
    [
        (STATS_KEY, lambda: stats_text(lambda d: d["variants"]["standard"].update(
            fastest_ms=int("4" * 400))), "stats.unreadable"),
        (STATS_KEY, lambda: stats_text(lambda d: d["daily"].update(best_streak=10**400)),
         "stats.unreadable"),
        (SAVE_KEY, lambda: json.dumps(
            {**json.loads(game_to_text(SavedGame(Game("standard", 5)))),
             "elapsed_ms": int("9" * 400)}), "save.unreadable"),
    ],
    ids=["fastest win", "daily best streak", "time played"],
)
def test_a_stored_number_out_of_range_is_set_aside_and_reported(
    key: str, text: Any, code: str
) -> None:
    stored = text()
    page = Page(MemoryStore({key: stored}), "", random.Random(0))
    assert page.store.get(key + UNREADABLE) == stored
    assert code in [p.code for p in page.session.notices]
    html = stats_html(page.session)
    assert "<table" in html
    assert len(page.view().timer) <= len(clock_text(LONGEST_MS))


def test_the_dialog_and_timer_draw_the_top_of_every_range_narrowly() -> None:
    session = Session(Game("standard", 5), stats=top_stats(), today=lambda: DAY)
    html = stats_html(session)
    text = " ".join(html.replace("<", ">").split(">")[::2])  # the words, without the tags
    numbers = [word for word in text.split() if word[0].isdigit()]
    assert max(len(word) for word in numbers) == len("52596000:00"), numbers
    assert "52596000:00 min" in html  # a century, in minutes
    assert clock_text(LONGEST_MS) == "876600:00:00"
    assert f"best daily streak {i18n.thousands(DAYS)}." in html


def test_the_dialog_is_drawn_even_for_numbers_no_codec_reads() -> None:
    """The fastest win is worded with whole numbers: 400 digits do not overflow a float."""
    from nestor_web.view import dialogs

    assert dialogs._duration(int("4" * 400)).endswith(" min")
    assert i18n.thousands(10**6) == "1,000,000"


# ---- the daily deal's dates: from the first daily deal to the day after today in UTC --------

NOW_MS = 1_796_464_800_000  # 2026-12-05 10:00 UTC


def daily_text(days: list[str], best: int = 1) -> str:
    """Statistics text whose daily record holds ``days`` (ISO dates) and ``best``."""
    return json.dumps({
        "version": 3, "variants": {}, "deals": [], "history": [], "resets": {},
        "daily": {"won": days, "best_streak": best, "reset_ms": None},
    })


def test_a_date_won_runs_from_the_first_daily_deal_to_the_day_after_today_in_utc() -> None:
    assert latest_day(NOW_MS) == date(2026, 12, 6)  # it is 6 December already east of UTC
    for day in ("2000-01-01", "2026-12-06"):
        assert stats_from_text(daily_text([day]), NOW_MS).daily_won(date.fromisoformat(day))
    for day in ("1999-12-31", "2026-12-07", "0001-01-01", "9999-12-30", "9999-12-31"):
        with pytest.raises(NestorError) as caught:
            stats_from_text(daily_text([day]), NOW_MS)
        assert caught.value.code == "range.date"
        assert caught.value.details == {
            "where": "daily['won'][0]", "value": day, "first": "2000-01-01",
            "last": "2026-12-06"}
    assert latest_day(LATEST_MS) == date.max  # the clock at the calendar's end: no overflow


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "2099-01-01"])
def test_a_stored_date_won_out_of_range_is_set_aside_and_the_game_loads(day: str) -> None:
    stored = daily_text([day])
    page = Page(MemoryStore({STATS_KEY: stored}), "?variant=doublets&deal=3", random.Random(0))
    assert page.session.key == ("doublets", 3)
    assert page.store.get(STATS_KEY + UNREADABLE) == stored
    assert "stats.unreadable" in [p.code for p in page.session.notices]
    assert "<table" in stats_html(page.session)


def test_a_value_no_check_foresaw_is_set_aside_at_start_and_refused_in_a_backup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The dates' range switched off: 9999-12-31 reaches the streak's arithmetic, which
    raises OverflowError (no ValueError); start-up sets it aside all the same, and a backup
    holding it is refused with a reason."""
    from nestor_web.storage import stats_codec

    monkeypatch.setattr(stats_codec, "day_in_range", lambda day, where, now_ms=None: day)
    stored = daily_text(["9999-12-31"])
    with pytest.raises(OverflowError):
        stats_from_text(stored)
    page = Page(MemoryStore({STATS_KEY: stored}), "", random.Random(0))
    assert page.store.get(STATS_KEY + UNREADABLE) == stored
    assert "stats.unreadable" in [p.code for p in page.session.notices]
    backup = backup_with(lambda d: d["stats"]["daily"].update(won=["9999-12-31"], best_streak=1))
    with pytest.raises(ProgressError) as caught:
        read_progress(backup)
    assert caught.value.code == "progress.damaged"
    assert refusal_text(caught.value) == (
        "This backup holds a value the game cannot read. Nothing was changed.")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_backup_with_a_date_won_out_of_range_is_refused_with_the_reason(
    language: str, request: pytest.FixtureRequest
) -> None:
    words = {
        "en": "“daily['won'][0]” is 9999-12-31, a date no daily deal was won on (they run "
              "from 2000-01-01 to ",
        "de": "„daily['won'][0]“ ist der 9999-12-31, ein Tag, an dem kein Tagesspiel gewonnen "
              "wurde (sie reichen vom 2000-01-01 bis zum ",
    }
    backup = backup_with(lambda d: d["stats"]["daily"].update(won=["9999-12-31"], best_streak=1))
    if language == "de":
        request.getfixturevalue("german")
    with pytest.raises(ProgressError) as caught:
        read_progress(backup)
    assert words[language] in refusal_text(caught.value)


def test_a_date_before_the_first_daily_deal_is_never_won() -> None:
    early = date(1999, 12, 31)  # a computer whose clock is decades out opens "today's" deal
    session = Session(Game("standard", 5), today=lambda: early)
    assert session.stats.record_daily(early) is False
    assert not session.stats.daily_won(early)
    assert session.stats.record_daily(FIRST_DAY) is True


# ---- tighter ranges: the fastest win, a game's help, the best daily streak ------------------


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_fastest_win_under_five_seconds_is_refused(
    language: str, request: pytest.FixtureRequest
) -> None:
    for fastest in (0, 1, SHORTEST_WIN_MS - 1):
        with pytest.raises(NestorError) as caught:
            stats_from_text(stats_text(
                lambda d, v=fastest: d["variants"]["standard"].update(fastest_ms=v)))
        assert caught.value.code == "range.too_fast"
    assert stats_from_text(stats_text(
        lambda d: d["variants"]["standard"].update(fastest_ms=SHORTEST_WIN_MS)))
    backup = backup_with(lambda d: d["stats"]["variants"]["doublets"].update(fastest_ms=1))
    if language == "de":
        request.getfixturevalue("german")
    with pytest.raises(ProgressError) as caught:
        read_progress(backup)
    assert {
        "en": "“variants['doublets']['fastest_ms']” is a win faster than anyone plays (under "
              "5,000 ms)",
        "de": "„variants['doublets']['fastest_ms']“ ist ein Sieg, schneller als jemand spielen "
              "kann (unter 5.000 ms)",
    }[language] in refusal_text(caught.value)


def test_a_games_help_is_written_within_its_range() -> None:
    saved = SavedGame(Game("standard", 5), Help(MOST_HELP + 5, MOST_HELP + 1, 10**9, 7))
    back = game_from_text(game_to_text(saved)).help
    assert back == Help(MOST_HELP, MOST_HELP, MOST_HELP, 7)


def test_a_best_daily_streak_counts_days_since_the_first_daily_deal_not_since_year_1() -> None:
    with pytest.raises(NestorError) as caught:
        stats_from_text(daily_text(["2026-12-01"], 700_000), NOW_MS)
    assert caught.value.code == "stats.daily_streak"
    assert caught.value.details == {"best": 700_000, "days": DAYS}


@pytest.mark.parametrize("language", ["en", "de"])
def test_refusals_word_the_kind_of_a_value_never_its_python_form(
    language: str, request: pytest.FixtureRequest
) -> None:
    kinds = {
        True: ("a yes/no value", "ein Ja-/Nein-Wert"), "5": ("text", "Text"),
        1.5: ("a decimal number", "eine Dezimalzahl"),
        float("nan"): ("a decimal number", "eine Dezimalzahl"),
        None: ("nothing", "nichts"),
    }
    backups = {
        value: backup_with(lambda d, v=value: d["stats"]["variants"]["doublets"].update(played=v))
        for value in kinds
    }
    deal = backup_with(lambda d: d["stats"]["deals"][0].__setitem__(1, "5"))
    if language == "de":
        request.getfixturevalue("german")
    at = 0 if language == "en" else 1
    for value, words in kinds.items():
        with pytest.raises(ProgressError) as caught:
            read_progress(backups[value])
        text = refusal_text(caught.value)
        assert text.endswith(words[at] + {
            "en": ". Nothing was changed.", "de": ". Es wurde nichts geändert."}[language]), text
        assert repr(value) not in text.replace("5,000", "").replace("5.000", ""), text
    with pytest.raises(ProgressError) as caught:
        read_progress(deal)
    text = refusal_text(caught.value)
    assert "'5'" not in text and ("deals[0][1]" in text) and kinds["5"][at] in text, text

"""Backing up and restoring the player's progress (issue 23): the backup file and its code
(nestor_web/storage/progress.py), merging and replacing (nestor_web/app/backup.py), the
storage manager's export and restore, two tabs, and ``python -m nestor_web progress``."""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
import time
import zlib
from base64 import urlsafe_b64encode
from collections.abc import Callable, Mapping
from dataclasses import asdict, replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from helpers import Calendar
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from webpage import MemoryCopy, Page, SharedStore, clock

from nestor import Game, Pair, deal_position
from nestor.daily import daily_deal
from nestor.solver import solve
from nestor_web.__main__ import main
from nestor_web.app import backup
from nestor_web.app.backup import Parts, merge_parts
from nestor_web.app.events import DealChanged, Restored
from nestor_web.app.ranges import LATEST_MS, LONGEST_MS
from nestor_web.app.saved import Help, SavedGame
from nestor_web.app.settings import Settings
from nestor_web.app.statistics.record import Stats
from nestor_web.storage import progress as progress_module
from nestor_web.storage.codecs import archive_text, game_from_text
from nestor_web.storage.keys import (
    ARCHIVE_KEY,
    ARCHIVE_SIZE,
    DIVERGED_KEY,
    KEYS,
    REPLACED_KEY,
    SAVE_KEY,
    SEQ_KEY,
    SETTINGS_KEY,
    STATS_KEY,
    Done,
    MemoryStore,
)
from nestor_web.storage.progress import (
    CODE_PREFIX,
    MAX_SIZE,
    PROGRESS_CODES,
    PROGRESS_VERSION,
    Progress,
    ProgressError,
    backup_name,
    progress_text,
    progress_to_code,
    read_progress,
)
from nestor_web.storage.stats_codec import stats_from_text

DAY = date(2026, 12, 1)
ROOT = Path(__file__).resolve().parent.parent
PROGRESS_KEYS = (SAVE_KEY, STATS_KEY, ARCHIVE_KEY, SETTINGS_KEY)


class CountingCopy(MemoryCopy):
    """A durable copy that counts its writes."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, seq: int, entries: Mapping[str, str], done: Done) -> None:
        self.writes += 1
        super().write(seq, entries, done)


def winnable(variant: str, start: int) -> int:
    return next(d for d in range(start, start + 200) if solve(deal_position(variant, d)).line)



def playable(start: int, pairs: int = 2) -> int:
    """The first standard deal from ``start`` where the first pair can be taken ``pairs``
    times in a row."""
    for deal in range(start, start + 100):
        game = Game("standard", deal)
        for _ in range(pairs):
            found = game.position.pairs()
            if not found:
                break
            game.push(found[0])
        else:
            return deal
    raise AssertionError("no deal")


@functools.cache
def played(win_from: int, lose: int, in_progress: int, start: int) -> tuple[
    tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]
]:
    """What a page stores (localStorage, the durable copy) that won a standard deal, lost
    one, won the daily deal and has a game in progress."""
    durable = MemoryCopy()
    page = Page(
        MemoryStore(), f"?variant=standard&deal={winnable('standard', win_from)}",
        random.Random(0), clock=clock(start), durable=durable, today=Calendar(DAY),
        keep_board=False,
    )
    page.win()
    page.open_deal("standard", playable(lose, 1))
    page.play_pairs(1)
    page.open_daily()  # leaves the deal: it settles as lost at the first move of the daily
    page.win()
    page.open_deal("standard", playable(in_progress))
    page.play_pairs(1)
    page.play_pairs(1)
    return tuple(stored(page).items()), tuple(durable.data.items())


def device(
    win_from: int, lose: int, in_progress: int, start: int = 1_000_000,
    durable: MemoryCopy | None = None,
) -> Page:
    """A page that won a standard deal, lost one, won the daily deal and has a game in
    progress (:func:`played`), opened again."""
    data, copy = played(win_from, lose, in_progress, start)
    if durable is not None:
        durable.data.update(copy)
    return Page(
        MemoryStore(dict(data)), "", random.Random(0), clock=clock(start + 10_000_000),
        durable=durable if durable is not None else MemoryCopy(dict(copy)),
        today=Calendar(DAY), keep_board=False,
    )


def fresh(start: int = 5_000_000, durable: MemoryCopy | None = None) -> Page:
    return Page(
        MemoryStore(), "", random.Random(7), clock=clock(start),
        durable=durable if durable is not None else MemoryCopy(), today=Calendar(DAY),
        keep_board=False,
    )


def restore(page: Page, progress: Progress, mode: str) -> tuple[Any, ...]:
    """The page's Restore buttons: one command of the page's loop."""
    return page.command(lambda: page.storage.restore(page.session, progress, mode))


def stored(page: Page) -> dict[str, str]:
    assert isinstance(page.store, MemoryStore)
    return dict(page.store.data)


def record(stats: Stats) -> tuple[Any, ...]:
    """What the player sees of the statistics (counts, streaks, the results, the daily
    record), in an order-free form."""
    data = stats.snapshot()
    return (
        dict(data.counts), {(e.variant, e.deal): e.state for e in data.deals},
        {s.key: s.taken_back for s in data.history}, data.daily.won, data.daily.best_streak,
    )


@pytest.fixture(scope="module")
def device_a() -> tuple[Page, str]:
    page = device(1, 40, 60)
    return page, page.storage.export_progress(page.session)


# ---- the file -------------------------------------------------------------------------------


def test_the_file_names_its_format_version_game_version_and_date(device_a):
    page, text = device_a
    data = json.loads(text)
    assert list(data) == [
        "format", "version", "game_version", "date", "stats", "game", "archive", "settings",
    ]
    assert (data["format"], data["version"], data["date"]) == ("nestor-progress", 1, "2026-12-01")
    assert data["game_version"] == progress_module.GAME_VERSION
    assert data["stats"] == json.loads(page.store.get(STATS_KEY) or "")  # an object, not text
    assert data["game"] == json.loads(page.store.get(SAVE_KEY) or "")
    assert backup_name(DAY) == "nestor-progress-2026-12-01.json"
    assert text.isascii()


def test_the_summary_counts_games_wins_daily_wins_and_games_in_progress(device_a):
    page, text = device_a
    summary = read_progress(text).parts.summary()
    stats = page.session.stats
    assert daily_deal(DAY)[0] != "standard"  # the daily deal's variant is summed in
    played = stats.summary("standard").played + stats.summary(daily_deal(DAY)[0]).played
    assert asdict(summary) == {"games": 4, "won": 2, "daily_won": 1, "in_progress": 2}
    assert played == 4


def test_the_code_holds_the_same_progress_and_is_read_by_the_same_reader(device_a):
    _page, text = device_a
    code = progress_to_code(text)
    assert code.startswith(CODE_PREFIX) and code.isascii() and " " not in code
    assert len(code) < len(text)
    read = read_progress(code)
    assert progress_text(read.parts, DAY) == progress_text(read_progress(text).parts, DAY)
    wrapped = "\n  " + "\n".join(code[i:i + 60] for i in range(0, len(code), 60)) + "\n"
    # a messenger's line breaks
    assert read_progress(wrapped).parts.summary() == read.parts.summary()


# ---- bad files: refused with a code, nothing stored changed ----------------------------------


def edit(text: str, change: Callable[[dict[str, Any]], object]) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


def setitem(*path: Any) -> Callable[[dict[str, Any]], object]:
    *where, value = path

    def change(data: dict[str, Any]) -> None:
        for key in where[:-1]:
            data = data[key]
        data[where[-1]] = value

    return change


def counts(**values: int) -> Callable[[dict[str, Any]], object]:
    def change(data: dict[str, Any]) -> None:
        data["stats"]["variants"]["standard"].update(values)

    return change


def code_of(data: bytes) -> str:
    return CODE_PREFIX + urlsafe_b64encode(zlib.compress(data)).decode().rstrip("=")


BAD: dict[str, tuple[str, Callable[[str], str]]] = {
    "plain text": ("progress.not_json", lambda t: "hello, this is my backup"),
    "empty": ("progress.not_json", lambda t: ""),
    "a broken object": ("progress.not_json", lambda t: '{"format": nestor}'),
    "a csv": ("progress.not_json", lambda t: "games,won\n3,2\n"),
    "deep nesting": ("progress.not_json", lambda t: "[" * 100 + "]" * 100),
    "cut in half": ("progress.truncated", lambda t: t[: len(t) // 2]),
    "cut before the end": ("progress.truncated", lambda t: t.rstrip()[:-1]),
    "a list": ("progress.foreign", lambda t: "[1, 2, 3]"),
    "a number": ("progress.foreign", lambda t: "42"),
    "another program's": ("progress.foreign", lambda t: '{"name": "<b>me</b>", "score": 3}'),
    "another format": ("progress.foreign", lambda t: edit(t, setitem("format", "<script>"))),
    "a newer version": ("progress.newer", lambda t: edit(t, setitem("version", 2))),
    "a version as text": ("progress.version", lambda t: edit(t, setitem("version", "1"))),
    "version 0": ("progress.version", lambda t: edit(t, setitem("version", 0))),
    "version true": ("progress.version", lambda t: edit(t, setitem("version", True))),
    "no version": ("progress.version", lambda t: edit(t, lambda d: d.pop("version"))),
    "10 MB": ("progress.too_large", lambda t: t + " " * 10_000_000),
    "more wins than games": ("progress.numbers", lambda t: edit(t, counts(won=9))),
    "negative games": ("progress.numbers", lambda t: edit(t, counts(played=-1))),
    "a streak longer than the best": (
        "progress.numbers", lambda t: edit(t, counts(streak=5, best_streak=1))),
    "a best streak longer than the wins": (
        "progress.numbers", lambda t: edit(t, counts(best_streak=50))),
    "a daily date twice": ("progress.numbers", lambda t: edit(
        t, lambda d: d["stats"]["daily"]["won"].append(d["stats"]["daily"]["won"][0]))),
    "a fastest win of 400 digits": (
        "progress.numbers", lambda t: edit(t, counts(fastest_ms=int("7" * 400)))),
    "a fastest win over a century": (
        "progress.numbers", lambda t: edit(t, counts(fastest_ms=LONGEST_MS + 1))),
    "2**63 games played": ("progress.numbers", lambda t: edit(t, counts(played=2**63))),
    "4,000 digits of games played": (
        "progress.numbers", lambda t: edit(t, counts(played=int("9" * 4000)))),
    "a daily best streak of 400 digits": ("progress.numbers", lambda t: edit(
        t, setitem("stats", "daily", "best_streak", int("9" * 400)))),
    "a daily best streak longer than the days": ("progress.numbers", lambda t: edit(
        t, setitem("stats", "daily", "best_streak", DAY.toordinal() + 1))),
    "a settlement after the year 9999": ("progress.numbers", lambda t: edit(
        t, setitem("stats", "history", 0, 0, LATEST_MS + 1))),
    "a reset after the year 9999": ("progress.numbers", lambda t: edit(
        t, setitem("stats", "resets", "standard", LATEST_MS + 1))),
    "a time played of 400 digits": (
        "progress.game", lambda t: edit(t, setitem("game", "elapsed_ms", int("8" * 400)))),
    "2**63 hints in an archived game": (
        "progress.game", lambda t: edit(t, setitem("archive", 0, "hints", 2**63))),
    "a version of 400 digits": (
        "progress.version", lambda t: edit(t, setitem("version", int("9" * 400)))),
    "HTML as a variant name": ("progress.stats", lambda t: edit(t, lambda d: d["stats"][
        "variants"].update({"<img src=x onerror=alert(1)>": d["stats"]["variants"]["standard"]}))),
    "statistics missing": ("progress.part", lambda t: edit(t, lambda d: d.pop("stats"))),
    "statistics as text": ("progress.part", lambda t: edit(t, setitem("stats", "{}"))),
    "statistics without history": ("progress.stats",
                                   lambda t: edit(t, lambda d: d["stats"].pop("history"))),
    "an illegal move": ("progress.game",
                        lambda t: edit(t, setitem("game", "moves", ["KC-KD", "KC-KD"]))),
    "HTML as the game's variant": (
        "progress.game", lambda t: edit(t, setitem("game", "variant", "<script>x</script>"))),
    "a bad archived game": ("progress.game",
                            lambda t: edit(t, setitem("archive", 0, "deal", -5))),
    "the archive as an object": ("progress.part", lambda t: edit(t, setitem("archive", {}))),
    "an archived game twice": ("progress.part", lambda t: edit(
        t, lambda d: d["archive"].append(d["archive"][0]))),
    "an archived game of the deal in play": ("progress.part", lambda t: edit(
        t, lambda d: d["archive"].append(d["game"]))),
    "a finished archived game": ("progress.part", lambda t: edit(
        t, lambda d: d["archive"][0].update(moves=[], cursor=0))),
    "too many archived games": ("progress.part", lambda t: edit(
        t, lambda d: d.update(archive=d["archive"] * (ARCHIVE_SIZE + 1)))),
    "a script as a setting": (
        "progress.settings", lambda t: edit(t, setitem("settings", "theme", "<script>"))),
    "a script as the language": (
        "progress.settings", lambda t: edit(t, setitem("settings", "language", "<b>de</b>"))),
    "a script as the date": ("progress.part", lambda t: edit(t, setitem("date", "<script>"))),
    "a date that is none": ("progress.part", lambda t: edit(t, setitem("date", "2026-02-30"))),
    "a script as the version": (
        "progress.part", lambda t: edit(t, setitem("game_version", "<script>"))),
    "a damaged code": ("progress.code", lambda t: progress_to_code(t)[:20] + "!!" +
                       progress_to_code(t)[22:]),
    "a code of random data": ("progress.code", lambda t: "NESTOR1:" + "A" * 400),
    "a code without its version": ("progress.code", lambda t: "NESTOR:" + progress_to_code(t)),
    "a cut code": ("progress.truncated", lambda t: progress_to_code(t)[:-30]),
    "a code cut by one character": ("progress.truncated", lambda t: progress_to_code(t)[:-1]),
    "a newer code": ("progress.newer", lambda t: "NESTOR2:" + progress_to_code(t)[8:]),
    "a code of 10 MB": ("progress.too_large", lambda t: code_of(b" " * 10_000_000)),
    "a code of not JSON": ("progress.not_json", lambda t: code_of(b"hello")),
    "a code of a bad file": ("progress.numbers", lambda t: code_of(
        edit(t, counts(won=9)).encode())),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_a_bad_file_is_refused_with_its_code_and_nothing_stored_changes(device_a, case):
    code, make = BAD[case]
    _a, text = device_a
    bad = make(text)
    durable = MemoryCopy()
    page = device(3, 41, 61, durable=durable)
    before, copy_before = stored(page), dict(durable.data)
    seen = page.session.stats.copy()
    started = time.perf_counter()
    with pytest.raises(ProgressError) as caught:
        progress = read_progress(bad)
        restore(page, progress, "merge")  # (never reached)
    assert time.perf_counter() - started < 1.0
    error = caught.value
    assert error.code == code, str(error)
    assert error.code in PROGRESS_CODES
    assert sorted(error.details) == sorted(PROGRESS_CODES[error.code])
    page.receive()  # the page goes on: nothing was written, in either store
    after = stored(page)
    assert set(after) == set(before)
    for key in before:
        assert after[key] == before[key], key
    assert durable.data == copy_before
    assert page.session.stats == seen


def test_a_10_mb_file_is_refused_before_it_is_parsed():
    huge = "{" + " " * 10_000_000  # parsing it would be "truncated": the size comes first
    started = time.perf_counter()
    with pytest.raises(ProgressError) as caught:
        read_progress(huge)
    assert time.perf_counter() - started < 0.05
    assert caught.value.code == "progress.too_large"
    assert caught.value.details == {"size": len(huge), "limit": MAX_SIZE}


def test_every_cut_of_a_file_is_truncated_and_the_whole_file_is_read(device_a):
    _page, text = device_a
    for end in [*range(1, 200), *range(200, len(text) - 1, 97), len(text) - 2]:
        with pytest.raises(ProgressError) as caught:
            read_progress(text[:end])
        assert caught.value.code == "progress.truncated", (end, text[max(0, end - 20):end])
    # the newline
    assert read_progress(text[:-1]).parts.summary() == read_progress(text).parts.summary()


def test_the_inner_error_is_kept_for_the_view_to_word(device_a):
    _page, text = device_a
    with pytest.raises(ProgressError) as caught:
        read_progress(edit(text, setitem("settings", "theme", "<script>")))
    assert caught.value.details == {"name": "theme", "value": "'<script>'"}
    assert caught.value.error is not None and caught.value.error.code == "setting.value"
    with pytest.raises(ProgressError) as caught:
        read_progress(edit(text, setitem("archive", 0, "deal", -5)))
    assert caught.value.details == {"where": "archive[0]", "reason": "deal.range"}


def test_markup_in_the_file_is_never_taken_in(device_a):
    """Every string of a backup is a known value; unknown keys are dropped, never stored."""
    _page, text = device_a
    data = json.loads(text)
    data["note"] = "<script>alert(1)</script>"
    data["settings"]["<img onerror=x>"] = "<b>"
    data["stats"]["<i>"] = "<i>"
    page = fresh()
    restore(page, read_progress(json.dumps(data)), "replace")
    assert not any("<" in value for value in stored(page).values())


# ---- versions -------------------------------------------------------------------------------

VERSION_1 = (ROOT / "tests" / "data" / "progress-v1.json")


def test_a_version_1_file_stays_readable():
    """A file written by version 1 of the format (kept in tests/data): read as it was."""
    text = VERSION_1.read_text()
    read = read_progress(text)
    assert read.version == 1 and read.date == date(2026, 12, 1)
    assert asdict(read.parts.summary()) == {"games": 4, "won": 2, "daily_won": 1, "in_progress": 2}
    again = json.loads(progress_text(read.parts, read.date, read.game_version))
    original = json.loads(text)
    # Issue 24's setting "difficulty" replaced "winnable_only" (still written for older games).
    original["settings"]["difficulty"] = "any"
    assert again == original


def test_an_older_version_is_upgraded_by_the_table(monkeypatch, device_a):
    _page, text = device_a
    seen: list[int] = []

    def upgrade(data: dict[str, object]) -> dict[str, object]:
        seen.append(int(str(data["version"])))
        out = {k: v for k, v in data.items() if k != "deals_in_play"}
        out["archive"] = data["deals_in_play"]  # version 1 of this test called it so
        out["version"] = 2
        return out

    expected = read_progress(text).parts
    monkeypatch.setattr(progress_module, "PROGRESS_VERSION", 2)
    monkeypatch.setitem(progress_module.UPGRADES, 1, upgrade)
    old = edit(text, lambda d: d.update(deals_in_play=d.pop("archive")))
    read = read_progress(old)
    assert seen == [1] and read.version == 1
    assert progress_text(read.parts, DAY) == progress_text(expected, DAY)
    with pytest.raises(ProgressError) as caught:
        read_progress(edit(text, setitem("version", 3)))
    assert caught.value.details == {"version": 3, "known": 2}


# ---- merging and replacing through the page ---------------------------------------------------


def test_a_fresh_device_merges_a_backup_and_has_the_same_progress(device_a):
    a, text = device_a
    durable = CountingCopy()
    b = fresh(durable=durable)
    writes, seq = durable.writes, b.store.get(SEQ_KEY)
    events = restore(b, read_progress(text), "merge")
    assert durable.writes == writes + 1  # one durable write: the whole import
    assert int(b.store.get(SEQ_KEY) or 0) > int(seq or 0)
    restored = next(e for e in events if isinstance(e, Restored))
    assert restored.mode == "merge" and restored.changed
    assert restored.summary == read_progress(text).parts.summary()
    assert any(isinstance(e, DealChanged) for e in events)
    # The same statistics, streaks, daily record, and the game in progress in play.
    assert record(b.session.stats) == record(a.session.stats)
    assert b.session.stats.daily_summary(DAY) == a.session.stats.daily_summary(DAY)
    for variant in ("standard", daily_deal(DAY)[0]):
        assert b.session.stats.summary(variant) == a.session.stats.summary(variant)
    assert b.session.key == a.session.key
    assert b.session.game.moves == a.session.game.moves
    # What is stored is what the page shows, and a new page reads it.
    again = Page(MemoryStore(stored(b)), "", today=Calendar(DAY), keep_board=False)
    assert again.session.game.moves == a.session.game.moves
    assert record(again.session.stats) == record(a.session.stats)
    assert b.durable is not None
    assert {k: v for k, v in b.durable.data.items() if k in PROGRESS_KEYS} == {
        k: v for k, v in stored(b).items() if k in PROGRESS_KEYS}


def test_merging_the_same_backup_twice_changes_nothing(device_a):
    _a, text = device_a
    durable = CountingCopy()
    b = fresh(durable=durable)
    restore(b, read_progress(text), "merge")
    before, writes = stored(b), durable.writes
    events = restore(b, read_progress(text), "merge")
    assert [e for e in events if isinstance(e, Restored)][0].changed is False
    assert stored(b) == before and durable.writes == writes


def test_merging_a_devices_own_backup_changes_nothing():
    durable = CountingCopy()
    page = device(1, 40, 60, durable=durable)
    page.restart()  # the game left waits for Undo: it is in the backup's archive
    before, writes = stored(page), durable.writes
    text = page.storage.export_progress(page.session)
    assert read_progress(text).parts.summary().in_progress == 2
    events = restore(page, read_progress(text), "merge")
    assert events[-1] == Restored("merge", read_progress(text).parts.summary(), False)
    assert stored(page) == before and durable.writes == writes
    assert page.undo()  # Undo still brings the game left back
    assert page.session.game.cursor == 2


def test_merging_a_third_devices_backup_gives_the_union(device_a):
    a, text_a = device_a
    c = device(101, 140, 160, start=9_000_000)
    text_c = c.storage.export_progress(c.session)
    b = fresh()
    restore(b, read_progress(text_a), "merge")
    restore(b, read_progress(text_c), "merge")
    stats = b.session.stats
    for page in (a, c):  # every result of each device is here
        for e in page.session.stats.snapshot().deals:
            assert stats.deal_result(e.variant, e.deal) == e.state
    s = stats.summary("standard")
    sa, sc = a.session.stats.summary("standard"), c.session.stats.summary("standard")
    assert s.played == sa.played + sc.played and s.won == sa.won + sc.won
    assert stats.daily_summary(DAY).days_won == 1  # one date, won on both devices
    # The games in progress of both (each device's lost game too: it can be resumed): A's in
    # play (merged first into a page with no move made), C's before A's in the archive.
    assert b.session.key == a.session.key
    archive = json.loads(b.store.get(ARCHIVE_KEY) or "{}")
    assert list(archive) == [
        f"standard/{playable(140, 1)}", f"standard/{playable(160)}", f"standard/{playable(40, 1)}"]
    assert game_from_text(archive[f"standard/{playable(160)}"]).game.moves == (
        c.session.game.moves)
    assert asdict(read_progress(b.storage.export_progress(b.session)).parts.summary()) == {
        "games": 7, "won": 3, "daily_won": 1, "in_progress": 4}  # one daily deal, won on both


def test_merge_keeps_the_moves_of_both_devices_of_one_deal():
    a = Page(MemoryStore(), "?variant=standard&deal=7", random.Random(0), keep_board=False)
    for _ in range(2):
        a.play_pairs(1)
    b = Page(MemoryStore(stored(a)), "", random.Random(0), keep_board=False)
    a.play_pairs(1)  # A goes on
    text = a.storage.export_progress(a.session)
    restore(b, read_progress(text), "merge")  # B had two moves, A three: B gets A's three
    assert b.session.game.moves == a.session.game.moves
    b.play_pairs(1)
    b.play_pairs(1)
    restore(b, read_progress(text), "merge")  # B went on: A's older line gives way
    assert len(b.session.game.moves) == 5
    # A took back a move and played another: the two lines are joined, nothing is lost.
    a.undo()
    a.command(lambda: a.session.tap(a.session.position.pairs()[-1].first))
    a.command(lambda: a.session.tap(a.session.position.pairs()[-1].first))
    other = a.session.saved()
    restore(b, read_progress(a.storage.export_progress(a.session)), "merge")
    mine = b.session.saved()
    kept = json.loads(b.store.get(DIVERGED_KEY) or "[]")
    lines = [mine, *(game_from_text(t) for t in kept)]
    for move in other.game.moves:
        assert any(move in line.game.all_moves for line in lines)


def test_replace_keeps_what_it_replaced_and_bringing_it_back_restores_it(device_a):
    _a, text = device_a
    b = device(3, 41, 61, start=20_000_000)
    b.open_deal("strict", 5)
    b.play_pairs(1)
    before = stored(b)
    events = restore(b, read_progress(text), "replace")
    assert events[-1].mode == "replace" and events[-1].changed
    file_parts = read_progress(text).parts
    assert record(b.session.stats) == record(file_parts.stats)
    assert b.session.game.moves == file_parts.game.game.moves if file_parts.game else False
    assert stored(b)[ARCHIVE_KEY] == archive_text(file_parts.archive)
    replaced = b.storage.replaced_progress()
    assert replaced is not None
    assert asdict(replaced.parts.summary()) == {"games": 5, "won": 2, "daily_won": 1,
                                                  "in_progress": 3}
    restore(b, replaced, "replace")  # brought back
    after = stored(b)
    for key in (SAVE_KEY, ARCHIVE_KEY, SETTINGS_KEY):
        assert after[key] == before[key], key
    # The statistics are the same, but for the reset times, moved on so other tabs take
    # them in (see test_a_replace_is_taken_in_by_the_other_tab).
    old, new = stats_from_text(before[STATS_KEY]), stats_from_text(after[STATS_KEY])
    assert record(new) == record(old) and new.snapshot().history == old.snapshot().history
    assert set(new.snapshot().resets.values()) == {new.snapshot().daily.reset_ms}
    # And the backup it replaced is kept in turn: one Undo away.
    again = b.storage.replaced_progress()
    assert again is not None and record(again.parts.stats) == record(file_parts.stats)


def test_a_replace_adds_only_what_it_replaced_as_a_backup(device_a):
    _a, text = device_a
    b = device(3, 41, 61, start=20_000_000)
    before, held = stored(b), b.storage.export_progress(b.session)
    restore(b, read_progress(text), "replace")
    values = stored(b)
    assert (read_progress(values[REPLACED_KEY]).parts.summary()
            == read_progress(held).parts.summary())
    assert values[ARCHIVE_KEY] == archive_text(read_progress(text).parts.archive)
    assert set(values) - set(before) == {REPLACED_KEY}


def test_a_bad_mode_changes_nothing(device_a):
    _a, text = device_a
    b = fresh()
    before = stored(b)
    with pytest.raises(ValueError):
        b.storage.restore(b.session, read_progress(text), "overwrite")
    assert stored(b) == before


# ---- two tabs -------------------------------------------------------------------------------


def two_tabs() -> tuple[SharedStore, Page, Page]:
    store = SharedStore()
    tab_a = Page(store, "?variant=standard&deal=7", random.Random(0), clock=clock(50_000_000),
                 today=Calendar(DAY), keep_board=False)
    tab_b = Page(store.tab(), "?variant=strict&deal=9", random.Random(1),
                 clock=clock(60_000_000), today=Calendar(DAY), keep_board=False)
    return store, tab_a, tab_b


def test_a_merge_is_taken_in_by_the_other_tab(device_a):
    a, text = device_a
    store, tab_a, tab_b = two_tabs()
    tab_b.play_pairs(1)
    restore(tab_a, read_progress(text), "merge")
    tab_b.receive()
    for e in a.session.stats.snapshot().deals:
        assert tab_b.session.stats.deal_result(e.variant, e.deal) == e.state
    assert tab_b.session.stats.deal_result("strict", 9) == "playing"  # its own kept
    tab_b.play_pairs(1)
    tab_a.receive()
    assert record(tab_a.session.stats) == record(tab_b.session.stats)
    assert record(stats_from_text(store.data[STATS_KEY])) == record(tab_a.session.stats)


def test_a_replace_is_taken_in_by_the_other_tab_and_does_not_come_back(device_a):
    a, text = device_a
    store, tab_a, tab_b = two_tabs()
    one = winnable("standard", 300)
    tab_b.open_deal("standard", one)
    tab_b.win()  # a result the replace drops
    tab_a.receive()
    assert tab_a.session.stats.deal_result("standard", one) == "won"
    restore(tab_a, read_progress(text), "replace")
    tab_b.receive()
    assert tab_b.session.stats.deal_result("standard", one) is None
    assert record(tab_b.session.stats) == record(a.session.stats)
    tab_b.new_deal("strict")
    tab_b.play_pairs(1)  # B saves again: the replaced results stay away
    tab_a.receive()
    for tab in (tab_a, tab_b):
        assert tab.session.stats.deal_result("standard", one) is None
    assert stats_from_text(store.data[STATS_KEY]).deal_result("standard", one) is None
    # The replaced win is in the kept copy.
    kept = tab_a.storage.replaced_progress()
    assert kept is not None and kept.parts.stats.deal_result("standard", one) == "won"


def test_a_merge_after_a_replace_or_a_reset_brings_the_backup_in(device_a):
    _a, text = device_a
    c = device(101, 140, 160, start=9_000_000)
    text_c = c.storage.export_progress(c.session)
    b = fresh()
    restore(b, read_progress(text), "replace")
    restore(b, read_progress(text_c), "merge")
    assert b.session.stats.summary("standard").won == 2
    b.reset_stats()  # "Reset statistics offers a backup first": the backup brings them back
    restore(b, read_progress(text_c), "merge")
    assert b.session.stats.summary("standard").won == 1


# ---- the command line -----------------------------------------------------------------------


def test_the_command_line_prints_the_summary(device_a, tmp_path, capsys):
    _a, text = device_a
    path = tmp_path / backup_name(DAY)
    path.write_text(text)
    assert main(["progress", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"games": 4, "won": 2, "daily_won": 1, "in_progress": 2}
    code = tmp_path / "code.txt"
    code.write_text(progress_to_code(text) + "\n")
    assert main(["progress", str(code)]) == 0
    line = capsys.readouterr().out
    assert line.startswith("backup of 2026-12-01") and "2 won" in line and "2 in progress" in line


@pytest.mark.parametrize("case", ["more wins than games", "a newer version", "plain text",
                                  "10 MB", "cut in half"])
def test_the_command_line_exits_2_with_the_reason(device_a, tmp_path, capsys, case):
    code, make = BAD[case]
    _a, text = device_a
    path = tmp_path / "bad.json"
    path.write_text(make(text))
    assert main(["progress", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"({code})" in captured.err


def test_the_command_line_runs_as_a_module(device_a, tmp_path):
    _a, text = device_a
    path = tmp_path / "backup.json"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "nestor_web", "progress", str(path), "--json"],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == {"games", "won", "daily_won", "in_progress"}
    missing = subprocess.run(
        [sys.executable, "-m", "nestor_web", "progress", str(tmp_path / "none.json")],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert missing.returncode == 2 and "error:" in missing.stderr
    imported = subprocess.run(
        [sys.executable, "-c", "import sys, nestor_web.__main__; "
         "print(any(m == 'js' or m.startswith(('nestor_web.view', 'nestor_web.browser', "
         "'nestor.solver')) for m in sys.modules))"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )
    assert imported.stdout.strip() == "False"


# ---- properties -----------------------------------------------------------------------------

VARIANT_NAMES = ("standard", "strict", "doublets")


def random_play(variant: str, deal: int, seed: int, moves: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant, deal)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    return game


step = st.tuples(
    st.sampled_from(("standard", "strict")), st.integers(0, 5), st.integers(0, 3_000),
    st.booleans(), st.booleans(), st.booleans(), st.booleans(),
)


def play_stats(stats: Stats, steps: list[tuple[Any, ...]], now: int) -> int:
    for variant, deal, wait, leave, won, helped, first in steps:
        now += wait
        if leave:
            stats.leave(variant, deal, now)
        else:
            stats.record_move(variant, deal, now, won=won, helped=helped, first=first)
            if won:
                stats.record_daily(date(2026, 11, 1 + deal))
    return now


@st.composite
def saved_games(draw: st.DrawFn, variant: str | None = None, deal: int | None = None,
                playing: bool = False) -> SavedGame:
    game = random_play(
        variant or draw(st.sampled_from(VARIANT_NAMES)),
        draw(st.integers(0, 5)) if deal is None else deal,
        draw(st.integers(0, 2**32)), draw(st.integers(1 if playing else 0, 30)),
    )
    for _ in range(draw(st.integers(0, min(3, game.cursor - (1 if playing else 0))))):
        game.undo()
    if playing and game.position.outcome() is not None:
        game.undo()
    help_ = Help(*draw(st.tuples(*(st.integers(0, 3) for _ in range(4)))))
    return SavedGame(game, help_, draw(st.integers(0, 10**7)))


@st.composite
def settings_values(draw: st.DrawFn) -> Settings:
    return Settings(
        language=draw(st.sampled_from((None, "en", "de"))),
        four_colours=draw(st.booleans()),
        animations=draw(st.sampled_from((None, "off", "slow", "normal", "fast"))),
        theme=draw(st.sampled_from(("system", "light", "dark"))),
        auto_pair=draw(st.booleans()),
        solve_speed=draw(st.sampled_from(("slow", "normal", "fast"))),
        show_timer=draw(st.booleans()),
    )


@st.composite
def progress_parts(draw: st.DrawFn, stats: Stats | None = None) -> Parts:
    if stats is None:
        stats = Stats()
        play_stats(stats, draw(st.lists(step, max_size=30)), 1_000)
    game = draw(st.none() | saved_games())
    archive: dict[tuple[str, int], SavedGame] = {}
    for saved in draw(st.lists(saved_games(playing=True), max_size=6)):
        if saved.game.position.outcome() is None and saved.game.cursor >= 1 and (
            game is None or saved.key != game.key
        ):
            archive.pop(saved.key, None)
            archive[saved.key] = saved
    return Parts(stats, game, tuple(archive.values()), draw(settings_values()))


@settings(max_examples=examples(200), deadline=None)
@given(progress_parts(), st.dates(date(2000, 1, 1), date(2100, 1, 1)))
def test_any_progress_round_trips_through_the_file_and_the_code(parts: Parts, day: date):
    text = progress_text(parts, day)
    for form in (text, progress_to_code(text)):
        read = read_progress(form)
        assert read.date == day and read.version == PROGRESS_VERSION
        assert texts(read.parts) == texts(parts)
        assert read.parts.stats == parts.stats
        assert read.parts.summary() == parts.summary()
        assert progress_text(read.parts, day) == text


@st.composite
def branch(draw: st.DrawFn, saved: SavedGame) -> SavedGame:
    """Another device's line of the deal of ``saved``: some of its moves taken back, others
    played."""
    game = Game.from_json(saved.game.to_json())
    for _ in range(draw(st.integers(0, game.cursor))):
        game.undo()
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 6))):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    return SavedGame(game, saved.help, saved.elapsed_ms)


@st.composite
def two_devices(draw: st.DrawFn) -> tuple[Parts, Parts]:
    base = Stats()
    now = play_stats(base, draw(st.lists(step, max_size=10)), 1_000)
    mine_stats, theirs_stats = base.copy(), base.copy()
    play_stats(mine_stats, draw(st.lists(step, max_size=10)), now)
    play_stats(theirs_stats, draw(st.lists(step, max_size=10)), now + draw(st.integers(0, 1)))
    if draw(st.booleans()):
        theirs_stats.reset("strict", now_ms=now + 5)
    mine = draw(progress_parts(mine_stats))
    theirs = draw(progress_parts(theirs_stats))
    shared = [g for g in (mine.game, *mine.archive) if g is not None]
    lines = {g.key: draw(branch(g)) for g in shared if draw(st.booleans())}
    game = theirs.game
    if game is not None and game.key in lines:
        game = lines.pop(game.key)
    archive = {g.key: g for g in theirs.archive}
    for key, line in lines.items():
        if backup.in_progress(line) and (game is None or key != game.key):
            archive[key] = line
    return mine, replace(theirs, game=game, archive=tuple(archive.values()))


def texts(parts: Parts) -> str:
    """What a backup of ``parts`` holds, as its file's text."""
    return progress_text(parts, DAY)


@settings(max_examples=examples(200), deadline=None)
@given(two_devices())
def test_merging_is_idempotent_keeps_every_move_and_every_result(devices):
    mine, theirs = devices
    once, diverged = merge_parts(mine, theirs, ARCHIVE_SIZE)
    twice, _ = merge_parts(once, theirs, ARCHIVE_SIZE)
    assert texts(twice) == texts(once)
    assert texts(merge_parts(mine, mine, ARCHIVE_SIZE)[0]) == texts(mine)
    assert merge_parts(mine, mine, ARCHIVE_SIZE)[1] == ()
    # The union: every result of both, every line of both (in the games or kept apart).
    stats = once.stats
    for side in (mine, theirs):
        for e in side.stats.snapshot().deals:
            assert stats.deal_result(e.variant, e.deal) is not None
        assert {s.key for s in side.stats.history(last=1000, taken_back=True)} <= {
            s.key for s in stats.history(last=1000, taken_back=True)}
    games = {g.key: g for g in (once.game, *once.archive) if g is not None}
    for side in (mine, theirs):
        for line in (side.game, *side.archive):
            if line is None or not line.game.all_moves:
                continue
            if side is theirs and line is theirs.game and not backup.in_progress(line) and (
                mine.game is None or line.key != mine.game.key
            ):
                continue  # a finished game of another deal: in the statistics only
            kept = games.get(line.key)
            assert (kept is not None and backup.holds(kept, line)) or line in diverged


def test_the_replaced_key_is_one_of_the_games_keys():
    assert REPLACED_KEY in KEYS


def test_a_deal_ended_here_is_not_brought_back_by_merging_an_older_backup_again() -> None:
    """Review of issue 23: device B merged A's backup, played its game in progress to the end
    and moved on; merging the same backup again brought that deal back in progress."""
    a = device(1, 40, 60)
    text = a.storage.export_progress(a.session)
    b = fresh()
    restore(b, read_progress(text), "merge")
    ended = b.session.key
    while b.session.position.outcome() is None:
        move = b.session.game.legal_moves()[0]
        assert isinstance(move, Pair)
        b.play_pair(move.first, move.second)
    b.open_deal("standard", 7)  # a numbered deal: a new deal may have no pair
    assert b.session.key != ended
    first = b.session.position.pairs()[0]
    b.play_pair(first.first, first.second)
    before = b.storage.held_parts(b.session).summary()
    events = restore(b, read_progress(text), "merge")
    assert events[-1].summary == before  # type: ignore[attr-defined]
    assert f"{ended[0]}/{ended[1]}" not in json.loads(stored(b)[ARCHIVE_KEY])
    assert b.session.stats.deal_result(*ended) in ("won", "lost")


def test_the_game_left_by_new_deal_settles_in_the_statistics_a_merge_brings() -> None:
    """Review of issue 23: the game left for Undo settled in the statistics the merge then
    replaced, so it stayed "playing" beside the game brought into play."""
    a = device(1, 40, 60)
    text = a.storage.export_progress(a.session)
    b = Page(MemoryStore(), f"?variant=standard&deal={playable(300)}", random.Random(0),
             clock=clock(9_000_000), durable=MemoryCopy(), today=Calendar(DAY), keep_board=False)
    b.play_pairs(1)
    left = b.session.key
    b.new_deal()
    restore(b, read_progress(text), "merge")
    assert b.session.key != left
    assert b.session.stats.deal_result(*left) == "lost"
    playing = [(e.variant, e.deal) for e in b.session.stats.snapshot().deals
               if e.state == "playing"]
    assert playing == [b.session.key]

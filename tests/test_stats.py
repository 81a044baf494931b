"""The old statistics module (nestor_web.stats) until the session moves off it: its
open_stats, and that its saved text and the new codec's agree.

The rules, the codec and the chart are tested in test_statistics.py, test_stats_codec.py
and test_chart.py; this file goes with nestor_web/stats.py.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nestor_web import stats as old
from nestor_web.app.statistics import Stats
from nestor_web.stats import STATS_KEY, open_stats
from nestor_web.storage.stats_codec import stats_from_text, stats_to_text


def sample() -> old.Stats:
    stats = old.Stats()
    for deal, t, won, assisted in ((1, 1_000, True, False), (2, 10_000, True, True)):
        stats.record_move("standard", deal, t, won=False, assisted=assisted, first=True)
        stats.record_move("standard", deal, t + 1_000, won=won, assisted=assisted, first=False)
    stats.record_move("strict", 3, 20_000, won=False, assisted=False, first=True)
    stats.leave("strict", 3, 21_000)
    stats.record_move("standard", 4, 30_000, won=False, assisted=True, first=True)
    return stats


class Storage:
    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data = dict(data or {})
        self.writes: list[tuple[str, str]] = []

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def store(self, key: str, value: str) -> None:
        self.writes.append((key, value))
        self.data[key] = value


def test_open_stats_with_nothing_saved_writes_nothing():
    storage = Storage({"nestor.game": "{}"})
    stats, notice = open_stats(storage, storage.store)
    assert stats == old.Stats()
    assert notice is None
    assert storage.writes == []


def test_open_stats_reads_saved_stats():
    text = sample().to_json_text()
    storage = Storage({STATS_KEY: text})
    stats, notice = open_stats(storage, storage.store)
    assert stats == sample()
    assert notice is None
    assert storage.writes == []


def test_open_stats_sets_unreadable_data_aside():
    storage = Storage({STATS_KEY: '{"version": 7}', "nestor.game": "kept", "other": "x"})
    stats, notice = open_stats(storage, storage.store)
    assert stats == old.Stats()
    assert notice is not None
    assert "Your statistics could not be read: they have an unknown format version (7)" in notice
    assert storage.writes == [
        (STATS_KEY + ".unreadable", '{"version": 7}'),
        (STATS_KEY, old.Stats().to_json_text()),
    ]
    assert storage.data["nestor.game"] == "kept"
    assert storage.data["other"] == "x"


step = st.tuples(
    st.sampled_from(("standard", "strict")), st.integers(0, 3), st.integers(-50, 5_000),
    st.booleans(), st.booleans(), st.booleans(), st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(step, max_size=60))
def test_old_and_new_statistics_write_the_same_text(steps: list[tuple[Any, ...]]):
    before, after = old.Stats(), Stats()
    now = 1_000
    for variant, deal, wait, leave, won, assisted, first in steps:
        now = max(0, now + wait)
        for stats in (before, after):
            if leave:
                stats.leave(variant, deal, now)
            else:
                stats.record_move(variant, deal, now, won=won, assisted=assisted, first=first)
        text = before.to_json_text()
        assert stats_to_text(after) == text
        assert stats_from_text(text) == after
        assert old.Stats.from_json_text(stats_to_text(after)) == before

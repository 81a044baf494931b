"""The statistics' stored text (nestor_web.storage.stats_codec): its shape, which must
not change (players' saved statistics keep loading), and every refusal with its reason."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from stats_games import move, play

from nestor import MAX_DEAL, NestorError
from nestor_web.app.statistics.data import DEAL_MEMORY, HISTORY_SIZE, DailyStats
from nestor_web.app.statistics.record import Stats
from nestor_web.storage.stats_codec import STATS_VERSION, stats_from_text, stats_to_text


def sample() -> Stats:
    stats = Stats()
    play(stats, 1, 1_000, "won", duration=5_000)
    play(stats, 2, 10_000, "assisted")
    play(stats, 3, 20_000, "lost", variant="strict")
    move(stats, 4, 30_000, first=True, helped=True)
    return stats


def test_text_round_trip_and_shape():
    stats = sample()
    text = stats_to_text(stats)
    again = stats_from_text(text)
    assert again == stats
    assert stats_to_text(again) == text
    assert again.summary("standard") == stats.summary("standard")
    assert again.playing() == ("standard", 4)
    assert json.loads(text) == {
        "version": STATS_VERSION,
        "variants": {
            "standard": {
                "played": 3, "won": 1, "won_assisted": 1, "streak": 2, "best_streak": 2,
                "fastest_ms": 5_000,
            },
            "strict": {
                "played": 1, "won": 0, "won_assisted": 0, "streak": 0, "best_streak": 0,
                "fastest_ms": None,
            },
        },
        "deals": [
            ["standard", 1, 1_000, "won", False],
            ["standard", 2, 10_000, "assisted", True],
            ["strict", 3, 20_000, "lost", False],
            ["standard", 4, 30_000, "playing", True],
        ],
        "history": [
            [6_000, "standard", 1, "won", False],
            [11_000, "standard", 2, "assisted", False],
            [21_000, "strict", 3, "lost", False],
        ],
        "resets": {},
        "daily": {"won": [], "best_streak": 0, "reset_ms": None},
    }
    assert stats_from_text(stats_to_text(Stats())) == Stats()


def test_version_2_keeps_one_unsettled_deal_per_tab_and_results_taken_back():
    stats = sample()  # standard/4 is this tab's game
    other = Stats()
    move(other, 6, 40_000, first=True, variant="strict")  # another tab's game
    stats.merge(other)
    stats.leave("standard", 4, 50_000)
    assert stats.take_back("standard", 4)
    text = stats_to_text(stats)
    data = json.loads(text)
    assert [d[3] for d in data["deals"] if d[1] in (4, 6)] == ["playing", "playing"]
    assert data["history"][-1] == [50_000, "standard", 4, "lost", True]
    again = stats_from_text(text)
    assert again == stats
    assert again.playing() == ("standard", 4)  # the most recently changed unsettled deal


def test_the_daily_record_round_trips_and_version_2_reads_with_no_date_won():
    stats = sample()
    for day in (date(2026, 11, 29), date(2026, 11, 30), date(2026, 12, 1), date(2026, 12, 5)):
        stats.record_daily(day)
    text = stats_to_text(stats)
    assert json.loads(text)["daily"] == {
        "won": ["2026-11-29", "2026-11-30", "2026-12-01", "2026-12-05"],
        "best_streak": 3, "reset_ms": None,
    }
    again = stats_from_text(text)
    assert again == stats
    assert again.daily_summary(date(2026, 12, 2)).streak == 3
    old = json.loads(text)
    old["version"] = 2
    del old["daily"]
    read = stats_from_text(json.dumps(old))
    assert read == sample()
    assert read.daily_summary(date(2026, 12, 1)) == DailyStats(False, 0, 0, 0)


def test_unknown_keys_are_ignored():
    data = json.loads(stats_to_text(sample()))
    data["later"] = [1, 2]
    data["variants"]["standard"]["extra"] = "x"
    assert stats_from_text(json.dumps(data)) == sample()


def edited(change: Any) -> str:
    """The sample's JSON after ``change(data)`` (which may return a replacement)."""
    data = json.loads(stats_to_text(sample()))
    return json.dumps(change(data) or data)


def setitem(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: Any) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def delitem(path: tuple[Any, ...]) -> Any:
    def change(data: Any) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def best_streak_case(data: Any, best: int) -> None:
    """Standard's history: won, won with help, won, lost; ``best`` as its best streak."""
    data["variants"]["standard"].update(played=5, won=2, streak=0, best_streak=best)
    data["deals"] = [d for d in data["deals"] if d[3] != "playing"]
    data["history"] += [
        [12_000, "standard", 9, "won", False], [13_000, "standard", 10, "lost", False],
    ]
    data["history"].sort()


CORRUPT = [
    ("not json", "not valid JSON", "{"),
    ("empty", "not valid JSON", ""),
    ("deep nesting", "nested more than", "[" * 100_000 + "]" * 100_000),
    ("huge integer", "not valid JSON", '{"version": ' + "9" * 5000 + "}"),
    ("not an object", "not a JSON object", "[1]"),
    ("no version", "unknown format version (None)", edited(delitem(("version",)))),
    ("version 4", "unknown format version (4)", edited(setitem(("version",), 4))),
    ("version true", "unknown format version (True)", edited(setitem(("version",), True))),
    ("version text", "unknown format version ('1')", edited(setitem(("version",), "1"))),
    ("no variants", "'variants' is missing", edited(delitem(("variants",)))),
    ("variants list", "'variants' must be an object", edited(setitem(("variants",), []))),
    ("unknown variant", "a key of 'variants' must be a variant name, not 'chess'",
     edited(setitem(("variants", "chess"), {}))),
    ("counts not object", "variants['strict'] must be an object",
     edited(setitem(("variants", "strict"), 3))),
    ("count missing", "variants['standard'] has no 'streak'",
     edited(delitem(("variants", "standard", "streak")))),
    ("negative count", "variants['strict']['played'] -1 is out of range: use 0 or more",
     edited(setitem(("variants", "strict", "played"), -1))),
    ("bool count", "variants['strict']['won'] must be a whole number, not a boolean",
     edited(setitem(("variants", "strict", "won"), True))),
    ("float count", "variants['standard']['played'] must be a whole number, not float",
     edited(setitem(("variants", "standard", "played"), 3.0))),
    ("text count", "variants['standard']['best_streak'] must be a whole number",
     edited(setitem(("variants", "standard", "best_streak"), "2"))),
    ("negative time", "variants['standard']['fastest_ms'] -5 is out of range: use 0 or more",
     edited(setitem(("variants", "standard", "fastest_ms"), -5))),
    ("text time", "variants['standard']['fastest_ms'] must be a whole number, not str",
     edited(setitem(("variants", "standard", "fastest_ms"), "fast"))),
    ("no deals", "'deals' is missing", edited(delitem(("deals",)))),
    ("deals object", "'deals' must be a list", edited(setitem(("deals",), {}))),
    ("deal not a list", "deals[1] must be a list of 5 values",
     edited(setitem(("deals", 1), {"deal": 2}))),
    ("deal too short", "deals[0] must be a list of 5 values",
     edited(setitem(("deals", 0), ["standard", 1, 0, "won"]))),
    ("deal variant", "deals[0][0] must be a variant name, not 'chess'",
     edited(setitem(("deals", 0, 0), "chess"))),
    ("deal number", "deals[0][1] 4294967296 is out of range: use 0 to 4294967295",
     edited(setitem(("deals", 0, 1), MAX_DEAL))),
    ("negative deal", "deals[0][1] -1 is out of range: use 0 to 4294967295",
     edited(setitem(("deals", 0, 1), -1))),
    ("bool deal", "deals[0][1] must be a whole number, not a boolean",
     edited(setitem(("deals", 0, 1), True))),
    ("deal start", "deals[2][2] -1 is out of range: use 0 or more",
     edited(setitem(("deals", 2, 2), -1))),
    ("deal state", "deals[2][3] must be one of 'playing', 'lost', 'won', 'assisted', not 'draw'",
     edited(setitem(("deals", 2, 3), "draw"))),
    ("deal helped", "deals[2][4] must be true or false, not 0",
     edited(setitem(("deals", 2, 4), 0))),
    ("clean win helped", "deals[0] is a 'won' deal with helped true",
     edited(setitem(("deals", 0, 4), True))),
    ("assisted win unhelped", "deals[1] is a 'assisted' deal with helped false",
     edited(setitem(("deals", 1, 4), False))),
    ("deal twice", "deal standard/1 is listed twice",
     edited(lambda d: d["deals"].insert(1, ["standard", 1, 0, "won", False]))),
    ("two unsettled in version 1", "more than one game is unsettled in 'deals'",
     edited(lambda d: {**d, "version": 1, "history": [r[:4] for r in d["history"]],
                       "deals": [r[:3] + ["playing"] + r[4:] if r[1] == 3 else r
                                 for r in d["deals"]]})),
    ("resets missing", "'resets' is missing", edited(delitem(("resets",)))),
    ("resets variant", "a key of 'resets' must be a variant name, not 'chess'",
     edited(setitem(("resets", "chess"), 1))),
    ("resets time", "resets['strict'] -1 is out of range: use 0 or more",
     edited(setitem(("resets", "strict"), -1))),
    ("daily missing", "'daily' is missing", edited(delitem(("daily",)))),
    ("daily not object", "'daily' must be an object", edited(setitem(("daily",), []))),
    ("daily won missing", "'won' is missing", edited(delitem(("daily", "won")))),
    ("daily date", "daily['won'][0]: bad date '1.12.2026'",
     edited(setitem(("daily", "won"), ["1.12.2026"]))),
    ("daily no such date", "daily['won'][1]: there is no date 2026-02-30",
     edited(setitem(("daily", "won"), ["2026-02-01", "2026-02-30"]))),
    ("daily date twice", "the daily record lists a date twice",
     edited(lambda d: d["daily"].update(won=["2026-12-01", "2026-12-01"], best_streak=1))),
    ("daily best too short", "best streak of 1 but holds 2 dates won in a row",
     edited(lambda d: d["daily"].update(won=["2026-11-30", "2026-12-01"], best_streak=1))),
    ("daily best missing", "'daily' has no 'best_streak'",
     edited(delitem(("daily", "best_streak")))),
    ("daily best negative", "daily['best_streak'] -1 is out of range",
     edited(setitem(("daily", "best_streak"), -1))),
    ("daily reset text", "daily['reset_ms'] must be a whole number",
     edited(setitem(("daily", "reset_ms"), "x"))),
    ("taken back not bool", "history[1][4] must be true or false, not 0",
     edited(setitem(("history", 1, 4), 0))),
    ("no history", "'history' is missing", edited(delitem(("history",)))),
    ("history text", "'history' must be a list, not 'abc'", edited(setitem(("history",), "abc"))),
    ("history row", "history[0] must be a list of 5 values",
     edited(setitem(("history", 0), [1, "standard", 1]))),
    ("history time", "history[0][0] -1 is out of range: use 0 or more",
     edited(setitem(("history", 0, 0), -1))),
    ("history variant", "history[1][1] must be a variant name, not None",
     edited(setitem(("history", 1, 1), None))),
    ("history deal", "history[1][2] must be a whole number, not float",
     edited(setitem(("history", 1, 2), 1.5))),
    ("history result", "history[2][3] must be one of 'won', 'assisted', 'lost', not 'playing'",
     edited(setitem(("history", 2, 3), "playing"))),
    ("too many deals", f"'deals' holds {DEAL_MEMORY + 1} deals, more than {DEAL_MEMORY}",
     edited(lambda d: d["deals"].extend(
         [["standard", n, 0, "lost", False] for n in range(10, DEAL_MEMORY + 7)]))),
    ("too many settlements", f"'history' holds {HISTORY_SIZE + 1} games, more than",
     edited(lambda d: d["history"].extend(
         [[0, "standard", 1, "lost", False]] * (HISTORY_SIZE - 2)))),
    ("more wins than played", "'standard' has more wins (4) than games played (3)",
     edited(setitem(("variants", "standard", "won"), 3))),
    ("streak over best", "'standard' has a streak (3) longer than its best (2)",
     edited(setitem(("variants", "standard", "streak"), 3))),
    ("best over wins", "'strict' has a best streak (1) longer than its wins (0)",
     edited(setitem(("variants", "strict", "best_streak"), 1))),
    ("fastest without clean win", "'strict' has a fastest win but no clean win",
     edited(setitem(("variants", "strict", "fastest_ms"), 10_000))),
    ("deals not played", "'deals' holds 3 standard deals but only 2 were played",
     edited(setitem(("variants", "standard", "played"), 2))),
    ("deals of a variant never counted", "'deals' holds 1 strict deals but only 0 were played",
     edited(delitem(("variants", "strict")))),
    ("deal wins not counted", "'standard' counts 0 clean wins but 'deals' or 'history' show 1",
     edited(lambda d: d["variants"]["standard"].update(won=0, fastest_ms=None, streak=1,
                                                         best_streak=1))),
    ("history wins not counted", "'standard' counts 0 wins with help but 'deals' or",
     edited(lambda d: d["variants"]["standard"].update(won_assisted=0, streak=1,
                                                         best_streak=1))),
    ("history losses not played", "'history' holds 2 lost strict games but only 1",
     edited(lambda d: d["history"].append([30_000, "strict", 5, "lost", False]))),
    ("streak after a loss", "'strict' has a streak of 1 but its history ends with 0 wins",
     edited(lambda d: d["variants"]["strict"].update(played=2, won=1, streak=1,
                                                     best_streak=1, fastest_ms=None))),
    ("streak shorter than history", "'standard' has a streak of 1 but its history ends with 2",
     edited(setitem(("variants", "standard", "streak"), 1))),
    ("best shorter than history", "'standard' has a best streak of 2 but its history holds 3",
     edited(lambda d: best_streak_case(d, 2))),
]


@pytest.mark.parametrize(("text", "message"), [(t, m) for _, m, t in CORRUPT],
                         ids=[name for name, _, _ in CORRUPT])
def test_corrupted_data_is_refused_with_the_reason(text: str, message: str):
    with pytest.raises(NestorError) as info:
        stats_from_text(text)
    assert message in str(info.value)


NUMBER_CODES = {
    "negative count": ("number.too_small", "variants['strict']['played']", "-1"),
    "bool count": ("number.not_whole", "variants['strict']['won']", "True"),
    "float count": ("number.not_whole", "variants['standard']['played']", "3.0"),
    "text count": ("number.not_whole", "variants['standard']['best_streak']", "'2'"),
    "negative time": ("number.too_small", "variants['standard']['fastest_ms']", "-5"),
    "text time": ("number.not_whole", "variants['standard']['fastest_ms']", "'fast'"),
    "deal number": ("deal.range", "deals[0][1]", str(MAX_DEAL)),
    "negative deal": ("deal.range", "deals[0][1]", "-1"),
    "bool deal": ("deal.not_whole", "deals[0][1]", "True"),
    "deal start": ("number.too_small", "deals[2][2]", "-1"),
    "history time": ("number.too_small", "history[0][0]", "-1"),
    "history deal": ("deal.not_whole", "history[1][2]", "1.5"),
}


@pytest.mark.parametrize("case", sorted(NUMBER_CODES))
def test_a_bad_number_carries_the_engine_code_and_where_it_is(case: str):
    """Counts, times and deal numbers go through nestor.checks.whole_number, so the
    page can word the problem from its code in any language."""
    (text,) = [t for name, _, t in CORRUPT if name == case]
    with pytest.raises(NestorError) as info:
        stats_from_text(text)
    code, where, value = NUMBER_CODES[case]
    assert info.value.code == code
    assert (info.value.details["where"], info.value.details["value"]) == (where, value)


def test_the_best_streak_case_is_otherwise_valid():
    """The corrupted case changes one number: with the right one it is readable."""
    data = json.loads(stats_to_text(sample()))
    best_streak_case(data, 3)
    stats = stats_from_text(json.dumps(data))
    assert (stats.summary("standard").streak, stats.summary("standard").best_streak) == (0, 3)


# ---- the format stays the same -----------------------------------------------------------

T = 1_700_000_000_000

# Written by nestor_web.stats.Stats.to_json_text (the codec before the split) after
# real_play() below, at commit 86b6d11. Saved statistics look like this: the codec
# must read it back and write it out again byte for byte.
OLD_TEXT = (
    '{"version":1,"variants":{"standard":{"played":4,"won":2,"won_assisted":1,"streak":2,'
    '"best_streak":2,"fastest_ms":52500},"strict":{"played":2,"won":0,"won_assisted":1,'
    '"streak":0,"best_streak":1,"fastest_ms":null}},"deals":[["standard",17,1700000009000,'
    '"won",false],["strict",3,1700000140000,"assisted",true],["standard",3,1700000100000,'
    '"assisted",true],["standard",8,null,"won",false],["strict",4294967295,1700000400000,'
    '"lost",false],["standard",99,1700000500000,"playing",false]],"history":[[1700000061500,'
    '"standard",17,"won"],[1700000130000,"standard",3,"lost"],[1700000150000,"strict",3,'
    '"assisted"],[1700000210000,"standard",3,"assisted"],[1700000310000,"standard",8,"won"],'
    '[1700000500000,"strict",4294967295,"lost"]]}'
)


def real_play(stats: Stats) -> Stats:
    """Clean, timed and untimed wins, help, a loss won later, the largest deal number."""
    move(stats, 17, T, first=True)
    move(stats, 17, T + 4_000)
    move(stats, 17, T + 9_000, first=True)  # restart
    move(stats, 17, T + 61_500, won=True, elapsed=52_500)  # clean win in 52.5 s
    move(stats, 17, T + 70_000, won=True)  # undo, win again: nothing
    move(stats, 3, T + 100_000, first=True)
    move(stats, 3, T + 120_000, helped=True)  # a hint
    stats.leave("standard", 3, T + 130_000)  # lost
    move(stats, 3, T + 140_000, first=True, variant="strict")
    move(stats, 3, T + 150_000, won=True, helped=True, variant="strict")  # Solve
    move(stats, 3, T + 200_000)  # back to the lost deal
    move(stats, 3, T + 210_000, won=True)  # won later, with the earlier help
    move(stats, 8, T + 300_000)  # resumed mid-game: its start was never seen
    move(stats, 8, T + 310_000, won=True, elapsed=10_000)  # clean, not timed
    move(stats, MAX_DEAL - 1, T + 400_000, first=True, variant="strict")
    move(stats, 99, T + 500_000, first=True)  # settles strict/MAX_DEAL-1 as lost
    return stats


def test_text_written_before_the_split_reads_back_equal_and_is_written_as_version_3():
    played = real_play(Stats())
    read = stats_from_text(OLD_TEXT)
    assert read == played
    new = stats_to_text(read)
    assert new == stats_to_text(played)
    old, now = json.loads(OLD_TEXT), json.loads(new)
    assert now["version"] == 3 and now["resets"] == {}
    assert now["daily"] == {"won": [], "best_streak": 0, "reset_ms": None}
    assert now["variants"] == old["variants"] and now["deals"] == old["deals"]
    assert now["history"] == [row + [False] for row in old["history"]]
    assert stats_from_text(new) == read
    assert read.playing() == ("standard", 99)
    assert read.deal_result("strict", MAX_DEAL - 1) == "lost"
    # Reading it is not a no-op: the numbers keep their meaning afterwards.
    summary = read.summary("standard")
    assert (summary.played, summary.won, summary.won_with_help, summary.fastest_ms) == (
        4, 2, 1, 52_500,
    )


step = st.tuples(
    st.sampled_from(("standard", "strict")), st.integers(0, 3), st.integers(0, 5_000),
    st.booleans(), st.booleans(), st.booleans(), st.booleans(),
)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(step, max_size=60))
def test_random_play_reads_back_equal(steps: list[tuple[Any, ...]]):
    stats = Stats()
    now = 1_000
    for variant, deal, wait, leave, won, helped, first in steps:
        now += wait
        if leave:
            stats.leave(variant, deal, now)
        else:
            move(stats, deal, now, won=won, helped=helped, first=first, variant=variant)
        text = stats_to_text(stats)
        again = stats_from_text(text)
        assert again == stats
        assert stats_to_text(again) == text

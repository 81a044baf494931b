"""Statistics per variant (nestor_web.stats): rules, caps, saved data and the chart."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nestor import MAX_DEAL, DealNumberError, NestorError, VariantError
from nestor_web.stats import (
    CHART_COLOURS,
    DEAL_MEMORY,
    HISTORY_SIZE,
    STATS_KEY,
    STATS_VERSION,
    Settlement,
    Stats,
    VariantStats,
    chart_svg,
    open_stats,
)

SVG = "{http://www.w3.org/2000/svg}"


def move(
    stats: Stats,
    deal: int,
    t: int,
    *,
    won: bool = False,
    assisted: bool = False,
    first: bool = False,
    variant: str = "standard",
) -> bool:
    return stats.record_move(variant, deal, t, won=won, assisted=assisted, first=first)


def play(
    stats: Stats,
    deal: int,
    t: int,
    result: str,
    variant: str = "standard",
    duration: int = 1000,
) -> None:
    """One whole game of ``deal`` starting at ``t``, ending with ``result``."""
    move(stats, deal, t, first=True, variant=variant, assisted=result == "assisted")
    if result == "lost":
        stats.leave(variant, deal, t + duration)
    else:
        move(stats, deal, t + duration, won=True, variant=variant, assisted=result == "assisted")


def results(stats: Stats, variant: str | None = None) -> list[str]:
    return [s.result for s in stats.history(variant, last=HISTORY_SIZE)]


# ---- played ------------------------------------------------------------------------------


def test_empty_stats():
    stats = Stats()
    assert stats.summary("standard") == VariantStats(0, 0, 0, None, 0, 0, None)
    assert stats.history() == []
    assert stats.playing() is None
    assert stats.deal_result("standard", 1) is None


def test_played_counts_from_the_first_move_only():
    stats = Stats()
    assert stats.leave("standard", 5, 100) is False  # opened, never moved: not played
    assert stats.summary("standard").played == 0
    assert move(stats, 5, 200, first=True) is True
    assert stats.summary("standard").played == 1
    assert stats.playing() == ("standard", 5)
    assert stats.deal_result("standard", 5) == "playing"
    assert move(stats, 5, 300) is False  # an ordinary move changes nothing to save
    assert stats.summary("standard").played == 1


def test_a_deal_is_played_once_across_restarts_replays_and_returns():
    stats = Stats()
    move(stats, 5, 100, first=True)
    move(stats, 5, 200)
    move(stats, 5, 300, first=True)  # restart (or undo to the start) and move again
    move(stats, 5, 400)  # redo
    assert stats.history() == []  # a restart settles nothing
    stats.leave("standard", 5, 500)
    move(stats, 9, 600, first=True)
    stats.leave("standard", 9, 700)
    move(stats, 5, 800)  # back to deal 5 from a link
    move(stats, 5, 900, first=True)
    summary = stats.summary("standard")
    assert summary.played == 2
    assert summary.won == summary.won_assisted == 0


def test_the_same_deal_number_in_another_variant_is_another_game():
    stats = Stats()
    move(stats, 5, 100, first=True)
    move(stats, 5, 200, first=True, variant="strict")
    assert stats.summary("standard").played == 1
    assert stats.summary("strict").played == 1
    assert results(stats) == ["lost"]  # moving on to strict/5 settled standard/5


# ---- winning -----------------------------------------------------------------------------


def test_a_win_is_recorded_at_the_winning_move():
    stats = Stats()
    move(stats, 3, 1_000, first=True)
    move(stats, 3, 2_000)
    assert stats.summary("standard").won == 0
    assert move(stats, 3, 3_500, won=True) is True
    summary = stats.summary("standard")
    assert (summary.played, summary.won, summary.won_assisted) == (1, 1, 0)
    assert stats.history() == [Settlement(3_500, "standard", 3, "won")]
    assert stats.playing() is None
    assert stats.deal_result("standard", 3) == "won"


def test_undoing_out_of_a_win_and_winning_again_counts_one_win():
    stats = Stats()
    move(stats, 3, 1_000, first=True)
    move(stats, 3, 2_000, won=True)
    assert move(stats, 3, 3_000) is False  # undo, then another move
    assert move(stats, 3, 4_000, won=True) is False  # won again
    assert move(stats, 3, 5_000, won=True, assisted=True) is False  # and with help
    assert move(stats, 3, 6_000, won=True, first=True) is False  # replayed to a win
    summary = stats.summary("standard")
    assert (summary.played, summary.won, summary.won_assisted) == (1, 1, 0)
    assert summary.streak == 1
    assert summary.fastest_ms == 1_000
    assert results(stats) == ["won"]


def test_leaving_a_won_game_is_not_a_loss():
    stats = Stats()
    move(stats, 3, 1_000, first=True, won=True)
    assert stats.leave("standard", 3, 2_000) is False
    move(stats, 4, 3_000, first=True)
    assert results(stats) == ["won"]


def test_a_win_with_help_is_counted_apart():
    stats = Stats()
    move(stats, 1, 1_000, first=True)
    move(stats, 1, 2_000, won=True, assisted=True)
    summary = stats.summary("standard")
    assert (summary.won, summary.won_assisted) == (0, 1)
    assert summary.win_rate == 1.0
    assert summary.fastest_ms is None  # only clean wins are timed
    assert results(stats) == ["assisted"]
    assert stats.deal_result("standard", 1) == "assisted"


def test_help_used_earlier_in_the_deal_makes_the_win_assisted():
    stats = Stats()
    move(stats, 1, 1_000, first=True)
    move(stats, 1, 2_000, assisted=True)  # a hint was shown before this move
    move(stats, 1, 3_000, first=True)  # restart: the help is not washed away
    move(stats, 1, 4_000, won=True, assisted=False)
    assert stats.summary("standard").won_assisted == 1
    assert stats.summary("standard").won == 0


def test_the_first_win_decides_clean_or_assisted():
    stats = Stats()
    move(stats, 1, 1_000, first=True, won=True)
    move(stats, 1, 2_000, assisted=True)
    move(stats, 1, 3_000, won=True, assisted=True)
    summary = stats.summary("standard")
    assert (summary.won, summary.won_assisted) == (1, 0)


def test_win_rate_counts_both_kinds_of_win():
    stats = Stats()
    play(stats, 1, 0, "won")
    play(stats, 2, 10_000, "assisted")
    play(stats, 3, 20_000, "lost")
    play(stats, 4, 30_000, "lost")
    summary = stats.summary("standard")
    assert summary.played == 4
    assert summary.win_rate == pytest.approx(0.5)


# ---- losing ------------------------------------------------------------------------------


def test_leave_settles_an_unfinished_game_as_lost():
    stats = Stats()
    move(stats, 7, 1_000, first=True)
    assert stats.leave("standard", 7, 5_000) is True
    assert stats.history() == [Settlement(5_000, "standard", 7, "lost")]
    assert stats.playing() is None
    assert stats.deal_result("standard", 7) == "lost"
    assert stats.leave("standard", 7, 6_000) is False  # settles once
    assert stats.leave("standard", 8, 6_000) is False  # never played
    summary = stats.summary("standard")
    assert (summary.played, summary.won, summary.win_rate) == (1, 0, 0.0)


def test_a_move_in_another_deal_settles_the_unfinished_game():
    stats = Stats()
    move(stats, 7, 1_000, first=True)
    assert move(stats, 8, 2_000, first=True) is True
    assert stats.history() == [Settlement(2_000, "standard", 7, "lost")]
    assert stats.playing() == ("standard", 8)


def test_a_lost_game_won_later_counts_the_win_then():
    stats = Stats()
    play(stats, 1, 0, "won")
    move(stats, 7, 10_000, first=True)
    stats.leave("standard", 7, 11_000)
    assert stats.summary("standard").streak == 0
    move(stats, 7, 20_000)  # back to it from a link
    assert stats.playing() is None  # it is settled: nothing to settle on leaving
    assert stats.leave("standard", 7, 21_000) is False
    assert move(stats, 7, 30_000, won=True) is True
    summary = stats.summary("standard")
    assert (summary.played, summary.won, summary.streak, summary.best_streak) == (2, 2, 1, 1)
    assert results(stats) == ["won", "lost", "won"]
    assert stats.history()[-1] == Settlement(30_000, "standard", 7, "won")
    assert stats.deal_result("standard", 7) == "won"


def test_a_lost_game_won_later_with_help_earlier_is_assisted():
    stats = Stats()
    move(stats, 7, 0, first=True, assisted=True)
    stats.leave("standard", 7, 1_000)
    move(stats, 7, 2_000, first=True, won=True)
    assert stats.summary("standard").won_assisted == 1


# ---- streaks -----------------------------------------------------------------------------


def test_current_and_best_streaks():
    stats = Stats()
    sequence = ["won", "won", "lost", "won", "assisted", "won", "lost", "won"]
    for i, result in enumerate(sequence):
        play(stats, i, i * 10_000, result)
    summary = stats.summary("standard")
    assert summary.streak == 1
    assert summary.best_streak == 3  # won, assisted, won: wins with help count
    assert results(stats) == sequence


def test_streaks_are_per_variant():
    stats = Stats()
    play(stats, 1, 0, "won")
    play(stats, 1, 10_000, "lost", variant="strict")
    play(stats, 2, 20_000, "won")
    assert stats.summary("standard").streak == 2
    assert stats.summary("strict").streak == 0
    assert stats.summary("strict").best_streak == 0


def test_a_loss_ends_the_streak_but_keeps_the_best():
    stats = Stats()
    for i in range(4):
        play(stats, i, i * 10_000, "won")
    play(stats, 9, 100_000, "lost")
    summary = stats.summary("standard")
    assert (summary.streak, summary.best_streak) == (0, 4)


# ---- fastest win -------------------------------------------------------------------------


def test_fastest_clean_win():
    stats = Stats()
    play(stats, 1, 0, "won", duration=90_000)
    assert stats.summary("standard").fastest_ms == 90_000
    play(stats, 2, 100_000, "won", duration=120_000)
    assert stats.summary("standard").fastest_ms == 90_000  # slower: kept
    play(stats, 3, 300_000, "assisted", duration=1_000)
    assert stats.summary("standard").fastest_ms == 90_000  # with help: not timed
    play(stats, 4, 400_000, "won", duration=45_000)
    assert stats.summary("standard").fastest_ms == 45_000
    play(stats, 5, 500_000, "won", duration=45_000, variant="strict")
    assert stats.summary("strict").fastest_ms == 45_000


def test_the_clock_restarts_with_the_attempt():
    stats = Stats()
    move(stats, 1, 0, first=True)
    move(stats, 1, 50_000)
    assert move(stats, 1, 60_000, first=True) is True  # restart: the attempt's start is saved
    move(stats, 1, 70_000)
    move(stats, 1, 80_000, won=True)
    assert stats.summary("standard").fastest_ms == 20_000


def test_a_win_without_a_seen_start_or_with_the_clock_backwards_is_not_timed():
    stats = Stats()
    move(stats, 1, 5_000)  # resumed mid-game: when it started is unknown
    move(stats, 1, 6_000, won=True)
    move(stats, 2, 10_000, first=True)
    move(stats, 2, 9_000, won=True)  # the computer's clock went back
    summary = stats.summary("standard")
    assert summary.won == 2
    assert summary.fastest_ms is None
    move(stats, 3, 20_000, first=True, won=True)  # a one-move win
    assert stats.summary("standard").fastest_ms == 0


# ---- history, reset, arguments -----------------------------------------------------------


def test_history_filters_by_variant_and_keeps_the_last():
    stats = Stats()
    for i in range(6):
        variant = "strict" if i % 3 == 0 else "standard"
        play(stats, i, i * 10, "won" if i % 2 else "lost", variant=variant)
    everything = stats.history(last=100)
    assert [s.deal for s in everything] == [0, 1, 2, 3, 4, 5]
    assert [s.deal for s in stats.history("strict")] == [0, 3]
    assert [s.deal for s in stats.history("standard", last=2)] == [4, 5]
    assert [s.deal for s in stats.history(last=1)] == [5]
    assert stats.history(last=0) == []
    assert stats.history("vertical") == []
    for bad in (-1, True, 1.5, "3"):
        with pytest.raises(NestorError, match="last must be a whole number"):
            stats.history(last=bad)  # type: ignore[arg-type]
    with pytest.raises(VariantError):
        stats.history("nope")


def test_reset_one_variant_or_all():
    stats = Stats()
    play(stats, 1, 0, "won")
    play(stats, 1, 10_000, "lost", variant="strict")
    move(stats, 2, 20_000, first=True, variant="strict")
    stats.reset("strict")
    assert stats.summary("strict") == Stats().summary("strict")
    assert stats.playing() is None
    assert stats.deal_result("strict", 1) is None
    assert results(stats) == ["won"]
    assert stats.summary("standard").won == 1
    Stats.from_json_text(stats.to_json_text())  # still consistent
    stats.reset()
    assert stats == Stats()
    with pytest.raises(VariantError):
        stats.reset("nope")


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("nope", 1, 0), VariantError, "nope"),
        (("standard", -1, 0), DealNumberError, "-1"),
        (("standard", MAX_DEAL, 0), DealNumberError, str(MAX_DEAL)),
        (("standard", True, 0), DealNumberError, "True"),
        (("standard", "12", 0), DealNumberError, "'12'"),
        (("standard", 1, -5), NestorError, "the time must be"),
        (("standard", 1, 1.5), NestorError, "the time must be"),
        (("standard", 1, False), NestorError, "the time must be"),
    ],
)
def test_bad_arguments_are_refused(args: tuple[Any, ...], error: type, message: str):
    stats = Stats()
    with pytest.raises(error, match=re.escape(message)):
        stats.record_move(*args, won=False, assisted=False, first=True)
    with pytest.raises(error, match=re.escape(message)):
        stats.leave(*args)
    assert stats == Stats()


def test_summary_refuses_an_unknown_variant():
    with pytest.raises(VariantError):
        Stats().summary("nope")


# ---- caps --------------------------------------------------------------------------------


def test_history_keeps_the_last_settlements():
    stats = Stats()
    for i in range(HISTORY_SIZE + 10):
        play(stats, i, i * 10, "won")
    history = stats.history(last=HISTORY_SIZE + 10)
    assert len(history) == HISTORY_SIZE
    assert history[0].deal == 10
    assert history[-1].deal == HISTORY_SIZE + 9
    summary = stats.summary("standard")
    assert summary.won == summary.streak == summary.best_streak == HISTORY_SIZE + 10
    assert Stats.from_json_text(stats.to_json_text()) == stats


def test_deal_memory_forgets_the_least_recently_changed_deals():
    stats = Stats()
    move(stats, 0, 0, first=True, won=True)
    move(stats, 1, 1, first=True, won=True)
    last = DEAL_MEMORY + 1  # deals 0 to last: two more than the memory holds
    for deal in range(2, last + 1):
        move(stats, deal, deal, first=True)
        if deal == DEAL_MEMORY // 2:
            move(stats, 1, deal, first=True)  # a won deal replayed: not a change, forgotten
            move(stats, 0, deal)
    stats.leave("standard", last, last + 1)
    data = json.loads(stats.to_json_text())
    assert len(data["deals"]) == DEAL_MEMORY
    assert stats.deal_result("standard", 0) is None
    assert stats.deal_result("standard", 1) is None
    assert stats.deal_result("standard", 2) == "lost"
    assert stats.summary("standard").played == last + 1
    assert Stats.from_json_text(stats.to_json_text()) == stats
    # A forgotten deal is a new game when it comes back.
    move(stats, 0, 10**7, first=True, won=True)
    summary = stats.summary("standard")
    assert (summary.played, summary.won) == (last + 2, 3)
    assert stats.deal_result("standard", 0) == "won"
    assert stats.deal_result("standard", 2) is None  # the oldest left in turn
    assert stats.deal_result("standard", 3) == "lost"


def test_changing_a_deal_keeps_it_in_memory():
    stats = Stats()
    move(stats, 0, 0, first=True)
    stats.leave("standard", 0, 1)
    for deal in range(1, DEAL_MEMORY):
        move(stats, deal, deal, first=True)
    move(stats, 0, DEAL_MEMORY, won=True)  # the lost deal 0 is won: it is fresh again
    move(stats, DEAL_MEMORY, DEAL_MEMORY + 1, first=True)
    assert stats.deal_result("standard", 0) == "won"
    assert stats.deal_result("standard", 1) is None


# ---- saved data --------------------------------------------------------------------------


def sample() -> Stats:
    stats = Stats()
    play(stats, 1, 1_000, "won", duration=5_000)
    play(stats, 2, 10_000, "assisted")
    play(stats, 3, 20_000, "lost", variant="strict")
    move(stats, 4, 30_000, first=True, assisted=True)
    return stats


def test_json_round_trip_and_shape():
    stats = sample()
    text = stats.to_json_text()
    again = Stats.from_json_text(text)
    assert again == stats
    assert again.to_json_text() == text
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
            [6_000, "standard", 1, "won"],
            [11_000, "standard", 2, "assisted"],
            [21_000, "strict", 3, "lost"],
        ],
    }
    assert Stats.from_json_text(Stats().to_json_text()) == Stats()
    assert stats != Stats()
    assert stats != "not stats"
    assert "Stats.from_json_text" in repr(stats)


def test_unknown_keys_are_ignored():
    data = json.loads(sample().to_json_text())
    data["later"] = [1, 2]
    data["variants"]["standard"]["extra"] = "x"
    assert Stats.from_json_text(json.dumps(data)) == sample()


def edited(change: Any) -> str:
    """The sample's JSON after ``change(data)`` (which may return a replacement)."""
    data = json.loads(sample().to_json_text())
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
    data["history"] += [[12_000, "standard", 9, "won"], [13_000, "standard", 10, "lost"]]
    data["history"].sort()


CORRUPT = [
    ("not json", "not valid JSON", "{"),
    ("empty", "not valid JSON", ""),
    ("deep nesting", "nested more than", "[" * 100_000 + "]" * 100_000),
    ("huge integer", "not valid JSON", '{"version": ' + "9" * 5000 + "}"),
    ("not an object", "not a JSON object", "[1]"),
    ("no version", "unknown format version (None)", edited(delitem(("version",)))),
    ("version 2", "unknown format version (2)", edited(setitem(("version",), 2))),
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
    ("negative count", "variants['strict']['played'] must be a whole number >= 0, not -1",
     edited(setitem(("variants", "strict", "played"), -1))),
    ("bool count", "variants['strict']['won'] must be a whole number >= 0, not True",
     edited(setitem(("variants", "strict", "won"), True))),
    ("float count", "variants['standard']['played'] must be a whole number >= 0, not 3.0",
     edited(setitem(("variants", "standard", "played"), 3.0))),
    ("text count", "variants['standard']['best_streak'] must be a whole number",
     edited(setitem(("variants", "standard", "best_streak"), "2"))),
    ("negative time", "variants['standard']['fastest_ms'] must be a whole number >= 0",
     edited(setitem(("variants", "standard", "fastest_ms"), -5))),
    ("text time", "variants['standard']['fastest_ms'] must be a whole number >= 0",
     edited(setitem(("variants", "standard", "fastest_ms"), "fast"))),
    ("no deals", "'deals' is missing", edited(delitem(("deals",)))),
    ("deals object", "'deals' must be a list", edited(setitem(("deals",), {}))),
    ("deal not a list", "deals[1] must be a list of 5 values",
     edited(setitem(("deals", 1), {"deal": 2}))),
    ("deal too short", "deals[0] must be a list of 5 values",
     edited(setitem(("deals", 0), ["standard", 1, 0, "won"]))),
    ("deal variant", "deals[0][0] must be a variant name, not 'chess'",
     edited(setitem(("deals", 0, 0), "chess"))),
    ("deal number", "deals[0][1] must be a deal number from 0 to 4294967295, not 4294967296",
     edited(setitem(("deals", 0, 1), MAX_DEAL))),
    ("negative deal", "deals[0][1] must be a deal number", edited(setitem(("deals", 0, 1), -1))),
    ("bool deal", "deals[0][1] must be a deal number", edited(setitem(("deals", 0, 1), True))),
    ("deal start", "deals[2][2] must be a whole number >= 0",
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
    ("two unsettled", "more than one game is unsettled in 'deals' (strict/3 and standard/4)",
     edited(setitem(("deals", 2, 3), "playing"))),
    ("no history", "'history' is missing", edited(delitem(("history",)))),
    ("history text", "'history' must be a list, not 'abc'", edited(setitem(("history",), "abc"))),
    ("history row", "history[0] must be a list of 4 values",
     edited(setitem(("history", 0), [1, "standard", 1]))),
    ("history time", "history[0][0] must be a whole number >= 0, not -1",
     edited(setitem(("history", 0, 0), -1))),
    ("history variant", "history[1][1] must be a variant name, not None",
     edited(setitem(("history", 1, 1), None))),
    ("history deal", "history[1][2] must be a deal number",
     edited(setitem(("history", 1, 2), 1.5))),
    ("history result", "history[2][3] must be one of 'won', 'assisted', 'lost', not 'playing'",
     edited(setitem(("history", 2, 3), "playing"))),
    ("too many deals", f"'deals' holds {DEAL_MEMORY + 1} deals, more than {DEAL_MEMORY}",
     edited(lambda d: d["deals"].extend(
         [["standard", n, 0, "lost", False] for n in range(10, DEAL_MEMORY + 7)]))),
    ("too many settlements", f"'history' holds {HISTORY_SIZE + 1} games, more than",
     edited(lambda d: d["history"].extend([[0, "standard", 1, "lost"]] * (HISTORY_SIZE - 2)))),
    ("more wins than played", "'standard' has more wins (4) than games played (3)",
     edited(setitem(("variants", "standard", "won"), 3))),
    ("streak over best", "'standard' has a streak (3) longer than its best (2)",
     edited(setitem(("variants", "standard", "streak"), 3))),
    ("best over wins", "'strict' has a best streak (1) longer than its wins (0)",
     edited(setitem(("variants", "strict", "best_streak"), 1))),
    ("fastest without clean win", "'strict' has a fastest win but no clean win",
     edited(setitem(("variants", "strict", "fastest_ms"), 10))),
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
     edited(lambda d: d["history"].append([30_000, "strict", 5, "lost"]))),
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
        Stats.from_json_text(text)
    assert message in str(info.value)


def test_the_best_streak_case_is_otherwise_valid():
    """The corrupted case changes one number: with the right one it is readable."""
    data = json.loads(sample().to_json_text())
    best_streak_case(data, 3)
    stats = Stats.from_json_text(json.dumps(data))
    assert (stats.summary("standard").streak, stats.summary("standard").best_streak) == (0, 3)


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
    assert stats == Stats()
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
    assert stats == Stats()
    assert notice is not None
    assert "Your statistics could not be read: they have an unknown format version (7)" in notice
    assert storage.writes == [
        (STATS_KEY + ".unreadable", '{"version": 7}'),
        (STATS_KEY, Stats().to_json_text()),
    ]
    assert storage.data["nestor.game"] == "kept"
    assert storage.data["other"] == "x"


# ---- the chart ---------------------------------------------------------------------------


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def bars(root: ET.Element) -> list[ET.Element]:
    """The result bars: rects with a tooltip."""
    return [r for r in root.iter(SVG + "rect") if r.find(SVG + "title") is not None]


def games(*kinds: str) -> list[Settlement]:
    return [Settlement(i * 1000, "standard", i, kind) for i, kind in enumerate(kinds)]


def test_chart_is_an_accessible_svg():
    svg = chart_svg(games("won", "lost", "assisted", "won"), 300, 100)
    root = parse(svg)
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert (root.get("width"), root.get("height")) == ("300", "100")
    label = root.get("aria-label")
    assert label == (
        "Recent games: 4 games: 2 won, 1 won with help, 1 lost; win rate 75%."
    )
    assert root[0].tag == SVG + "title"
    assert root[0].text == label
    assert not re.search(r"href|url\(|<image|<script|<foreignObject", svg)


def test_chart_bars_differ_in_colour_and_height():
    root = parse(chart_svg(games("won", "assisted", "lost")))
    drawn = bars(root)
    assert [b.findtext(SVG + "title") for b in drawn] == [
        "standard 0: won", "standard 1: won with help", "standard 2: lost",
    ]
    assert [b.get("fill") for b in drawn] == [
        CHART_COLOURS["won"], CHART_COLOURS["assisted"], CHART_COLOURS["lost"],
    ]
    heights = [float(b.get("height", "0")) for b in drawn]
    assert heights[0] > heights[1] > heights[2] > 0
    # Left to right, oldest first, bars standing on the same baseline.
    xs = [float(b.get("x", "0")) for b in drawn]
    assert xs == sorted(xs)
    bottoms = {round(float(b.get("y", "0")) + float(b.get("height", "0")), 1) for b in drawn}
    assert len(bottoms) == 1


def test_chart_rate_line_runs_through_the_running_win_rate():
    root = parse(chart_svg(games("won", "lost", "lost", "won"), 300, 100))
    line = root.find(SVG + "polyline")
    assert line is not None
    ys = [float(p.split(",")[1]) for p in line.get("points", "").split()]
    assert len(ys) == 4
    # rates 1, 1/2, 1/3, 1/2: higher rate means smaller y
    assert ys[0] < ys[1] < ys[2]
    assert ys[1] == pytest.approx(ys[3])
    full, half = ys[0], ys[1]
    zero = full + 2 * (half - full)
    assert ys[2] == pytest.approx(zero - (zero - full) / 3, abs=0.1)


def test_chart_escapes_text():
    nasty = "<b>&\"'\x00\x1b]"
    svg = chart_svg(
        [Settlement(0, "standard", 1, "won")],
        title=nasty,
        labels={"won": "gagné <&>", "rate": "taux \"x\""},
    )
    root = parse(svg)
    assert root.get("aria-label", "").startswith("<b>&\"']: 1 games: 1 gagné <&>")
    assert "taux \"x\" 100%" in root.get("aria-label", "")
    assert "<b>" not in svg
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "gagné <&>" in texts


def test_chart_without_games():
    root = parse(chart_svg([], title="Standard"))
    assert root.get("aria-label") == "Standard: no games yet."
    assert bars(root) == []
    assert root.find(SVG + "polyline") is None
    assert "no games yet" in [t.text for t in root.iter(SVG + "text")]


def test_chart_with_many_games_stays_in_bounds():
    kinds = ["won", "lost", "assisted"] * 200
    root = parse(chart_svg(games(*kinds), 320, 120))
    drawn = bars(root)
    assert len(drawn) == 600
    for b in drawn:
        x, w = float(b.get("x", "0")), float(b.get("width", "0"))
        assert x >= 0 and x + w <= 320 + 1e-6


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"width": 50}, "width"),
        ({"height": 10}, "height"),
        ({"width": 300.5}, "width"),
        ({"labels": {"win": "x"}}, "unknown chart label 'win'"),
    ],
)
def test_chart_refuses_bad_arguments(kwargs: dict[str, Any], message: str):
    with pytest.raises(NestorError, match=re.escape(message)):
        chart_svg(games("won"), **kwargs)


def test_chart_refuses_an_unknown_result():
    with pytest.raises(NestorError, match="a chart result"):
        chart_svg(games("won", "draw"))


def test_chart_of_real_history():
    stats = sample()
    root = parse(chart_svg(stats.history("standard"), title="Standard"))
    assert root.get("aria-label") == (
        "Standard: 2 games: 1 won, 1 won with help, 0 lost; win rate 100%."
    )


# ---- properties --------------------------------------------------------------------------

VARIANT_NAMES = ("standard", "strict")


@dataclass
class Model:
    """A slow, obvious model of the rules, for deals that are never forgotten."""

    played: set[tuple[str, int]] = field(default_factory=set)
    helped: set[tuple[str, int]] = field(default_factory=set)
    wins: dict[tuple[str, int], str] = field(default_factory=dict)
    lost: set[tuple[str, int]] = field(default_factory=set)
    start: dict[tuple[str, int], int] = field(default_factory=dict)
    times: dict[str, list[int]] = field(default_factory=dict)
    settled: list[tuple[int, str, int, str]] = field(default_factory=list)
    current: tuple[str, int] | None = None

    def settle_current(self, now: int) -> None:
        key = self.current
        if key is not None and key not in self.wins and key not in self.lost:
            self.lost.add(key)
            self.settled.append((now, key[0], key[1], "lost"))
        self.current = None

    def move(self, key: tuple[str, int], now: int, won: bool, assisted: bool, first: bool):
        if key != self.current:
            self.settle_current(now)
        if key not in self.played:
            self.played.add(key)
            self.current = key
        if key in self.wins:
            return
        if assisted:
            self.helped.add(key)
        if first:
            self.start[key] = now
        if won:
            result = "assisted" if key in self.helped else "won"
            self.wins[key] = result
            self.settled.append((now, key[0], key[1], result))
            if result == "won" and key in self.start and now >= self.start[key]:
                self.times.setdefault(key[0], []).append(now - self.start[key])
            self.current = None

    def leave(self, key: tuple[str, int], now: int) -> None:
        if key == self.current:
            self.settle_current(now)

    def summary(self, variant: str) -> VariantStats:
        played = sum(1 for v, _ in self.played if v == variant)
        won = sum(1 for (v, _), r in self.wins.items() if v == variant and r == "won")
        helped = sum(1 for (v, _), r in self.wins.items() if v == variant and r == "assisted")
        runs = [0]
        for _, v, _, result in self.settled:
            if v == variant:
                runs.append(runs[-1] + 1 if result != "lost" else 0)
        times = self.times.get(variant)
        return VariantStats(
            played, won, helped, (won + helped) / played if played else None,
            runs[-1], max(runs), min(times) if times else None,
        )


clock = st.integers(0, 5_000) | st.integers(-50, -1)  # the clock may even go back a little
step = st.one_of(
    st.tuples(
        st.just("move"), st.sampled_from(VARIANT_NAMES), st.integers(0, 3),
        clock, st.booleans(), st.booleans(), st.booleans(),
    ),
    st.tuples(st.just("leave"), st.sampled_from(VARIANT_NAMES), st.integers(0, 3),
              clock),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(step, max_size=60))
def test_random_play_keeps_the_invariants_and_matches_a_model(steps: list[tuple[Any, ...]]):
    stats, model = Stats(), Model()
    now = 1_000
    for op in steps:
        now = max(0, now + op[3])
        key = (op[1], op[2])
        before = stats.to_json_text()
        if op[0] == "move":
            _, variant, deal, _, won, assisted, first = op
            changed = stats.record_move(variant, deal, now, won=won, assisted=assisted,
                                        first=first)
            model.move(key, now, won, assisted, first)
        else:
            changed = stats.leave(op[1], op[2], now)
            model.leave(key, now)
        assert changed == (stats.to_json_text() != before)
        for variant in VARIANT_NAMES:
            s = stats.summary(variant)
            assert min(s.played, s.won, s.won_assisted, s.streak, s.best_streak) >= 0
            assert s.won + s.won_assisted <= s.played
            assert s.streak <= s.best_streak <= s.won + s.won_assisted
            assert s.fastest_ms is None or s.fastest_ms >= 0
            assert s.win_rate is None or 0 <= s.win_rate <= 1
            assert s == model.summary(variant)
        again = Stats.from_json_text(stats.to_json_text())
        assert again == stats
        assert again.to_json_text() == stats.to_json_text()
    assert [(s.time_ms, s.variant, s.deal, s.result) for s in stats.history(last=1000)] == (
        model.settled
    )
    chart = parse(chart_svg(stats.history(last=100)))
    assert len(bars(chart)) == len(model.settled)


def test_chart_legend_shrinks_to_fit_a_narrow_chart():
    def legend_sizes(width: int) -> set[str]:
        root = parse(chart_svg(games("won"), width, 80))
        return {t.get("font-size", "") for t in root.iter(SVG + "text") if t.get("font-size")}

    assert legend_sizes(400) == {"10"}
    (narrow,) = legend_sizes(120)
    assert 5 <= float(narrow) < 10

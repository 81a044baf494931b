"""Statistics rules (nestor_web.app.statistics): played, won, lost, streaks, the
fastest win, caps, and the plain data a codec stores (snapshot and restore)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from stats_games import move, play

from nestor import MAX_DEAL, DealNumberError, NestorError, VariantError
from nestor_web.app.ranges import LONGEST_MS, SHORTEST_WIN_MS
from nestor_web.app.statistics.data import (
    DEAL_MEMORY,
    DEAL_STATES,
    HISTORY_SIZE,
    RESULTS,
    DealEntry,
    Settlement,
    StatsData,
    VariantCounts,
)
from nestor_web.app.statistics.record import Stats


def results(stats: Stats, variant: str | None = None) -> list[str]:
    return [s.result for s in stats.history(variant, last=HISTORY_SIZE)]


# ---- played ------------------------------------------------------------------------------


def test_empty_stats():
    stats = Stats()
    assert stats.summary("standard") == VariantCounts(0, 0, 0, 0, 0, None)
    assert stats.summary("standard").win_rate is None
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
    assert summary.won == summary.won_with_help == 0


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
    assert (summary.played, summary.won, summary.won_with_help) == (1, 1, 0)
    assert stats.history() == [Settlement(3_500, "standard", 3, "won")]
    assert stats.playing() is None
    assert stats.deal_result("standard", 3) == "won"


def test_undoing_out_of_a_win_and_winning_again_counts_one_win():
    stats = Stats()
    move(stats, 3, 1_000, first=True)
    move(stats, 3, 2_000, won=True, elapsed=8_000)
    assert move(stats, 3, 3_000) is False  # undo, then another move
    assert move(stats, 3, 4_000, won=True) is False  # won again
    assert move(stats, 3, 5_000, won=True, helped=True) is False  # and with help
    assert move(stats, 3, 6_000, won=True, first=True) is False  # replayed to a win
    summary = stats.summary("standard")
    assert (summary.played, summary.won, summary.won_with_help) == (1, 1, 0)
    assert summary.streak == 1
    assert summary.fastest_ms == 8_000
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
    move(stats, 1, 2_000, won=True, helped=True)
    summary = stats.summary("standard")
    assert (summary.won, summary.won_with_help) == (0, 1)
    assert summary.win_rate == 1.0
    assert summary.fastest_ms is None  # only clean wins are timed
    assert results(stats) == ["assisted"]
    assert stats.deal_result("standard", 1) == "assisted"


def test_help_used_earlier_in_the_deal_makes_the_win_assisted():
    stats = Stats()
    move(stats, 1, 1_000, first=True)
    move(stats, 1, 2_000, helped=True)  # a hint was shown before this move
    move(stats, 1, 3_000, first=True)  # restart: the help is not washed away
    move(stats, 1, 4_000, won=True, helped=False)
    assert stats.summary("standard").won_with_help == 1
    assert stats.summary("standard").won == 0


def test_the_first_win_decides_clean_or_assisted():
    stats = Stats()
    move(stats, 1, 1_000, first=True, won=True)
    move(stats, 1, 2_000, helped=True)
    move(stats, 1, 3_000, won=True, helped=True)
    summary = stats.summary("standard")
    assert (summary.won, summary.won_with_help) == (1, 0)


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
    move(stats, 7, 0, first=True, helped=True)
    stats.leave("standard", 7, 1_000)
    move(stats, 7, 2_000, first=True, won=True)
    assert stats.summary("standard").won_with_help == 1


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


def test_a_win_is_timed_by_the_game_timer_not_the_computer_clock():
    # The clock set back before the last pair: the timer said 6.8 s, the statistics kept
    # 385 ms (the clock's difference). Then a clock set forward: a day by the clock.
    stats = Stats()
    move(stats, 1, 1_000_000, first=True)
    move(stats, 1, 1_000_385, won=True, elapsed=6_800)  # 385 ms later by the clock
    assert stats.summary("standard").fastest_ms == 6_800
    move(stats, 2, 2_000_000, first=True)
    move(stats, 2, 2_000_000 + 86_400_000, won=True, elapsed=6_000)
    assert stats.summary("standard").fastest_ms == 6_000
    move(stats, 3, 3_000_000, first=True)
    move(stats, 3, 2_000_000, won=True, elapsed=5_500)  # the clock went back a long way
    assert stats.summary("standard").fastest_ms == 5_500


def test_a_win_without_a_seen_start_a_timer_or_a_plausible_time_is_not_timed():
    stats = Stats()
    move(stats, 1, 5_000)  # resumed mid-game: when it started is unknown
    move(stats, 1, 6_000, won=True, elapsed=1_000)
    move(stats, 2, 10_000, first=True)
    move(stats, 2, 11_000, won=True)  # no timer given
    move(stats, 3, 20_000, first=True)
    move(stats, 3, 21_000, won=True, elapsed=LONGEST_MS + 1)  # more than a century
    move(stats, 4, 30_000, first=True)
    move(stats, 4, 31_000, won=True, elapsed=-1)
    move(stats, 5, 40_000, first=True, won=True, elapsed=SHORTEST_WIN_MS - 1)  # no hand's pace
    summary = stats.summary("standard")
    assert summary.won == 5
    assert summary.fastest_ms is None
    move(stats, 6, 50_000, first=True, won=True, elapsed=SHORTEST_WIN_MS)  # the floor: kept
    assert stats.summary("standard").fastest_ms == SHORTEST_WIN_MS
    move(stats, 7, 60_000, first=True)
    move(stats, 7, 61_000, won=True, elapsed=LONGEST_MS)  # a century: kept, not faster
    assert stats.summary("standard").fastest_ms == SHORTEST_WIN_MS


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
    for bad, code in ((-1, "number.too_small"), (True, "number.not_whole"),
                      (1.5, "number.not_whole"), ("3", "number.not_whole")):
        with pytest.raises(NestorError, match=r"^last ") as info:
            stats.history(last=bad)  # type: ignore[arg-type]
        assert (info.value.code, info.value.details["where"]) == (code, "last")
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
    Stats.restore(stats.snapshot())  # still consistent
    stats.reset()
    assert stats == Stats()
    with pytest.raises(VariantError):
        stats.reset("nope")


@pytest.mark.parametrize(
    ("args", "error", "message", "code"),
    [
        (("nope", 1, 0), VariantError, "nope", "variant.unknown"),
        (("standard", -1, 0), DealNumberError, "deal -1 is out of range: use 0 to 4294967295",
         "deal.range"),
        (("standard", MAX_DEAL, 0), DealNumberError, f"deal {MAX_DEAL} is out of range",
         "deal.range"),
        (("standard", True, 0), DealNumberError, "deal must be a whole number, not a boolean",
         "deal.not_whole"),
        (("standard", "12", 0), DealNumberError, "deal must be a whole number, not str",
         "deal.not_whole"),
        (("standard", 1, -5), NestorError, "now_ms -5 is out of range: use 0 or more",
         "number.too_small"),
        (("standard", 1, 1.5), NestorError, "now_ms must be a whole number, not float",
         "number.not_whole"),
        (("standard", 1, False), NestorError, "now_ms must be a whole number, not a boolean",
         "number.not_whole"),
    ],
)
def test_bad_arguments_are_refused(
    args: tuple[Any, ...], error: type, message: str, code: str
):
    stats = Stats()
    with pytest.raises(error, match=re.escape(message)) as info:
        stats.record_move(*args, won=False, helped=False, first=True)
    assert info.value.code == code
    with pytest.raises(error, match=re.escape(message)) as info:
        stats.leave(*args)
    assert info.value.code == code
    with pytest.raises(error, match=re.escape(message)):
        stats.record_move(*args, won=True, helped=True, first=False)
    assert stats == Stats()
    if not code.startswith("number."):  # a bad variant or deal: asking about it is refused too
        with pytest.raises(error, match=re.escape(message)):
            stats.deal_result(*args[:2])


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
    assert Stats.restore(stats.snapshot()) == stats


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
    assert len(stats.snapshot().deals) == DEAL_MEMORY
    assert stats.deal_result("standard", 0) is None
    assert stats.deal_result("standard", 1) is None
    assert stats.deal_result("standard", 2) == "lost"
    assert stats.summary("standard").played == last + 1
    assert Stats.restore(stats.snapshot()) == stats
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


# ---- as plain data: snapshot and restore -------------------------------------------------


def sample() -> Stats:
    stats = Stats()
    play(stats, 1, 1_000, "won", duration=5_000)
    play(stats, 2, 10_000, "assisted")
    play(stats, 3, 20_000, "lost", variant="strict")
    move(stats, 4, 30_000, first=True, helped=True)
    return stats


def test_snapshot_holds_everything_and_restore_gives_it_back():
    stats = sample()
    data = stats.snapshot()
    assert data == StatsData(
        counts={
            "standard": VariantCounts(3, 1, 1, 2, 2, 5_000),
            "strict": VariantCounts(1, 0, 0, 0, 0, None),
        },
        deals=(
            DealEntry("standard", 1, 1_000, "won", False),
            DealEntry("standard", 2, 10_000, "assisted", True),
            DealEntry("strict", 3, 20_000, "lost", False),
            DealEntry("standard", 4, 30_000, "playing", True),
        ),
        history=(
            Settlement(6_000, "standard", 1, "won"),
            Settlement(11_000, "standard", 2, "assisted"),
            Settlement(21_000, "strict", 3, "lost"),
        ),
    )
    again = Stats.restore(data)
    assert again == stats
    assert again.snapshot() == data
    assert again.summary("standard") == stats.summary("standard")
    assert again.playing() == ("standard", 4)
    assert Stats.restore(Stats().snapshot()) == Stats()
    assert Stats().snapshot() == StatsData({}, (), ())
    assert stats != Stats()
    assert stats != "not stats"
    assert "Stats.restore(StatsData(" in repr(stats)


def test_the_snapshot_is_not_the_live_state():
    stats = sample()
    data = stats.snapshot()
    with pytest.raises(TypeError):
        data.counts["standard"] = VariantCounts()  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.deals[0].state = "lost"  # type: ignore[misc]
    play(stats, 5, 40_000, "won")
    assert data.counts["standard"].played == 3
    assert len(data.history) == 3
    restored = Stats.restore(data)
    play(restored, 6, 50_000, "lost")
    assert stats.snapshot() != restored.snapshot()
    assert Stats.restore(data).snapshot() == data  # restoring does not share the data


def test_restored_statistics_keep_playing_by_the_rules():
    stats = Stats.restore(sample().snapshot())
    move(stats, 9, 40_000, first=True)  # settles the unsettled standard/4 as lost
    assert [s.deal for s in stats.history()] == [1, 2, 3, 4]
    assert stats.summary("standard").streak == 0
    move(stats, 1, 50_000, won=True)  # already won: nothing
    assert stats.summary("standard").won == 1
    assert Settlement(0, "standard", 1, "won").is_win
    assert Settlement(0, "standard", 1, "assisted").is_win
    assert not Settlement(0, "standard", 1, "lost").is_win


def changed(data: StatsData, **parts: Any) -> StatsData:
    """``data`` with some counts replaced (``counts_<variant>=dict(...)``) or other parts."""
    counts = dict(data.counts)
    for key in [k for k in parts if k.startswith("counts_")]:
        name = key.removeprefix("counts_")
        counts[name] = dataclasses.replace(counts[name], **parts.pop(key))
    return dataclasses.replace(data, counts=counts, **parts)


def with_deal(data: StatsData, i: int, **fields: Any) -> StatsData:
    deals = list(data.deals)
    deals[i] = dataclasses.replace(deals[i], **fields)
    return dataclasses.replace(data, deals=tuple(deals))


BASE = sample().snapshot()
REFUSED = [
    ("too many deals", f"'deals' holds {DEAL_MEMORY + 1} deals, more than {DEAL_MEMORY}",
     changed(BASE, deals=BASE.deals + tuple(
         DealEntry("standard", n, 0, "lost", False) for n in range(10, DEAL_MEMORY + 7)))),
    ("too many settlements", f"'history' holds {HISTORY_SIZE + 1} games, more than",
     changed(BASE, history=BASE.history
             + (Settlement(0, "standard", 1, "lost"),) * (HISTORY_SIZE - 2))),
    ("clean win helped", "deals[0] is a 'won' deal with helped true",
     with_deal(BASE, 0, helped=True)),
    ("assisted win unhelped", "deals[1] is a 'assisted' deal with helped false",
     with_deal(BASE, 1, helped=False)),
    ("deal twice", "deal standard/1 is listed twice",
     changed(BASE, deals=BASE.deals[:1] + (DealEntry("standard", 1, 0, "won", False),)
             + BASE.deals[1:])),
    ("more wins than played", "'standard' has more wins (4) than games played (3)",
     changed(BASE, counts_standard={"won": 3})),
    ("streak over best", "'standard' has a streak (3) longer than its best (2)",
     changed(BASE, counts_standard={"streak": 3})),
    ("best over wins", "'strict' has a best streak (1) longer than its wins (0)",
     changed(BASE, counts_strict={"best_streak": 1})),
    ("fastest without clean win", "'strict' has a fastest win but no clean win",
     changed(BASE, counts_strict={"fastest_ms": 10})),
    ("deals not played", "'deals' holds 3 standard deals but only 2 were played",
     changed(BASE, counts_standard={"played": 2})),
    ("deals of a variant never counted", "'deals' holds 1 strict deals but only 0 were played",
     dataclasses.replace(BASE, counts={"standard": BASE.counts["standard"]})),
    ("deal wins not counted", "'standard' counts 0 clean wins but 'deals' or 'history' show 1",
     changed(BASE, counts_standard={"won": 0, "fastest_ms": None, "streak": 1,
                                    "best_streak": 1})),
    ("history wins not counted", "'standard' counts 0 wins with help but 'deals' or",
     changed(BASE, counts_standard={"won_with_help": 0, "streak": 1, "best_streak": 1})),
    ("history losses not played", "'history' holds 2 lost strict games but only 1",
     changed(BASE, history=BASE.history + (Settlement(30_000, "strict", 5, "lost"),))),
    ("streak after a loss", "'strict' has a streak of 1 but its history ends with 0 wins",
     changed(BASE, counts_strict={"played": 2, "won": 1, "streak": 1, "best_streak": 1})),
    ("streak shorter than history", "'standard' has a streak of 1 but its history ends with 2",
     changed(BASE, counts_standard={"streak": 1})),
]


@pytest.mark.parametrize(("data", "message"), [(d, m) for _, m, d in REFUSED],
                         ids=[name for name, _, _ in REFUSED])
def test_restore_refuses_numbers_that_break_the_rules(data: StatsData, message: str):
    with pytest.raises(NestorError) as info:
        Stats.restore(data)
    assert message in str(info.value)


def test_restore_refuses_a_best_streak_shorter_than_the_history_shows():
    def case(best: int) -> StatsData:
        """Standard's history: won, won with help, won, lost; ``best`` as its best streak."""
        history = sorted(
            BASE.history + (Settlement(12_000, "standard", 9, "won"),
                            Settlement(13_000, "standard", 10, "lost")),
            key=lambda s: s.time_ms,
        )
        return changed(
            BASE,
            counts_standard={"played": 5, "won": 2, "streak": 0, "best_streak": best},
            deals=tuple(d for d in BASE.deals if d.state != "playing"),
            history=tuple(history),
        )

    with pytest.raises(NestorError, match="'standard' has a best streak of 2 but its history"):
        Stats.restore(case(2))
    stats = Stats.restore(case(3))  # the same data with the right number is accepted
    assert (stats.summary("standard").streak, stats.summary("standard").best_streak) == (0, 3)


def test_restore_accepts_the_caps_exactly():
    stats = Stats()
    for deal in range(DEAL_MEMORY):
        move(stats, deal, deal, first=True)
    stats.leave("standard", DEAL_MEMORY - 1, DEAL_MEMORY)
    data = stats.snapshot()
    assert len(data.deals) == DEAL_MEMORY
    assert len(data.history) == HISTORY_SIZE
    assert Stats.restore(data) == stats


def test_states_and_results_name_every_kind():
    assert set(RESULTS) == {"won", "assisted", "lost"}
    assert set(DEAL_STATES) == {"playing", *RESULTS}


# ---- properties ------------------------------------------------------------------------


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

    def move(self, key: tuple[str, int], now: int, won: bool, helped: bool, first: bool,
             elapsed: int | None):
        if key != self.current:
            self.settle_current(now)
        if key not in self.played:
            self.played.add(key)
            self.current = key
        if key in self.wins:
            return
        if helped:
            self.helped.add(key)
        if first:
            self.start[key] = now
        if won:
            result = "assisted" if key in self.helped else "won"
            self.wins[key] = result
            self.settled.append((now, key[0], key[1], result))
            if (result == "won" and key in self.start and elapsed is not None
                    and SHORTEST_WIN_MS <= elapsed <= LONGEST_MS):
                self.times.setdefault(key[0], []).append(elapsed)
            self.current = None

    def leave(self, key: tuple[str, int], now: int) -> None:
        if key == self.current:
            self.settle_current(now)

    def summary(self, variant: str) -> tuple[VariantCounts, float | None]:
        played = sum(1 for v, _ in self.played if v == variant)
        won = sum(1 for (v, _), r in self.wins.items() if v == variant and r == "won")
        helped = sum(1 for (v, _), r in self.wins.items() if v == variant and r == "assisted")
        runs = [0]
        for _, v, _, result in self.settled:
            if v == variant:
                runs.append(runs[-1] + 1 if result != "lost" else 0)
        times = self.times.get(variant)
        counts = VariantCounts(
            played, won, helped, runs[-1], max(runs), min(times) if times else None
        )
        return counts, (won + helped) / played if played else None


clock = st.integers(0, 5_000) | st.integers(-50, -1)  # the clock may even go back a little
timer = (  # the game's timer at the move: the win's time, if any and in range
    st.none() | st.integers(-2, 100_000) | st.integers(LONGEST_MS - 2, LONGEST_MS + 2)
)
step = st.one_of(
    st.tuples(
        st.just("move"), st.sampled_from(VARIANT_NAMES), st.integers(0, 3),
        clock, st.booleans(), st.booleans(), st.booleans(), timer,
    ),
    st.tuples(st.just("leave"), st.sampled_from(VARIANT_NAMES), st.integers(0, 3),
              clock),
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(step, max_size=60))
def test_random_play_keeps_the_invariants_and_matches_a_model(steps: list[tuple[Any, ...]]):
    stats, model = Stats(), Model()
    now = 1_000
    for op in steps:
        now = max(0, now + op[3])
        key = (op[1], op[2])
        before = stats.snapshot()
        if op[0] == "move":
            _, variant, deal, _, won, assisted, first, elapsed = op
            changed = stats.record_move(variant, deal, now, won=won, helped=assisted,
                                        first=first, elapsed_ms=elapsed)
            model.move(key, now, won, assisted, first, elapsed)
        else:
            changed = stats.leave(op[1], op[2], now)
            model.leave(key, now)
        assert changed == (stats.snapshot() != before)
        for variant in VARIANT_NAMES:
            s = stats.summary(variant)
            assert min(s.played, s.won, s.won_with_help, s.streak, s.best_streak) >= 0
            assert s.won + s.won_with_help <= s.played
            assert s.streak <= s.best_streak <= s.won + s.won_with_help
            assert s.fastest_ms is None or s.fastest_ms >= SHORTEST_WIN_MS
            assert s.win_rate is None or 0 <= s.win_rate <= 1
            assert (s, s.win_rate) == model.summary(variant)
        again = Stats.restore(stats.snapshot())
        assert again == stats
        assert again.snapshot() == stats.snapshot()
    assert [(s.time_ms, s.variant, s.deal, s.result) for s in stats.history(last=1000)] == (
        model.settled
    )


def test_restore_takes_several_unsettled_deals_one_per_tab_the_last_changed_is_this_tabs():
    stats = Stats.restore(with_deal(BASE, 2, state="playing"))
    assert stats.deal_result("strict", 3) == "playing"
    assert stats.playing() == ("standard", 4)

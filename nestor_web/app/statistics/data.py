"""The statistics as plain data: the caps, the types stored and shown, and the checks of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from nestor import MAX_DEAL, DealNumberError, NestorError, get_variant
from nestor.checks import whole_number

HISTORY_SIZE = 500  # settlements kept, all variants together (the oldest go first)
DEAL_MEMORY = 5000  # deals remembered, all variants together (the least recently changed go)
DAILY_MEMORY = 1000  # dates won of the daily deal kept (the oldest go; the best streak stays)

RESULTS = ("won", "assisted", "lost")  # a settlement: a clean win, a win with help, a loss
DEAL_STATES = ("playing", "lost", "won", "assisted")  # a deal remembered: unsettled, or settled
WINS = ("won", "assisted")

Key = tuple[str, int]  # a deal: (variant name, deal number)


@dataclass(frozen=True)
class DailyStats:
    """The daily deal's record as shown: dates won (of those kept), the streak ending today or
    yesterday, the longest ever."""

    won_today: bool
    days_won: int
    streak: int
    best_streak: int


@dataclass(frozen=True)
class DailyRecord:
    """The daily deal's record as stored: the dates won, oldest first, the longest run ever, when
    it was last reset (ms since 1970)."""

    won: tuple[date, ...] = ()
    best_streak: int = 0
    reset_ms: int | None = None


@dataclass(frozen=True)
class Settlement:
    """One settled game: when (ms since 1970), which deal, which of :data:`RESULTS`; ``taken_back``:
    a loss undone, or a deal's second win merged from another tab (it counts for nothing)."""

    time_ms: int
    variant: str
    deal: int
    result: str
    taken_back: bool = False

    @property
    def is_win(self) -> bool:
        return self.result in WINS

    @property
    def key(self) -> tuple[int, str, int, str]:
        """What names the settlement when two tabs' histories merge."""
        return self.time_ms, self.variant, self.deal, self.result


@dataclass(frozen=True)
class VariantCounts:
    """The counters of one variant: deals ``played`` (from their first move), clean wins, wins
    with help, wins in a row (with help or not), the fastest clean win by the game's timer."""

    played: int = 0
    won: int = 0
    won_with_help: int = 0
    streak: int = 0
    best_streak: int = 0
    fastest_ms: int | None = None

    @property
    def win_rate(self) -> float | None:
        """All wins / ``played``; ``None`` when nothing was played."""
        return (self.won + self.won_with_help) / self.played if self.played else None


NO_COUNTS = VariantCounts()


@dataclass(frozen=True)
class DealEntry:
    """What is remembered of one deal: when its attempt started (ms since 1970, if seen), its
    state (:data:`DEAL_STATES`), whether help was used."""

    variant: str
    deal: int
    start_ms: int | None
    state: str
    helped: bool


@dataclass(frozen=True)
class StatsData:
    """Everything a :class:`~.record.Stats` holds, as stored: the counters by variant, the deals
    least recently changed first, the settlements oldest first, the resets, the daily record."""

    counts: Mapping[str, VariantCounts]
    deals: tuple[DealEntry, ...]
    history: tuple[Settlement, ...]
    resets: Mapping[str, int] = field(default_factory=dict)
    daily: DailyRecord = DailyRecord()


def check_key(variant: str, deal: int) -> Key:
    """``(variant's name, deal)``; raises VariantError or DealNumberError on a bad one."""
    name = get_variant(variant).name
    return name, whole_number(deal, "deal", high=MAX_DEAL - 1, code="deal", error=DealNumberError)


def win_runs(history: Iterable[Settlement], name: str) -> list[int]:
    """Wins in a row after each settlement of variant ``name`` (none taken back), from ``[0]``."""
    runs = [0]
    for s in history:
        if s.variant == name and not s.taken_back:
            runs.append(runs[-1] + 1 if s.is_win else 0)
    return runs


def recount_streak(runs: Sequence[int], streak: int, best: int) -> tuple[int, int]:
    """The streak and best from a variant's ``runs`` (:func:`win_runs`): the last run if a loss
    starts it, else the longer of it and ``streak`` (older than the history); best >= ``best``."""
    run = runs[-1]
    closed = run < len(runs) - 1
    current = run if closed else max(run, streak)
    return current, max(best, max(runs), current)


STATS_CODES: dict[str, tuple[str, ...]] = {
    "stats.wins": ("variant", "wins", "played"),  # more wins than games played
    "stats.streak": ("variant", "streak", "best"),  # a streak longer than the best
    "stats.best_streak": ("variant", "best", "wins"),  # a best streak longer than the wins
    "stats.daily_streak": ("best", "days"),  # a best daily streak longer than the days
}
"""The codes of the checks that name their numbers, and their details (``days``: from
:data:`nestor.daily.FIRST_DAY` through the last date won, 0 with none)."""

_KIND_NAMES = {"won": "clean wins", "assisted": "wins with help"}


def check_entries(data: StatsData) -> None:
    """NestorError on more deals or settlements than the caps, a won deal whose ``helped``
    contradicts its kind, or a deal listed twice."""
    if len(data.deals) > DEAL_MEMORY:
        raise NestorError(f"'deals' holds {len(data.deals)} deals, more than {DEAL_MEMORY}")
    if len(data.history) > HISTORY_SIZE:
        raise NestorError(f"'history' holds {len(data.history)} games, more than {HISTORY_SIZE}")
    seen: set[Key] = set()
    for i, e in enumerate(data.deals):
        if e.helped != (e.state == "assisted") and e.state in WINS:
            raise NestorError(
                f"deals[{i}] is a {e.state!r} deal with helped {str(e.helped).lower()}"
            )
        if (e.variant, e.deal) in seen:
            raise NestorError(f"deal {e.variant}/{e.deal} is listed twice in 'deals'")
        seen.add((e.variant, e.deal))


def check_consistency(
    counts: Mapping[str, VariantCounts],
    deals: Iterable[DealEntry],
    history: Sequence[Settlement],
) -> None:
    """NestorError on counts that contradict each other, the deals or the history."""
    for name, c in counts.items():
        wins = c.won + c.won_with_help
        if wins > c.played:
            raise NestorError(
                f"{name!r} has more wins ({wins}) than games played ({c.played})",
                code="stats.wins", variant=name, wins=wins, played=c.played,
            )
        if c.streak > c.best_streak:
            raise NestorError(
                f"{name!r} has a streak ({c.streak}) longer than its best ({c.best_streak})",
                code="stats.streak", variant=name, streak=c.streak, best=c.best_streak,
            )
        if c.best_streak > wins:
            raise NestorError(
                f"{name!r} has a best streak ({c.best_streak}) longer than its wins ({wins})",
                code="stats.best_streak", variant=name, best=c.best_streak, wins=wins,
            )
        if c.fastest_ms is not None and c.won == 0:
            raise NestorError(f"{name!r} has a fastest win but no clean win")
    states_of: dict[str, list[str]] = {}
    for e in deals:
        states_of.setdefault(e.variant, []).append(e.state)
    for name in set(states_of) | {s.variant for s in history}:
        _check_variant(name, counts.get(name, NO_COUNTS), states_of.get(name, []), history)


def _check_variant(
    name: str, c: VariantCounts, states: list[str], history: Sequence[Settlement]
) -> None:
    if len(states) > c.played:
        raise NestorError(
            f"'deals' holds {len(states)} {name} deals but only {c.played} were played"
        )
    results = [s.result for s in history if s.variant == name and not s.taken_back]
    for kind, count in (("won", c.won), ("assisted", c.won_with_help)):
        seen = max(states.count(kind), results.count(kind))
        if seen > count:
            raise NestorError(
                f"{name!r} counts {count} {_KIND_NAMES[kind]} but 'deals' or 'history' show {seen}"
            )
    losses = results.count("lost")
    if losses > c.played:
        raise NestorError(
            f"'history' holds {losses} lost {name} games but only {c.played} were played"
        )
    runs = win_runs(history, name)
    run = runs[-1]
    if max(runs) > c.best_streak:
        raise NestorError(
            f"{name!r} has a best streak of {c.best_streak} but its history holds "
            f"{max(runs)} wins in a row"
        )
    ended = run < len(results)  # the run is closed by a loss in the history
    if (ended and c.streak != run) or c.streak < run:
        raise NestorError(
            f"{name!r} has a streak of {c.streak} but its history ends with {run} wins in a row"
        )

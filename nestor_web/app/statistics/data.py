"""The statistics as plain data: the caps, the types stored and shown, and the checks of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from nestor import MAX_DEAL, DealNumberError, NestorError, get_variant
from nestor.checks import whole_number

HISTORY_SIZE = 500
"""Most settlements kept in the history (all variants together); the oldest go first."""

DEAL_MEMORY = 5000
"""Most deals remembered (all variants together); the least recently changed go first."""

DAILY_MEMORY = 1000
"""Most dates won of the daily deal kept; the oldest go first (the best daily streak stays)."""

RESULTS = ("won", "assisted", "lost")
"""Settlement results: a clean win, a win with help, a loss."""

DEAL_STATES = ("playing", "lost", "won", "assisted")
"""What is remembered of a deal: played and unsettled (one deal per tab), or how it settled."""

WINS = ("won", "assisted")
"""The results (and deal states) that are wins."""

Key = tuple[str, int]
"""A deal: ``(variant name, deal number)``."""


@dataclass(frozen=True)
class DailyStats:
    """The daily deal's record, as shown to the player: dates won (of those kept), dates won in a
    row ending today or yesterday, the longest such run ever."""

    won_today: bool
    days_won: int
    streak: int
    best_streak: int


@dataclass(frozen=True)
class DailyRecord:
    """The daily deal's record as stored: the dates won, oldest first (at most
    :data:`DAILY_MEMORY`), the longest run ever, when it was last reset (ms since 1970)."""

    won: tuple[date, ...] = ()
    best_streak: int = 0
    reset_ms: int | None = None


@dataclass(frozen=True)
class Settlement:
    """One settled game in the history: when (ms since 1970), which deal, which of :data:`RESULTS`;
    ``taken_back``: a loss undone, or a second win of a deal merged from another tab (kept, but it
    counts for nothing)."""

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
    """The counters kept for one variant.

    Attributes:
        played: games (deals) played, each counted once from its first move.
        won_with_help: games won after any help (not in ``won``).
        streak: games won in a row, with help or not, at the end of the history.
        fastest_ms: the fastest clean win by the game's timer, or ``None``.
    """

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
"""The counters of a variant never counted."""


@dataclass(frozen=True)
class DealEntry:
    """What is remembered of one deal: when its current attempt started (ms since 1970; ``None``
    if not seen), one of :data:`DEAL_STATES`, and whether help was used in it."""

    variant: str
    deal: int
    start_ms: int | None
    state: str
    helped: bool


@dataclass(frozen=True)
class StatsData:
    """Everything a :class:`~.record.Stats` holds, as stored: the counters by variant, the deals
    least recently changed first, the settlements oldest first, when each variant was last reset
    (ms since 1970), the daily deal's record."""

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
    """The runs of wins through the history of variant ``name`` (results taken back left out):
    ``runs[i]`` wins in a row after its ``i``-th settlement, ``runs[0] == 0``."""
    runs = [0]
    for s in history:
        if s.variant == name and not s.taken_back:
            runs.append(runs[-1] + 1 if s.is_win else 0)
    return runs


def recount_streak(runs: Sequence[int], streak: int, best: int) -> tuple[int, int]:
    """The current and best streak from a variant's ``runs`` (:func:`win_runs`): where the run at
    its end goes back to a loss it is the streak, else the streak is the longer of that run and
    ``streak`` (it may reach back past the oldest settlement kept); the best is at least ``best``.
    """
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
"""The codes of the checks that name their numbers, and the names of their details (``variant``: a
variant's name; ``days``: the days from :data:`nestor.daily.FIRST_DAY` through the last date won of
the daily deal, 0 with none won)."""

_KIND_NAMES = {"won": "clean wins", "assisted": "wins with help"}


def check_entries(data: StatsData) -> None:
    """Raise NestorError on more deals or settlements than the caps, a won deal whose ``helped``
    contradicts its kind, or a deal listed twice."""
    if len(data.deals) > DEAL_MEMORY:
        raise NestorError(f"'deals' holds {len(data.deals)} deals, more than {DEAL_MEMORY}")
    if len(data.history) > HISTORY_SIZE:
        raise NestorError(f"'history' holds {len(data.history)} games, more than {HISTORY_SIZE}")
    for i, e in enumerate(data.deals):
        if e.helped != (e.state == "assisted") and e.state in WINS:
            raise NestorError(
                f"deals[{i}] is a {e.state!r} deal with helped {str(e.helped).lower()}"
            )
    seen: set[Key] = set()
    for e in data.deals:
        if (e.variant, e.deal) in seen:
            raise NestorError(f"deal {e.variant}/{e.deal} is listed twice in 'deals'")
        seen.add((e.variant, e.deal))


def check_consistency(
    counts: Mapping[str, VariantCounts],
    deals: Iterable[DealEntry],
    history: Sequence[Settlement],
) -> None:
    """Raise NestorError on counts that contradict each other, the deals or the history."""
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
    """Refuse counts ``c`` of variant ``name`` that its deals or the history contradict."""
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

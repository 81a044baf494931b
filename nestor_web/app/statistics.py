"""Statistics per variant: games played and won, streaks, the fastest win.

The rules only: no words, no storage format. The session keeps one
:class:`Stats`, tells it about every move in effect (:meth:`Stats.record_move`)
and every change of deal (:meth:`Stats.leave`), and has it saved whenever one of
those returns ``True``. A codec saves :meth:`Stats.snapshot` (a plain
:class:`StatsData`) and reads it back with :meth:`Stats.restore`, which refuses
numbers that break the rules below.

Rules
-----

* A game is one deal, named by variant and deal number. It counts as
  **played** from its first move, once: restarting it, undoing, replaying it
  later or coming back to it from a link never counts it again.
* A game is **won** at its winning move (the move after which the position is
  won), at most once: undoing out of a won game and winning again counts
  nothing. That first win decides its kind: **clean**, or **with help** when a
  hint or Solve was used in the deal at any time before (the help is
  remembered per deal, so a restart does not wash it away). Wins with help
  are counted apart from clean wins; the win rate counts both.
* A game **settles** as won (clean or with help) at its winning move; as **lost** at
  its losing move (the move after which no legal move is left: ``lost=True``), or when
  the player moves on to another deal without having won it: :meth:`Stats.leave`, or
  implicitly the first move made in any other deal (so at most one game of a tab is ever
  unsettled). A restart keeps the same deal and settles nothing. Every settlement is
  appended to the history. A loss at the losing move is taken back when that move is
  undone (:meth:`Stats.take_back`: the game goes on, so it is not lost yet); a win is
  never taken back.
* A game left in progress in a tab that was closed settles as **lost** when the game is
  next opened with no other tab of it open (:meth:`Stats.settle_others`): closing the tab
  left it as surely as a new deal would have. While another tab is open, a page opened on
  another deal leaves the game stored by the tab that saved last unsettled: that tab may
  still be showing it.
* A game that settled as lost and is won later (the player came back to it,
  e.g. from a link) counts that win when it happens: its "lost" settlement
  stays in the history (it was a loss when the player left), a "won" or
  "assisted" one is appended, the win and the streak count it, and it is
  still played once. It cannot settle as lost a second time.
* **Streaks** count settlements per variant: the current streak is how many
  games in a row were won at the end of that variant's history, the best
  streak the longest such run ever. Wins with help count for streaks as
  clean wins do; only a loss ends a streak.
* The **fastest win** is the shortest time, in milliseconds, from the first
  move of an attempt to the winning move, over clean wins only. An attempt
  starts at any move that leaves exactly one move in effect (``first=True``:
  the deal's first move, or the first one after a restart or after undoing
  every move). A win whose attempt start was never seen (a game resumed
  from before statistics were kept) or whose clock ran backwards (the
  computer's clock was changed) sets no time.

The daily deal
--------------

* A **date is won** when the daily deal of that date (:mod:`nestor.daily`) is won on that
  date, the player's local date (:meth:`Stats.record_daily`, called by the session at the
  winning move; with help or without). A past date's deal played later, or another tab's
  game of the same deal, counts as an ordinary game of its variant only.
* The **daily streak** is how many dates in a row are won, ending today, or yesterday while
  today's deal is not won yet (a streak lives until a whole date passes without a win); the
  **best daily streak** the longest such run ever.
* The dates won are kept, the last :data:`DAILY_MEMORY` (1000) of them; the best daily
  streak is kept apart, so it outlives the dates it was made of.

Two tabs
--------

Two tabs of the game keep one statistics each and store them under one key, so each
merges the other's into its own (:meth:`Stats.merge`) before it saves again. The records
are keyed so that merging is a union that never loses a result:

* the deal memory by ``(variant, deal)``: a deal won in either tab is won (at most once:
  when the two won it in different kinds, the earlier win decides, the later one is
  taken back); a deal lost in either is lost, unless every loss of it was taken back;
  help used in either counts;
* the history by ``(time_ms, variant, deal, result)``, each settlement once, in time order
  (where both tabs settled one deal, what the rules allow once is kept once: a second win,
  a second loss, or a loss after the win is taken back);
* the dates won of the daily deal by date (a union), the best daily streak the longer one;
* the counters reconcile with the merged deal memory: each deal the merge adds, or whose
  state it changes, moves the counters by what that deal counts (played once, won or won
  with help once); the streaks are recounted from the merged history (and keep the longer
  stored streak where the history does not reach back to a loss); the fastest win is the
  faster of the two.

A result is never deleted: a loss taken back (:meth:`Stats.take_back`, undoing a
departure from a game) stays in the history, marked ``taken_back``, and counts for
nothing; merged with a tab that still has it as a loss, it stays taken back. Every tab
plays one deal, so the deal memory may hold one unsettled deal per tab; each tab's own
is :meth:`Stats.playing`. A reset (:meth:`Stats.reset` with ``now_ms``) is remembered per
variant: merging a tab that reset a variant later takes that tab's records of the
variant, not the union (what the other tab recorded in the instant before it learned of
the reset is dropped with the rest). A reset of everything resets the daily record too,
remembered the same way.

Caps
----

* The history keeps the last :data:`HISTORY_SIZE` (500) settlements, all
  variants together; older ones are dropped (their counts stay).
* Deal memory keeps the last :data:`DEAL_MEMORY` (5000) deals changed (first
  move, attempt restarted, help used, settled), all variants together. A
  forgotten deal is a new game if it is played again: it would be counted as
  played, and could be won, once more. The unsettled game is never the one
  forgotten (any other deal's change settles it first).

Times are milliseconds since the Unix epoch (``Date.now()``), whole numbers >= 0.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from types import MappingProxyType

from nestor import MAX_DEAL, VARIANTS, DealNumberError, NestorError, get_variant
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

_WINS = ("won", "assisted")


@dataclass(frozen=True)
class VariantStats:
    """The statistics of one variant, as shown to the player.

    Attributes:
        played: games (deals) played, each counted once from its first move.
        won: games won without help.
        won_with_help: games won after a hint or Solve (not in ``won``).
        win_rate: ``(won + won_with_help) / played``, from 0 to 1; ``None``
            when nothing was played.
        streak: games won in a row at the end of the history (wins with help
            count); 0 after a loss.
        best_streak: the longest such run ever.
        fastest_ms: the fastest clean win in milliseconds (first move of the
            attempt to the winning move), or ``None`` if there is none.
    """

    played: int
    won: int
    won_with_help: int
    win_rate: float | None
    streak: int
    best_streak: int
    fastest_ms: int | None


@dataclass(frozen=True)
class DailyStats:
    """The daily deal's record, as shown to the player (see the module's "The daily deal").

    Attributes:
        won_today: today's daily deal is won.
        days_won: dates won (of the last :data:`DAILY_MEMORY` kept).
        streak: dates won in a row, ending today or yesterday; else 0.
        best_streak: the longest such run ever.
    """

    won_today: bool
    days_won: int
    streak: int
    best_streak: int


@dataclass(frozen=True)
class DailyRecord:
    """The daily deal's record as plain values (what a codec stores).

    Attributes:
        won: the dates won, oldest first, each once (at most :data:`DAILY_MEMORY`).
        best_streak: the longest run of dates won ever (at least the longest run in ``won``).
        reset_ms: when the daily record was last reset (ms since the Unix epoch), or ``None``.
    """

    won: tuple[date, ...] = ()
    best_streak: int = 0
    reset_ms: int | None = None


@dataclass(frozen=True)
class Settlement:
    """One settled game in the history.

    Attributes:
        time_ms: when it settled (milliseconds since the Unix epoch).
        variant: variant name.
        deal: deal number.
        result: ``"won"`` (clean), ``"assisted"`` (won with help) or ``"lost"``.
        taken_back: the result was taken back (a loss undone, or a second win of a deal
            merged from another tab): kept, but it counts for nothing.
    """

    time_ms: int
    variant: str
    deal: int
    result: str
    taken_back: bool = False

    @property
    def is_win(self) -> bool:
        """``True`` for ``"won"`` and ``"assisted"`` (wins count for streaks and the rate)."""
        return self.result in _WINS

    @property
    def key(self) -> tuple[int, str, int, str]:
        """What names the settlement when two tabs' histories merge."""
        return self.time_ms, self.variant, self.deal, self.result


@dataclass(frozen=True)
class VariantCounts:
    """The counters kept for one variant (see :class:`VariantStats` for each one)."""

    played: int = 0
    won: int = 0
    won_with_help: int = 0
    streak: int = 0
    best_streak: int = 0
    fastest_ms: int | None = None


@dataclass(frozen=True)
class DealEntry:
    """What is remembered of one deal.

    Attributes:
        variant: variant name.
        deal: deal number.
        start_ms: when its current attempt started (milliseconds since the
            Unix epoch), or ``None`` if that was never seen.
        state: one of :data:`DEAL_STATES`.
        helped: a hint or Solve was used in the deal (``True`` for every
            ``"assisted"`` deal, ``False`` for every ``"won"`` one).
    """

    variant: str
    deal: int
    start_ms: int | None
    state: str
    helped: bool


@dataclass(frozen=True)
class StatsData:
    """Everything a :class:`Stats` holds, as plain values (what a codec stores).

    Attributes:
        counts: the counters of every variant played, by variant name, in the
            order the variants were first counted.
        deals: the deal memory, least recently changed first (at most
            :data:`DEAL_MEMORY`).
        history: the settlements, oldest first (at most :data:`HISTORY_SIZE`).
        resets: when each variant's statistics were last reset (milliseconds since the
            Unix epoch), for variants reset since resets were remembered.
        daily: the daily deal's record.
    """

    counts: Mapping[str, VariantCounts]
    deals: tuple[DealEntry, ...]
    history: tuple[Settlement, ...]
    resets: Mapping[str, int] = field(default_factory=dict)
    daily: DailyRecord = DailyRecord()


@dataclass
class _Counts:
    played: int = 0
    won: int = 0
    won_with_help: int = 0
    streak: int = 0
    best_streak: int = 0
    fastest_ms: int | None = None


@dataclass
class _Deal:
    start_ms: int | None
    state: str
    helped: bool


_Key = tuple[str, int]


class Stats:
    """The statistics of every variant, and the memory of deals behind them.

    Start empty with ``Stats()`` or from saved data with :meth:`restore`.
    The recording methods return ``True`` when something changed: save
    :meth:`snapshot` then (most moves change nothing).
    """

    def __init__(self) -> None:
        self._counts: dict[str, _Counts] = {}
        self._deals: OrderedDict[_Key, _Deal] = OrderedDict()
        self._history: list[Settlement] = []
        self._playing: _Key | None = None
        self._resets: dict[str, int] = {}
        self._daily: set[date] = set()
        self._daily_best = 0
        self._daily_reset: int | None = None

    # ---- recording ---------------------------------------------------------------------

    def record_move(
        self,
        variant: str,
        deal: int,
        now_ms: int,
        *,
        won: bool,
        helped: bool,
        first: bool,
        lost: bool = False,
    ) -> bool:
        """Count a move made (or redone) in ``variant``/``deal`` at time ``now_ms``.

        Call after every move that is in effect, including Solve's moves.

        Args:
            variant: variant name.
            deal: deal number.
            now_ms: the time, in milliseconds since the Unix epoch.
            won: the position after the move is won.
            helped: a hint or Solve was used in this deal (``Session.help.used``).
            first: the move leaves exactly one move in effect (``game.cursor == 1``):
                it starts an attempt, and the clock of the fastest win.
            lost: the position after the move is lost (no legal move is left): an
                unsettled game settles as lost at once.

        Returns:
            ``True`` if the statistics changed (save them).

        Raises:
            VariantError: unknown variant. DealNumberError: ``deal`` is not an
            ``int`` from 0 to ``MAX_DEAL - 1`` (codes ``deal.not_whole``,
            ``deal.range``). NestorError: ``now_ms`` is not a whole number >= 0
            (codes ``number.not_whole``, ``number.too_small``; ``where``: ``"now_ms"``).
        """
        key = _check_key(variant, deal)
        whole_number(now_ms, "now_ms")
        changed = False
        if self._playing is not None and self._playing != key:
            changed = self._settle(self._playing, "lost", now_ms)
        entry = self._deals.get(key)
        if entry is None:
            entry = _Deal(None, "playing", False)
            self._deals[key] = entry
            self._count(key[0]).played += 1
            self._playing = key
            changed = True
        if entry.state in _WINS:
            return changed
        before = (entry.start_ms, entry.helped)
        if first:
            entry.start_ms = now_ms
        entry.helped = entry.helped or bool(helped)
        if won:
            self._win(key, entry, now_ms)
            changed = True
        elif lost and entry.state == "playing":
            self._settle(key, "lost", now_ms)
            changed = True
        elif (entry.start_ms, entry.helped) != before:
            changed = True
        if changed:
            self._touch(key)
        return changed

    def leave(self, variant: str, deal: int, now_ms: int) -> bool:
        """The player moved on from ``variant``/``deal`` to another deal at ``now_ms``.

        An unsettled game (played, not won) settles as lost; anything else is
        left as it is. Call it before the other deal starts, also when no move
        will follow (a move in another deal would settle the game too).

        Returns:
            ``True`` if the statistics changed (save them).

        Raises:
            VariantError, DealNumberError, NestorError: as :meth:`record_move`.
        """
        key = _check_key(variant, deal)
        whole_number(now_ms, "now_ms")
        if self._playing != key:
            return False
        return self._settle(key, "lost", now_ms)

    def claim(self, variant: str, deal: int) -> None:
        """The tab shows ``variant``/``deal``: if it is unsettled (another tab made its first
        move, and this tab took that in), it is this tab's unsettled game, which leaving it
        settles.

        Raises:
            VariantError, DealNumberError: as :meth:`record_move`.
        """
        key = _check_key(variant, deal)
        entry = self._deals.get(key)
        if entry is not None and entry.state == "playing":
            self._playing = key

    def settle_others(self, variant: str, deal: int, now_ms: int) -> bool:
        """Settle as lost, at ``now_ms``, every unsettled deal but ``variant``/``deal``: games
        left in progress in tabs that are closed (the page calls it when it is the only tab
        open). ``variant``/``deal``, if unsettled, becomes this tab's unsettled game.

        Returns:
            ``True`` if the statistics changed (save them).

        Raises:
            VariantError, DealNumberError, NestorError: as :meth:`record_move`.
        """
        key = _check_key(variant, deal)
        whole_number(now_ms, "now_ms")
        left = [k for k, e in self._deals.items() if e.state == "playing" and k != key]
        for other in left:
            self._settle(other, "lost", now_ms)
        mine = self._deals.get(key)
        self._playing = key if mine is not None and mine.state == "playing" else None
        return bool(left)

    def reset(self, variant: str | None = None, now_ms: int | None = None) -> None:
        """Forget everything, or with ``variant`` only that variant's counts,
        deals and history.

        With ``now_ms`` (the time, ms since 1970) the reset is remembered, so that a merge
        with another tab's older records does not bring them back (see the module's
        "Two tabs").

        Raises:
            VariantError: unknown variant. NestorError: ``now_ms`` is not a whole
            number >= 0.
        """
        names = list(VARIANTS) if variant is None else [get_variant(variant).name]
        if now_ms is not None:
            whole_number(now_ms, "now_ms")
            for name in names:
                self._resets[name] = max(now_ms, self._resets.get(name, 0))
        for name in names:
            self._drop(name)
        if variant is None:
            self._daily.clear()
            self._daily_best = 0
            if now_ms is not None:
                self._daily_reset = max(now_ms, self._daily_reset or 0)

    def record_daily(self, day: date) -> bool:
        """The daily deal of ``day`` was won on ``day`` (the caller checks both): ``day`` is
        a date won. Returns ``True`` if that is news (save), ``False`` if it was won before.
        """
        if day in self._daily:
            return False
        self._daily.add(day)
        self._trim_daily()
        return True

    def daily_summary(self, today: date) -> DailyStats:
        """The daily deal's record on the date ``today`` (see the module's "The daily deal")."""
        anchor = today if today in self._daily else today - timedelta(days=1)
        streak = 0
        while anchor - timedelta(days=streak) in self._daily:
            streak += 1
        return DailyStats(today in self._daily, len(self._daily), streak, self._daily_best)

    def _trim_daily(self) -> None:
        """Keep the best daily streak up to date, then the last :data:`DAILY_MEMORY` dates."""
        self._daily_best = max(self._daily_best, _longest_run(self._daily))
        if len(self._daily) > DAILY_MEMORY:
            self._daily = set(sorted(self._daily)[-DAILY_MEMORY:])

    def _merge_daily(self, other: Stats) -> None:
        """The union of the daily records (a later reset in either tab wins, as for a
        variant's records)."""
        mine, theirs = self._daily_reset or -1, other._daily_reset or -1
        if theirs > mine:
            self._daily, self._daily_best = set(other._daily), other._daily_best
            self._daily_reset = other._daily_reset
        elif theirs == mine:
            self._daily |= other._daily
            self._daily_best = max(self._daily_best, other._daily_best)
            self._trim_daily()

    def _drop(self, name: str) -> None:
        """Forget the counts, deals and history of variant ``name``."""
        self._counts.pop(name, None)
        for key in [k for k in self._deals if k[0] == name]:
            del self._deals[key]
        self._history = [s for s in self._history if s.variant != name]
        if self._playing is not None and self._playing[0] == name:
            self._playing = None

    def take_back(self, variant: str, deal: int) -> bool:
        """Take back the loss ``variant``/``deal`` last settled with (the player undid its
        losing move, or leaving it): the deal is unsettled again, and this tab's game.

        The loss stays in the history, marked taken back (it counts for nothing: the
        streaks are recounted without it), so that a merge with a tab that still has it
        as a loss keeps it taken back.

        Returns:
            ``True`` if something changed (save); ``False`` when the deal's last
            settlement is not a loss, or another deal is this tab's unsettled game.

        Raises:
            VariantError, DealNumberError: as :meth:`record_move`.
        """
        key = _check_key(variant, deal)
        entry = self._deals.get(key)
        if entry is None or entry.state != "lost" or self._playing not in (None, key):
            return False
        for i in range(len(self._history) - 1, -1, -1):
            s = self._history[i]
            if (s.variant, s.deal) == key and not s.taken_back:
                if s.result != "lost":
                    return False
                self._history[i] = replace(s, taken_back=True)
                break
        entry.state = "playing"
        self._playing = key
        counts = self._count(key[0])
        counts.streak, counts.best_streak = self._recount_streak(
            key[0], counts.streak, counts.best_streak
        )
        self._touch(key)
        return True

    def merge(self, other: Stats) -> bool:
        """Take in what another tab recorded (see the module's "Two tabs"): afterwards this
        holds every result of both. ``other`` is not changed; this tab's unsettled game
        stays its own (unless ``other`` settled it).

        Returns:
            ``True`` if anything changed here.
        """
        before = self._content()
        mine_floors = {n: self._streak_floors(n) for n in self._counts}
        names = list(dict.fromkeys([
            *self._counts, *other._counts, *(k[0] for k in self._deals),
            *(k[0] for k in other._deals), *(s.variant for s in other._history),
            *self._resets, *other._resets,
        ]))
        adopt = [n for n in names if other._resets.get(n, -1) > self._resets.get(n, -1)]
        union = {n for n in names if other._resets.get(n, -1) == self._resets.get(n, -1)}
        # The rest: this tab reset them later, the other's records of them are older.
        for name in adopt:
            self._drop(name)
            self._resets[name] = other._resets[name]
            if name in other._counts:
                self._counts[name] = replace(other._counts[name])
            for key, e in other._deals.items():
                if key[0] == name:
                    self._deals[key] = _Deal(e.start_ms, e.state, e.helped)
            self._history.extend(s for s in other._history if s.variant == name)
        history = {s.key: s for s in self._history}
        for s in other._history:
            if s.variant in union:
                known = history.get(s.key)
                history[s.key] = s if known is None else replace(
                    known, taken_back=known.taken_back or s.taken_back
                )
        merged = sorted(history.values(), key=lambda s: s.key)
        losses: dict[_Key, bool] = {}  # deal -> every loss of it in the history taken back
        for s in merged:
            if s.result == "lost":
                key = (s.variant, s.deal)
                losses[key] = losses.get(key, True) and s.taken_back
        old: dict[_Key, str | None] = {}  # the deals the merge adds or changes: state before
        for key, e in other._deals.items():
            if key[0] not in union:
                continue
            here = self._deals.get(key)
            if here is None:
                self._deals[key] = _Deal(e.start_ms, e.state, e.helped)
                old[key] = None
                continue
            if (here.start_ms, here.state, here.helped) == (e.start_ms, e.state, e.helped):
                continue  # the same in both tabs (most deals)
            starts = [t for t in (here.start_ms, e.start_ms) if t is not None]
            here.start_ms = max(starts) if starts else None
            here.helped = here.helped or e.helped
            state = _merged_state(here.state, e.state, losses.get(key, False))
            if state != here.state:
                old.setdefault(key, here.state)
                here.state = state
        # A deal is won once, and lost once before it is won (unless that loss was taken
        # back): what both tabs settled again of one deal is taken back.
        first_win: dict[_Key, str] = {}
        lost: set[_Key] = set()
        for i, s in enumerate(merged):
            if s.taken_back:
                continue
            key = (s.variant, s.deal)
            if key in first_win or (not s.is_win and key in lost):
                merged[i] = replace(s, taken_back=True)
            elif s.is_win:
                first_win[key] = s.result
            else:
                lost.add(key)
        for key, kind in first_win.items():
            entry = self._deals.get(key)
            if key[0] in union and entry is not None and entry.state in _WINS:
                if entry.state != kind:
                    old.setdefault(key, entry.state)
                    entry.state = kind
                entry.helped = kind == "assisted"
        self._history = merged[-HISTORY_SIZE:]
        # The counters move by what each deal the merge added or changed counts.
        for name in union:
            keys = [k for k in old if k[0] == name]
            theirs = other._counts.get(name)
            if not keys and theirs is None and name not in self._counts:
                continue
            c = self._count(name)
            for key in keys:
                now = self._deals.get(key)
                new = _contribution(None if now is None else now.state)
                was = _contribution(old[key])
                c.played = max(0, c.played + new[0] - was[0])
                c.won = max(0, c.won + new[1] - was[1])
                c.won_with_help = max(0, c.won_with_help + new[2] - was[2])
            if theirs is not None and theirs.fastest_ms is not None and (
                c.fastest_ms is None or theirs.fastest_ms < c.fastest_ms
            ):
                c.fastest_ms = theirs.fastest_ms
            if c.won == 0:
                c.fastest_ms = None
            floors = [mine_floors[name]] if name in mine_floors else []
            if theirs is not None:
                floors.append(other._streak_floors(name))
            c.streak, c.best_streak = self._recount_streak(
                name, max((f[0] for f in floors), default=0), max((f[1] for f in floors), default=0)
            )
        while len(self._deals) > DEAL_MEMORY:
            self._deals.popitem(last=False)
        if self._playing is not None:
            mine = self._deals.get(self._playing)
            if mine is None or mine.state != "playing":
                self._playing = None
        self._merge_daily(other)
        return self._content() != before

    def _runs(self, name: str) -> list[int]:
        """The runs of wins through the history of variant ``name`` (results taken back left
        out): ``runs[i]`` wins in a row after its ``i``-th settlement, ``runs[0] == 0``."""
        runs = [0]
        for s in self._history:
            if s.variant == name and not s.taken_back:
                runs.append(runs[-1] + 1 if s.is_win else 0)
        return runs

    def _streak_floors(self, name: str) -> tuple[int, int]:
        """What of the streak and best streak of variant ``name`` its history does not show
        (they reach back past the oldest settlement kept): that streak or 0, that best or 0."""
        c = self._counts.get(name, _Counts())
        runs = self._runs(name)
        return (c.streak if c.streak > runs[-1] else 0,
                c.best_streak if c.best_streak > max(runs) else 0)

    def _recount_streak(self, name: str, streak: int, best: int) -> tuple[int, int]:
        """The current and best streak of variant ``name`` from its history (results taken
        back left out): where the run at its end goes back to a loss it is the streak, else
        the streak is the longer of that run and ``streak``; the best is at least ``best``.
        """
        runs = self._runs(name)
        run = runs[-1]
        closed = run < len(runs) - 1
        current = run if closed else max(run, streak)
        return current, max(best, max(runs), current)

    def _content(self) -> object:
        """Everything held, in an order-free form (what :meth:`merge` compares: dicts compare
        without their order)."""
        return (
            {n: (c.played, c.won, c.won_with_help, c.streak, c.best_streak, c.fastest_ms)
             for n, c in self._counts.items()},
            {k: (e.start_ms, e.state, e.helped) for k, e in self._deals.items()},
            tuple(self._history),
            dict(self._resets),
            self._playing,
            (frozenset(self._daily), self._daily_best, self._daily_reset),
        )

    # ---- reading -----------------------------------------------------------------------

    def summary(self, variant: str) -> VariantStats:
        """The statistics of ``variant`` (all zero if it was never played).

        Raises:
            VariantError: unknown variant.
        """
        c = self._counts.get(get_variant(variant).name, _Counts())
        wins = c.won + c.won_with_help
        return VariantStats(
            played=c.played,
            won=c.won,
            won_with_help=c.won_with_help,
            win_rate=wins / c.played if c.played else None,
            streak=c.streak,
            best_streak=c.best_streak,
            fastest_ms=c.fastest_ms,
        )

    def history(
        self, variant: str | None = None, last: int = 50, taken_back: bool = False
    ) -> list[Settlement]:
        """The last ``last`` settlements, oldest first, of ``variant`` or of all variants;
        with ``taken_back``, the results taken back among them (else they are left out: they
        count for nothing, the chart does not show them).

        Raises:
            VariantError: unknown variant. NestorError: ``last`` is not a whole number
            >= 0 (codes ``number.not_whole``, ``number.too_small``).
        """
        whole_number(last, "last")
        name = None if variant is None else get_variant(variant).name
        chosen = [
            s for s in self._history
            if (name is None or s.variant == name) and (taken_back or not s.taken_back)
        ]
        return chosen[max(0, len(chosen) - last) :]

    def playing(self) -> tuple[str, int] | None:
        """The unsettled game, ``(variant, deal)``, or ``None``."""
        return self._playing

    def deal_result(self, variant: str, deal: int) -> str | None:
        """What is remembered of a deal: ``"playing"``, ``"lost"``, ``"won"``,
        ``"assisted"``, or ``None`` (never played, or forgotten).

        Raises:
            VariantError, DealNumberError: bad variant or deal number.
        """
        entry = self._deals.get(_check_key(variant, deal))
        return None if entry is None else entry.state

    # ---- as plain data -----------------------------------------------------------------

    def snapshot(self) -> StatsData:
        """Everything held, as plain values: :meth:`restore` gives back an equal ``Stats``."""
        return StatsData(
            counts=MappingProxyType(
                {
                    name: VariantCounts(
                        c.played, c.won, c.won_with_help, c.streak, c.best_streak, c.fastest_ms
                    )
                    for name, c in self._counts.items()
                }
            ),
            deals=tuple(
                DealEntry(v, d, e.start_ms, e.state, e.helped)
                for (v, d), e in self._deals.items()
            ),
            history=tuple(self._history),
            resets=MappingProxyType(dict(self._resets)),
            daily=DailyRecord(tuple(sorted(self._daily)), self._daily_best, self._daily_reset),
        )

    @classmethod
    def restore(cls, data: StatsData) -> Stats:
        """The statistics that :meth:`snapshot` gave ``data``, if the numbers keep the rules.

        Each field is taken to hold a value of its declared type and range (a
        codec checks them one by one: whole numbers >= 0, known variant names,
        deal numbers, states from :data:`DEAL_STATES`, results from
        :data:`RESULTS`); this checks what ties them together.

        Raises:
            NestorError: naming the problem: more entries than the caps, a won
                deal whose ``helped`` contradicts its kind, a deal listed
                twice, or counts that contradict each other or the deals and history.

        Several deals may be unsettled (one per tab that played); the most recently
        changed of them is this tab's (:meth:`playing`).
        """
        if len(data.deals) > DEAL_MEMORY:
            raise NestorError(f"'deals' holds {len(data.deals)} deals, more than {DEAL_MEMORY}")
        if len(data.history) > HISTORY_SIZE:
            raise NestorError(
                f"'history' holds {len(data.history)} games, more than {HISTORY_SIZE}"
            )
        for i, e in enumerate(data.deals):
            if e.helped != (e.state == "assisted") and e.state in _WINS:
                raise NestorError(
                    f"deals[{i}] is a {e.state!r} deal with helped {str(e.helped).lower()}"
                )
        stats = cls()
        stats._counts = {
            name: _Counts(
                c.played, c.won, c.won_with_help, c.streak, c.best_streak, c.fastest_ms
            )
            for name, c in data.counts.items()
        }
        for e in data.deals:
            key = (e.variant, e.deal)
            if key in stats._deals:
                raise NestorError(f"deal {key[0]}/{key[1]} is listed twice in 'deals'")
            if e.state == "playing":
                stats._playing = key
            stats._deals[key] = _Deal(e.start_ms, e.state, e.helped)
        stats._history = list(data.history)
        stats._resets = dict(data.resets)
        daily = data.daily
        if len(daily.won) > DAILY_MEMORY:
            raise NestorError(
                f"the daily record holds {len(daily.won)} dates, more than {DAILY_MEMORY}"
            )
        if len(set(daily.won)) != len(daily.won):
            raise NestorError("the daily record lists a date twice")
        if _longest_run(set(daily.won)) > daily.best_streak:
            raise NestorError(
                f"the daily record has a best streak of {daily.best_streak} but holds "
                f"{_longest_run(set(daily.won))} dates won in a row"
            )
        stats._daily, stats._daily_best = set(daily.won), daily.best_streak
        stats._daily_reset = daily.reset_ms
        stats._check_consistency()
        return stats

    def copy(self) -> Stats:
        """An equal ``Stats`` that changes apart from this one."""
        twin = Stats()
        twin._counts = {n: replace(c) for n, c in self._counts.items()}
        twin._deals = OrderedDict((k, replace(e)) for k, e in self._deals.items())
        twin._history = list(self._history)
        twin._playing = self._playing
        twin._resets = dict(self._resets)
        twin._daily, twin._daily_best = set(self._daily), self._daily_best
        twin._daily_reset = self._daily_reset
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stats):
            return NotImplemented
        return (
            self._counts == other._counts
            and list(self._deals.items()) == list(other._deals.items())
            and self._history == other._history
            and self._playing == other._playing
            and self._resets == other._resets
            and (self._daily, self._daily_best, self._daily_reset)
            == (other._daily, other._daily_best, other._daily_reset)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Stats.restore({self.snapshot()!r})"

    # ---- internals ---------------------------------------------------------------------

    def _count(self, variant: str) -> _Counts:
        return self._counts.setdefault(variant, _Counts())

    def _touch(self, key: _Key) -> None:
        """Mark ``key`` as the most recently changed deal; forget the oldest beyond the cap."""
        self._deals.move_to_end(key)
        while len(self._deals) > DEAL_MEMORY:
            self._deals.popitem(last=False)

    def _win(self, key: _Key, entry: _Deal, now_ms: int) -> None:
        counts = self._count(key[0])
        result = "assisted" if entry.helped else "won"
        if result == "won":
            counts.won += 1
            if entry.start_ms is not None and now_ms >= entry.start_ms:
                elapsed = now_ms - entry.start_ms
                if counts.fastest_ms is None or elapsed < counts.fastest_ms:
                    counts.fastest_ms = elapsed
        else:
            counts.won_with_help += 1
        self._settle(key, result, now_ms)

    def _settle(self, key: _Key, result: str, now_ms: int) -> bool:
        """Settle ``key`` with ``result``: deal state, streaks and history; ``True``.

        Callers make sure ``key`` is the unsettled game or a win of a lost one.
        """
        entry = self._deals[key]
        entry.state = result
        if self._playing == key:
            self._playing = None
        counts = self._count(key[0])
        if result in _WINS:
            counts.streak += 1
            counts.best_streak = max(counts.best_streak, counts.streak)
        else:
            counts.streak = 0
        self._history.append(Settlement(now_ms, key[0], key[1], result))
        del self._history[:-HISTORY_SIZE]
        self._touch(key)
        return True

    def _check_consistency(self) -> None:
        """Refuse counts that contradict each other, the deals or the history."""
        for name, c in self._counts.items():
            wins = c.won + c.won_with_help
            if wins > c.played:
                raise NestorError(
                    f"{name!r} has more wins ({wins}) than games played ({c.played})"
                )
            if c.streak > c.best_streak:
                raise NestorError(
                    f"{name!r} has a streak ({c.streak}) longer than its best ({c.best_streak})"
                )
            if c.best_streak > wins:
                raise NestorError(
                    f"{name!r} has a best streak ({c.best_streak}) longer than its wins ({wins})"
                )
            if c.fastest_ms is not None and c.won == 0:
                raise NestorError(f"{name!r} has a fastest win but no clean win")
        for name in {v for v, _deal in self._deals} | {s.variant for s in self._history}:
            c = self._counts.get(name, _Counts())
            states = [e.state for (v, _deal), e in self._deals.items() if v == name]
            if len(states) > c.played:
                raise NestorError(
                    f"'deals' holds {len(states)} {name} deals but only {c.played} were played"
                )
            results = [
                s.result for s in self._history if s.variant == name and not s.taken_back
            ]
            for kind, count in (("won", c.won), ("assisted", c.won_with_help)):
                seen = max(states.count(kind), results.count(kind))
                if seen > count:
                    raise NestorError(
                        f"{name!r} counts {count} {_KIND_NAMES[kind]} but 'deals' or "
                        f"'history' show {seen}"
                    )
            losses = results.count("lost")
            if losses > c.played:
                raise NestorError(
                    f"'history' holds {losses} lost {name} games but only {c.played} "
                    "were played"
                )
            runs = [0]
            for result in results:
                runs.append(runs[-1] + 1 if result in _WINS else 0)
            run = runs[-1]
            if max(runs) > c.best_streak:
                raise NestorError(
                    f"{name!r} has a best streak of {c.best_streak} but its history holds "
                    f"{max(runs)} wins in a row"
                )
            ended = run < len(results)  # the run is closed by a loss in the history
            if (ended and c.streak != run) or c.streak < run:
                raise NestorError(
                    f"{name!r} has a streak of {c.streak} but its history ends with "
                    f"{run} wins in a row"
                )


_KIND_NAMES = {"won": "clean wins", "assisted": "wins with help"}


def _contribution(state: str | None) -> tuple[int, int, int]:
    """What a deal in ``state`` counts: (played, clean wins, wins with help)."""
    if state is None:
        return 0, 0, 0
    return 1, int(state == "won"), int(state == "assisted")


def _merged_state(mine: str, theirs: str, taken_back: bool) -> str:
    """The state of a deal that is ``mine`` here and ``theirs`` in another tab: won in
    either is won (which kind is settled by the earlier win), lost in either is lost unless
    ``taken_back`` (the merged history holds losses of it, every one taken back)."""
    for state in (mine, theirs):
        if state in _WINS:
            return state
    if "lost" not in (mine, theirs):
        return "playing"
    if mine == theirs:
        return "lost"
    return "playing" if taken_back else "lost"


def _longest_run(days: set[date]) -> int:
    """The most dates in a row in ``days``."""
    best = 0
    for day in days:
        if day - timedelta(days=1) not in days:  # a run starts here
            length = 1
            while day + timedelta(days=length) in days:
                length += 1
            best = max(best, length)
    return best


def _check_key(variant: str, deal: int) -> _Key:
    """``(variant's name, deal)``; raises VariantError or DealNumberError.

    A deal number here is an ``int`` (not a text of digits, as
    :func:`nestor.check_deal_number` also takes), with its codes: ``deal.not_whole``,
    ``deal.range``.
    """
    name = get_variant(variant).name
    return name, whole_number(deal, "deal", high=MAX_DEAL - 1, code="deal", error=DealNumberError)

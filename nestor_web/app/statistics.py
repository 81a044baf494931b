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
* A game **settles** as won (clean or with help) at its winning move, or as
  **lost** when the player moves on to another deal without having won it:
  :meth:`Stats.leave`, or implicitly the first move made in any other deal
  (so at most one game is ever unsettled). A restart keeps the same deal and
  settles nothing. Every settlement is appended to the history.
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
from dataclasses import dataclass
from types import MappingProxyType

from nestor import MAX_DEAL, DealNumberError, NestorError, get_variant
from nestor.checks import whole_number

HISTORY_SIZE = 500
"""Most settlements kept in the history (all variants together); the oldest go first."""

DEAL_MEMORY = 5000
"""Most deals remembered (all variants together); the least recently changed go first."""

RESULTS = ("won", "assisted", "lost")
"""Settlement results: a clean win, a win with help, a loss."""

DEAL_STATES = ("playing", "lost", "won", "assisted")
"""What is remembered of a deal: played and unsettled (at most one deal), or how it settled."""

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
class Settlement:
    """One settled game in the history.

    Attributes:
        time_ms: when it settled (milliseconds since the Unix epoch).
        variant: variant name.
        deal: deal number.
        result: ``"won"`` (clean), ``"assisted"`` (won with help) or ``"lost"``.
    """

    time_ms: int
    variant: str
    deal: int
    result: str

    @property
    def is_win(self) -> bool:
        """``True`` for ``"won"`` and ``"assisted"`` (wins count for streaks and the rate)."""
        return self.result in _WINS


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
    """

    counts: Mapping[str, VariantCounts]
    deals: tuple[DealEntry, ...]
    history: tuple[Settlement, ...]


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
    ) -> bool:
        """Count a move made (or redone) in ``variant``/``deal`` at time ``now_ms``.

        Call after every move that is in effect, including Solve's moves.

        Args:
            variant: variant name.
            deal: deal number.
            now_ms: the time, in milliseconds since the Unix epoch.
            won: the position after the move is won.
            assisted: a hint or Solve was used in this deal (``Session.assisted``).
            first: the move leaves exactly one move in effect (``game.cursor == 1``):
                it starts an attempt, and the clock of the fastest win.

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

    def reset(self, variant: str | None = None) -> None:
        """Forget everything, or with ``variant`` only that variant's counts,
        deals and history.

        Raises:
            VariantError: unknown variant.
        """
        if variant is None:
            self._counts.clear()
            self._deals.clear()
            self._history.clear()
            self._playing = None
            return
        name = get_variant(variant).name
        self._counts.pop(name, None)
        for key in [k for k in self._deals if k[0] == name]:
            del self._deals[key]
        self._history = [s for s in self._history if s.variant != name]
        if self._playing is not None and self._playing[0] == name:
            self._playing = None

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

    def history(self, variant: str | None = None, last: int = 50) -> list[Settlement]:
        """The last ``last`` settlements, oldest first, of ``variant`` or of all variants.

        Raises:
            VariantError: unknown variant. NestorError: ``last`` is not a whole number
            >= 0 (codes ``number.not_whole``, ``number.too_small``).
        """
        whole_number(last, "last")
        name = None if variant is None else get_variant(variant).name
        chosen = [s for s in self._history if name is None or s.variant == name]
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
                twice, more than one unsettled game, or counts that contradict
                each other or the deals and history.
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
                if stats._playing is not None:
                    raise NestorError(
                        "more than one game is unsettled in 'deals' "
                        f"({stats._playing[0]}/{stats._playing[1]} and {key[0]}/{key[1]})"
                    )
                stats._playing = key
            stats._deals[key] = _Deal(e.start_ms, e.state, e.helped)
        stats._history = list(data.history)
        stats._check_consistency()
        return stats

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stats):
            return NotImplemented
        return (
            self._counts == other._counts
            and list(self._deals.items()) == list(other._deals.items())
            and self._history == other._history
            and self._playing == other._playing
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
            results = [s.result for s in self._history if s.variant == name]
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


def _check_key(variant: str, deal: int) -> _Key:
    """``(variant's name, deal)``; raises VariantError or DealNumberError.

    A deal number here is an ``int`` (not a text of digits, as
    :func:`nestor.check_deal_number` also takes), with its codes: ``deal.not_whole``,
    ``deal.range``.
    """
    name = get_variant(variant).name
    return name, whole_number(deal, "deal", high=MAX_DEAL - 1, code="deal", error=DealNumberError)

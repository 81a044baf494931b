"""What each move, departure, loss taken back and reset records: :class:`Stats`."""

from __future__ import annotations

from collections import OrderedDict
from copy import copy
from dataclasses import replace
from datetime import date
from types import MappingProxyType

from nestor import VARIANTS, get_variant
from nestor.checks import whole_number

from ..ranges import LONGEST_MS, SHORTEST_WIN_MS
from . import daily
from .data import (
    DEAL_MEMORY,
    HISTORY_SIZE,
    NO_COUNTS,
    WINS,
    DailyRecord,
    DailyStats,
    DealEntry,
    Key,
    Settlement,
    StatsData,
    VariantCounts,
    check_consistency,
    check_entries,
    check_key,
    recount_streak,
    win_runs,
)


class Stats:
    """The statistics of every variant, and the memory of deals behind them."""

    def __init__(self) -> None:
        self._counts: dict[str, VariantCounts] = {}
        self._deals: OrderedDict[Key, DealEntry] = OrderedDict()
        self._history: list[Settlement] = []
        self._playing: Key | None = None
        self._resets: dict[str, int] = {}
        self._daily = DailyRecord()

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
        elapsed_ms: int | None = None,
    ) -> bool:
        """Count a move made (or redone) in ``variant``/``deal`` at ``now_ms`` (NestorError)."""
        key = check_key(variant, deal)
        whole_number(now_ms, "now_ms")
        changed = False
        if self._playing is not None and self._playing != key:
            changed = self._settle(self._playing, "lost", now_ms)
        entry = self._deals.get(key)
        if entry is None:
            entry = DealEntry(key[0], key[1], now_ms if first else None, "playing", bool(helped))
            self._deals[key] = entry
            c = self._counts.get(key[0], NO_COUNTS)
            self._counts[key[0]] = replace(c, played=c.played + 1)
            self._playing = key
            changed = True
        if entry.state in WINS:
            return changed
        start = now_ms if first else entry.start_ms
        was_helped = entry.helped or bool(helped)
        if (start, was_helped) != (entry.start_ms, entry.helped):
            entry = self._deals[key] = replace(entry, start_ms=start, helped=was_helped)
            changed = True
        if won:  # with help, or clean: timed by the game's timer if its start was seen
            timed = SHORTEST_WIN_MS <= (elapsed_ms or 0) <= LONGEST_MS and not entry.helped
            elapsed = elapsed_ms if timed and entry.start_ms is not None else None
            self._settle(key, "assisted" if entry.helped else "won", now_ms, elapsed)
            changed = True
        elif lost and entry.state == "playing":
            self._settle(key, "lost", now_ms)
            changed = True
        if changed:
            self._touch(key)
        return changed

    def leave(self, variant: str, deal: int, now_ms: int) -> bool:
        """The player moved on from ``variant``/``deal`` at ``now_ms``."""
        key = check_key(variant, deal)
        whole_number(now_ms, "now_ms")
        if self._playing != key:
            return False
        return self._settle(key, "lost", now_ms)

    def claim(self, variant: str, deal: int) -> None:
        """The tab shows ``variant``/``deal``: if unsettled, it is this tab's game to settle."""
        key = check_key(variant, deal)
        if self._deal_state(key) == "playing":
            self._playing = key

    def settle_others(self, variant: str, deal: int, now_ms: int) -> bool:
        """Settle as lost every unsettled deal but ``variant``/``deal`` (the only tab open)."""
        key = check_key(variant, deal)
        whole_number(now_ms, "now_ms")
        left = [k for k, e in self._deals.items() if e.state == "playing" and k != key]
        for other in left:
            self._settle(other, "lost", now_ms)
        self._playing = key if self._deal_state(key) == "playing" else None
        return bool(left)

    def take_back(self, variant: str, deal: int) -> bool:
        """Take back the loss ``variant``/``deal`` last settled with (its losing move undone, or the
        game left came back): it is unsettled again, and this tab's."""
        key = check_key(variant, deal)
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
        self._deals[key] = replace(entry, state="playing")
        self._playing = key
        c = self._counts.get(key[0], NO_COUNTS)
        streak, best = recount_streak(win_runs(self._history, key[0]), c.streak, c.best_streak)
        self._counts[key[0]] = replace(c, streak=streak, best_streak=best)
        self._touch(key)
        return True

    def reset(self, variant: str | None = None, now_ms: int | None = None) -> None:
        """Forget everything, or one ``variant``'s; with ``now_ms``, remember when (for merges)."""
        names = list(VARIANTS) if variant is None else [get_variant(variant).name]
        if now_ms is not None:
            whole_number(now_ms, "now_ms")
            for name in names:
                self._resets[name] = max(now_ms, self._resets.get(name, 0))
        for name in names:
            self._drop(name)
        if variant is None:
            self._daily = daily.reset(self._daily, now_ms)

    def record_daily(self, day: date) -> bool:
        """The daily deal of ``day`` was won, started or finished on ``day``."""
        before, self._daily = self._daily, daily.with_day(self._daily, day)
        return self._daily is not before

    def merge(self, other: Stats) -> bool:
        """Take in what another tab recorded (every result of both)."""
        from . import merge as steps  # not needed at start-up: imported at the first merge

        before = self._content()
        floors = {n: steps.streak_floors(c, self._history, n) for n, c in self._counts.items()}
        names = dict.fromkeys([
            *self._counts, *other._counts, *(k[0] for k in self._deals),
            *(k[0] for k in other._deals), *(s.variant for s in other._history),
            *self._resets, *other._resets,
        ])
        later = [n for n in names if other._resets.get(n, -1) > self._resets.get(n, -1)]
        union = [n for n in names if other._resets.get(n, -1) == self._resets.get(n, -1)]
        for name in later:  # reset later there: adopted; reset at the same time, or never: united
            self._adopt(other, name)
        united = set(union)
        merged = steps.merged_history(self._history, other._history, united)
        losses = steps.losses_taken_back(merged)
        old = steps.merge_deals(self._deals, other._deals, united, losses)
        steps.apply_first_wins(self._deals, steps.settle_once(merged), united, old)
        self._history = merged[-HISTORY_SIZE:]
        for name in union:  # the counters move by what each deal added or changed counts
            keys = [k for k in old if k[0] == name]
            theirs = other._counts.get(name)
            if not keys and theirs is None and name not in self._counts:
                continue
            changes = [(old[k], self._deal_state(k)) for k in keys]
            both = [floors[name]] if name in floors else []
            if theirs is not None:
                both.append(steps.streak_floors(theirs, other._history, name))
            self._counts[name] = steps.reconciled(
                self._counts.get(name, NO_COUNTS), changes, theirs, both,
                win_runs(self._history, name),
            )
        while len(self._deals) > DEAL_MEMORY:
            self._deals.popitem(last=False)
        if self._playing is not None and self._deal_state(self._playing) != "playing":
            self._playing = None
        self._daily = daily.merged(self._daily, other._daily)
        return self._content() != before

    def summary(self, variant: str) -> VariantCounts:
        """The statistics of ``variant`` (all zero if it was never played)."""
        return self._counts.get(get_variant(variant).name, NO_COUNTS)

    def daily_summary(self, today: date) -> DailyStats:
        """The daily deal's record on ``today``."""
        return daily.summary(self._daily, today)

    def daily_run(self, day: date) -> int:
        """Dates won in a row ending on ``day``."""
        return daily.run_ending(self._daily, day)

    def daily_won(self, day: date) -> bool:
        """The daily deal of ``day`` is among the dates won."""
        return day in self._daily.won

    def history(
        self, variant: str | None = None, last: int = 50, taken_back: bool = False
    ) -> list[Settlement]:
        """The last ``last`` settlements of ``variant`` (or all), oldest first; with ``taken_back``,
        those taken back too."""
        whole_number(last, "last")
        name = None if variant is None else get_variant(variant).name
        chosen = [
            s for s in self._history
            if (name is None or s.variant == name) and (taken_back or not s.taken_back)
        ]
        return chosen[max(0, len(chosen) - last) :]

    def playing(self) -> tuple[str, int] | None:
        """The unsettled game, or ``None``."""
        return self._playing

    def deal_result(self, variant: str, deal: int) -> str | None:
        """What is remembered of a deal (one of :data:`DEAL_STATES`), or ``None``."""
        return self._deal_state(check_key(variant, deal))

    def deal_start(self, variant: str, deal: int) -> int | None:
        """When the attempt at a deal began (ms since 1970), or ``None`` if not known."""
        entry = self._deals.get(check_key(variant, deal))
        return None if entry is None else entry.start_ms

    def deal_states(self, variant: str) -> tuple[tuple[int, str], ...]:
        """``(deal, state)`` of ``variant``'s deals remembered, least recently changed first."""
        return tuple((e.deal, e.state) for (name, _), e in self._deals.items() if name == variant)

    def snapshot(self) -> StatsData:
        """Everything held, as plain values (:meth:`restore` gives back an equal ``Stats``)."""
        return StatsData(
            counts=MappingProxyType(dict(self._counts)),
            deals=tuple(self._deals.values()),
            history=tuple(self._history),
            resets=MappingProxyType(dict(self._resets)),
            daily=self._daily,
        )

    @classmethod
    def restore(cls, data: StatsData) -> Stats:
        """The statistics :meth:`snapshot` gave ``data``; NestorError if they break the rules."""
        check_entries(data)
        stats = cls()
        stats._counts = dict(data.counts)
        stats._deals = OrderedDict(((e.variant, e.deal), e) for e in data.deals)
        playing = [key for key, e in stats._deals.items() if e.state == "playing"]
        stats._playing = playing[-1] if playing else None
        stats._history = list(data.history)
        stats._resets = dict(data.resets)
        stats._daily = daily.restored(data.daily)
        check_consistency(stats._counts, stats._deals.values(), stats._history)
        return stats

    def copy(self) -> Stats:
        """An equal ``Stats`` that changes apart from this one."""
        twin = Stats()
        twin.__dict__ = {name: copy(value) for name, value in vars(self).items()}
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stats):
            return NotImplemented
        return self._content() == other._content() and list(self._deals) == list(other._deals)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Stats.restore({self.snapshot()!r})"

    def _deal_state(self, key: Key) -> str | None:
        entry = self._deals.get(key)
        return None if entry is None else entry.state

    def _touch(self, key: Key) -> None:
        self._deals.move_to_end(key)
        while len(self._deals) > DEAL_MEMORY:
            self._deals.popitem(last=False)

    def _settle(self, key: Key, result: str, now_ms: int, elapsed: int | None = None) -> bool:
        """Settle ``key`` with ``result`` (``elapsed``: a clean win's time); ``True``."""
        self._deals[key] = replace(self._deals[key], state=result)
        if self._playing == key:
            self._playing = None
        c = self._counts.get(key[0], NO_COUNTS)
        if result == "lost":
            c = replace(c, streak=0)
        else:
            streak = c.streak + 1
            c = replace(
                c, won=c.won + (result == "won"), won_with_help=c.won_with_help + (result != "won"),
                streak=streak, best_streak=max(c.best_streak, streak),
                fastest_ms=min((t for t in (c.fastest_ms, elapsed) if t is not None), default=None),
            )
        self._counts[key[0]] = c
        self._history.append(Settlement(now_ms, key[0], key[1], result))
        del self._history[:-HISTORY_SIZE]
        self._touch(key)
        return True

    def _drop(self, name: str) -> None:
        self._counts.pop(name, None)
        for key in [k for k in self._deals if k[0] == name]:
            del self._deals[key]
        self._history = [s for s in self._history if s.variant != name]
        if self._playing is not None and self._playing[0] == name:
            self._playing = None

    def _adopt(self, other: Stats, name: str) -> None:
        self._drop(name)
        self._resets[name] = other._resets[name]
        if name in other._counts:
            self._counts[name] = other._counts[name]
        self._deals.update((key, e) for key, e in other._deals.items() if key[0] == name)
        self._history.extend(s for s in other._history if s.variant == name)

    def _content(self) -> object:
        """Everything held but the deals' order (what :meth:`merge` compares)."""
        return (dict(self._counts), dict(self._deals), tuple(self._history), dict(self._resets),
                self._playing, self._daily)

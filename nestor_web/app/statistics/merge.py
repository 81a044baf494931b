"""The steps of :meth:`Stats.merge`: two tabs' statistics made one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import replace

from .data import WINS, DealEntry, Key, Settlement, VariantCounts, recount_streak, win_runs

Floors = tuple[int, int]  # what of a variant's streak and best its history does not show, or 0


def streak_floors(counts: VariantCounts, history: Iterable[Settlement], name: str) -> Floors:
    """The streak and best streak of ``counts`` where its ``history`` does not show them (they
    reach back past the oldest settlement kept), else 0."""
    runs = win_runs(history, name)
    return (counts.streak if counts.streak > runs[-1] else 0,
            counts.best_streak if counts.best_streak > max(runs) else 0)


def merged_history(
    mine: Iterable[Settlement], theirs: Iterable[Settlement], union: set[str]
) -> list[Settlement]:
    """``mine`` and ``theirs``'s settlements of the variants in ``union``, each once (taken back if
    either took it back), in time order."""
    history = {s.key: s for s in mine}
    for s in theirs:
        if s.variant in union:
            known = history.get(s.key)
            history[s.key] = s if known is None else replace(
                known, taken_back=known.taken_back or s.taken_back
            )
    return sorted(history.values(), key=lambda s: s.key)


def losses_taken_back(history: Iterable[Settlement]) -> dict[Key, bool]:
    """For each deal lost in ``history``: every loss of it is taken back."""
    losses: dict[Key, bool] = {}
    for s in history:
        if s.result == "lost":
            key = (s.variant, s.deal)
            losses[key] = losses.get(key, True) and s.taken_back
    return losses


def merge_deals(
    mine: MutableMapping[Key, DealEntry],
    theirs: Mapping[Key, DealEntry],
    union: set[str],
    losses: Mapping[Key, bool],
) -> dict[Key, str | None]:
    """Take into ``mine`` ``theirs``'s deals of the variants in ``union`` (one both hold: the later
    start, help if either, :func:`merged_state`); return each changed deal's state before."""
    old: dict[Key, str | None] = {}
    for key, e in theirs.items():
        if key[0] not in union:
            continue
        here = mine.get(key)
        if here is None:
            mine[key] = e
            old[key] = None
            continue
        if (here.start_ms, here.state, here.helped) == (e.start_ms, e.state, e.helped):
            continue  # the same in both tabs (most deals)
        starts = [t for t in (here.start_ms, e.start_ms) if t is not None]
        state = merged_state(here.state, e.state, losses.get(key, False))
        if state != here.state:
            old.setdefault(key, here.state)
        mine[key] = replace(
            here, start_ms=max(starts) if starts else None, state=state,
            helped=here.helped or e.helped,
        )
    return old


def merged_state(mine: str, theirs: str, taken_back: bool) -> str:
    """The state of a deal that is ``mine`` here and ``theirs`` in another tab: won in either is
    won, lost in either is lost unless ``taken_back`` (every loss of it in the history is)."""
    for state in (mine, theirs):
        if state in WINS:
            return state
    if "lost" not in (mine, theirs):
        return "playing"
    return "playing" if taken_back and mine != theirs else "lost"


def settle_once(history: list[Settlement]) -> dict[Key, str]:
    """Take back in ``history`` (time order) a deal settled again: won once, lost once before it
    is won; return each deal's first win."""
    first_win: dict[Key, str] = {}
    lost: set[Key] = set()
    for i, s in enumerate(history):
        if s.taken_back:
            continue
        key = (s.variant, s.deal)
        if key in first_win or (not s.is_win and key in lost):
            history[i] = replace(s, taken_back=True)
        elif s.is_win:
            first_win[key] = s.result
        else:
            lost.add(key)
    return first_win


def apply_first_wins(
    deals: MutableMapping[Key, DealEntry],
    first_win: Mapping[Key, str],
    union: set[str],
    old: dict[Key, str | None],
) -> None:
    """Give each won deal of ``union``'s variants its first win's kind; ``old``: states before."""
    for key, kind in first_win.items():
        entry = deals.get(key)
        if key[0] not in union or entry is None or entry.state not in WINS:
            continue
        helped = kind == "assisted"
        if entry.state != kind:
            old.setdefault(key, entry.state)
        if (entry.state, entry.helped) != (kind, helped):
            deals[key] = replace(entry, state=kind, helped=helped)


def reconciled(
    counts: VariantCounts,
    changes: Iterable[tuple[str | None, str | None]],
    theirs: VariantCounts | None,
    floors: Sequence[Floors],
    runs: Sequence[int],
) -> VariantCounts:
    """A variant's ``counts`` after the merge."""
    played, won, helped = counts.played, counts.won, counts.won_with_help
    for was, now in changes:
        before, after = _contribution(was), _contribution(now)
        played = max(0, played + after[0] - before[0])
        won = max(0, won + after[1] - before[1])
        helped = max(0, helped + after[2] - before[2])
    times = (counts.fastest_ms, None if theirs is None else theirs.fastest_ms)
    fastest = min((t for t in times if t is not None), default=None) if won else None
    streak, best = recount_streak(
        runs, max((f[0] for f in floors), default=0), max((f[1] for f in floors), default=0)
    )
    return VariantCounts(played, won, helped, streak, best, fastest)


def _contribution(state: str | None) -> tuple[int, int, int]:
    """What a deal in ``state`` counts: (played, clean wins, wins with help)."""
    if state is None:
        return 0, 0, 0
    return 1, int(state == "won"), int(state == "assisted")

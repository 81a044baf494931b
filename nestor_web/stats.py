"""Statistics per variant: games played and won, streaks, the fastest win, and a chart.

Pure Python (standard library only, no browser imports), so pytest checks it
all. The page keeps one :class:`Stats`, tells it about every move in effect
(:meth:`Stats.record_move`) and every change of deal (:meth:`Stats.leave`), and
saves :meth:`Stats.to_json_text` whenever one of those returns ``True``.

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

Stored shape
------------

JSON text under ``localStorage["nestor.stats"]`` (:data:`STATS_KEY`)::

    {"version": 1,
     "variants": {"<variant>": {"played": int, "won": int, "won_assisted": int,
                                "streak": int, "best_streak": int,
                                "fastest_ms": int | null}, ...},
     "deals": [[variant, deal, start_ms, state, helped], ...],
     "history": [[time_ms, variant, deal, result], ...]}

``variants`` holds the counters of every variant played (``won`` counts clean
wins, ``won_assisted`` wins with help). ``deals`` is the deal memory, least
recently changed first: ``start_ms`` (int or null) is when the current
attempt started, ``state`` one of ``"playing"`` (played, unsettled; at most
one), ``"lost"``, ``"won"``, ``"assisted"``, and ``helped`` (bool) says help
was used. ``history`` holds the settlements, oldest first, ``result`` one of
``"won"``, ``"assisted"``, ``"lost"``. Times are milliseconds since the Unix
epoch (``Date.now()``), whole numbers >= 0.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol
from xml.sax.saxutils import escape

from nestor import MAX_DEAL, DealNumberError, NestorError, get_variant
from nestor.errors import clip
from nestor.jsontext import load_object
from nestor.variants import VARIANTS

from .i18n import N_, _

STATS_KEY = "nestor.stats"
"""localStorage key of the statistics."""

STATS_VERSION = 1
"""Version of the stored shape described in the module docstring."""

HISTORY_SIZE = 500
"""Most settlements kept in the history (all variants together); the oldest go first."""

DEAL_MEMORY = 5000
"""Most deals remembered (all variants together); the least recently changed go first."""

RESULTS = ("won", "assisted", "lost")
"""Settlement results: a clean win, a win with help, a loss."""

_STATES = ("playing", "lost", "won", "assisted")
_WINS = ("won", "assisted")


@dataclass(frozen=True)
class VariantStats:
    """The statistics of one variant, as shown to the player.

    Attributes:
        played: games (deals) played, each counted once from its first move.
        won: games won without help.
        won_assisted: games won after a hint or Solve (not in ``won``).
        win_rate: ``(won + won_assisted) / played``, from 0 to 1; ``None``
            when nothing was played.
        streak: games won in a row at the end of the history (wins with help
            count); 0 after a loss.
        best_streak: the longest such run ever.
        fastest_ms: the fastest clean win in milliseconds (first move of the
            attempt to the winning move), or ``None`` if there is none.
    """

    played: int
    won: int
    won_assisted: int
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


@dataclass
class _Counts:
    played: int = 0
    won: int = 0
    won_assisted: int = 0
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

    Start empty with ``Stats()`` or read saved text with :meth:`from_json_text`.
    The recording methods return ``True`` when something changed: save
    :meth:`to_json_text` then (most moves change nothing).
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
        assisted: bool,
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
            VariantError: unknown variant. DealNumberError: bad deal number.
            NestorError: ``now_ms`` is not a whole number >= 0.
        """
        key = _check_key(variant, deal)
        _check_time(now_ms)
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
        entry.helped = entry.helped or bool(assisted)
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
        _check_time(now_ms)
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
        wins = c.won + c.won_assisted
        return VariantStats(
            played=c.played,
            won=c.won,
            won_assisted=c.won_assisted,
            win_rate=wins / c.played if c.played else None,
            streak=c.streak,
            best_streak=c.best_streak,
            fastest_ms=c.fastest_ms,
        )

    def history(self, variant: str | None = None, last: int = 50) -> list[Settlement]:
        """The last ``last`` settlements, oldest first, of ``variant`` or of all variants.

        Raises:
            VariantError: unknown variant. NestorError: ``last`` is not a whole number >= 0.
        """
        if isinstance(last, bool) or not isinstance(last, int) or last < 0:
            raise NestorError(f"last must be a whole number >= 0, not {clip(repr(last))}")
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

    # ---- saving ------------------------------------------------------------------------

    def to_json_text(self) -> str:
        """The statistics as JSON text (the shape in the module docstring)."""
        data = {
            "version": STATS_VERSION,
            "variants": {
                name: {
                    "played": c.played, "won": c.won, "won_assisted": c.won_assisted,
                    "streak": c.streak, "best_streak": c.best_streak,
                    "fastest_ms": c.fastest_ms,
                }
                for name, c in self._counts.items()
            },
            "deals": [
                [v, d, e.start_ms, e.state, e.helped] for (v, d), e in self._deals.items()
            ],
            "history": [[s.time_ms, s.variant, s.deal, s.result] for s in self._history],
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json_text(cls, text: str) -> Stats:
        """Read statistics saved by :meth:`to_json_text`.

        Unknown keys in objects are ignored.

        Raises:
            NestorError: naming the problem: not JSON (or nested too deep), not
                an object, an unknown version, a missing part, a value of the
                wrong type or out of range (negative counts, unknown variant
                or result, bad deal number), more entries than the caps, a
                deal listed twice, more than one unsettled game, or counts
                that contradict each other or the deals and history.
        """
        data = load_object(text, ("they are", "they have"), STATS_VERSION)
        stats = cls()
        stats._counts = _read_counts(_part(data, "variants", dict))
        for key, entry in _read_deals(_part(data, "deals", list)):
            if key in stats._deals:
                raise NestorError(f"deal {key[0]}/{key[1]} is listed twice in 'deals'")
            if entry.state == "playing":
                if stats._playing is not None:
                    raise NestorError(
                        "more than one game is unsettled in 'deals' "
                        f"({stats._playing[0]}/{stats._playing[1]} and {key[0]}/{key[1]})"
                    )
                stats._playing = key
            stats._deals[key] = entry
        stats._history = _read_history(_part(data, "history", list))
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
        return f"Stats.from_json_text({self.to_json_text()!r})"

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
            counts.won_assisted += 1
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
            wins = c.won + c.won_assisted
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
            for kind, count in (("won", c.won), ("assisted", c.won_assisted)):
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


# ---- reading saved data ------------------------------------------------------------------


def _part(data: dict[str, object], key: str, kind: type) -> object:
    if key not in data:
        raise NestorError(f"{key!r} is missing")
    value = data[key]
    if not isinstance(value, kind):
        noun = "an object" if kind is dict else "a list"
        raise NestorError(f"{key!r} must be {noun}, not {clip(repr(value))}")
    return value


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise NestorError(f"{where} must be a whole number >= 0, not {clip(repr(value))}")
    return value


def _variant_name(value: object, where: str) -> str:
    if not isinstance(value, str) or value not in VARIANTS:
        raise NestorError(f"{where} must be a variant name, not {clip(repr(value))}")
    return value


def _deal_number(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_DEAL:
        raise NestorError(
            f"{where} must be a deal number from 0 to {MAX_DEAL - 1}, not {clip(repr(value))}"
        )
    return value


def _one_of(value: object, choices: Sequence[str], where: str) -> str:
    if not isinstance(value, str) or value not in choices:
        names = ", ".join(repr(c) for c in choices)
        raise NestorError(f"{where} must be one of {names}, not {clip(repr(value))}")
    return value


def _row(value: object, size: int, where: str) -> list[object]:
    if not isinstance(value, list) or len(value) != size:
        raise NestorError(f"{where} must be a list of {size} values, not {clip(repr(value))}")
    return value


def _read_counts(data: object) -> dict[str, _Counts]:
    assert isinstance(data, dict)
    counts = {}
    for name, value in data.items():
        _variant_name(name, "a key of 'variants'")
        if not isinstance(value, dict):
            raise NestorError(f"variants[{name!r}] must be an object, not {clip(repr(value))}")
        fields = {}
        for field in ("played", "won", "won_assisted", "streak", "best_streak"):
            if field not in value:
                raise NestorError(f"variants[{name!r}] has no {field!r}")
            fields[field] = _whole(value[field], f"variants[{name!r}][{field!r}]")
        fastest = value.get("fastest_ms")
        counts[name] = _Counts(
            **fields,
            fastest_ms=None
            if fastest is None
            else _whole(fastest, f"variants[{name!r}]['fastest_ms']"),
        )
    return counts


def _read_deals(data: object) -> list[tuple[_Key, _Deal]]:
    assert isinstance(data, list)
    if len(data) > DEAL_MEMORY:
        raise NestorError(f"'deals' holds {len(data)} deals, more than {DEAL_MEMORY}")
    out = []
    for i, raw in enumerate(data):
        where = f"deals[{i}]"
        variant, deal, start, state, helped = _row(raw, 5, where)
        key = (_variant_name(variant, f"{where}[0]"), _deal_number(deal, f"{where}[1]"))
        start_ms = None if start is None else _whole(start, f"{where}[2]")
        state = _one_of(state, _STATES, f"{where}[3]")
        if not isinstance(helped, bool):
            raise NestorError(f"{where}[4] must be true or false, not {clip(repr(helped))}")
        if helped != (state == "assisted") and state in _WINS:
            raise NestorError(f"{where} is a {state!r} deal with helped {str(helped).lower()}")
        out.append((key, _Deal(start_ms, state, helped)))
    return out


def _read_history(data: object) -> list[Settlement]:
    assert isinstance(data, list)
    if len(data) > HISTORY_SIZE:
        raise NestorError(f"'history' holds {len(data)} games, more than {HISTORY_SIZE}")
    out = []
    for i, raw in enumerate(data):
        where = f"history[{i}]"
        time_ms, variant, deal, result = _row(raw, 4, where)
        out.append(
            Settlement(
                _whole(time_ms, f"{where}[0]"),
                _variant_name(variant, f"{where}[1]"),
                _deal_number(deal, f"{where}[2]"),
                _one_of(result, RESULTS, f"{where}[3]"),
            )
        )
    return out


def _check_key(variant: str, deal: int) -> _Key:
    name = get_variant(variant).name
    if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal < MAX_DEAL:
        raise DealNumberError(
            f"bad deal number {clip(repr(deal))}: use a whole number from 0 to {MAX_DEAL - 1}"
        )
    return name, deal


def _check_time(now_ms: int) -> None:
    if isinstance(now_ms, bool) or not isinstance(now_ms, int) or now_ms < 0:
        raise NestorError(
            f"the time must be a whole number of milliseconds >= 0, not {clip(repr(now_ms))}"
        )


# ---- loading with the session's rules ----------------------------------------------------


class Readable(Protocol):
    """Anything with ``get(key) -> str | None``, such as the session's storage."""

    def get(self, key: str) -> str | None:
        """Return the text stored under ``key``, or ``None``."""


def open_stats(storage: Readable, store: Callable[[str, str], None]) -> tuple[Stats, str | None]:
    """Read the statistics under :data:`STATS_KEY`; return ``(stats, notice)``.

    Nothing stored: empty statistics, no notice, nothing written. Unreadable
    text: it is copied to ``"nestor.stats.unreadable"``, replaced by empty
    statistics, and ``notice`` tells the player why. Writes go through
    ``store(key, text)`` (pass ``Session._store``, which turns a storage
    failure into a notice); no other key is touched.
    """
    raw = storage.get(STATS_KEY)
    if raw is None:
        return Stats(), None
    try:
        return Stats.from_json_text(raw), None
    except NestorError as exc:
        stats = Stats()
        store(STATS_KEY + ".unreadable", raw)
        store(STATS_KEY, stats.to_json_text())
        return stats, _(
            "Your statistics could not be read: {error}. They were set aside and start "
            "again from zero."
        ).format(error=exc)


# ---- the chart -----------------------------------------------------------------------------

CHART_LABELS: Mapping[str, str] = {
    "won": N_("won"),
    "assisted": N_("won with help"),
    "lost": N_("lost"),
    "rate": N_("win rate"),
    "games": N_("games"),
    "empty": N_("no games yet"),
}
"""Default words of :func:`chart_svg`; pass ``labels`` to replace any of them."""

CHART_COLOURS = {"won": "#15803d", "assisted": "#b45309", "lost": "#b91c1c"}
"""Bar colours; the bars also differ in height (won tallest, lost shortest)."""

_BAR_HEIGHT = {"won": 1.0, "assisted": 0.6, "lost": 0.25}
_INK = "#16161a"
_PAPER = "#fffdf7"
_RATE = "#1d4ed8"
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: str) -> str:
    """``value`` made safe for XML text and attribute values (invalid characters dropped)."""
    return escape(_NOT_XML.sub("", value), {'"': "&quot;", "'": "&apos;"})


def _n(x: float) -> str:
    return f"{x:.1f}".removesuffix(".0")


def chart_svg(
    results: Sequence[Settlement],
    width: int = 320,
    height: int = 120,
    *,
    title: str = "Recent games",
    labels: Mapping[str, str] | None = None,
) -> str:
    """A small inline SVG of settled games over time, oldest on the left.

    Bottom band: one bar per game, coloured and sized by result (won: full
    height, green; won with help: 60 %, amber; lost: 25 %, red), each with a
    ``<title>`` tooltip. Top band: the running win rate of the games shown,
    as a line on a 0–100 % scale. A legend names the three results and the
    line. The root has ``role="img"``, an ``aria-label`` summarising the
    counts and the win rate, and a ``<title>``; it needs no external resource.

    Args:
        results: the settlements to draw, oldest first (e.g. :meth:`Stats.history`).
        width, height: size in CSS pixels, at least 120 by 60.
        title: the chart's title (also starts the summary).
        labels: words replacing any of :data:`CHART_LABELS` (for translations).

    Raises:
        NestorError: a size too small, an unknown label key, or a result that
            is not one of :data:`RESULTS`.
    """
    if isinstance(width, bool) or not isinstance(width, int) or width < 120:
        raise NestorError(f"the chart width must be a whole number >= 120, not {width!r}")
    if isinstance(height, bool) or not isinstance(height, int) or height < 60:
        raise NestorError(f"the chart height must be a whole number >= 60, not {height!r}")
    words = dict(CHART_LABELS)
    for key, value in (labels or {}).items():
        if key not in CHART_LABELS:
            raise NestorError(f"unknown chart label {key!r}")
        words[key] = value
    for s in results:
        _one_of(s.result, RESULTS, "a chart result")

    n = len(results)
    tally = {r: sum(1 for s in results if s.result == r) for r in RESULTS}
    wins = tally["won"] + tally["assisted"]
    if n:
        summary = (
            f"{title}: {n} {words['games']}: {tally['won']} {words['won']}, "
            f"{tally['assisted']} {words['assisted']}, {tally['lost']} {words['lost']}; "
            f"{words['rate']} {wins / n:.0%}."
        )
    else:
        summary = f"{title}: {words['empty']}."

    font = 10
    legend_h = font + 6
    left, right, top = 34.0, width - 6.0, 9.0
    bottom = height - legend_h - 4.0
    bars_h = (bottom - top) * 0.38
    rate_bottom = bottom - bars_h - 6.0
    plot_w = right - left

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="nestor-stats-chart" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{_text(summary)}" font-family="system-ui, sans-serif" '
        f'font-size="{font}">',
        f"<title>{_text(summary)}</title>",
        f'<rect width="{width}" height="{height}" rx="4" fill="{_PAPER}"/>',
    ]
    # Scale of the win rate: 0 %, 50 %, 100 %.
    for frac in (0.0, 0.5, 1.0):
        y = rate_bottom - frac * (rate_bottom - top)
        dash = "" if frac == 0.0 else ' stroke-dasharray="2 3"'
        out.append(
            f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(right)}" y2="{_n(y)}" '
            f'stroke="#9ca3af" stroke-width="1"{dash}/>'
        )
        out.append(
            f'<text x="{_n(left - 3)}" y="{_n(y + 3)}" text-anchor="end" '
            f'fill="{_INK}">{frac:.0%}</text>'
        )
    out.append(
        f'<line x1="{_n(left)}" y1="{_n(bottom)}" x2="{_n(right)}" y2="{_n(bottom)}" '
        f'stroke="{_INK}" stroke-width="1"/>'
    )
    if not n:
        out.append(
            f'<text x="{_n(left + plot_w / 2)}" y="{_n((top + bottom) / 2)}" '
            f'text-anchor="middle" fill="{_INK}">{_text(words["empty"])}</text>'
        )
    else:
        slot = plot_w / n
        gap = min(2.0, slot * 0.2)  # between bars; bars are at most 16 px wide
        points = []
        so_far = 0
        for i, s in enumerate(results):
            x = left + i * slot
            h = bars_h * _BAR_HEIGHT[s.result]
            bar_w = min(max(slot - gap, 0.5), 16.0)
            out.append(
                f'<rect x="{_n(x + (slot - bar_w) / 2)}" y="{_n(bottom - h)}" '
                f'width="{_n(bar_w)}" height="{_n(h)}" '
                f'fill="{CHART_COLOURS[s.result]}">'
                f"<title>{_text(f'{s.variant} {s.deal}: {words[s.result]}')}</title></rect>"
            )
            so_far += s.result in _WINS
            rate = so_far / (i + 1)
            points.append((x + slot / 2, rate_bottom - rate * (rate_bottom - top)))
        path = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{_RATE}" stroke-width="2" '
            'stroke-linejoin="round"/>'
        )
        lx, ly = points[-1]
        out.append(f'<circle cx="{_n(lx)}" cy="{_n(ly)}" r="2.5" fill="{_RATE}"/>')
    # Legend: swatches as tall as the bars they stand for, then the rate line;
    # smaller type when the words would not fit the width.
    def advance(word: str, size: float) -> float:
        return 0.9 * size + 0.55 * size * len(word) + size

    size = float(font)
    needed = sum(advance(words[r], size) for r in RESULTS) + 1.5 * size + advance(
        words["rate"], size
    )
    size = max(5.0, size * min(1.0, (width - 12) / needed))
    x = 6.0
    base = height - 4.0
    for result in RESULTS:
        h = 0.2 * size + 0.8 * size * _BAR_HEIGHT[result]
        out.append(
            f'<rect x="{_n(x)}" y="{_n(base - h)}" width="{_n(0.6 * size)}" height="{_n(h)}" '
            f'fill="{CHART_COLOURS[result]}"/>'
        )
        out.append(
            f'<text x="{_n(x + 0.9 * size)}" y="{_n(base)}" font-size="{_n(size)}" '
            f'fill="{_INK}">{_text(words[result])}</text>'
        )
        x += advance(words[result], size)
    out.append(
        f'<line x1="{_n(x)}" y1="{_n(base - 0.4 * size)}" x2="{_n(x + 1.2 * size)}" '
        f'y2="{_n(base - 0.4 * size)}" stroke="{_RATE}" stroke-width="2"/>'
    )
    out.append(
        f'<text x="{_n(x + 1.5 * size)}" y="{_n(base)}" font-size="{_n(size)}" '
        f'fill="{_INK}">{_text(words["rate"])}</text>'
    )
    out.append("</svg>")
    return "".join(out)

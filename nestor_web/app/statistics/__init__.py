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
  appended to the history. A loss is taken back (:meth:`Stats.take_back`: the game goes
  on, so it is not lost yet) when its losing move is undone, and when the player comes
  back to a game left in progress as it was left (Undo, Back, its link or the daily deal
  resuming it from the games kept); a win is never taken back.
* A game left in progress in a tab that was closed settles as **lost** when the game is
  next opened with no other tab of it open (:meth:`Stats.settle_others`): closing the tab
  left it as surely as a new deal would have. While another tab is open, a page opened on
  another deal leaves the game stored by the tab that saved last unsettled: that tab may
  still be showing it.
* A game that settled as lost and is won later without its loss taken back (started
  afresh, e.g. after its losing move, or after the game kept was forgotten) counts that
  win when it happens: its "lost" settlement stays in the history (it was a loss), a
  "won" or "assisted" one is appended, the win and the streak count it, and it is still
  played once. It cannot settle as lost a second time.
* **Streaks** count settlements per variant: the current streak is how many
  games in a row were won at the end of that variant's history, the best
  streak the longest such run ever. Wins with help count for streaks as
  clean wins do; only a loss ends a streak.
* The **fastest win** is the shortest time, in milliseconds, over clean wins only, as
  the game's own timer shows it at the winning move (``elapsed_ms``: the time played on
  the deal since its last restart, the page shown; a steady clock that a change of the
  computer's clock does not move). A win whose attempt start was never seen (a game
  resumed from before statistics were kept; an attempt starts at any move that leaves
  exactly one move in effect, ``first=True``), or whose timer is not given or is out of
  a win's range (:mod:`nestor_web.app.ranges`: under 5 seconds is no hand's pace; Finish
  may play out the end of a game at once), sets no time. The computer's clock dates the
  settlements and attempts only: it never measures a duration.

The daily deal's record and the merge of two tabs are described in :mod:`.daily` and
:mod:`.merge`.

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

The package
-----------

* :mod:`.data`: the caps, the plain types (what a codec stores and the player is shown) and
  the checks :meth:`Stats.restore` makes of them;
* :mod:`.record`: :class:`Stats`, what each move, departure, loss taken back and reset
  records;
* :mod:`.daily`: the daily deal's record, its rules and streak;
* :mod:`.merge`: the steps of :meth:`Stats.merge` ("Two tabs"), imported at the first merge.
"""

from .data import (
    DAILY_MEMORY,
    DEAL_MEMORY,
    DEAL_STATES,
    HISTORY_SIZE,
    RESULTS,
    STATS_CODES,
    DailyRecord,
    DailyStats,
    DealEntry,
    Settlement,
    StatsData,
    VariantCounts,
    VariantStats,
)
from .record import Stats

__all__ = [
    "DAILY_MEMORY",
    "DEAL_MEMORY",
    "DEAL_STATES",
    "HISTORY_SIZE",
    "RESULTS",
    "STATS_CODES",
    "DailyRecord",
    "DailyStats",
    "DealEntry",
    "Settlement",
    "Stats",
    "StatsData",
    "VariantCounts",
    "VariantStats",
]

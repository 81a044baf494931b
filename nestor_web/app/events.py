"""What happened: the values a command returns and the problems it reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from nestor import Move, NestorError, Outcome, Place


@dataclass(frozen=True)
class Problem:
    """A notice for the player, worded by :mod:`nestor_web.view.words`.

    Attributes:
        code: what went wrong, e.g. ``"save.unreadable"`` or ``"link.variant"`` (the view's table
            lists every code).
        error: the engine error behind it, if any; the view words it from its ``code`` and
            ``details`` (never from its English message).
        args: more language-neutral arguments (a storage error's name, a language code).
    """

    code: str
    error: NestorError | None = None
    args: tuple[tuple[str, str], ...] = field(default=())

    @property
    def arg(self) -> dict[str, str]:
        """``args`` as a dict."""
        return dict(self.args)


@dataclass(frozen=True)
class Selected:
    """The selection changed to ``card`` (``None``: nothing selected)."""

    card: str | None


@dataclass(frozen=True)
class Moved:
    """A move was put in effect (played, redone, or played by Solve).

    Attributes:
        move: the move.
        removed: the cards it took off the board, in the move's order (a turned stock card that
            could not pair is not removed).
        turned: Strict: the stock card the move turned up, else ``None``.
        uncovered: the cards that became available, with where they lie.
        outcome: the game's outcome after the move, if it ended the game.
        by_solver: Solve played it.
        by_finish: Finish played it (the game could no longer be lost).
    """

    move: Move
    removed: tuple[str, ...]
    turned: str | None
    uncovered: tuple[tuple[str, Place], ...]
    outcome: Outcome | None
    by_solver: bool = False
    by_finish: bool = False


@dataclass(frozen=True)
class TookBack:
    """Undo took ``move`` back."""

    move: Move


@dataclass(frozen=True)
class WentBack:
    """The review's "Try from here" took the game back to the position before its move ``index``
    (0-based); ``move`` is that move, the first of those kept for redo."""

    index: int
    move: Move


@dataclass(frozen=True)
class DealChanged:
    """Another deal (or the same one restarted) is now in play.

    Attributes:
        variant, deal: the deal now in play.
        resumed: it was resumed with moves made (from the archive or a save).
        restarted: the same deal from its first position.
        left: a game with moves was left for it, and Undo can bring that game back.
        returned: Undo brought back the game left (it is in play again as it was).
    """

    variant: str
    deal: int
    resumed: bool = False
    restarted: bool = False
    left: bool = False
    returned: bool = False


@dataclass(frozen=True)
class DailyOpened:
    """The daily deal of ``day`` is in play (after a :class:`DealChanged` if it was not)."""

    day: date


@dataclass(frozen=True)
class TutorialChanged:
    """The guided first game (:mod:`nestor_web.app.tutorial`) showed its step ``step``, or ended
    (``None``)."""

    step: str | None


@dataclass(frozen=True)
class GradeKnown:
    """The grade of ``deal`` of ``variant`` became known (:mod:`nestor_web.app.grades`): ``"easy"``,
    ``"medium"``, ``"hard"`` or ``"unwinnable"``."""

    variant: str
    deal: int
    grade: str


@dataclass(frozen=True)
class PairCount:
    """A hint's first step: the pairs that can be made on the board, and what they do.

    Attributes:
        pairs: the legal pairs (Strict's stock turn is not one).
        losing: those after which the game can no longer be won (Strict: no chance left).
        unknown: those the solver gave up on (within
            :data:`~nestor_web.app.play.HINT_COUNT_NODES`).
    """

    pairs: int
    losing: int
    unknown: int = 0


@dataclass(frozen=True)
class HintShown:
    """A hint was asked for; ``move`` is what it showed (``None``: no move to show)."""

    move: Move | None
    count: PairCount | None = None


@dataclass(frozen=True)
class SettingChanged:
    """The setting ``name`` took a new value."""

    name: str


@dataclass(frozen=True)
class Noticed:
    """A problem was added to the notices."""

    problem: Problem


@dataclass(frozen=True)
class TimerChanged:
    """The timer stopped or went on (the page was hidden or shown), or took the longer time another
    tab saved of the same game: ``running`` now."""

    running: bool


@dataclass(frozen=True)
class SolverBusy:
    """What the solver does for the player changed: Solve plays on (``solving``), or it works on
    ``thinking`` (``"hint"``, ``"deal"``; ``None``: nothing)."""

    solving: bool
    thinking: str | None


@dataclass(frozen=True)
class FromOtherTab:
    """What another tab of the game saved was taken in here.

    Attributes:
        what: ``"stats"`` (its statistics were merged into these) or ``"game"`` (it moved on the
            deal in play here, and its position replaced this one).
    """

    what: str


@dataclass(frozen=True)
class ProgressSummary:
    """What a backup of the player's progress holds, or what is held here after a restore
    (:mod:`nestor_web.app.backup`), as the page shows it before asking merge or replace.

    Attributes:
        games: games played, all variants summed.
        won: games won (clean or with help), all variants summed.
        daily_won: dates whose daily deal was won (of those kept).
        in_progress: games in progress: the game in play if it has a move in effect and has not
            ended, and each game of the archive of games left in progress.
    """

    games: int
    won: int
    daily_won: int
    in_progress: int

    def to_json(self) -> dict[str, int]:
        """``{"games", "won", "daily_won", "in_progress"}`` (what ``python -m nestor_web progress
        FILE --json`` prints)."""
        return {
            "games": self.games, "won": self.won, "daily_won": self.daily_won,
            "in_progress": self.in_progress,
        }


@dataclass(frozen=True)
class Restored:
    """A backup of the player's progress was restored
    (:meth:`~nestor_web.storage.manager.StorageManager.restore`).

    Attributes:
        mode: ``"merge"`` (united with what was here) or ``"replace"`` (what was here was replaced,
            and kept to bring back).
        summary: what is held here now.
        changed: anything changed (``False``: a merge of a backup that brought nothing new, such as
            the same file imported twice).
    """

    mode: str
    summary: ProgressSummary
    changed: bool


Event = (
    Selected | Moved | TookBack | WentBack | DealChanged | DailyOpened | HintShown | SettingChanged
    | Noticed | FromOtherTab | TimerChanged | SolverBusy | Restored | GradeKnown
    | TutorialChanged
)
"""Anything a command reports."""

"""What happened: the values a command returns and the problems it reports."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date

from nestor import Move, NestorError, Outcome, Place


@dataclass(frozen=True)
class Problem:
    """A notice for the player, worded by the view from its ``code`` (e.g. ``"link.variant"``),
    the engine ``error`` behind it (its code and details, never its English message) and ``args``
    (language-neutral: a storage error's name, a language code)."""

    code: str
    error: NestorError | None = None
    args: tuple[tuple[str, str], ...] = field(default=())

    @property
    def arg(self) -> dict[str, str]:
        return dict(self.args)


@dataclass(frozen=True)
class Selected:
    """The selection changed to ``card`` (``None``: nothing selected)."""

    card: str | None


@dataclass(frozen=True)
class Moved:
    """A move was put in effect (played, redone, or played by Solve or Finish).

    Attributes:
        removed: the cards it took off the board, in the move's order.
        turned: Strict: the stock card the move turned up, else ``None``.
        uncovered: the cards that became available, with where they lie.
        outcome: the game's outcome after the move, if it ended the game.
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
    """The review's Try from here took the game back to before its move ``index`` (0-based)."""

    index: int
    move: Move


@dataclass(frozen=True)
class DealChanged:
    """Another deal (or the same one restarted) is now in play.

    Attributes:
        resumed: it was resumed with moves made (from the archive or a save).
        left: a game with moves was left for it, and Undo can bring that game back.
        returned: Undo brought back the game left, as it was.
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
    """The guided first game showed its step ``step``, or ended (``None``)."""

    step: str | None


@dataclass(frozen=True)
class GradeKnown:
    """The grade of ``deal`` of ``variant`` became known."""

    variant: str
    deal: int
    grade: str


@dataclass(frozen=True)
class PairCount:
    """A hint's first step: the legal ``pairs`` on the board, those ``losing`` the game (Strict: no
    chance left) and those the solver gave up on (``unknown``)."""

    pairs: int
    losing: int
    unknown: int = 0


@dataclass(frozen=True)
class HintShown:
    """A hint showed ``move`` (``None``: none to show), or its first step, ``count``."""

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
    """The timer stopped or went on, or took another tab's longer time of the same game."""

    running: bool


@dataclass(frozen=True)
class SolverBusy:
    """What the solver does for the player changed: Solve plays on, or it works on ``thinking``."""

    solving: bool
    thinking: str | None


@dataclass(frozen=True)
class FromOtherTab:
    """What another tab saved was taken in here: ``"stats"`` (merged into these) or ``"game"`` (its
    position of the deal in play replaced this one)."""

    what: str


@dataclass(frozen=True)
class ProgressSummary:
    """What a backup of the player's progress holds, or what is held here after a restore: games
    played and won (with help or not), dates whose daily deal was won, games in progress (in play
    and in the archive)."""

    games: int
    won: int
    daily_won: int
    in_progress: int

    def to_json(self) -> dict[str, int]:
        """What ``python -m nestor_web progress FILE --json`` prints."""
        return asdict(self)


@dataclass(frozen=True)
class Restored:
    """A backup of the player's progress was restored: its ``mode`` (``"merge"`` or
    ``"replace"``), what is held here now, and whether anything ``changed``."""

    mode: str
    summary: ProgressSummary
    changed: bool


Event = (
    Selected | Moved | TookBack | WentBack | DealChanged | DailyOpened | HintShown | SettingChanged
    | Noticed | FromOtherTab | TimerChanged | SolverBusy | Restored | GradeKnown
    | TutorialChanged
)
"""Anything a command reports."""

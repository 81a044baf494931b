"""What happened: the values a command returns and the problems it reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from nestor import Move, NestorError, Outcome, Place


@dataclass(frozen=True)
class Problem:
    """A notice for the player, worded by the view from its ``code`` (``"link.variant"``), the
    engine ``error`` behind it and language-neutral ``args`` (a storage error's name)."""

    code: str
    error: NestorError | None = None
    args: tuple[tuple[str, str], ...] = field(default=())


@dataclass(frozen=True)
class Selected:
    """The selection changed to ``card`` (``None``: nothing selected)."""

    card: str | None


@dataclass(frozen=True)
class Moved:
    """A move was played (or redone, or by Solve or Finish): the cards ``removed`` in order, the
    stock card ``turned``, the cards ``uncovered`` and their places, the ``outcome`` if it ended."""

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
    """Another deal (or the same one restarted) is in play: ``resumed`` with moves made; ``left``:
    a game with moves waits for Undo; ``returned``: Undo brought back the game left."""

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
    """A hint's first step: the legal pairs, those losing the game, those the solver gave up on."""

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
    """The timer stopped or went on, or took another tab's longer time."""

    running: bool


@dataclass(frozen=True)
class SolverBusy:
    """Solve plays on (``solving``), or the solver works on ``thinking`` for the player."""

    solving: bool
    thinking: str | None


@dataclass(frozen=True)
class FromOtherTab:
    """What another tab saved was taken in: ``"stats"`` or ``"game"`` (of the deal in play)."""

    what: str


@dataclass(frozen=True)
class ProgressSummary:
    """What a backup holds, or what is held here after a restore: games played and won (with help
    or not), dates whose daily deal was won, games in progress (in play and archived)."""

    games: int
    won: int
    daily_won: int
    in_progress: int


@dataclass(frozen=True)
class Restored:
    """A backup was restored (``"merge"``, ``"replace"``): what is held now, whether it changed."""

    mode: str
    summary: ProgressSummary
    changed: bool


Event = (
    Selected | Moved | TookBack | WentBack | DealChanged | DailyOpened | HintShown | SettingChanged
    | Noticed | FromOtherTab | TimerChanged | SolverBusy | Restored | GradeKnown
    | TutorialChanged
)
"""Anything a command reports."""

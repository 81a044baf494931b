"""The timer of the game in play: a stopwatch over a steady clock."""

from __future__ import annotations

from collections.abc import Callable


class Timer:
    """Milliseconds played on a game.

    Attributes:
        ms: the time up to ``since`` (as of the last stop, or the last :meth:`sync`).
        since: the clock's reading at the last :meth:`sync` while it runs, else ``None``.
    """

    __slots__ = ("ms", "since")

    def __init__(self, ms: int = 0) -> None:
        self.ms = ms
        self.since: int | None = None

    @property
    def running(self) -> bool:
        """Whether the timer runs (since the last :meth:`sync`)."""
        return self.since is not None

    def elapsed_ms(self, clock: Callable[[], int]) -> int:
        """The time so far: :attr:`ms`, plus what ``clock`` says went by since, if it runs (a clock
        set back adds 0)."""
        if self.since is None:
            return self.ms
        return self.ms + max(0, clock() - self.since)

    def sync(self, now: int, running: bool) -> None:
        """Bring the time up to ``now`` (a clock set back adds 0), then run on from there if
        ``running``, else stop."""
        if self.since is not None:
            self.ms += max(0, now - self.since)
        self.since = now if running else None

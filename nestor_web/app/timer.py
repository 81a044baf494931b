"""The timer of the game in play: a stopwatch over a steady clock."""

from __future__ import annotations

from collections.abc import Callable


class Timer:
    """Milliseconds played on a game: ``ms`` as of the last :meth:`sync`, when the clock read
    ``since`` (``None`` while stopped)."""

    __slots__ = ("ms", "since")

    def __init__(self, ms: int = 0) -> None:
        self.ms = ms
        self.since: int | None = None

    @property
    def running(self) -> bool:
        return self.since is not None

    def elapsed_ms(self, clock: Callable[[], int]) -> int:
        """The time so far, by ``clock`` (a clock set back adds 0)."""
        if self.since is None:
            return self.ms
        return self.ms + max(0, clock() - self.since)

    def sync(self, now: int, running: bool) -> None:
        """Bring the time up to ``now`` (a clock set back adds 0), then run on from there if
        ``running``, else stop."""
        if self.since is not None:
            self.ms += max(0, now - self.since)
        self.since = now if running else None

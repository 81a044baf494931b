"""The timer of the game in play: a stopwatch over a steady clock.

The session (:class:`~nestor_web.app.session.Session`) says when it runs (the page shown,
from the first move until the game ended) and reads its clock; a :class:`Timer` only adds
up the time. No words, no DOM.
"""

from __future__ import annotations

from collections.abc import Callable


class Timer:
    """Milliseconds played on a game.

    It reads no clock of its own: :meth:`sync` is given the reading of a steady clock
    (milliseconds), :meth:`elapsed_ms` the clock, to read only while the timer runs.

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
        """The time so far: :attr:`ms`, plus what ``clock`` says went by since, if it runs
        (a clock set back adds 0)."""
        if self.since is None:
            return self.ms
        return self.ms + max(0, clock() - self.since)

    def sync(self, now: int, running: bool) -> None:
        """Bring the time up to ``now`` (a clock set back adds 0), then run on from there
        if ``running``, else stop."""
        if self.since is not None:
            self.ms += max(0, now - self.since)
        self.since = now if running else None

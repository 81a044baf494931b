"""Statistics fed as the game feeds them: one move, or one whole game of a deal."""

from __future__ import annotations

from nestor_web.app.statistics.record import Stats


def move(
    stats: Stats,
    deal: int,
    t: int,
    *,
    won: bool = False,
    helped: bool = False,
    first: bool = False,
    variant: str = "standard",
    elapsed: int | None = None,
) -> bool:
    return stats.record_move(
        variant, deal, t, won=won, helped=helped, first=first, elapsed_ms=elapsed
    )


def play(
    stats: Stats,
    deal: int,
    t: int,
    result: str,
    variant: str = "standard",
    duration: int = 1000,
) -> None:
    """One whole game of ``deal`` starting at ``t``, ending with ``result``."""
    move(stats, deal, t, first=True, variant=variant, helped=result == "assisted")
    if result == "lost":
        stats.leave(variant, deal, t + duration)
    else:
        move(stats, deal, t + duration, won=True, variant=variant, helped=result == "assisted",
             elapsed=duration)

"""Deals analysed with the solver: the share that can be won, and finding a winnable one.

:func:`odds` solves a range of deals (in worker processes on CPython) and
reports the share won with a confidence interval: :func:`wilson` for a share
of successes, :func:`mean_interval` for Strict's mean chance of winning.
:func:`winnable_deal_steps` draws deal numbers until the solver proves one
winnable, yielding between solver steps so a browser can run it in slices.
Standard library only; the browser imports this module too (it starts no
process unless :func:`odds` is asked for more than one job).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Generator, Sequence
from typing import Any

from .checks import whole_number
from .deal import MAX_DEAL, check_deal_number, deal_position
from .solver import Solution, Status, solve, solve_steps
from .variants import Variant, get_variant

WINNABLE_SEARCH_LIMIT = 2000
"""Deals :func:`winnable_deal_steps` tries by default before giving up."""


def _proven_winnable(solution: Solution) -> bool:
    """``True`` only if the solver proved the deal winnable (not lost, not unknown).

    Strict: with the actual stock order known (``known_order``).
    """
    return solution.known_order is Status.WINNABLE


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a share ``successes / n``.

    Returns ``(low, high)`` within ``0..1``; ``(0.0, 1.0)`` when ``n == 0``.
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean of ``values`` (shares, ``0..1``) with a normal-approximation 95% interval.

    Returns ``(mean, low, high)``, the interval clipped to ``0..1``; a single
    value has a zero-width interval.

    Raises:
        ZeroDivisionError: if ``values`` is empty.
    """
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def _odds_one(job: tuple[str, int]) -> tuple[bool, float | None]:
    """Solve one deal ``(variant name, deal number)``: (proven winnable, Strict's chance)."""
    variant, deal = job
    result = solve(deal_position(variant, deal))
    return _proven_winnable(result), result.win_probability


def odds(variant: str, start: int, count: int, jobs: int) -> dict[str, Any]:
    """Solve deals ``start .. start+count-1`` of ``variant``; return the shares and intervals.

    ``jobs > 1`` solves in that many worker processes (CPython only). The
    report: ``{"variant", "start", "deals", "winnable": int, "share",
    "interval": [low, high], "seconds"}``; for a variant with a stock,
    ``"share"``/``"interval"`` become ``"order_known"``/``"order_known_interval"``
    (winnable with the stock order known) and ``"win_probability"`` with
    ``"win_probability_interval"`` is the mean chance with best play.

    Raises:
        VariantError: unknown variant. DealNumberError: ``start`` is not a deal number.
        NestorError: ``count`` is not a whole number from 1 to ``MAX_DEAL - start``
            (code ``number.not_whole`` or ``number.range``, ``where`` ``"count"``).
    """
    get_variant(variant)
    whole_number(count, "count", low=1, high=MAX_DEAL - check_deal_number(start))
    jobs_list = [(variant, start + i) for i in range(count)]
    began = time.perf_counter()
    if jobs > 1:
        from multiprocessing import Pool  # not at the top: the browser has no processes

        with Pool(jobs) as pool:
            results = pool.map(_odds_one, jobs_list, chunksize=64)
    else:
        results = [_odds_one(j) for j in jobs_list]
    wins = sum(1 for w, _ in results if w)
    low, high = wilson(wins, count)
    report: dict[str, Any] = {
        "variant": variant, "start": start, "deals": count,
        "winnable": wins, "share": wins / count, "interval": [low, high],
        "seconds": round(time.perf_counter() - began, 1),
    }
    if get_variant(variant).has_stock:
        report["order_known"] = report.pop("share")
        report["order_known_interval"] = report.pop("interval")
        mean, lo, hi = mean_interval([p or 0.0 for _, p in results])
        report["win_probability"] = mean
        report["win_probability_interval"] = [lo, hi]
    return report


def winnable_deal_steps(
    variant: Variant, rng: random.Random, limit: int = WINNABLE_SEARCH_LIMIT
) -> Generator[None, None, int | None]:
    """Draw deal numbers until the solver proves one winnable; return it.

    Numbers are drawn uniformly from ``0 .. MAX_DEAL - 1`` with ``rng``.
    Strict counts as winnable when the actual stock order allows a win.
    Yields between solver steps (see :func:`nestor.solver.solve_steps`);
    returns ``None`` after ``limit`` deals without success.
    """
    for _attempt in range(limit):
        number = rng.randrange(MAX_DEAL)
        solution = yield from solve_steps(deal_position(variant, number))
        if _proven_winnable(solution):
            return number
    return None

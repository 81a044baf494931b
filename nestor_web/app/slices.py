"""Running a step generator in short time slices, handing control back between them.

The solver's generators (:func:`nestor.solver.solve_steps`, :func:`nestor.review.sliced`, ...)
yield every few dozen positions; :func:`run_sliced` drives one for at most
:data:`SLICE_SECONDS` at a time and then awaits ``asyncio.sleep(0)``, so the event loop
(in the page: input, rendering) runs between two slices. Pure asyncio: the page's
``Tasks.sliced`` (:mod:`nestor_web.browser.tasks`) and the review benchmark
(``bench/review.py``) both run their work through it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator
from typing import TypeVar

T = TypeVar("T")

SLICE_SECONDS = 0.008
"""Longest stretch (seconds) the work runs before the event loop gets to run again."""


async def run_sliced(
    steps: Generator[None, None, T], slice_seconds: float = SLICE_SECONDS
) -> T:
    """Drive ``steps`` to its end in slices of ``slice_seconds``; return its value.

    Between two slices it awaits ``asyncio.sleep(0)``. A slice ends at the first
    step that finishes past its deadline, so a slice may overrun by one step.
    Exceptions raised by ``steps`` propagate.
    """
    while True:
        deadline = time.perf_counter() + slice_seconds
        try:
            while time.perf_counter() < deadline:
                next(steps)
        except StopIteration as done:
            result: T = done.value
            return result
        await asyncio.sleep(0)

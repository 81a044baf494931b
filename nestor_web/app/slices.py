"""Running a step generator in short time slices, handing control back between them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator
from typing import TypeVar

T = TypeVar("T")

SLICE_SECONDS = 0.008  # the longest the work runs before the event loop runs again


async def run_sliced(steps: Generator[None, None, T], slice_seconds: float = SLICE_SECONDS) -> T:
    """Drive ``steps`` to its end in slices of ``slice_seconds``; return its value."""
    while True:
        deadline = time.perf_counter() + slice_seconds
        try:
            while time.perf_counter() < deadline:
                next(steps)
        except StopIteration as done:
            result: T = done.value
            return result
        await asyncio.sleep(0)

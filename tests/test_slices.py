"""nestor_web/app/slices.py: the slice runner the page's Tasks and the review benchmark share."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator

import pytest

from nestor_web.app.slices import SLICE_SECONDS, run_sliced


def busy_steps(count: int, step_seconds: float, log: list[str]) -> Generator[None, None, int]:
    """``count`` steps of ``step_seconds`` of busy work each; returns ``count``."""
    for _ in range(count):
        end = time.perf_counter() + step_seconds
        while time.perf_counter() < end:
            pass
        log.append("step")
        yield None
    return count


def test_the_event_loop_runs_between_slices_and_the_value_comes_back():
    log: list[str] = []

    async def other() -> None:
        while True:
            log.append("other")
            await asyncio.sleep(0)

    async def main() -> int:
        task = asyncio.ensure_future(other())
        await asyncio.sleep(0)
        log.clear()
        result = await run_sliced(busy_steps(40, 0.001, log), slice_seconds=0.005)
        task.cancel()
        return result

    assert asyncio.run(main()) == 40
    assert log.count("step") == 40
    # The other task ran between slices, and never in the middle of a short one.
    runs = "".join("s" if x == "step" else "o" for x in log).split("o")
    slices = [len(r) for r in runs if r]
    assert len(slices) >= 4, slices
    assert max(slices) <= 10, slices  # 5 ms slices of 1 ms steps: about 5 steps each


def test_a_quick_generator_finishes_in_one_slice_and_errors_propagate():
    async def none() -> int:
        return await run_sliced(busy_steps(3, 0.0, []))

    assert asyncio.run(none()) == 3
    assert pytest.approx(0.008) == SLICE_SECONDS

    def broken() -> Generator[None, None, int]:
        yield None
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        asyncio.run(run_sliced(broken()))

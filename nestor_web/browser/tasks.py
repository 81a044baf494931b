"""Solver work in short slices, so the page keeps handling input while it runs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Generator
from typing import Any, TypeVar

from pyscript import document

from ..app.slices import SLICE_SECONDS, run_sliced

__all__ = ["SLICE_SECONDS", "Tasks"]

T = TypeVar("T")


class Tasks:
    """Runs solver generators in slices and keeps ``<body data-busy>`` while any runs."""

    def __init__(self) -> None:
        self.running = 0
        self._keep: set[asyncio.Future[Any]] = set()

    def spawn(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Start the coroutine ``make()`` beside the page (its reference is kept until done)."""
        future = asyncio.ensure_future(make())
        self._keep.add(future)
        future.add_done_callback(self._keep.discard)

    async def sliced(self, steps: Generator[None, None, T]) -> T:
        """Run ``steps`` in slices of :data:`SLICE_SECONDS`, yielding to the page between."""
        self.running += 1
        document.body.setAttribute("data-busy", "")
        try:
            return await run_sliced(steps)
        finally:
            self.running -= 1
            if not self.running:
                document.body.removeAttribute("data-busy")

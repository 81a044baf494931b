"""Run a step generator to its end.

The long computations of :mod:`nestor` (the solver, the review, the Finish check) are
generators that yield between slices of work, so the page can spread them over time
(``nestor_web/app/slices.py``), and return their answer as the generator's value
(``StopIteration.value``). :func:`run_to_end` is the one-go driver for everyone else.
Standard library only, and nothing else imported: any module may use it.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

__all__ = ["run_to_end"]

T = TypeVar("T")


def run_to_end(steps: Generator[object, None, T]) -> T:
    """Drive ``steps`` with ``next()`` until it stops; return its value.

    What it yields is thrown away. Exceptions raised by ``steps`` propagate unchanged
    (a generator that raises at its first step raises here, before any work is lost).
    """
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: T = done.value
            return result

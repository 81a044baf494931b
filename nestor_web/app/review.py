"""The review of the game in play, as the page works it out."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, TypeVar

from nestor import Record
from nestor.review import DEFAULT_MAX_NODES, MoveReview, Review, review_steps, sliced

if TYPE_CHECKING:
    from nestor.puzzles import Verdict

T = TypeVar("T")


class ReviewState:
    """One game under review: the ``moves`` reviewed so far, the ``result`` once done, the move
    ``chosen`` (``picked``: by the player), the ``practice`` verdict before the turning point."""

    def __init__(self, record: Record, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.record = record
        self.max_nodes = max_nodes
        self.moves: list[MoveReview] = []
        self.result: Review | None = None
        self.chosen: int | None = None
        self.picked = False
        self.practice: Verdict | None = None

    @property
    def total(self) -> int:
        return len(self.record.moves)

    @property
    def done(self) -> bool:
        return self.result is not None

    def finish(self, review: Review) -> None:
        """The review is done: keep it; unless the player chose a move, choose the turning point,
        else the first critical moment."""
        self.result = review
        self.moves = list(review.moves)
        if not self.picked:
            critical = review.critical[0] if review.critical else None
            self.chosen = critical if review.turning_point is None else review.turning_point

    def steps(self, alive: Callable[[], bool] = lambda: True) -> Generator[None, None, bool]:
        """The review in slices while ``alive`` (else ``False``), then the position before its
        turning point examined for :attr:`practice` (RecordError: an illegal move)."""
        work = sliced(review_steps(self.record, self.max_nodes), self.moves.append)
        review, going = yield from _while(alive, work)
        if not going or review is None:
            return False
        self.finish(review)
        if review.turning_point is None or self.record.variant.has_stock:
            return True
        from nestor.puzzles import examine_steps  # only once a review has a turning point

        examining = examine_steps(review.position_before(review.turning_point))
        practice, going = yield from _while(alive, examining)
        if going:
            self.practice = practice
        return going

    def choose(self, index: int) -> bool:
        """Look at move ``index`` (clamped to the record's moves)."""
        if not self.total:
            return False
        index = max(0, min(self.total - 1, index))
        self.picked = True
        if index == self.chosen:
            return False
        self.chosen = index
        return True

    def step(self, delta: int) -> bool:
        """Look at the move ``delta`` after the one chosen (from an end when none is)."""
        here = self.chosen if self.chosen is not None else (-1 if delta > 0 else self.total)
        return self.choose(here + delta)


def _while(
    alive: Callable[[], bool], work: Generator[None, None, T]
) -> Generator[None, None, tuple[T | None, bool]]:
    """Run ``work`` while ``alive``: its value and ``True``, or ``(None, False)`` once not alive."""
    while alive():
        try:
            next(work)
        except StopIteration as done:
            return done.value, True
        yield None
    work.close()
    return None, False

"""The player's puzzle record: the first try of each puzzle, and of each day's daily puzzle."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

START_RATING = 1500
MAX_DAILY = 1000  # daily tries kept (the oldest dates go first)


@dataclass(frozen=True)
class Try:
    """A puzzle's first try: its id and rating, solved or not, and when (ms since 1970)."""

    puzzle: int
    rating: int
    solved: bool
    at: int

    def order(self) -> tuple[int, int, bool]:
        """Its place in time (ties: by puzzle, a failed try first)."""
        return (self.at, self.puzzle, self.solved)


def _earlier(a: Try | None, b: Try) -> Try:
    return b if a is None or b.order() < a.order() else a


@dataclass
class PuzzleRecord:
    """The first tries by puzzle id, and by date the daily puzzle's first try on its date."""

    tries: dict[int, Try] = field(default_factory=dict)
    daily: dict[date, Try] = field(default_factory=dict)

    def in_order(self) -> list[Try]:
        return sorted(self.tries.values(), key=Try.order)

    def rating(self) -> int:
        """The player's rating: :data:`START_RATING` moved by each try in turn."""
        from nestor.puzzles import updated_rating  # only when a rating is shown

        rating = START_RATING
        for one in self.in_order():
            rating = updated_rating(rating, one.rating, one.solved)
        return rating

    def streak(self) -> int:
        """Puzzles solved in a row, up to the last try."""
        run = 0
        for one in self.in_order():
            run = run + 1 if one.solved else 0
        return run

    def solved(self) -> int:
        return sum(1 for one in self.tries.values() if one.solved)

    def add(self, one: Try, day: date | None = None) -> bool:
        """Keep ``one`` if its puzzle's first try (with ``day``: the date's first daily try too)."""
        changed = False
        if one.puzzle not in self.tries:
            self.tries[one.puzzle] = one
            changed = True
        if day is not None and day not in self.daily:
            self.daily[day] = one
            self._trim()
            changed = True
        return changed

    def unite(self, other: PuzzleRecord) -> bool:
        """Take in ``other``'s tries: the earlier of the two, for each puzzle and date."""
        before = (dict(self.tries), dict(self.daily))
        for key, one in other.tries.items():
            self.tries[key] = _earlier(self.tries.get(key), one)
        for day, one in other.daily.items():
            self.daily[day] = _earlier(self.daily.get(day), one)
        self.daily = dict(sorted(self.daily.items()))
        self._trim()
        return (self.tries, self.daily) != before

    def copy(self) -> PuzzleRecord:
        return PuzzleRecord(dict(self.tries), dict(self.daily))

    def _trim(self) -> None:
        if len(self.daily) > MAX_DAILY:
            self.daily = dict(sorted(self.daily.items())[-MAX_DAILY:])

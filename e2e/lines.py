"""Lines of play computed with the engine, for the browser tests to follow by tapping."""

from __future__ import annotations

from nestor import Game, Move, Outcome, Position


def winning_line(position: Position, budget: int = 200_000) -> list[Move] | None:
    """Return moves that win from ``position`` (depth-first, memo of lost positions), or None.

    Gives up (returns None) after ``budget`` positions, so a test can try the next deal.
    """
    lost: set[Position] = set()
    line: list[Move] = []
    visited = 0

    def search(pos: Position) -> bool:
        nonlocal visited
        visited += 1
        if visited > budget:
            return False
        outcome = pos.outcome()
        if outcome is not None:
            return outcome is Outcome.WON
        if pos in lost:
            return False
        for move in pos.legal_moves():
            line.append(move)
            if search(pos.apply(move)):
                return True
            line.pop()
        lost.add(pos)
        return False

    return list(line) if search(position) else None


def find_winnable(variant: str, start: int = 0, tries: int = 200) -> tuple[int, list[Move]]:
    """Return the first deal number from ``start`` with a winning line found by the search."""
    for deal in range(start, start + tries):
        line = winning_line(Game(variant, deal).start)
        if line is not None:
            return deal, line
    raise AssertionError(f"no winnable {variant} deal found in {start}..{start + tries - 1}")


def losing_line(variant: str, deal: int) -> list[Move]:
    """Return moves that lose deal ``deal``: always take the first legal move."""
    game = Game(variant, deal)
    while game.outcome() is None:
        game.push(game.legal_moves()[0])
    assert game.outcome() is not Outcome.WON, "this line wins; pick another deal"
    return list(game.moves)

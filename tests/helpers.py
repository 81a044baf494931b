"""What the unit tests share: the solver's references (a brute force over the public Position
API, small random layouts, the plain search of bench/solver.py), clocks and calendars the test
moves, and a session played through the player's own commands."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from types import ModuleType

from hypothesis import assume
from hypothesis import strategies as st

from nestor import Game
from nestor.cards import RANKS, SUITS
from nestor.position import Move, Pair, Position, TurnStock
from nestor.variants import VARIANTS, Variant
from nestor_web.app.session import Session

ALL_VARIANTS = list(VARIANTS.values())


# ---- the reference: brute force over the public Position API -----------------------------


def brute_winnable(p: Position, lost: set[Position] | None = None) -> bool:
    """Can ``p`` be won (stock order as given)? Exhaustive DFS, memo of lost positions."""
    if lost is None:
        lost = set()
    outcome = p.outcome()
    if outcome is not None:
        return outcome.won
    if p in lost:
        return False
    for move in p.legal_moves():
        if brute_winnable(p.apply(move), lost):
            return True
    lost.add(p)
    return False


def turn_each(p: Position) -> list[Position]:
    """The positions after turning the stock, one per card that could come up next."""
    out = []
    for i, card in enumerate(p.stock):
        rest = p.stock[:i] + p.stock[i + 1 :]
        out.append(Position(p.variant, p.columns, p.reserve, (card,) + rest).apply(TurnStock()))
    return out


def brute_chance(p: Position, memo: dict[object, float]) -> float:
    """Strict: the best-play win probability with every stock order equally likely."""
    outcome = p.outcome()
    if outcome is not None:
        return 1.0 if outcome.won else 0.0
    key = (p.columns, p.reserve, frozenset(p.stock))
    if key not in memo:
        memo[key] = max(move_value(p, m, memo) for m in p.legal_moves())
    return memo[key]


def move_value(p: Position, move: Move, memo: dict[object, float]) -> float:
    """Strict: the chance to win after playing ``move`` in ``p`` (then best play)."""
    if isinstance(move, TurnStock):
        after = turn_each(p)
        return sum(brute_chance(q, memo) for q in after) / len(after)
    return brute_chance(p.apply(move), memo)


# ---- small random layouts ---------------------------------------------------------------


def build(
    variant: Variant,
    cards: Sequence[str],
    slots: Sequence[int],
    choices: Sequence[int],
    depth: int = 4,
) -> Position | None:
    """Place ``cards`` one by one in the columns ``slots`` or the reserve/stock.

    ``choices[i]`` picks (modulo) among the places card ``i`` may legally go:
    a listed column less than ``depth`` deep without its rank, or the reserve/stock
    (at most 4 cards). ``None`` if some card has nowhere to go.
    """
    columns: list[list[str]] = [[] for _ in range(variant.columns)]
    spare: list[str] = []
    depth = min(depth, variant.depth)
    for card, choice in zip(cards, choices, strict=True):
        options: list[int | None] = [
            i for i in slots
            if len(columns[i]) < depth and all(c[0] != card[0] for c in columns[i])
        ]
        if len(spare) < 4:
            options.append(None)
        if not options:
            return None
        where = options[choice % len(options)]
        if where is None:
            spare.append(card)
        else:
            columns[where].append(card)
    if variant.has_stock:
        return Position.checked(variant, columns, (), spare)
    return Position.checked(variant, columns, spare)


def random_position(rng: random.Random, variant: Variant, big: bool = False) -> Position:
    """A few ranks in up to 5 columns of up to 4 cards (big: up to 8 ranks, 6 x 5)."""
    while True:
        cards = []
        for rank in rng.sample(RANKS, rng.randint(4, 8) if big else rng.randint(1, 6)):
            cards += [rank + s for s in rng.sample(SUITS, rng.choice((2, 2, 4)))]
        rng.shuffle(cards)
        width = rng.randint(3, 6) if big else rng.randint(1, 5)
        slots = rng.sample(range(variant.columns), width)
        # The reserve or stock is the last place offered: make it rarer half of the time.
        sparing = rng.random() < 0.5
        choices = [rng.randrange(1000) for _ in cards]
        if sparing:
            choices = [c % len(slots) if rng.random() < 0.8 else c for c in choices]
        p = build(variant, cards, slots, choices, 5 if big else 4)
        if p is not None:
            return p


@st.composite
def small_positions(draw: st.DrawFn) -> Position:
    variant = draw(st.sampled_from(ALL_VARIANTS))
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=5, unique=True))
    cards: list[str] = []
    for rank in ranks:
        suits = draw(st.permutations(SUITS))[: draw(st.sampled_from((2, 4)))]
        cards += [rank + s for s in suits]
    cards = draw(st.permutations(cards))
    slots = draw(
        st.lists(st.integers(0, variant.columns - 1), min_size=1, max_size=4, unique=True)
    )
    choices = draw(st.lists(st.integers(0, 60), min_size=len(cards), max_size=len(cards)))
    p = build(variant, cards, slots, choices)
    assume(p is not None)
    assert p is not None
    return p


def mid_game(rng: random.Random, variant: str, cards_left: int) -> Position:
    """Random play from a random deal until at most ``cards_left`` cards or the end."""
    game = Game(variant, rng.randrange(1_000_000))
    while game.outcome() is None and game.position.cards_left() > cards_left:
        game.push(rng.choice(game.legal_moves()))
    return game.position


ROOT = Path(__file__).resolve().parent.parent


def load_file(path: Path, name: str) -> ModuleType:
    """The Python file ``path`` (a script or bench, in no package) imported as module ``name``,
    registered in ``sys.modules`` (a dataclass in it looks its module up there)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def script_module(name: str) -> ModuleType:
    """scripts/NAME.py, imported (as ``nestor_scripts_NAME``)."""
    return load_file(ROOT / "scripts" / f"{name}.py", f"nestor_scripts_{name}")


def plain_search_class() -> type:
    """The plain search of bench/solver.py: depth-first over every pair, a memo of lost
    positions, no pruning rule and no move order (Strict: the stock in its dealt order, and
    a plain expectimax over the unknown order). It shares no code with nestor.solver."""
    return load_file(ROOT / "bench" / "solver.py", "bench_solver").Plain


# ---- time and the session ----------------------------------------------------------------


class Clock:
    """A steady clock the test moves on by hand (milliseconds)."""

    def __init__(self, now: int = 0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


class Calendar:
    """The player's local date, set by the test."""

    def __init__(self, day: date) -> None:
        self.day = day

    def __call__(self) -> date:
        return self.day


def played(variant: str, deal: int, moves: list | None = None, ms_per_move: int = 1000
           ) -> Session:
    """A session of ``variant``/``deal`` played through the player's own commands (taps and
    stock turns), ``ms_per_move`` on the timer before each move; by default always the
    first legal move, until the game ends."""
    clock = Clock()
    session = Session(Game(variant, deal), rng=random.Random(0), timer_clock=clock,
                      clock=lambda: 1_700_000_000_000)
    line = iter(moves) if moves is not None else None
    while session.game.outcome() is None:
        move = next(line) if line is not None else session.game.legal_moves()[0]
        clock.now += ms_per_move
        if isinstance(move, TurnStock):
            events = session.turn_stock()
        else:
            assert isinstance(move, Pair)
            session.selected = None
            events = session.tap(move.first) + session.tap(move.second)
        assert events, move
    return session

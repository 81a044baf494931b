"""The solver's incremental bookkeeping (issue 24, item 5) against a plain scan.

Since 4 December 2026 :class:`nestor.solver.model.Search` keeps the available stacks per
rank as bit sets (``avail``) through every removal and restore, and R1
(:meth:`~nestor.solver.model.Search.safe_closure`) looks inside a search only at the ranks
a move uncovered; the exact search skips a child the lost-memo already holds without
starting a search there. None of it may change an answer, a line or a node count:

* ``avail`` and :meth:`tops` always equal a scan of the stack tops (random walks of
  removals and restores, Strict's stock turns too);
* searches whose R1 looks at every rank at every node find the same lines, chances, best
  moves and node counts (small random positions, Hypothesis, and mid-game positions of real
  deals);
* ``solve`` answers as before on deals 0 to 299 of every variant
  (``tests/data/solve-answers.json``, recorded with main ef69456 before the change: status,
  known order, chance, best move, a digest of the line, nodes).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from helpers import mid_game, random_position, small_positions
from hypothesis import HealthCheck, given, settings
from profiles import examples

from nestor import VARIANTS, deal_position
from nestor.cards import RANKS
from nestor.position import Position
from nestor.solver import solve
from nestor.solver.chance import best_chance
from nestor.solver.exact import winning_line
from nestor.solver.model import Search, stacks_of
from nestor.steps import run_to_end

DATA = Path(__file__).parent / "data" / "solve-answers.json"
ALL_VARIANTS = list(VARIANTS.values())


def scanned_tops(search: Search) -> dict[int, list[int]]:
    """The tops as the model computed them before 4 December 2026: one scan of the stacks."""
    tops: dict[int, list[int]] = {}
    for i, (s, high) in enumerate(zip(search.ranks, search.heights, strict=True)):
        if high:
            tops.setdefault(s[high - 1], []).append(i)
    return tops


def check_bookkeeping(search: Search) -> None:
    tops = scanned_tops(search)
    for r in range(13):
        assert search.avail[r] == sum(1 << i for i in tops.get(r, []))
        assert search.top_stack(r) == (tops[r][0] if r in tops else -1)
    assert search.hkey == sum(h * w for h, w in zip(search.heights, search.weights, strict=True))


class FullScan(Search):
    """A search whose R1 looks at every rank at every node (the plain closure)."""

    def safe_closure(self, full: bool = False) -> list[tuple[int, int]]:
        return super().safe_closure(True)


def both(p: Position) -> tuple[Search, Search]:
    strict = p.variant.has_stock
    return (
        Search(stacks_of(p), list(p.stock), not strict, None),
        FullScan(stacks_of(p), list(p.stock), not strict, None),
    )


def same_searches(p: Position) -> None:
    """The exact search (and Strict's chance) with and without the incremental closure."""
    fast, plain = both(p)
    line = run_to_end(winning_line(fast))
    assert line == run_to_end(winning_line(plain))
    assert fast.nodes == plain.nodes
    check_bookkeeping(fast)  # back in its starting state
    if p.variant.has_stock:
        fast, plain = both(p)
        fast.prune_free = plain.prune_free = False
        assert run_to_end(best_chance(fast)) == run_to_end(best_chance(plain))
        assert fast.nodes == plain.nodes
        check_bookkeeping(fast)


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_avail_follows_removals_and_restores(variant):
    rng = random.Random(f"avail-{variant.name}")
    for n in range(60):
        p = deal_position(variant.name, n) if n % 2 else random_position(rng, variant, big=True)
        search = Search(stacks_of(p), list(p.stock), False, None)
        check_bookkeeping(search)
        undo: list[tuple[str, int, int]] = []
        for _ in range(40):
            tops = scanned_tops(search)
            pairs = [(lst[x], lst[y]) for lst in tops.values()
                     for x in range(len(lst)) for y in range(x + 1, len(lst))]
            turns = [(i, RANKS.index(c[0])) for c in search.stock
                     for i in tops.get(RANKS.index(c[0]), [])[:1]]
            if undo and (rng.random() < 0.3 or not pairs and not turns):
                kind, a, b = undo.pop()
                if kind == "pair":
                    search.restore_pair(a, b)
                else:
                    search.restore_one(a, b)
            elif pairs and (not turns or rng.random() < 0.7):
                a, b = rng.choice(pairs)
                search.pop_pair(a, b)
                undo.append(("pair", a, b))
            elif turns:
                stack, rank = rng.choice(turns)
                search.pop_one(stack, rank)
                undo.append(("one", stack, rank))
            else:
                break
            check_bookkeeping(search)
        saved = search.snapshot()
        while undo:
            kind, a, b = undo.pop()
            (search.restore_pair if kind == "pair" else search.restore_one)(a, b)
        check_bookkeeping(search)
        search.resume(saved)
        check_bookkeeping(search)


@given(small_positions())
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_incremental_closure_searches_as_the_full_one_hypothesis(p):
    same_searches(p)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_incremental_closure_on_real_positions(variant):
    rng = random.Random(f"closure-{variant}")
    for n in range(40):
        p = mid_game(rng, variant, rng.choice((24, 30, 36))) if n % 4 else deal_position(variant, n)
        if p.outcome() is None:
            same_searches(p)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_solve_answers_as_before(variant):
    rows = json.loads(DATA.read_text())[variant]
    assert len(rows) == 300
    for deal, status, known, chance, best, line, nodes in rows:
        s = solve(deal_position(variant, deal))
        digest = hashlib.sha256(" ".join(map(str, s.line)).encode()).hexdigest()[:12]
        assert (s.status.value, s.known_order and s.known_order.value, s.win_probability,
                str(s.best_move), digest) == (status, known, chance, best, line), deal
        assert s.nodes == nodes, deal

"""Ways of playing Nestor without the solver, to measure how much skill matters.

A *strategy* is a function ``(position, rng) -> move`` that returns one of the position's legal
moves, deterministically for a given ``rng`` state. Strict's stock turn is played when it is
the only legal move; otherwise a strategy ranks the pairs by a key (a tuple, higher is better)
and draws among the best with ``rng``, in :meth:`~nestor.position.Position.legal_moves` order.
The strategies: ``random``, the beginners' three tips (``uncover``, ``reserve-last``,
``longest``) alone and together (``tips``), ``greedy`` (one move's look-ahead) and ``perfect``
(the solver's move); docs/odds.md, "How much does skill matter?", gives each one's key.
Standard library only, pure Python: no state outside the arguments.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .analysis import odds, wilson
from .cards import rank_of
from .checks import whole_number
from .deal import MAX_DEAL, check_deal_number, deal_position
from .errors import IllegalMoveError, NestorError, clip
from .position import Move, Pair, Position
from .solver import solve
from .variants import get_variant

Strategy = Callable[[Position, random.Random], Move]
"""A strategy: ``(position in play, seeded random source) -> a legal move``."""

Key = tuple[int, ...]


def _pick(position: Position, rng: random.Random, key: Callable[[Position, Pair], Key]) -> Move:
    """The legal move with the highest ``key``, ties drawn uniformly with ``rng``.

    A forced stock turn (Strict, no pair open) is played as it is.

    Raises:
        IllegalMoveError: the game is over (code ``illegal.game_over``).
    """
    moves = _moves(position)
    pairs = [m for m in moves if isinstance(m, Pair)]
    if not pairs:
        return moves[0]
    keys = [key(position, p) for p in pairs]
    best = max(keys)
    return rng.choice([p for p, k in zip(pairs, keys, strict=True) if k == best])


def _moves(position: Position) -> list[Move]:
    """The legal moves of a position in play.

    Raises:
        IllegalMoveError: the game is over (code ``illegal.game_over``).
    """
    outcome = position.outcome()
    if outcome is not None:
        raise IllegalMoveError(
            f"the game is over ({outcome.value}): no move to choose",
            code="illegal.game_over", outcome=outcome.name.lower(),
        )
    return position.legal_moves()


def freed_cards(position: Position, pair: Pair) -> tuple[str, ...]:
    """The cards ``pair`` makes available: those available after it that were not before.

    Worked out without playing the pair (the same cards as
    ``position.apply(pair).newly_available(position)``, which the tests check): the card
    under each column card of the pair; in the overlapping reserve, the card under the top
    one; in Strict, the whole stock when the pair empties the tableau (it is turned face up).
    """
    places = position.available()
    freed: list[str] = []
    emptied = 0
    for card in pair.cards:
        place = places[card]
        if place.area == "column":
            column = position.columns[place.slot]
            if len(column) >= 2:
                freed.append(column[-2])
            else:
                emptied += 1
        elif (place.area == "reserve" and position.variant.overlapping
              and len(position.reserve) >= 2):
            freed.append(position.reserve[-2])
    if position.stock and not position.stock_turned_up:
        left = sum(1 for column in position.columns if column)
        if left == emptied:
            freed.extend(position.stock)
    return tuple(freed)


@lru_cache(maxsize=4)
def _open_ranks(position: Position) -> Counter[str]:
    """How many cards of each rank are available (kept for the last few positions asked:
    every pair of a position is ranked in a row)."""
    return Counter(rank_of(card) for card in position.available())


def _open_after(position: Position, pair: Pair, freed: tuple[str, ...]) -> Counter[str]:
    """How many cards of each rank are available after ``pair`` (which frees ``freed``)."""
    counts = _open_ranks(position).copy()
    counts[rank_of(pair.first)] -= 2
    counts.update(rank_of(card) for card in freed)
    return counts


def uncover_key(position: Position, pair: Pair) -> Key:
    """Tip 1's key for ``pair``: ``(useful, freed)``.

    ``freed``: the cards available after the pair that were not before (what lay under
    it, :func:`freed_cards`); ``useful``: those of them with at least one available partner
    after the pair.
    """
    freed = freed_cards(position, pair)
    if not freed:
        return (0, 0)
    counts = _open_after(position, pair, freed)
    return (sum(1 for card in freed if counts[rank_of(card)] >= 2), len(freed))


def reserve_key(position: Position, pair: Pair) -> Key:
    """Tip 2's key for ``pair``: minus the number of its cards not taken from a column."""
    places = position.available()
    return (-sum(1 for card in pair.cards if places[card].area != "column"),)


def longest_key(position: Position, pair: Pair) -> Key:
    """Tip 3's key for ``pair``: the cards in the columns its two cards come from, summed.

    Counted before the move; a reserve or stock card adds 0.
    """
    places = position.available()
    total = 0
    for card in pair.cards:
        place = places[card]
        if place.area == "column":
            total += len(position.columns[place.slot])
    return (total,)


def tips_key(position: Position, pair: Pair) -> Key:
    """The three tips in order: :func:`uncover_key`, then :func:`reserve_key`, then
    :func:`longest_key`, as one tuple."""
    return uncover_key(position, pair) + reserve_key(position, pair) + longest_key(position, pair)


def greedy_key(position: Position, pair: Pair) -> Key:
    """One-move look-ahead: ``(pairs,)``, the number of pairs available after ``pair``
    (``len(position.apply(pair).pairs())``, counted without playing the pair: ``n`` open
    cards of a rank make ``n * (n - 1) / 2`` pairs)."""
    counts = _open_after(position, pair, freed_cards(position, pair))
    return (sum(n * (n - 1) // 2 for n in counts.values()),)


def play_random(position: Position, rng: random.Random) -> Move:
    """``random``: a legal move drawn uniformly with ``rng`` (source: none, the baseline).

    Raises:
        IllegalMoveError: the game is over (code ``illegal.game_over``).
    """
    return rng.choice(_moves(position))


def play_uncover(position: Position, rng: random.Random) -> Move:
    """``uncover``: the pair that frees the most useful cards (:func:`uncover_key`).

    Source: ``shared/seeds`` 000, the first tip for beginners (look at what lies under each
    candidate and free the most useful cards). Raises IllegalMoveError when the game is over.
    """
    return _pick(position, rng, uncover_key)


def play_reserve_last(position: Position, rng: random.Random) -> Move:
    """``reserve-last``: the pair with the fewest reserve cards (:func:`reserve_key`).

    Source: ``shared/seeds`` 000, the second tip (keep the reserve cards for when they are
    needed: they are always available). Raises IllegalMoveError when the game is over.
    """
    return _pick(position, rng, reserve_key)


def play_longest(position: Position, rng: random.Random) -> Move:
    """``longest``: the pair taken from the longest columns (:func:`longest_key`).

    Source: ``shared/seeds`` 000, the third tip (take from the longest columns first, they
    hide the most cards). Raises IllegalMoveError when the game is over.
    """
    return _pick(position, rng, longest_key)


def play_tips(position: Position, rng: random.Random) -> Move:
    """``tips``: the three tips of ``shared/seeds`` 000 in their order (:func:`tips_key`).

    Raises IllegalMoveError when the game is over.
    """
    return _pick(position, rng, tips_key)


def play_greedy(position: Position, rng: random.Random) -> Move:
    """``greedy``: the pair after which the most pairs are open (:func:`greedy_key`).

    Source: none (a one-move look-ahead, the simplest search). Raises IllegalMoveError when
    the game is over.
    """
    return _pick(position, rng, greedy_key)


def play_perfect(position: Position, rng: random.Random) -> Move:
    """``perfect``: the exact solver's move; a random legal move when none helps.

    Open variants: the first move of a winning line. Strict: the move with the best chance
    with the stock order unknown (the solver does not look at the stock). Source: the rules
    of ``shared/seeds`` 000 searched exhaustively by :mod:`nestor.solver`. Raises
    IllegalMoveError when the game is over.
    """
    moves = _moves(position)
    best = solve(position, known_order=False).best_move
    return best if best is not None and best in moves else rng.choice(moves)


STRATEGIES: dict[str, Strategy] = {
    "random": play_random,
    "uncover": play_uncover,
    "reserve-last": play_reserve_last,
    "longest": play_longest,
    "tips": play_tips,
    "greedy": play_greedy,
    "perfect": play_perfect,
}
"""Every strategy by name, in the order the odds table lists them."""


def get_strategy(name: str) -> Strategy:
    """The strategy called ``name``.

    Raises:
        NestorError: no such strategy (code ``strategy.unknown``, details ``value`` and
            ``choices``, the names comma separated).
    """
    try:
        return STRATEGIES[name]
    except (KeyError, TypeError):
        raise NestorError(
            f"unknown strategy {clip(str(name))!r}; choose one of: {', '.join(STRATEGIES)}",
            code="strategy.unknown", value=clip(name if isinstance(name, str) else repr(name)),
            choices=",".join(STRATEGIES),
        ) from None


def deal_rng(seed: int, variant: str, strategy: str, deal: int) -> random.Random:
    """The random source one deal is played with: seeded from the text
    ``"seed:variant:strategy:deal"``, so a deal's game does not depend on which other deals
    are played or in which process."""
    return random.Random(f"{seed}:{variant}:{strategy}:{deal}")


def play_out(position: Position, strategy: Strategy, rng: random.Random) -> Position:
    """Play ``strategy`` from ``position`` until the game is over; return the final position.

    Raises:
        IllegalMoveError: the strategy returned an illegal move.
    """
    while position.outcome() is None:
        position = position.apply(strategy(position, rng))
    return position


def play_deal(variant: str, strategy: str, deal: int, seed: int = 0) -> bool:
    """Play deal number ``deal`` of ``variant`` with the named strategy; ``True`` if won.

    The random source is :func:`deal_rng` ``(seed, variant, strategy, deal)``.

    Raises:
        VariantError, DealNumberError, NestorError (``strategy.unknown``).
    """
    play = get_strategy(strategy)
    final = play_out(deal_position(variant, deal), play, deal_rng(seed, variant, strategy, deal))
    outcome = final.outcome()
    return outcome is not None and outcome.won


def _play_job(job: tuple[str, str, int, int]) -> bool:
    """One deal for a worker process: ``(variant, strategy, deal, seed)`` -> won."""
    return play_deal(*job)


def strategy_odds(
    variant: str, strategy: str, start: int, count: int, jobs: int = 1, seed: int = 0
) -> dict[str, Any]:
    """Play deals ``start .. start+count-1`` of ``variant`` with ``strategy``; the share won.

    Returns ``{"variant", "strategy", "start", "deals", "seed", "won", "share",
    "interval": [low, high], "seconds"}``, ``share`` and the 95% interval in ``0..1``
    (Wilson's, :func:`nestor.analysis.wilson`). ``perfect`` is not played out but read from
    the solver (:func:`nestor.analysis.odds`): the deals proven winnable; in Strict,
    ``share`` is the mean chance with best play (stock order unknown), its interval the
    normal approximation, and ``won`` is ``None``. ``jobs > 1`` plays in that many worker
    processes (CPython only); the result is the same.

    Raises:
        VariantError: unknown variant. DealNumberError: ``start`` is not a deal number.
        NestorError: unknown strategy (``strategy.unknown``); ``count`` is not a whole number
            from 1 to ``MAX_DEAL - start`` (``number.not_whole``, ``number.range``).
    """
    get_variant(variant)
    get_strategy(strategy)
    whole_number(count, "count", low=1, high=MAX_DEAL - check_deal_number(start))
    began = time.perf_counter()
    report: dict[str, Any] = {
        "variant": variant, "strategy": strategy, "start": start, "deals": count, "seed": seed,
    }
    if strategy == "perfect":
        solved = odds(variant, start, count, jobs)
        if get_variant(variant).has_stock:
            report["won"] = None
            report["share"] = solved["win_probability"]
            report["interval"] = solved["win_probability_interval"]
        else:
            report["won"] = solved["winnable"]
            report["share"] = solved["share"]
            report["interval"] = solved["interval"]
    else:
        work = [(variant, strategy, start + i, seed) for i in range(count)]
        if jobs > 1:
            from multiprocessing import Pool  # not at the top: the browser has no processes

            with Pool(jobs) as pool:
                results = pool.map(_play_job, work, chunksize=50)
        else:
            results = [_play_job(w) for w in work]
        won = sum(results)
        report["won"] = won
        report["share"] = won / count
        report["interval"] = list(wilson(won, count))
    report["seconds"] = round(time.perf_counter() - began, 1)
    return report


"""The check behind Finish (nestor.finish): can any way of playing on lose?"""

from __future__ import annotations

import random

from webpage import Page

from nestor import VARIANTS, Game, Outcome, Pair, Position, TurnStock
from nestor.finish import MAX_COVERED, cannot_lose, cannot_lose_steps
from nestor_web.app.events import Moved
from nestor_web.storage.keys import MemoryStore


def plain(position: Position) -> bool:
    """Every line from ``position`` wins: the plain definition (no memo, no shortcut), with
    the same cautious rule for a stock turn."""
    outcome = position.outcome()
    if outcome is not None:
        return outcome.won
    moves = position.legal_moves()
    if any(isinstance(m, TurnStock) for m in moves):
        return False
    return all(plain(position.apply(m)) for m in moves)


def late_positions(variant: str, games: int, seed: int, left: int) -> list[Position]:
    """Positions with at most ``left`` cards from random play."""
    rng = random.Random(seed)
    out = []
    for deal in range(games):
        game = Game(variant, deal)
        while game.outcome() is None:
            if game.position.cards_left() <= left:
                out.append(game.position)
            game.push(rng.choice(game.legal_moves()))
    return out


def test_the_search_agrees_with_the_plain_definition() -> None:
    seen = {True: 0, False: 0}
    for variant in VARIANTS:
        for position in late_positions(variant, 12, 7, 14):
            answer = cannot_lose(position, max_nodes=None)
            if position.cards_left() - len(position.available()) > MAX_COVERED:
                assert answer is None
                continue
            assert answer is not None
            assert answer == plain(position), position.to_text()
            seen[answer] += 1
    assert seen[True] >= 10 and seen[False] >= 10  # both answers were tested


def test_every_card_available_cannot_lose() -> None:
    game = Game("standard", 1)
    while game.position.cards_left() - len(game.position.available()) > 0:
        game.push(game.legal_moves()[0])
        if game.outcome() is not None:
            break
    if game.outcome() is None:
        assert cannot_lose(game.position) is True


def test_a_lost_position_and_a_budget_too_small() -> None:
    game = Game("standard", 0)
    while game.outcome() is None:
        game.push(game.legal_moves()[0])
    assert cannot_lose(game.position) is (game.outcome() is Outcome.WON)
    position = next(p for v in VARIANTS for p in late_positions(v, 10, 1, 24)
                    if cannot_lose(p, None) is True and p.cards_left() > len(p.available()))
    assert cannot_lose(position, max_nodes=1) is None


def test_strict_never_counts_on_the_hidden_stock() -> None:
    for position in late_positions("strict", 30, 3, 20):
        if position.stock and any(position.columns) and cannot_lose(position, None):
            # safe only if no line ever has to turn a stock card: check with the plain search
            assert plain(position)


def test_the_steps_yield_and_end_with_the_answer() -> None:
    position = late_positions("doublets", 3, 2, 20)[0]
    steps = cannot_lose_steps(position, None)
    count = 0
    while True:
        try:
            next(steps)
            count += 1
        except StopIteration as done:
            assert done.value == cannot_lose(position, None)
            break


def test_finish_plays_the_game_out_and_is_no_help() -> None:
    rng = random.Random(5)
    for deal in range(40):
        page = Page(MemoryStore(), f"?variant=doublets&deal={deal}", random.Random(0))
        session = page.session
        while session.position.outcome() is None:
            steps = session.finish_steps()
            while True:
                try:
                    next(steps)
                except StopIteration:
                    break
            if session.finishable():
                break
            move = rng.choice(session.game.legal_moves())
            assert isinstance(move, Pair)
            page.tap(move.first)
            page.tap(move.second)
        else:
            continue
        assert page.view().can_finish
        events = page.finish()
        assert session.position.outcome() is Outcome.WON
        assert events and all(isinstance(e, Moved) and e.by_finish for e in events)
        assert not session.help.used
        assert session.stats.deal_result("doublets", deal) == "won"
        assert not page.finish()  # nothing left to finish
        return
    raise AssertionError("no doublets game reached a position that cannot lose")


def test_finish_is_not_offered_before_the_check() -> None:
    page = Page(MemoryStore(), "?variant=standard&deal=3", random.Random(0))
    assert page.session.finishable() is None
    assert not page.finish()

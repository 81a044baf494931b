#!/usr/bin/env python3
"""Count what one tap costs in CPython: rules answers, storage reads and writes, modules crossed.

Usage: .venv/bin/python bench/tap_path.py [--root DIR] [--variant standard] [--deal N]

Drives the web layer's session with an in-memory store through the taps of a deal's winning
line, as the page does for a tap on a card, and counts during three pairs (the deal's first
move, one in the middle, the winning move), for the select tap and the pairing tap apart:

* calls of ``nestor.Position.outcome()``, ``Position.pairs()`` and ``Position.available()``
  and, where the position caches them, how many of those calls computed the answer;
* the store's ``get`` and ``set`` calls, by key;
* the modules of ``nestor`` and ``nestor_web`` whose functions ran (``sys.setprofile``), in
  the order first entered, with the number of calls.

What runs for a tap is what the page's browser modules call, minus the DOM itself (those
modules import ``js``/``pyscript`` and cannot run here): for the tree before issue 8,
``dom.App.act`` → ``Session.tap`` (which saves), then ``dom.App.render`` →
``view.board_view`` and ``view.render_board``; for the four rooms, ``browser.root.App.run`` →
``Session.tap`` → ``view.board.board_view``, ``view.words.announcement`` and the actuator's
``play_area``/``BoardView.regions``, then in the next task ``StorageManager.save``. The
browser modules are named in the report but not counted.

``--root`` picks the tree to import (default: this one), so the same script counts a clone
of an older commit. The deal is the first winnable one of ``--variant`` unless given.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Count:
    """What one step did (see the module docstring)."""

    calls: Counter[str] = field(default_factory=Counter)
    computed: Counter[str] = field(default_factory=Counter)
    gets: Counter[str] = field(default_factory=Counter)
    sets: Counter[str] = field(default_factory=Counter)
    modules: dict[str, int] = field(default_factory=dict)  # first-entered order


COUNT = Count()
COUNTING = [False]


def _counting(kind: str, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        if COUNTING[0]:
            getattr(COUNT, kind)[name] += 1
        return func(*args, **kwargs)

    wrapper.__name__ = getattr(func, "__name__", name)
    return wrapper


ANSWERS = ("outcome", "pairs", "available")
"""The ``Position`` methods counted."""

CACHED: set[str] = set()
"""Those of :data:`ANSWERS` whose answer the position caches (a ``cached_property``)."""


def instrument_engine() -> None:
    """Count ``Position.outcome/pairs/available`` calls and their cached computations."""
    from functools import cached_property

    from nestor import Position

    for name in ANSWERS:
        setattr(Position, name, _counting("calls", name, getattr(Position, name)))
        cached = Position.__dict__.get(f"_{name}")
        if isinstance(cached, cached_property):  # the answer is computed once per position
            cached.func = _counting("computed", name, cached.func)
            CACHED.add(name)


def counting_store(base: type) -> type:
    """A subclass of the tree's in-memory store whose ``get``/``set`` are counted by key."""

    class Counted(base):  # type: ignore[misc]
        def get(self, key: str) -> str | None:
            if COUNTING[0]:
                COUNT.gets[key] += 1
            return super().get(key)  # type: ignore[no-any-return]

        def set(self, key: str, value: str) -> None:
            if COUNTING[0]:
                COUNT.sets[key] += 1
            super().set(key, value)

    return Counted


def _profile(frame: FrameType, event: str, _arg: object) -> None:
    if event == "call":
        module = frame.f_globals.get("__name__", "")
        if module.startswith(("nestor.", "nestor_web")) or module == "nestor":
            COUNT.modules[module] = COUNT.modules.get(module, 0) + 1


@contextmanager
def counted() -> Iterator[Count]:
    """Count what runs in the ``with`` body; yields the (then filled) :class:`Count`."""
    global COUNT
    COUNT = Count()
    COUNTING[0] = True
    sys.setprofile(_profile)
    try:
        yield COUNT
    finally:
        sys.setprofile(None)
        COUNTING[0] = False


class OldTree:
    """The web layer before issue 8: ``nestor_web.session`` saves inside the tap."""

    browser = "nestor_web.dom (App.on_board_click, act, render)"

    def __init__(self, query: str) -> None:
        from nestor_web.session import MemoryStorage, Session  # type: ignore[import-not-found]
        from nestor_web.view import board_view, render_board  # type: ignore[attr-defined]

        self._board_view, self._render_board = board_view, render_board
        self.session = Session.open(
            counting_store(MemoryStorage)(), query, rng=random.Random(1), languages=["en"]
        )

    def tap(self, card: str) -> None:
        """What ``dom.App.act`` + ``App.render`` run for a tap, without the DOM."""
        s = self.session
        if s.tap(card) is False:
            return
        view = self._board_view(s)
        self._render_board(view)
        if view.indicator is not None:
            s.analysis()
        s.announcement = None  # render consumes it

    def save(self) -> None:
        """Nothing: the old session saved inside the tap."""


class Rooms:
    """The four rooms: the tap returns events; the view is drawn; the save comes after."""

    browser = "nestor_web.browser (input, root.App.run/update, actuator.draw)"

    def __init__(self, query: str) -> None:
        from nestor_web.app.session import Session
        from nestor_web.app.url import parse_query
        from nestor_web.storage.keys import MemoryStore
        from nestor_web.storage.manager import StorageManager
        from nestor_web.view.board import board_view, play_area
        from nestor_web.view.words import announcement

        self._view = (board_view, announcement, play_area)
        self.storage = StorageManager(counting_store(MemoryStore)())
        stored = self.storage.stored("en")
        self.session = Session.start(
            parse_query(query)[0], stored.game, settings=stored.settings, stats=stored.stats,
            shelf=self.storage.archive, rng=random.Random(1),
        )
        self.storage.save(self.session)

    def tap(self, card: str) -> None:
        """What ``root.App.tap`` → ``run`` → ``update`` → ``actuator.draw`` run, without
        the DOM; the save is :meth:`save` (scheduled for the next task)."""
        board_view, announcement, play_area = self._view
        s = self.session
        events = s.tap(card)
        if not events:
            return
        self.storage.stores.take_problems()
        view = board_view(s)
        announcement(events, s)
        play_area(view)
        if s.settings.winnable_indicator:
            s.analysis()

    def save(self) -> None:
        """``root.App.save``: the storage manager writes what changed."""
        self.storage.save(self.session)
        self.storage.stores.take_problems()


def winnable(solution: object) -> bool:
    """Did the solver prove a win? (``Solution.status``; trees before issue 8: ``winnable``.)"""
    status = getattr(solution, "status", None)
    if status is not None:
        return getattr(status, "name", None) == "WINNABLE"
    return getattr(solution, "winnable", None) is True


def describe(count: Count) -> str:
    """One step's counts on a few lines."""
    def calls(name: str) -> str:
        n = count.calls[name]
        if name in CACHED:
            return f"{name}() {n} (computed {count.computed[name]})"
        return f"{name}() {n}"

    gets = ", ".join(f"{k} {n}" for k, n in sorted(count.gets.items())) or "none"
    sets = ", ".join(f"{k} {n}" for k, n in sorted(count.sets.items())) or "none"
    modules = " → ".join(f"{m} ({n})" for m, n in count.modules.items()) or "none"
    return (
        f"      {', '.join(calls(n) for n in ANSWERS)}\n"
        f"      store reads: {sum(count.gets.values())} ({gets}); "
        f"writes: {sum(count.sets.values())} ({sets})\n"
        f"      modules: {modules}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="tree to import (default: this)")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--deal", type=int, default=None)
    args = parser.parse_args()
    root = args.root.resolve()
    sys.path.insert(0, str(root))
    from nestor import Pair, deal_position
    from nestor.solver import solve

    deal = args.deal
    if deal is None:
        deal = next(d for d in range(1000) if winnable(solve(deal_position(args.variant, d))))
    line = [m for m in solve(deal_position(args.variant, deal)).line if isinstance(m, Pair)]
    assert len(line) == len(solve(deal_position(args.variant, deal)).line), "a stock turn"
    instrument_engine()
    # By file: a module missing from an older tree could still be found in this one's install.
    rooms = (root / "nestor_web" / "app" / "session.py").is_file()
    tree = Rooms if rooms else OldTree
    player = tree(f"?variant={args.variant}&deal={deal}")
    print(f"one tap in CPython, {tree.__name__} ({root}), {args.variant} deal {deal}, "
          f"{len(line)} pairs; browser part not counted: {tree.browser}")
    measured = {0: "first move of the deal", len(line) // 2: "a move in the middle",
                len(line) - 1: "the winning move"}
    for i, move in enumerate(line):
        first, second = move.cards
        if i not in measured:
            player.tap(first)
            player.save()
            player.tap(second)
            player.save()
            continue
        print(f"  {measured[i]} ({first} then {second}):")
        for label, card in (("select tap", first), ("pairing tap", second)):
            with counted() as tap:
                player.tap(card)
            with counted() as save:
                player.save()
            print(f"    {label}:")
            print(describe(tap))
            if save.modules:
                print("    then, in the next task, the save:")
                print(describe(save))
    outcome = player.session.game.position.outcome()
    assert outcome is not None and outcome.won, "the line did not win"
    strays = [
        f"{name}: {module.__file__}" for name, module in sorted(sys.modules.items())
        if name.split(".")[0] in ("nestor", "nestor_web")
        and not str(Path(module.__file__ or root).resolve()).startswith(str(root))
    ]
    if strays:
        print("warning: modules from outside the tree:", *strays, sep="\n  ", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

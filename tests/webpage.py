"""A page without a browser: the session, storage and view wired as the browser's root wires
them (nestor_web/browser/root.py), for tests of the web layer under CPython.

Each command runs the page's own loop, :class:`~nestor_web.browser.controller.Controller`:
the problems the storage manager reported become notices, the view is drawn (here: made and
kept), and the save is scheduled for the next task. :class:`NextTask` is the scheduler: it
runs the next task when told, and :meth:`Page.run` tells it right after each command (pass
``settle=False`` to look at the page between the draw and the save, as a browser killed
there would leave it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from datetime import date

from nestor import NestorError
from nestor_web.app.events import Event, Problem
from nestor_web.app.session import Session
from nestor_web.app.settings import Settings
from nestor_web.app.url import parse_query
from nestor_web.browser.controller import Controller, use_language
from nestor_web.storage.keys import (
    SEQ_KEY,
    Done,
    KeyValueStore,
    MemoryStore,
    Snapshot,
    StoreRefused,
    seq_of,
)
from nestor_web.storage.manager import StorageManager
from nestor_web.view import i18n
from nestor_web.view.board import BoardView, board_view
from nestor_web.view.words import notice_text


def clock(start: int) -> Callable[[], int]:
    """A clock for the statistics' times (ms) that moves on by a second each time it is read,
    from ``start``."""
    now = [start]

    def tick() -> int:
        now[0] += 1000
        return now[0]

    return tick

class SharedStore(MemoryStore):
    """A :class:`MemoryStore` that :meth:`tab` opens again, as a second browser tab sees the
    same localStorage: a write through one view calls the ``on_change`` listener of the
    others (like the browser's ``storage`` event, which fires in the other tabs only)."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        super().__init__(data)
        self._tabs: list[SharedStore] = [self]
        self.on_change: Callable[[str], None] | None = None

    def tab(self) -> SharedStore:
        """Another view of the same data (a second tab)."""
        other = SharedStore()
        other.data = self.data
        other._tabs = self._tabs
        self._tabs.append(other)
        return other

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` and tell the other tabs."""
        super().set(key, value)
        for tab in self._tabs:
            if tab is not self and tab.on_change is not None:
                tab.on_change(key)


class LaggingStore(MemoryStore):
    """A second tab's localStorage as Chromium keeps it: each tab reads its own copy, and
    another tab's write reaches it only when it is delivered (:meth:`deliver`, which
    :meth:`Page.receive` calls), together with its storage event, as one later task.

    Writes go to this tab's copy and to :attr:`backend` (what is on disk) at once; a
    delivered key takes the backend's value (a tab's own write still in flight is not
    undone by an older one of another tab's, as Chromium's copy does).
    """

    def __init__(self, data: dict[str, str] | None = None) -> None:
        super().__init__(data)
        self.backend: dict[str, str] = dict(self.data)
        self._tabs: list[LaggingStore] = [self]
        self.inbox: list[str] = []
        self.on_change: Callable[[str], None] | None = None

    def tab(self) -> LaggingStore:
        """Another tab on the same backend, with its own copy."""
        other = LaggingStore(self.backend)
        other.backend = self.backend
        other._tabs = self._tabs
        self._tabs.append(other)
        return other

    def set(self, key: str, value: str) -> None:
        """Store ``value`` in this tab's copy and the backend; the others hear it later."""
        super().set(key, value)
        self.backend[key] = value
        for tab in self._tabs:
            if tab is not self:
                tab.inbox.append(key)

    def deliver(self) -> None:
        """Take in the other tabs' writes: each key's value, then its storage event."""
        while self.inbox:
            key = self.inbox.pop(0)
            self.data[key] = self.backend[key]
            if self.on_change is not None:
                self.on_change(key)


class QuotaStore(MemoryStore):
    """A :class:`MemoryStore` that holds at most ``limit`` characters in all, refusing a write
    past that as a browser does (a ``QuotaExceededError``)."""

    def __init__(self, limit: int, data: dict[str, str] | None = None) -> None:
        super().__init__(data)
        self.limit = limit

    def set(self, key: str, value: str) -> None:
        used = sum(len(v) for k, v in self.data.items() if k != key)
        if used + len(value) > self.limit:
            raise StoreRefused("QuotaExceededError", "The quota has been exceeded.")
        super().set(key, value)


class RefusingStore(MemoryStore):
    """A :class:`MemoryStore` that refuses every write with ``error``."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def set(self, key: str, value: str) -> None:
        raise self.error


class MemoryCopy:
    """A durable copy in a dict that confirms each write at once.

    Attributes:
        data: the values stored, ``SEQ_KEY`` included.
        refuse: when set, each write fails with this error name and stores nothing.
    """

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data: dict[str, str] = dict(data or {})
        self.refuse: str | None = None

    def write(self, seq: int, entries: Mapping[str, str], done: Done) -> None:
        if self.refuse is not None:
            done(self.refuse)
            return
        self.data.update(entries)
        self.data[SEQ_KEY] = str(seq)
        done(None)

    def snapshot(self) -> Snapshot:
        """What a new page would read from this copy."""
        return Snapshot(seq_of(self.data.get(SEQ_KEY)), {
            k: v for k, v in self.data.items() if k != SEQ_KEY
        })


class NextTask:
    """The controller's scheduler here: later tasks wait in :attr:`waiting` until
    :meth:`run_all` runs them, in order (a task may schedule another)."""

    def __init__(self) -> None:
        self.waiting: list[Callable[[], None]] = []
        self.pending_save = False

    def soon(self, callback: Callable[[], None]) -> None:
        self.waiting.append(callback)

    def save_pending(self, pending: bool) -> None:
        self.pending_save = pending

    def run_all(self) -> None:
        """Run every waiting task, and those they schedule."""
        while self.waiting:
            self.waiting.pop(0)()


class Drawn:
    """What the controller draws here: the page's board view, kept."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.view: BoardView | None = None

    def draw(
        self, view: BoardView, settings: Settings, events: tuple[Event, ...], said: str | None,
        drawn: object,
    ) -> None:
        self.view = view


class Page:
    """One open page (tab) over ``store``.

    Attributes:
        store: the key-value store (a :class:`MemoryStore` by default).
        durable: the durable copy (``None``: the page has none), read at start-up.
        storage: the storage manager.
        session: the session.
        announcement: what the live region said last (``None`` before any).

    ``keep_board=False``: the saves leave out the board for the next visit's first paint
    (rendering it after every move costs a test of many whole games three times its time).
    """

    def __init__(
        self,
        store: KeyValueStore | None = None,
        query: str = "",
        rng: random.Random | None = None,
        languages: Sequence[str] = ("en",),
        clock: Callable[[], int] | None = None,
        durable: MemoryCopy | None = None,
        timer_clock: Callable[[], int] | None = None,
        alone: bool | None = None,
        today: Callable[[], date] | None = None,
        keep_board: bool = True,
    ) -> None:
        self.store: KeyValueStore = store if store is not None else MemoryStore()
        self.durable = durable
        self.storage = StorageManager(
            self.store, durable, durable.snapshot() if durable is not None else None
        )
        self._heard: list[str] = []  # keys other tabs wrote, not yet taken in
        if isinstance(self.store, SharedStore | LaggingStore):
            self.store.on_change = self._heard.append
        # Opened as the root opens it: the URL read once, the session built from what is stored.
        stored = self.storage.stored(i18n.pick_language(list(languages)))
        asked, link_problem = parse_query(query, today() if today is not None else None)
        self.session: Session = Session.start(
            asked, stored.game, settings=stored.settings, stats=stored.stats,
            shelf=self.storage.archive, rng=rng, clock=clock, timer_clock=timer_clock,
            leave_saved=alone is not False, today=today,
        )
        if alone:
            self.session.settle_left_games()
        self.session.tutorial_seen = stored.tutorial_seen
        self.session.tutorial_resume = stored.tutorial_resume
        self.storage.save(self.session)
        if link_problem is not None:
            self.session.notice(link_problem)
        self._opened = (stored, asked)
        use_language(self.session)
        self.tasks = NextTask()
        self.screen = Drawn(self.session)
        self.controller = Controller(
            self.session, self.storage, self.screen.draw, self.tasks.soon,
            self.tasks.save_pending, keep_board=keep_board,
        )
        self.storage.stores.late = self.controller.late_problems
        self._take_problems()

    @property
    def announcement(self) -> str | None:
        """What the live region said last (``None`` before anything)."""
        return self.controller.said

    @property
    def events(self) -> tuple[Event, ...]:
        """The events last drawn."""
        return self.controller.events

    def _take_problems(self) -> None:
        for problem in self.storage.stores.take_problems():
            self.session.notice(problem)

    def receive(self) -> tuple[Event, ...]:
        """Take in the storage events other tabs caused, as the browser delivers them
        between two tasks (the root hands each to :meth:`Controller.other_tab`); then, as
        the page's next command would first, what another tab saved and this one has not
        heard of yet (:meth:`StorageManager.catch_up`)."""
        events: tuple[Event, ...] = ()
        deliver = getattr(self.store, "deliver", None)
        if deliver is not None:
            deliver()
        while self._heard:
            events += self.controller.other_tab(self._heard.pop(0))
        caught = self.storage.catch_up(self.session)
        if caught:
            self.controller.update(caught)
        self.tasks.run_all()
        return events + caught

    def command(
        self, command: Callable[[], tuple[Event, ...]], settle: bool = True
    ) -> tuple[Event, ...]:
        """A control's command as the page runs it: what other tabs did first, then
        :meth:`Controller.run` (drawn and saved only if something happened), then, with
        ``settle``, the next task (the save)."""
        self.receive()
        events = self.controller.run(command, animate=False)
        if settle:
            self.tasks.run_all()
        return events

    def run(self, events: tuple[Event, ...], settle: bool = True) -> tuple[Event, ...]:
        """After a session command: the page's loop (:meth:`Controller.update`: notices,
        drawing, the save scheduled), then, with ``settle``, the next task (the save)."""
        self.controller.update(events)
        if settle:
            self.tasks.run_all()
        return events

    def open_tutorial(self, replaying: bool = False) -> tuple[Event, ...]:
        """Start the guide if it is due at start-up, as the root does once the page is up."""
        stored, asked = self._opened
        return self.run(
            self.session.open_tutorial(stored.first_visit, asked, stored.game, replaying))

    def view(self) -> BoardView:
        """What the page draws now."""
        return board_view(self.session)

    @property
    def notice(self) -> str | None:
        """The notice the page shows, or ``None``."""
        return notice_text(self.session.notices)

    # ---- the commands, as the page's controls run them -------------------------------

    def tap(self, card: str) -> tuple[Event, ...]:
        return self.command(lambda: self.session.tap(card))

    def undo(self) -> tuple[Event, ...]:
        return self.command(lambda: self.session.undo())

    def redo(self) -> tuple[Event, ...]:
        return self.command(lambda: self.session.redo())

    def restart(self) -> tuple[Event, ...]:
        return self.command(lambda: self.session.restart())

    def turn_stock(self) -> tuple[Event, ...]:
        return self.command(lambda: self.session.turn_stock())

    def new_deal(self, variant: str | None = None) -> tuple[Event, ...]:
        return self.command(lambda: self.session.new_deal(variant))

    def open_daily(self, day: date | None = None) -> tuple[Event, ...]:
        return self.command(lambda: self.session.open_daily(day))

    def open_deal(self, variant: str, deal: int | str) -> tuple[Event, ...]:
        return self.command(lambda: self.session.open_deal(variant, deal))

    def set_setting(self, name: str, value: object) -> tuple[Event, ...]:
        """A settings control changed; a value the settings refuse becomes a notice (as
        the root's ``App.setting`` does)."""
        self.receive()
        try:
            events = self.session.set_setting(name, value)
        except NestorError as exc:
            events = self.session.notice(Problem("setting.refused", exc))
        return self.run(events)

    def show_hint(self, solution: object) -> tuple[Event, ...]:
        return self.command(lambda: self.session.show_hint(solution))  # type: ignore[arg-type]

    def play_solver_move(self, solution: object) -> tuple[Event, ...]:
        return self.command(lambda: self.session.play_solver_move(solution))  # type: ignore[arg-type]

    def finish(self) -> tuple[Event, ...]:
        return self.command(lambda: self.session.finish())

    def set_visible(self, visible: bool) -> tuple[Event, ...]:
        return self.run(self.session.set_visible(visible))

    def dismiss(self) -> tuple[Event, ...]:
        return self.run(self.session.dismiss_notices())

    def reset_stats(self) -> tuple[Event, ...]:
        self.receive()
        self.session.reset_stats()
        return self.run(())

    def play_pair(self, first: str, second: str) -> None:
        """Tap two cards of a rank, checking each tap did something."""
        assert self.tap(first)
        assert self.tap(second)

    def play_pairs(self, count: int) -> list[str]:
        """Take the first pair ``count`` times, by taps; the moves as saved."""
        for _ in range(count):
            pair = self.session.position.pairs()[0]
            self.play_pair(pair.first, pair.second)
        return [str(m) for m in self.session.game.moves]

    def win(self) -> None:
        """Play the solver's winning line of the game in play by taps, to the empty board."""
        from nestor import Pair
        from nestor.solver import solve

        for move in solve(self.session.position).line:
            assert isinstance(move, Pair)
            self.play_pair(move.first, move.second)
        assert self.session.position.is_empty()

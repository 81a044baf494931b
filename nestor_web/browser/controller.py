"""The one path of every change in the page, free of ``js``: the page's game manager loop.

A command runs as 2048's game manager and Simon Tatham's mid-end run a move: what another tab
saved and this one has not taken in yet comes first (:meth:`StorageManager.catch_up`), then the
session command, which returns what happened (events); problems the storage manager met become
notices; the page's state that follows a command moves on (the end screen's, in
:meth:`Screen.follow`); the screen draws the new state and the events; and the storage manager
saves what changed in the next task (:class:`Scheduler`), so the board is on the screen first.
Another tab's save is taken in the same way (:meth:`Controller.other_tab`).

Everything it talks to is handed to it: the session, the storage manager, the screen (in the
page, the composition root's drawing of the board, panels and tasks: ``browser/root.py``) and
the scheduler (in the page, the event loop's next task). ``tests/webpage.py`` runs the very same
loop under CPython with a scheduler that runs the next task when told, so the unit tests see the
page's order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..app.events import Event
from ..app.session import Session
from ..storage.manager import StorageManager
from ..view.board import BoardView, board_view, first_paint
from ..view.i18n import language
from ..view.words import announcement


class Screen(Protocol):
    """What the loop draws on: the page's board, panels and the work they start."""

    def measure(self) -> Any:
        """Where the cards are drawn before a command, for its animation (``None``: no
        animation now)."""

    def follow(self, session: Session) -> None:
        """The page's state that follows a command moves on (before it is drawn)."""

    def draw(
        self, session: Session, view: BoardView, events: tuple[Event, ...], said: str | None,
        drawn: Any,
    ) -> None:
        """Draw ``session`` (its board: ``view``) after ``events``; ``said``: what the live
        region says (or ``None``); ``drawn``: :meth:`measure` taken before the command."""

    def draw_problems(self, view: BoardView) -> None:
        """Draw the board ``view`` for its notices (a problem a save reported)."""


class Scheduler(Protocol):
    """When the loop's later work runs."""

    def soon(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` in a later task (after the screen is drawn)."""

    def save_pending(self, pending: bool) -> None:
        """A save is scheduled (``True``) or done (``False``): a hook for tests."""


class Controller:
    """The loop of ``session``'s page: commands, drawing through ``screen``, saving through
    ``storage`` in a task ``scheduler`` runs (with the board as drawn, for the next visit's
    first paint, unless ``keep_board`` is false: a test of rules over many whole games).

    Attributes:
        said: what the live region said last (``None`` before anything).
        events: the events last drawn.
        view: the board last drawn (``None`` before anything), saved for the first paint.
    """

    def __init__(
        self,
        session: Session,
        storage: StorageManager,
        screen: Screen,
        scheduler: Scheduler,
        keep_board: bool = True,
    ) -> None:
        self.session = session
        self.keep_board = keep_board  # save the board for the next visit's first paint
        self.storage = storage
        self.screen = screen
        self.scheduler = scheduler
        self.said: str | None = None
        self.events: tuple[Event, ...] = ()
        self.view: BoardView | None = None
        self._save_pending = False
        storage.notify = self._late_problems

    @property
    def save_pending(self) -> bool:
        """Is a save scheduled and not run yet?"""
        return self._save_pending

    def run(
        self, command: Callable[[], tuple[Event, ...]], animate: bool = True
    ) -> tuple[Event, ...]:
        """Run the session command ``command`` (animated if ``animate`` and the screen
        animates); if anything happened, draw it and save it. Returns its events.

        First, a save of another tab this tab has not heard of yet is taken in
        (:meth:`StorageManager.catch_up`), so the command acts on the newer game."""
        caught = self.storage.catch_up(self.session)
        if caught:
            self.update(caught)
        drawn = self.screen.measure() if animate else None
        events = command()
        if events:
            self.update(events, drawn)
        return events

    def update(self, events: tuple[Event, ...], drawn: Any = None) -> None:
        """Draw the session after ``events``, then save (in the next task: the save is
        scheduled first, so it runs before any work the draw starts, such as the winnable
        indicator's solver)."""
        session = self.session
        for problem in self.storage.take_problems():
            session.notice(problem)
        events += session.follow_tutorial(events)  # the guided game moves on after a move
        self.screen.follow(session)
        said = announcement(events, session)
        if said:
            self.said = said
        self.events = events
        self.schedule_save()  # runs after this draw, and before the work the draw starts
        self.view = board_view(session)
        self.screen.draw(session, self.view, events, said, drawn)

    def other_tab(self, key: str | None) -> tuple[Event, ...]:
        """Another tab wrote ``key`` (``None``: cleared the storage): take in its statistics
        and, if it moved on the deal shown here, its game; draw what changed, and save the
        merged statistics back if that tab's lacked anything of this one's. Returns what
        happened here."""
        self.storage.changed_elsewhere(key)
        events = self.storage.follow(self.session)
        if events:
            self.update(events)
        else:
            self.schedule_save()
        return events

    def schedule_save(self) -> None:
        """Save in a later task, unless a save is scheduled already."""
        if not self._save_pending:
            self._save_pending = True
            self.scheduler.save_pending(True)
            self.scheduler.soon(self.save)

    def save(self) -> None:
        """Save what changed (and the board as drawn, for the next first paint); a problem
        it meets is drawn at once."""
        caught = self.storage.catch_up(self.session)  # nothing another tab saved is overwritten
        if caught:
            self.update(caught)  # (a save is pending: this one, no other is scheduled)
        self._save_pending = False
        self.storage.save(self.session)
        if self.keep_board:
            self.storage.save_board(language(), self._board_drawn)
        self.scheduler.save_pending(False)
        problems = self.storage.take_problems()
        if problems:
            for problem in problems:
                self.session.notice(problem)
            self._draw_problems()

    def _late_problems(self) -> None:
        """A problem reported after its save (the durable copy answers later): draw it.

        Only draw: no save is scheduled for it (a save that both stores refuse would report
        again, and draw, and save again, in a loop that starves the page's input; the next
        change saves again)."""
        for problem in self.storage.take_problems():
            self.session.notice(problem)
        self._draw_problems()

    def _draw_problems(self) -> None:
        self.view = board_view(self.session)
        self.screen.draw_problems(self.view)

    def _board_drawn(self) -> tuple[list[object], dict[str, str]]:
        """The board last drawn, for the next first paint (:func:`first_paint`)."""
        return first_paint(self.view or board_view(self.session))

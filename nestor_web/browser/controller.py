"""The page's game loop, free of ``js`` (``tests/webpage.py`` runs it too): a command runs after
another tab's save is taken in, its events are drawn, then saved in a later task."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..app.events import Event, Problem, SettingChanged
from ..app.session import Session
from ..app.settings import Settings
from ..storage.manager import StorageManager
from ..view.board import BoardView, board_view, first_paint
from ..view.i18n import language, set_language
from ..view.words import announcement

Draw = Callable[[BoardView, Settings, tuple[Event, ...], str | None, Any], None]
"""``(view, settings, events, said, drawn)``: draws the board, ``said`` in the live region,
flying removed cards from ``drawn``."""


def use_language(session: Session) -> None:
    """Put the page's words in ``session``'s language (English, with a notice, if missing)."""
    code = session.settings.language or "en"
    try:
        set_language(code)
    except OSError:
        set_language("en")
        session.notice(Problem("language.missing", args=(("language", code),)))


@dataclass(eq=False)
class Controller:
    """``session``'s loop: commands drawn by ``draw`` then ``follow``, saved through
    ``storage`` in a task ``soon`` runs (``keep_board``: with the board for the first paint);
    ``said``, ``events``, ``view``: what was last said and drawn."""

    session: Session
    storage: StorageManager
    draw: Draw
    soon: Callable[[Callable[[], None]], object]
    saving: Callable[[bool], None] = lambda _pending: None
    measure: Callable[[], Any] = lambda: None
    keep_board: bool = True
    follow: Callable[[tuple[Event, ...]], None] = lambda _events: None
    said: str | None = field(default=None, init=False)
    events: tuple[Event, ...] = field(default=(), init=False)
    save_pending: bool = field(default=False, init=False)
    view: BoardView | None = field(default=None, init=False)

    def run(
        self, command: Callable[[], tuple[Event, ...]], animate: bool = True
    ) -> tuple[Event, ...]:
        """Catch up with other tabs, run ``command``, draw (animated: ``animate``), save; events."""
        caught = self.storage.catch_up(self.session)
        if caught:
            self.update(caught)
        drawn = self.measure() if animate else None
        events = command()
        if events:
            self.update(events, drawn)
        return events

    def update(self, events: tuple[Event, ...], drawn: Any = None) -> None:
        """Draw the session after ``events``; save in a later task, scheduled first."""
        session = self.session
        for problem in self.storage.stores.take_problems():
            session.notice(problem)
        if any(isinstance(e, SettingChanged) and e.name == "language" for e in events):
            use_language(session)
        events += session.follow_tutorial(events)
        said = announcement(events, session)
        if said:
            self.said = said
        self.events = events
        self.schedule_save()
        self._draw(events, said, drawn)

    def other_tab(self, key: str | None) -> tuple[Event, ...]:
        """Take in another tab's write at ``key`` (``None``: cleared), draw, save; the events."""
        self.storage.changed_elsewhere(key)
        events = self.storage.follow(self.session)
        if events:
            self.update(events)
        else:
            self.schedule_save()
        return events

    def schedule_save(self) -> None:
        """Save in a later task, unless a save is scheduled already."""
        if not self.save_pending:
            self.save_pending = True
            self.saving(True)
            self.soon(self.save)

    def save(self) -> None:
        """Save what changed (and the board drawn); a problem it meets is drawn at once."""
        caught = self.storage.catch_up(self.session)  # nothing another tab saved is overwritten
        if caught:
            self.update(caught)
        self.save_pending = False
        self.storage.save(self.session)
        if self.keep_board:
            self.storage.save_board(language(), self._board_drawn)
        self.saving(False)
        problems = self.storage.stores.take_problems()
        if problems:
            for problem in problems:
                self.session.notice(problem)
            self._draw()

    def late_problems(self) -> None:
        """Draw the problems the storage reported, without a save (refusals cannot loop)."""
        for problem in self.storage.stores.take_problems():
            self.session.notice(problem)
        self._draw()

    def _draw(self, events: tuple[Event, ...] = (), said: str | None = None,
              drawn: Any = None) -> None:
        self.view = board_view(self.session)
        self.draw(self.view, self.session.settings, events, said, drawn)
        self.follow(events)

    def _board_drawn(self) -> tuple[list[object], dict[str, str]]:
        return first_paint(self.view or board_view(self.session))

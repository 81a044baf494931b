"""The puzzle mode (``body[data-mode=puzzle][data-puzzle=K]``, ``#puzzle``) over the waiting
game: pair on its board or pick a choice; a wrong pair's refutation plays out, then the answer
(``body[data-puzzle-result]``). Each puzzle's first try goes into the player's record."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from pyscript import document, window

from nestor import Pair

from ..app.puzzle import (
    PACE_SECONDS,
    PUZZLE_KEYS,
    PuzzleStepped,
    PuzzleTry,
    daily_try,
    next_try,
    puzzle_query,
    puzzle_request,
)
from ..app.puzzle_record import PuzzleRecord
from ..app.session import Session
from ..storage.manager import StorageManager
from ..view.puzzle import puzzle_view
from .actuator import Actuator
from .controller import Controller
from .dom import (
    Tasks,
    fine_pointer,
    flag,
    focus_quietly,
    listen,
    local_today,
    missing,
    mode_key,
    set_text,
)


class PuzzleMode:
    """The puzzle section. ``attempt``: the puzzle tried, or ``None``; ``record``: the
    player's record as last read or kept; ``cover`` as for :class:`.replay.ReplayMode`."""

    def __init__(
        self, session: Session, controller: Controller, tasks: Tasks, actuator: Actuator,
        storage: StorageManager, cover: Callable[..., None],
    ) -> None:
        self.session = session
        self.controller = controller
        self.tasks = tasks
        self.actuator = actuator
        self.storage = storage
        self.cover = cover
        self.attempt: PuzzleTry | None = None
        self.record: PuzzleRecord = PuzzleRecord()
        self.rng = random.Random()
        self._proxies = [listen(document.getElementById("puzzle"), "click", self.on_click),
                         listen(document, "keydown", self.on_key)]

    def open(self) -> None:
        """"Puzzles" in the menu: today's puzzle if not tried today, else one near the
        player's rating; the game waits (a new history entry: Back returns to it)."""
        record = self.storage.puzzles()
        today = local_today()
        attempt = daily_try(today) if today not in record.daily else next_try(
            record, self.rng, today)
        self.show(attempt, "push")

    def open_address(self, query: str) -> None:
        """Show the puzzle the address's ``query`` asks for (``?puzzle=``); one that is no
        puzzle is reported, and the address given back to the game."""
        attempt, problem = puzzle_request(query, local_today())
        if attempt is not None:
            self.show(attempt)
        elif problem is not None:
            self.leave(push=False)
            window.history.replaceState(None, "", self.session.query())
            self.controller.update(self.session.notice(problem))

    def show(self, attempt: PuzzleTry, address: str = "") -> None:
        """Show ``attempt``; ``address``: ``"push"`` or ``"replace"`` the address with the
        puzzle's (``""``: it is already). Focus goes to its first card."""
        self.attempt = attempt
        self.record = self.storage.puzzles()
        if address:
            change = window.history.pushState if address == "push" else (
                window.history.replaceState)
            change(None, "", puzzle_query(attempt.puzzle))
        self.cover("puzzle", True)
        document.body.setAttribute("data-puzzle", str(attempt.puzzle.id))
        self.draw()
        self._focus_board()

    def leave(self, push: bool = True) -> None:
        """Back to the game; ``push``: its address in a new history entry (not for a puzzle
        from the player's game, which has no address)."""
        if self.attempt is None:
            return
        push = push and self.attempt.puzzle.id > 0
        self.attempt = None
        for name in ("data-puzzle", "data-puzzle-result", "data-puzzle-phase"):
            document.body.removeAttribute(name)
        self.cover("puzzle", False, push)

    def record_changed(self) -> None:
        """Another tab kept tries (or the storage was restored): take them in and redraw."""
        mine = self.record.copy()
        self.record = self.storage.puzzles(quiet=True)
        self.record.unite(mine)
        if self.attempt is not None:
            self.draw()

    def draw(self, events: tuple[PuzzleStepped, ...] = ()) -> None:
        """Draw the puzzle shown (nothing when none is)."""
        attempt = self.attempt
        if attempt is None:
            return
        view = puzzle_view(attempt, self.record, self.session.settings)
        for name, value in (("puzzle-title", view.title), ("puzzle-record", view.record),
                            ("puzzle-prompt", view.prompt)):
            set_text(document.getElementById(name), value)
        document.getElementById("puzzle-board").innerHTML = view.board
        document.getElementById("puzzle-choices").innerHTML = view.choices_html
        for command, live in (("hint", view.choosing), ("skip", view.show_over)):
            button = document.querySelector(f'#puzzle [data-puzzle-command="{command}"]')
            button.disabled = button.hidden = not live
        document.body.setAttribute("data-puzzle-phase", view.phase)
        flag(document.body, "data-puzzle-result", view.result or None)

    def _focus_board(self) -> None:
        """Give the puzzle's first available card the focus (else its Next control)."""
        target = document.querySelector("#puzzle-board [data-available]")
        if missing(target):
            target = document.querySelector('#puzzle [data-puzzle-command="next"]')
        if not missing(target):
            focus_quietly(target, fine_pointer())

    def command(self, name: str) -> None:
        """A puzzle command: hint, skip (the refutation), next, daily or close."""
        attempt = self.attempt
        if attempt is None:
            return
        if name == "close":
            self.leave()
        elif name == "hint":
            self._after(attempt.hint())
        elif name == "skip":
            while attempt.phase == "refute":
                attempt.step()
            self._after((PuzzleStepped(attempt.phase),))
        elif name == "next":  # from the player's own game's: a new history entry
            self.show(next_try(self.record, self.rng, local_today(), attempt.puzzle.id),
                      "replace" if attempt.puzzle.id > 0 else "push")
        elif name == "daily":
            self.show(daily_try(local_today()), "replace" if attempt.puzzle.id > 0 else "push")

    def _after(self, events: tuple[PuzzleStepped, ...]) -> None:
        """Draw what a command did, keep the first try, start a wrong pair's refutation."""
        attempt = self.attempt
        if not events or attempt is None:
            return
        one = attempt.first_try(self.session.clock())
        if one is not None and self.record.add(one, attempt.daily):
            self.record = self.storage.save_puzzles(self.record)
        self.draw(events)
        if attempt.phase == "refute" and any(e.pair is not None for e in events):
            self.tasks.spawn(lambda: self._refute(attempt))
        if attempt.over:
            self._focus_next()

    def _focus_next(self) -> None:
        active = document.activeElement
        if missing(active) or missing(active.closest("#puzzle")) or active.disabled or (
            not missing(active.closest("#puzzle-board, #puzzle-choices"))
        ):
            document.querySelector('#puzzle [data-puzzle-command="next"]').focus()

    async def _refute(self, attempt: PuzzleTry) -> None:
        """Play the refutation out, a pair every :data:`PACE_SECONDS`, while it is shown."""
        while attempt.phase == "refute" and self.attempt is attempt:
            await asyncio.sleep(PACE_SECONDS)
            if self.attempt is not attempt or attempt.phase != "refute":
                return
            self._after(attempt.step())

    def on_click(self, event: Any) -> None:
        """A tap in the puzzle section: a card, a choice (``data-pair="7H 7S"``) or a command."""
        target = event.target.closest("[data-puzzle-command], [data-pair], [data-card]")
        if missing(target) or target.disabled or self.attempt is None:
            return
        if target.hasAttribute("data-puzzle-command"):
            self.command(str(target.getAttribute("data-puzzle-command")))
        elif target.hasAttribute("data-pair"):
            first, second = str(target.getAttribute("data-pair")).split(" ")
            self._after(self.attempt.play(Pair(first, second)))
        elif target.hasAttribute("data-available"):
            self._after(self.attempt.tap(str(target.getAttribute("data-card"))))

    def on_key(self, event: Any) -> None:
        """The puzzle's keys, while it is shown and no panel (a modal dialog) has the keys."""
        if self.attempt is None or self.actuator.dialog_open():
            return
        command = mode_key(event, PUZZLE_KEYS)
        if command is None:
            return
        event.preventDefault()
        if command == "deselect":
            self._after(self.attempt.tap(self.attempt.selected or ""))
        else:
            self.command(command)

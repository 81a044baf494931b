"""The puzzle mode of the page (``body[data-mode=puzzle][data-puzzle=K]``, ``#puzzle``).

``?puzzle=K`` or "Puzzles" in the menu shows a puzzle over the game, which waits as it was.
The player pairs on its board or picks from its list of choices; a wrong pair's refutation
plays out, then the answer is shown (``body[data-puzzle-result]``: ``solved`` or ``failed``).
Each puzzle's first try goes into the player's record (the storage manager keeps it).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from pyscript import document, window

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
from .daily import local_today
from .dom import listen, missing
from .tasks import Tasks


class PuzzleMode:
    """The puzzle section. ``attempt``: the puzzle tried, or ``None``; ``record``: the
    player's record as last read or kept. ``cover`` is told when the mode covers the game."""

    def __init__(
        self, session: Session, controller: Controller, tasks: Tasks, actuator: Actuator,
        storage: StorageManager, cover: Callable[[bool], None],
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

    @property
    def shown(self) -> bool:
        """Is a puzzle shown (the page in puzzle mode)?"""
        return self.attempt is not None

    # ---- entering and leaving ---------------------------------------------------------

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
        self.cover(True)
        document.getElementById("puzzle").hidden = False
        body = document.body
        body.setAttribute("data-mode", "puzzle")
        body.setAttribute("data-puzzle", str(attempt.puzzle.id))
        self.draw()
        self._focus_board()

    def leave(self, push: bool = True) -> None:
        """Back to the game in play; with ``push`` the address becomes its deal's (a new
        history entry, so Back returns to the puzzle) unless it is already (a puzzle from
        the player's own game has no address of its own)."""
        if self.attempt is None:
            return
        push = push and self.attempt.puzzle.id > 0
        self.attempt = None
        document.getElementById("puzzle").hidden = True
        body = document.body
        for name in ("data-mode", "data-puzzle", "data-puzzle-result", "data-puzzle-phase"):
            body.removeAttribute(name)
        self.cover(False)
        if push:
            window.history.pushState(None, "", self.session.query())
        self.controller.update(())
        self.actuator.restore_focus("", None)

    def record_changed(self) -> None:
        """Another tab kept tries (or the storage was restored): take them in and redraw."""
        mine = self.record.copy()
        self.record = self.storage.puzzles(quiet=True)
        self.record.unite(mine)
        if self.attempt is not None:
            self.draw()

    # ---- drawing ------------------------------------------------------------------------

    def draw(self, events: tuple[PuzzleStepped, ...] = ()) -> None:
        """Draw the puzzle shown (nothing when none is)."""
        attempt = self.attempt
        if attempt is None:
            return
        view = puzzle_view(attempt, self.record, self.session.settings)
        for name, value in (("puzzle-title", view.title), ("puzzle-record", view.record),
                            ("puzzle-prompt", view.prompt)):
            element = document.getElementById(name)
            if element.textContent != value:
                element.textContent = value
        document.getElementById("puzzle-board").innerHTML = view.board
        document.getElementById("puzzle-choices").innerHTML = view.choices_html
        for command, live, hidden in (
            ("hint", view.choosing, not view.choosing),
            ("skip", view.show_over, not view.show_over),
        ):
            button = document.querySelector(f'#puzzle [data-puzzle-command="{command}"]')
            button.disabled = not live
            button.hidden = hidden
        body = document.body
        body.setAttribute("data-puzzle-phase", view.phase)
        if view.result:
            body.setAttribute("data-puzzle-result", view.result)
        else:
            body.removeAttribute("data-puzzle-result")

    def _focus_board(self) -> None:
        """Give the puzzle's first available card the focus (else its Next control)."""
        target = document.querySelector("#puzzle-board [data-available]")
        if missing(target):
            target = document.querySelector('#puzzle [data-puzzle-command="next"]')
        if not missing(target):
            fine = bool(window.matchMedia("(any-pointer: fine)").matches)
            target.focus(window.Object.fromEntries([["focusVisible", fine]]))

    # ---- commands ------------------------------------------------------------------------

    def command(self, name: str) -> None:
        """A puzzle command: hint (show the answer: failed), skip (the rest of the
        refutation), next (a puzzle near the player's rating), daily (today's puzzle),
        close (Back to my game)."""
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

    def tap(self, card: str) -> None:
        """A tap on a card of the puzzle's board."""
        if self.attempt is not None:
            self._after(self.attempt.tap(card))

    def choose(self, cards: str) -> None:
        """A pair of the list of choices (``"7H 7S"``)."""
        from nestor import Pair

        if self.attempt is None:
            return
        first, second = cards.split(" ")
        self._after(self.attempt.play(Pair(first, second)))

    def _after(self, events: tuple[PuzzleStepped, ...]) -> None:
        """Draw what a command did; keep the first try once the puzzle is over; start the
        refutation's steps when a wrong pair began it."""
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
        button = document.querySelector('#puzzle [data-puzzle-command="next"]')
        active = document.activeElement
        if missing(active) or missing(active.closest("#puzzle")) or active.disabled or (
            not missing(active.closest("#puzzle-board, #puzzle-choices"))
        ):
            button.focus()

    async def _refute(self, attempt: PuzzleTry) -> None:
        """Play the refutation out, a pair every :data:`PACE_SECONDS`, while it is shown."""
        while attempt.phase == "refute" and self.attempt is attempt:
            await asyncio.sleep(PACE_SECONDS)
            if self.attempt is not attempt or attempt.phase != "refute":
                return
            self._after(attempt.step())

    # ---- input ---------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        """A tap in the puzzle section: a card, a choice or a command."""
        target = event.target.closest("[data-puzzle-command], [data-pair], [data-card]")
        if missing(target) or target.disabled:
            return
        if target.hasAttribute("data-puzzle-command"):
            self.command(str(target.getAttribute("data-puzzle-command")))
        elif target.hasAttribute("data-pair"):
            self.choose(str(target.getAttribute("data-pair")))
        elif target.hasAttribute("data-available"):
            self.tap(str(target.getAttribute("data-card")))

    def on_key(self, event: Any) -> None:
        """The puzzle's keys, while it is shown and no panel is open over it (the game's
        keys are off then: the root's ``dialog_open`` says so)."""
        if self.attempt is None or event.ctrlKey or event.metaKey or event.altKey:
            return
        if self.actuator.dialog_open():
            return
        target = event.target
        tag = str(target.tagName).lower() if not missing(target.tagName) else ""
        if tag in ("input", "select", "textarea", "summary"):
            return
        key = str(event.key)
        command = PUZZLE_KEYS.get(key.lower() if len(key) == 1 else key)
        if command is None:
            return
        event.preventDefault()
        if command == "deselect":
            self._after(self.attempt.tap(self.attempt.selected or ""))
        else:
            self.command(command)

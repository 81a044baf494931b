"""The replay mode (``body[data-mode=replay]``, ``#replay``) over the waiting game, shown by a
replay link (``?variant=V&deal=N&moves=M``); and Copy link of the game in play."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyscript import document, window

from ..app.replay import PACE_SECONDS, REPLAY_KEYS, Replay
from ..view.replay import link_words, render_moves, replay_announcement, replay_view
from .actuator import Actuator
from .controller import Controller
from .dom import (
    Tasks,
    fine_pointer,
    focus_quietly,
    game_link,
    listen,
    missing,
    mode_key,
    set_text,
    show_copy,
    to_clipboard,
)

if TYPE_CHECKING:
    from ..app.events import Problem
    from ..app.replay import ReplayEvent
    from ..app.session import Session


class ReplayMode:
    """The replay section and the link panel; ``replay`` is the replay shown, or ``None``.
    ``cover(mode, covered, push)`` covers the game or leaves it."""

    def __init__(
        self, session: Session, controller: Controller, tasks: Tasks, actuator: Actuator,
        cover: Callable[..., None],
    ) -> None:
        self.session = session
        self.controller = controller
        self.tasks = tasks
        self.actuator = actuator
        self.cover = cover
        self.replay: Replay | None = None
        self._drawn_moves: tuple[object, ...] | None = None
        self._proxies = [
            listen(document.getElementById("replay"), "click", self.on_click),
            listen(document.getElementById("link-panel"), "click", self.on_click),
            listen(document, "keydown", self.on_key),
        ]

    def show(self, replay: Replay) -> None:
        """Show ``replay`` (the address already is its link); focus goes to its Next control."""
        if self.replay is not None:
            self.replay.playing = False
        self.replay = replay
        self._drawn_moves = None
        self.cover("replay", True)
        self.draw()
        focus = document.querySelector('#replay [data-replay-command="next"]')
        if not missing(focus):
            # Its ring only where a keyboard is likely: on a touch screen it stayed on Next
            # through every tap; a key pressed later shows it.
            focus_quietly(focus, fine_pointer())

    def leave(self, push: bool = True) -> None:
        """Back to the game; ``push``: its address in a new history entry."""
        if self.replay is None:
            return
        self.replay.playing = False
        self.replay = None
        self.cover("replay", False, push)

    def address_changed(self, replay: Replay | None, problem: Problem | None) -> bool:
        """Back or Forward: show ``replay`` or report ``problem`` (``True``), else leave."""
        if replay is not None:
            self.show(replay)
            return True
        self.leave(push=False)
        if problem is not None:
            window.history.replaceState(None, "", self.session.query())
            self.controller.update(self.session.notice(problem))
        return problem is not None

    def draw(self, events: tuple[ReplayEvent, ...] = ()) -> None:
        """Draw the replay shown (nothing when none is)."""
        replay = self.replay
        if replay is None:
            return
        view = replay_view(replay, self.session.settings)
        for name, value in (("replay-title", view.title), ("replay-step", view.step),
                            ("replay-result", view.result or "")):
            set_text(document.getElementById(name), value)
        document.getElementById("replay-result").hidden = view.result is None
        document.getElementById("replay-board").innerHTML = view.board
        items = tuple(view.moves)
        if items != self._drawn_moves:
            document.getElementById("replay-moves").innerHTML = render_moves(items)
            self._drawn_moves = items
            current = document.querySelector('#replay-moves [aria-current="step"]')
            if not missing(current):
                _scroll_into_list(document.getElementById("replay-moves"), current)
        for command, enabled in (
            ("first", view.cursor > 0), ("previous", view.cursor > 0),
            ("next", view.cursor < view.length), ("last", view.cursor < view.length),
            ("play", view.length > 0), ("from-here", view.can_play_from),
        ):
            button = document.querySelector(f'#replay [data-replay-command="{command}"]')
            if button.disabled == enabled:
                button.disabled = not enabled
        play = document.querySelector('#replay [data-replay-command="play"]')
        play.textContent = view.play_label
        play.setAttribute("aria-pressed", "true" if view.playing else "false")
        document.body.setAttribute("data-replay-cursor", str(view.cursor))
        said = replay_announcement(events, replay)
        if said:
            document.getElementById("announce").textContent = said

    def command(self, name: str) -> None:
        """A replay command: first, previous, next, last, play, from-here or close."""
        replay = self.replay
        if replay is None:
            return
        if name == "close":
            self.leave()
            return
        if name == "from-here":
            if replay.position.outcome() is None:
                game = replay.game()
                self.controller.run(lambda: self.session.play_from(game), animate=False)
                self.leave()
            return
        was_playing = replay.playing
        events = replay.command(name)
        if events:
            self.draw(events)
        if replay.playing and not was_playing:
            self.tasks.spawn(lambda: self._play(replay))

    async def _play(self, replay: Replay) -> None:
        """Play ``replay`` on, a move every :data:`PACE_SECONDS`, while it plays and is shown."""
        while replay.playing and self.replay is replay:
            await asyncio.sleep(PACE_SECONDS)
            if not replay.playing or self.replay is not replay:
                return
            self.draw(replay.tick())

    def on_click(self, event: Any) -> None:
        """A tap in the replay section or the link panel."""
        target = event.target.closest("[data-replay-command], [data-replay-go], [data-action]")
        replay = self.replay
        if missing(target) or target.disabled:
            return
        if int(event.detail) > 0 and target.matches(":focus-visible"):
            # Pressed with a pointer while it showed the ring it had from the replay's opening
            # (the focus was already there, so the press kept it): the ring goes, as after
            # any other press.
            target.blur()
            focus_quietly(target)
        if target.hasAttribute("data-replay-go"):  # a move of the list
            if replay is not None:
                cursor = int(str(target.getAttribute("data-replay-go")))
                self.draw(replay.stop() + replay.go(cursor))
        elif target.hasAttribute("data-replay-command"):
            self.command(str(target.getAttribute("data-replay-command")))
        elif str(target.getAttribute("data-action")) == "link-close":
            document.getElementById("link-panel").hidden = True
            button = document.querySelector('#counters [data-action="copy-link"]')
            if not missing(button):
                button.focus()

    def on_key(self, event: Any) -> None:
        """The replay's keys, while it is shown and no panel (a modal dialog) has the keys."""
        if self.replay is None or self.actuator.dialog_open():
            return
        command = mode_key(event, REPLAY_KEYS)
        if command is None:
            return
        event.preventDefault()
        self.command(command)

    def copy_link(self) -> None:
        """Copy the game's replay link, or show it selected where the clipboard is refused."""
        url = game_link(self.session.game)
        self.tasks.spawn(lambda: self._copy(url))

    async def _copy(self, url: str) -> None:
        copied = await to_clipboard(url)
        panel = document.getElementById("link-panel")
        document.getElementById("link-words").textContent = link_words(copied)
        panel.hidden = False
        show_copy(panel, document.getElementById("link-field"), url, copied)


def _scroll_into_list(box: Any, item: Any) -> None:
    """Scroll the list ``box`` (not the page, as ``scrollIntoView`` does) to show ``item``."""
    outer, inner = box.getBoundingClientRect(), item.getBoundingClientRect()
    if inner.top < outer.top:
        box.scrollTop -= outer.top - inner.top
    elif inner.bottom > outer.bottom:
        box.scrollTop += inner.bottom - outer.bottom

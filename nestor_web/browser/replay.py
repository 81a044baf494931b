"""The replay mode of the page, and the link of the game in play ("Copy link").

A replay link (``?variant=V&deal=N&moves=M``) opens the replay, its own mode of the page
(``<body data-mode="replay">``, the ``#replay`` section; the game's board and controls are
hidden by the style sheet). While it is shown the address stays the replay's link, its
keys are its own (:data:`~nestor_web.app.replay.REPLAY_KEYS`), and the game in progress
is neither drawn over nor saved differently: it waits, as it was, until "Back to my game"
or "Play from here" (which starts a game at the position shown, counted with help).

"Copy link": :meth:`ReplayMode.copy_link`, given by any ``[data-action="copy-link"]``
control the input manager listens to (the game's controls today; the end screen may add
its own), copies the replay link of the game in play with the Clipboard API; where the
browser refuses, the link is shown in a selected text field (``#link-field``) to copy by
hand. What the mode needs of the page is :class:`ReplayPort`; the words and the move list's
markup are the view's (:mod:`nestor_web.view.replay`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from pyodide.ffi import create_proxy
from pyscript import document, window

from ..app.replay import PACE_SECONDS, REPLAY_KEYS, Replay, replay_request
from ..view.replay import link_words, render_moves, replay_announcement, replay_view
from .clipboard import game_link, to_clipboard
from .dom import missing

if TYPE_CHECKING:
    from ..app.events import Event
    from ..app.replay import ReplayEvent
    from ..app.session import Session


class ReplayPort(Protocol):
    """What the replay mode asks of the page (the composition root)."""

    @property
    def session(self) -> Session:
        """The session of the game in play (its settings, its address, Play from here)."""

    def run(self, command: Callable[[], tuple[Event, ...]], animate: bool = True) -> None:
        """Run a session command, draw and save what happened."""

    def update(self, events: tuple[Event, ...]) -> None:
        """Draw the game after ``events`` (``()``: as it is), and save."""

    def spawn(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run the coroutine ``make()`` returns as a task of the page."""

    def restore_focus(self) -> None:
        """Give the game's board the focus (its first available card)."""

    def panel_open(self) -> bool:
        """Is one of the page's panels (a modal dialog) open?"""

    def cover_game(self, covered: bool) -> None:
        """``True`` while the mode covers the game: the game's drawing leaves the address
        alone (it is the mode's), and the game's timer stops."""


class ReplayMode:
    """The replay section and the link panel of the page, for ``app``.

    Attributes:
        replay: the replay shown, or ``None`` while the game is.
    """

    def __init__(self, app: ReplayPort, replay: Replay | None = None) -> None:
        self.app = app
        self.replay: Replay | None = None
        self._proxies: list[Any] = []
        self._drawn_moves: tuple[object, ...] | None = None
        for target, kind, handler in (
            (document.getElementById("replay"), "click", self.on_click),
            (document.getElementById("link-panel"), "click", self.on_click),
            (document, "keydown", self.on_key),
        ):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            target.addEventListener(kind, proxy)
        if replay is not None:
            self.show(replay)

    @property
    def shown(self) -> bool:
        """Is the replay shown (the page in replay mode)?"""
        return self.replay is not None

    # ---- entering and leaving ---------------------------------------------------------

    def show(self, replay: Replay) -> None:
        """Show ``replay`` (the address already is its link); focus goes to its Next control."""
        if self.replay is not None:
            self.replay.playing = False
        self.replay = replay
        self._drawn_moves = None
        self.app.cover_game(True)
        document.getElementById("replay").hidden = False
        document.body.setAttribute("data-mode", "replay")
        self.draw()
        focus = document.querySelector('#replay [data-replay-command="next"]')
        if not missing(focus):
            # Its ring only where a keyboard is likely: on a touch screen it stayed on Next
            # through every tap; a key pressed later shows it.
            fine = bool(window.matchMedia("(any-pointer: fine)").matches)
            focus.focus(window.Object.fromEntries([["focusVisible", fine]]))

    def leave(self, push: bool = True) -> None:
        """Back to the game in play; with ``push`` the address becomes its deal's (a new
        history entry, so Back returns to the replay)."""
        if self.replay is None:
            return
        self.replay.playing = False
        self.replay = None
        document.getElementById("replay").hidden = True
        document.body.removeAttribute("data-mode")
        self.app.cover_game(False)
        if push:
            window.history.pushState(None, "", self.app.session.query())
        self.app.update(())
        self.app.restore_focus()

    def address_changed(self) -> bool:
        """Back or Forward: show the replay the address now holds (``True``: handled, the
        game is left alone), report a broken one (``True``), or leave the replay for the
        deal of the address (``False``: the game's own handling goes on)."""
        replay, problem = replay_request(str(window.location.search))
        if replay is not None:
            self.show(replay)
            return True
        if problem is not None:
            self.leave(push=False)
            window.history.replaceState(None, "", self.app.session.query())
            self.app.update(self.app.session.notice(problem))
            return True
        self.leave(push=False)
        return False

    # ---- drawing ------------------------------------------------------------------------

    def draw(self, events: tuple[ReplayEvent, ...] = ()) -> None:
        """Draw the replay shown (nothing when none is)."""
        replay = self.replay
        if replay is None:
            return
        view = replay_view(replay, self.app.session.settings)
        text = {
            "replay-title": view.title, "replay-step": view.step,
            "replay-result": view.result or "",
        }
        for name, value in text.items():
            element = document.getElementById(name)
            if element.textContent != value:
                element.textContent = value
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

    # ---- commands ------------------------------------------------------------------------

    def command(self, name: str) -> None:
        """A replay command: first, previous, next, last, play (play/pause), from-here
        (Play from here), close (Back to my game)."""
        replay = self.replay
        if replay is None:
            return
        if name == "close":
            self.leave()
            return
        if name == "from-here":
            if replay.position.outcome() is None:
                game = replay.game()
                self.app.run(lambda: self.app.session.play_from(game), animate=False)
                self.leave()
            return
        was_playing = replay.playing
        events = replay.command(name)
        if events:
            self.draw(events)
        if replay.playing and not was_playing:
            self.app.spawn(lambda: self._play(replay))

    def go(self, cursor: int) -> None:
        """Show the position after ``cursor`` moves (a move of the list was chosen)."""
        if self.replay is None:
            return
        self.draw(self.replay.stop() + self.replay.go(cursor))

    async def _play(self, replay: Replay) -> None:
        """Play ``replay`` on, a move every :data:`PACE_SECONDS`, while it plays and is shown."""
        while replay.playing and self.replay is replay:
            await asyncio.sleep(PACE_SECONDS)
            if not replay.playing or self.replay is not replay:
                return
            self.draw(replay.tick())

    # ---- input ---------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        """A tap in the replay section or the link panel."""
        target = event.target.closest("[data-replay-command], [data-replay-go], [data-action]")
        if missing(target) or target.disabled:
            return
        if int(event.detail) > 0 and target.matches(":focus-visible"):
            # Pressed with a pointer while it showed the ring it had from the replay's opening
            # (the focus was already there, so the press kept it): the ring goes, as after
            # any other press.
            target.blur()
            target.focus(window.Object.fromEntries([["focusVisible", False]]))
        if target.hasAttribute("data-replay-go"):
            self.go(int(str(target.getAttribute("data-replay-go"))))
        elif target.hasAttribute("data-replay-command"):
            self.command(str(target.getAttribute("data-replay-command")))
        elif str(target.getAttribute("data-action")) == "link-close":
            document.getElementById("link-panel").hidden = True
            button = document.querySelector('#counters [data-action="copy-link"]')
            if not missing(button):
                button.focus()

    def on_key(self, event: Any) -> None:
        """The replay's keys, while it is shown and no panel (a modal dialog) is open over
        it (the game's keys are off then: the root's ``dialog_open`` says so to the input
        manager)."""
        if self.replay is None or event.ctrlKey or event.metaKey or event.altKey:
            return
        if self.app.panel_open():  # a panel over the replay has the keys
            return
        target = event.target
        tag = str(target.tagName).lower() if not missing(target.tagName) else ""
        key = str(event.key)
        if tag in ("input", "select", "textarea", "summary") or (
            key == " " and tag == "button"  # Space presses the focused button itself
        ):
            return
        command = REPLAY_KEYS.get(key.lower() if len(key) == 1 else key)
        if command is None:
            return
        event.preventDefault()
        self.command(command)

    # ---- the link of the game in play -------------------------------------------------

    def copy_link(self) -> None:
        """Copy the replay link of the game in play (its moves in effect) to the clipboard;
        if the browser refuses, show it in a selected text field to copy by hand."""
        url = game_link(self.app.session.game)
        self.app.spawn(lambda: self._copy(url))

    async def _copy(self, url: str) -> None:
        copied = await to_clipboard(url)
        panel = document.getElementById("link-panel")
        document.getElementById("link-words").textContent = link_words(copied)
        field = document.getElementById("link-field")
        field.value = url
        panel.hidden = False
        panel.setAttribute("data-copied", "true" if copied else "false")
        if not copied:
            field.focus()
            field.select()


def _scroll_into_list(box: Any, item: Any) -> None:
    """Scroll the list ``box`` (only it) so that its ``item`` is in view: ``scrollIntoView``
    scrolled the page too, so End moved the whole page on a desktop."""
    outer, inner = box.getBoundingClientRect(), item.getBoundingClientRect()
    if inner.top < outer.top:
        box.scrollTop -= outer.top - inner.top
    elif inner.bottom > outer.bottom:
        box.scrollTop += inner.bottom - outer.bottom

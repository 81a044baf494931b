"""A replay: a game record from a link, shown position by position, apart from the game."""

from __future__ import annotations

from dataclasses import dataclass

from nestor import Game, Move, NestorError, Position, Record
from nestor.link import is_replay_query, record_from_query, record_query

from .events import Problem

REPLAY_KEYS: dict[str, str] = {  # event.key (letters in lower case): the command it gives
    "ArrowLeft": "previous",
    "ArrowUp": "previous",
    "ArrowRight": "next",
    "ArrowDown": "next",
    "Home": "first",
    "End": "last",
    " ": "play",
    "p": "play",
}

PACE_SECONDS = 0.8  # between two moves while the replay plays


@dataclass(frozen=True)
class Stepped:
    """The replay shows the position after ``cursor`` moves (``move``: one move on)."""

    cursor: int
    move: Move | None = None


@dataclass(frozen=True)
class PlayChanged:
    """The replay started or stopped playing on its own."""

    playing: bool


ReplayEvent = Stepped | PlayChanged


class Replay:
    """A game record shown position by position; ``playing``: it goes on by itself
    (RecordError ``record.illegal_move`` for an illegal move)."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self._game = record.replay()
        while self._game.can_undo():
            self._game.undo()
        self.playing = False

    @property
    def cursor(self) -> int:
        return self._game.cursor

    @property
    def length(self) -> int:
        return len(self.record.moves)

    @property
    def position(self) -> Position:
        return self._game.position

    @property
    def next_move(self) -> Move | None:
        """The move after the position shown, ``None`` at the end."""
        return self.record.moves[self.cursor] if self.cursor < self.length else None

    def game(self) -> Game:
        """A new game at the position shown, the later moves kept for redo."""
        game = self.record.replay()
        while game.cursor > self.cursor:
            game.undo()
        return game

    def query(self) -> str:
        """``"?variant=V&deal=N&moves=M"``."""
        return "?" + record_query(self.record)

    def go(self, cursor: int) -> tuple[ReplayEvent, ...]:
        """Show the position after ``cursor`` moves (clamped to 0 .. :attr:`length`)."""
        cursor = max(0, min(self.length, cursor))
        if cursor == self.cursor:
            return ()
        move = self.next_move if cursor == self.cursor + 1 else None
        while self._game.cursor < cursor:
            self._game.redo()
        while self._game.cursor > cursor:
            self._game.undo()
        return (Stepped(cursor, move),)

    def command(self, name: str) -> tuple[ReplayEvent, ...]:
        """The replay command ``name`` (of :data:`REPLAY_KEYS`); all but ``"play"`` stop playing."""
        if name == "play" and self.playing:
            return self.stop()
        if name == "play":  # from the deal again when at the end
            self.playing = True
            return (PlayChanged(True), *(self.go(0) if self.cursor == self.length else ()))
        target = {
            "first": 0, "previous": self.cursor - 1, "next": self.cursor + 1, "last": self.length,
        }.get(name)
        if target is None:
            return ()
        return self.stop() + self.go(target)

    def tick(self) -> tuple[ReplayEvent, ...]:
        """While playing: the next move (the last one stops the playing)."""
        if not self.playing:
            return ()
        events = self.go(self.cursor + 1)
        if self.cursor == self.length:
            events += self.stop()
        return events

    def stop(self) -> tuple[ReplayEvent, ...]:
        if not self.playing:
            return ()
        self.playing = False
        return (PlayChanged(False),)


def replay_request(query: str) -> tuple[Replay | None, Problem | None]:
    """The replay a URL query asks for."""
    if not is_replay_query(query):
        return None, None
    try:
        return Replay(record_from_query(query)), None
    except NestorError as exc:
        return None, Problem("link.replay", exc)


def link_query(game: Game) -> str:
    """The URL query of the replay link of ``game``'s moves in effect."""
    return "?" + record_query(game.record())

"""The stored text of a saved game and of the settings (JSON), and their versions."""

from __future__ import annotations

from dataclasses import asdict

from nestor import Game, NestorError
from nestor.errors import clip
from nestor.jsontext import load_object, loads

from ..app.ranges import clamped, in_range
from ..app.saved import Help, SavedGame
from ..app.settings import ANIMATION_SPEEDS, Settings
from .keys import json_text

ANIMATION_SPEED_KEY = "animation_speed"  # the animations' speed, beside ``animations``
WINNABLE_ONLY_KEY = "winnable_only"  # the setting ``difficulty`` replaced, for older versions

_ON_SPEEDS = tuple(s for s in ANIMATION_SPEEDS if s != "off")

_NUMBERS = (
    ("hints", "help"), ("solver_moves", "help"), ("replayed", "help"),
    ("reviewed", "help"), ("elapsed_ms", "duration"),
)
"""The saved game's numbers beside its record, and the kind of range of each."""

SAVE_VERSION = 1
BOARD_VERSION = 2  # the stored board's version (static/js/wake.js checks it)


def game_to_text(saved: SavedGame) -> str:
    """The stored text of ``saved`` (shapes: docs/formats.md)."""
    help_ = saved.help
    rare = {
        k: clamped(v, "help")
        for k, v in (("replayed", help_.replayed), ("reviewed", help_.reviewed)) if v
    }
    return json_text({
        "version": SAVE_VERSION, **saved.game.to_json(),
        "hints": clamped(help_.hints, "help"),
        "solver_moves": clamped(help_.solver_moves, "help"),
        "elapsed_ms": clamped(saved.elapsed_ms, "duration"), **rare,
    })


def game_from_text(text: str) -> SavedGame:
    """Rebuild a saved game from its text; raises NestorError for a text that is not one (not a
    JSON object of this version, an unknown variant or deal, an illegal move, a bad number)."""
    data = load_object(text, version=SAVE_VERSION)
    game = Game.from_json({k: v for k, v in data.items() if k != "version"})
    hints, solver_moves, replayed, reviewed, elapsed_ms = (
        in_range(data.get(key, 0), key, kind) for key, kind in _NUMBERS
    )
    return SavedGame(game, Help(hints, solver_moves, replayed, reviewed), elapsed_ms)


def archive_from_text(text: str) -> dict[str, str]:
    """The archive read: ``"variant/deal"`` -> saved-game text; ValueError if not one."""
    data = loads(text)
    if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
        return {str(k): v for k, v in data.items()}
    raise ValueError("not an archive")


def archive_text(archive: tuple[SavedGame, ...]) -> str:
    """The stored archive of the games ``archive``, oldest first."""
    return json_text({"{}/{}".format(*g.key): game_to_text(g) for g in archive})


def settings_to_text(settings: Settings) -> str:
    """The stored text of ``settings``."""
    data: dict[str, object] = asdict(settings)
    chosen = settings.animations
    data["animations"] = None if chosen is None else chosen != "off"
    if chosen is not None and chosen != "off":
        data[ANIMATION_SPEED_KEY] = chosen
    data[WINNABLE_ONLY_KEY] = settings.difficulty != "any"  # what older versions read
    return json_text(data)


def settings_from_text(text: str) -> Settings:
    """Read stored settings (missing: default, unknown keys ignored); raises NestorError if not a
    JSON object, or ``setting.value`` (``name``, ``value``) for the first value not allowed."""
    settings, errors = settings_kept_from_text(text)
    if errors:
        raise errors[0]
    return settings


def settings_kept_from_text(text: str) -> tuple[Settings, tuple[NestorError, ...]]:
    """Stored settings read as :func:`settings_from_text` does, but a value a setting cannot take
    reads as its default and its error is returned; raises NestorError if not a JSON object."""
    data = load_object(text)
    settings = Settings()
    errors: list[NestorError] = []
    for name in Settings.names():
        try:
            if name == "animations":
                settings.set(name, _animations(data))
            elif name == "difficulty" and name not in data:
                settings.set(name, "winnable" if data.get(WINNABLE_ONLY_KEY) is True else "any")
            elif name in data:
                settings.set(name, data[name])
        except NestorError as exc:
            errors.append(exc)
    return settings, tuple(errors)


def _animations(data: dict[str, object]) -> str | None:
    """``data``'s ``animations``, a speed or ``None`` (older games' ``true``: ``animation_speed`` or
    ``"normal"``, ``false``: ``"off"``); raises ``setting.value`` for anything else."""
    chosen = data.get("animations")
    if chosen is None:
        return None
    if chosen is False:
        return "off"
    speed = data.get(ANIMATION_SPEED_KEY, "normal") if chosen is True else chosen
    if chosen is not True or speed not in _ON_SPEEDS:
        raise NestorError(f"the animations cannot be {clip(repr(speed))}",
                          code="setting.value", name="animations", value=clip(repr(speed)))
    return speed


def board_to_text(
    game: str, language: str, board: list[object], counters: dict[str, str]
) -> str:
    """The stored board of the saved-game text ``game``: ``board`` the play area's nodes."""
    return json_text({
        "version": BOARD_VERSION, "game": game, "language": language, "board": board,
        "counters": counters,
    })

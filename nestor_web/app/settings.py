"""The player's settings: names, defaults and the values each may take (no words, no format)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from nestor import NestorError
from nestor.errors import clip

LANGUAGE_CODES = ("en", "de")
THEMES = ("system", "light", "dark")
SOLVE_SPEEDS = ("slow", "normal", "fast")
SOLVE_PAUSE_MS = {"slow": 1400, "normal": 600, "fast": 150}  # between two moves of Solve
ANIMATION_SPEEDS = ("off", "slow", "normal", "fast")
ANIMATION_SCALE = {"off": 0.0, "slow": 1.75, "normal": 1.0, "fast": 0.5}  # of every duration

DIFFICULTIES = ("any", "winnable", "easy", "medium", "hard")
"""What New deal deals: any deal, one the solver proves winnable, or one of a shipped grade."""

_CHOICES: dict[str, tuple[str | None, ...]] = {  # the values of each setting not a switch
    "language": (None, *LANGUAGE_CODES), "theme": THEMES, "solve_speed": SOLVE_SPEEDS,
    "difficulty": DIFFICULTIES, "animations": (None, *ANIMATION_SPEEDS),
}


def shown_animations(chosen: str | None, reduced_motion: bool) -> str:
    """The animation speed in effect: ``chosen``, else off under reduced motion, else normal."""
    if chosen is not None:
        return chosen
    return "off" if reduced_motion else "normal"


@dataclass
class Settings:
    """The player's settings. ``language``: ``None`` until the first visit picks one;
    ``animations``: ``None`` follows the system (:func:`shown_animations`); ``auto_pair``: a card
    with one partner pairs at once; ``left_handed``: the reserve (Strict: stock) on the right."""

    language: str | None = None
    four_colours: bool = False
    animations: str | None = None
    theme: str = "system"
    auto_pair: bool = False
    winnable_indicator: bool = False
    difficulty: str = "any"
    highlight_partners: bool = True
    sounds: bool = False
    solve_speed: str = "normal"
    show_timer: bool = True
    left_handed: bool = False
    large_index: bool = False

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def set(self, name: str, value: object) -> None:
        """Set one setting (NestorError ``setting.unknown``, or ``setting.value``: a bad value)."""
        if name not in self.names():
            raise NestorError(f"unknown setting {clip(name)!r}",
                              code="setting.unknown", name=clip(name))
        choices = _CHOICES.get(name)
        if not (isinstance(value, bool) if choices is None else value in choices):
            raise NestorError(f"{name!r} cannot be {clip(repr(value))}",
                              code="setting.value", name=name, value=clip(repr(value)))
        setattr(self, name, value)

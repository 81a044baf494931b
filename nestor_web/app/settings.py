"""The player's settings: names, defaults and the values each may take (no words, no format)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from nestor import NestorError
from nestor.errors import clip

LANGUAGE_CODES = ("en", "de")
"""The languages the game speaks, by code (the view names them)."""

THEMES = ("system", "light", "dark")
"""Colour themes: follow the system's dark mode, or force light or dark."""

SOLVE_SPEEDS = ("slow", "normal", "fast")
"""How fast Solve plays its moves (the pause between two, see :data:`SOLVE_PAUSE_MS`)."""

SOLVE_PAUSE_MS = {"slow": 1400, "normal": 600, "fast": 150}
"""Milliseconds between two moves of Solve, by :data:`SOLVE_SPEEDS`: slow leaves time to
read each pair, fast barely shows each one fly."""


@dataclass
class Settings:
    """The player's settings.

    Attributes:
        language: a code of :data:`LANGUAGE_CODES`, or ``None`` before the first visit
            has chosen one from the browser's languages.
        four_colours: suits in four colours (clubs green, diamonds blue).
        animations: animate removed pairs; ``None`` follows the system (off when it
            asks for reduced motion).
        theme: one of :data:`THEMES`.
        auto_pair: tapping a card that has exactly one possible partner removes the
            pair at once. Off by default.
        winnable_indicator: after each move, show whether the game can still be won
            (Strict: the chance). Off by default.
        winnable_only: "New deal" picks only deals the solver proves winnable (Strict:
            winnable with the actual stock order).
        highlight_partners: the cards the selected card (or the card being dragged) can
            pair with are marked. On by default.
        sounds: short sounds made in the page (Web Audio: nothing is downloaded) for a
            pair, a win and a loss. Off by default.
        solve_speed: how fast Solve plays (:data:`SOLVE_SPEEDS`).
    """

    language: str | None = None
    four_colours: bool = False
    animations: bool | None = None
    theme: str = "system"
    auto_pair: bool = False
    winnable_indicator: bool = False
    winnable_only: bool = False
    highlight_partners: bool = True
    sounds: bool = False
    solve_speed: str = "normal"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every setting's name, in declaration order."""
        return tuple(f.name for f in fields(cls))

    def set(self, name: str, value: object) -> None:
        """Set one setting, checking its value.

        Raises:
            NestorError: code ``"setting.unknown"`` (detail ``name``) for an unknown
                setting, ``"setting.value"`` (details ``name``, ``value``) for a value
                it cannot take.
        """
        if name not in self.names():
            raise NestorError(f"unknown setting {clip(name)!r}",
                              code="setting.unknown", name=clip(name))
        if name == "language":
            ok = value is None or value in LANGUAGE_CODES
        elif name == "theme":
            ok = value in THEMES
        elif name == "solve_speed":
            ok = value in SOLVE_SPEEDS
        elif name == "animations":
            ok = value is None or isinstance(value, bool)
        else:
            ok = isinstance(value, bool)
        if not ok:
            raise NestorError(f"{name!r} cannot be {clip(repr(value))}",
                              code="setting.value", name=name, value=clip(repr(value)))
        setattr(self, name, value)

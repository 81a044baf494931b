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
"""Milliseconds between two moves of Solve, by :data:`SOLVE_SPEEDS`: slow leaves time to read each
pair, fast barely shows each one fly."""

DIFFICULTIES = ("any", "winnable", "easy", "medium", "hard")
"""What New deal deals: any deal; a deal the solver proves winnable first (Strict: with the stock as
it lies); or a deal of one grade, Easy, Medium or Hard (:mod:`nestor.grade`), drawn from the grades
shipped with the game (:mod:`nestor.graded_deals`)."""

ANIMATION_SPEEDS = ("off", "slow", "normal", "fast")
"""How the board moves: no animation, or the flights of removed pairs, a win's celebration and a
dropped card's slide back at one of three speeds (see :data:`ANIMATION_SCALE`)."""

ANIMATION_SCALE = {"off": 0.0, "slow": 1.75, "normal": 1.0, "fast": 0.5}
"""What each of :data:`ANIMATION_SPEEDS` multiplies every animation's duration by (``0``: none
runs): slow lets the eye follow each card, fast keeps only a glimpse of where it went."""


def shown_animations(chosen: str | None, reduced_motion: bool) -> str:
    """The animation speed in effect (one of :data:`ANIMATION_SPEEDS`): the one ``chosen``, or when
    none was (``None``), ``"normal"`` unless the system asks for reduced motion
    (``reduced_motion``), then ``"off"``."""
    if chosen is not None:
        return chosen
    return "off" if reduced_motion else "normal"


@dataclass
class Settings:
    """The player's settings.

    Attributes:
        language: a code of :data:`LANGUAGE_CODES`, or ``None`` before the first visit has chosen
            one from the browser's languages.
        four_colours: suits in four colours (clubs green, diamonds blue).
        animations: how removed pairs, a win and a dropped card move: one of
            :data:`ANIMATION_SPEEDS`; ``None`` (nothing chosen yet) follows the system, ``"normal"``
            or, when it asks for reduced motion, ``"off"`` (:func:`shown_animations`).
        theme: one of :data:`THEMES`.
        auto_pair: tapping a card that has exactly one possible partner removes the pair at once.
        winnable_indicator: after each move, show whether the game can still be won (Strict: the
            chance).
        difficulty: what "New deal" deals, one of :data:`DIFFICULTIES`: any deal (the default), only
            deals the solver proves winnable (Strict: winnable with the actual stock order; it was
            the setting ``winnable_only``), or a deal of one grade.
        highlight_partners: the cards the selected card (or the card being dragged) can pair with
            are marked.
        sounds: short sounds made in the page (Web Audio: nothing is downloaded) for a pair, a win
            and a loss.
        solve_speed: how fast Solve plays (:data:`SOLVE_SPEEDS`).
        show_timer: show the time played (the timer in the counters, the time on the end screen).
        left_handed: the reserve (in Strict the stock) on the right of the board instead of the
            left.
        large_index: larger rank and suit in the cards' corners (small screens, low vision).
    """

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
        """Every setting's name, in declaration order."""
        return tuple(f.name for f in fields(cls))

    def set(self, name: str, value: object) -> None:
        """Set one setting, checking its value.

        Raises:
            NestorError: code ``"setting.unknown"`` (detail ``name``) for an unknown setting,
                ``"setting.value"`` (details ``name``, ``value``) for a value it cannot take.
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
        elif name == "difficulty":
            ok = value in DIFFICULTIES
        elif name == "animations":
            ok = value is None or value in ANIMATION_SPEEDS
        else:
            ok = isinstance(value, bool)
        if not ok:
            raise NestorError(f"{name!r} cannot be {clip(repr(value))}",
                              code="setting.value", name=name, value=clip(repr(value)))
        setattr(self, name, value)

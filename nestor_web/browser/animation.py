"""The board's motion and sounds: removed pairs flying to the discard pile, a win's
celebration, and short tones made with Web Audio (nothing downloaded; silent where refused).

Decoration only, drawn after the board; nothing of it outlives its animation. Durations are
the normal speed's; :attr:`Motion.scale` (the Animations setting) multiplies them.
"""

from __future__ import annotations

import random
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy
from pyscript import document, window

from ..app.events import Moved
from .dom import animate, missing

ANIMATION_MS = 420
"""How long a removed pair takes to fly to the discard pile."""

TURNED_MS = 900
"""How long a Strict stock card takes: shown face up on the stock, then to its partner, then
both to the discard pile."""

CELEBRATION_MS = 2200
"""The longest a win's celebration lasts (a tap or a key ends it at once)."""

CONFETTI = 30
"""How many suit signs fall in a win's celebration."""

STOCK = "@stock"
"""The key of the stock pile in :func:`measure` (no card code looks like it)."""

CLONE_DROPS = (
    "id", "data-card", "data-available", "data-selected", "data-hint", "data-turned",
    "data-last-move", "data-dragging", "data-queued", "aria-pressed", "aria-label", "role",
)
"""Attributes a flying copy does not keep: hooks and names of the card it copies."""


TONES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "pair": ((660.0, 0.0, 0.07), (880.0, 0.05, 0.09)),
    "won": ((523.25, 0.0, 0.16), (659.25, 0.12, 0.16), (783.99, 0.24, 0.16),
            (1046.5, 0.36, 0.34)),
    "lost": ((330.0, 0.0, 0.22), (247.0, 0.18, 0.36)),
}
"""Each sound as tones: (frequency in Hz, start in s after now, length in s)."""

VOLUME = 0.12
"""Peak gain of a tone (0..1): quiet, a sound for a tap, not an alarm."""

def measure() -> dict[str, tuple[Any, Any]]:
    """Where each card is drawn now: code -> (element, its bounding rectangle); the
    stock pile (Strict) under :data:`STOCK`. Taken before a command, it is where the cards
    the command removes fly from (:meth:`Motion.fly_away`)."""
    drawn = {
        str(e.getAttribute("data-card")): (e, e.getBoundingClientRect())
        for e in document.querySelectorAll("#board [data-card]")
    }
    stock = document.querySelector('#board [data-region="spare"] .card.back')
    if not missing(stock):
        drawn[STOCK] = (stock, stock.getBoundingClientRect())
    return drawn


class Motion:
    """The flights of removed cards to ``pile`` (the discard pile's element) and the win's
    celebration.

    Attributes:
        scale: what every duration is multiplied by (``1.0``: the normal speed; slow is
            longer, fast shorter); the actuator sets it from the Animations setting.
    """

    def __init__(self, pile: Any) -> None:
        self.pile = pile
        self.scale = 1.0
        self._celebration: Any = None  # the layer of the win's celebration running now
        self._confetti: list[Any] = []  # the animations of its signs
        self._end_proxy: Any = None  # what ends any celebration (made at the first win)

    def fly_away(self, moved: Moved, drawn: dict[str, tuple[Any, Any]]) -> None:
        """Animate the cards ``moved`` removed to the discard pile (the board is already drawn).

        ``drawn`` is :func:`measure` taken before the move. Each card flies as an exact copy of
        its own element (``cloneNode``: the same face, classes and corners) at the size it was
        drawn, with the card size of its region carried over as ``--card-w``/``--card-h``
        (the copy lives outside the board, where those are not set); it keeps that size
        until it lands on the pile, where it shrinks to the pile's size. A Strict stock card
        starts face up on the stock, flies to its partner, and then both go to the pile.
        The copies are decoration only (``aria-hidden``, ``inert``, no pointer events; hook:
        ``data-flying`` holds the card's code): input during the animation goes to the real,
        already updated board.
        """
        pile = self.pile.getBoundingClientRect()
        turned = moved.turned
        stock = drawn.get(STOCK)
        partner: Any = None
        hidden: Any = None
        flights: list[tuple[str, Any, Any]] = []
        for code in moved.removed:
            if code in drawn:
                flights.append((code, *drawn[code]))
                if turned is not None and code != turned:
                    partner = drawn[code][1]
        if turned is not None and turned not in drawn and stock is not None:
            # The turned card was face down: its face is the one the view now shows beside
            # the stock (data-turned), or if none, any element of that card.
            shown = document.querySelector(f'#board [data-card="{turned}"]')
            if not missing(shown) and turned in moved.removed:
                flights.append((turned, shown, stock[1]))
                # Until the flight ends the card is where it flies, not also beside the stock.
                shown.style.visibility = "hidden"
                hidden = shown
        for code, original, rect in flights:
            ghost = _clone(original, code, rect)
            document.body.appendChild(ghost)
            land = _landing(rect, pile)
            steps: list[tuple[float, str]]
            if turned is None:
                steps = [(0, "none")]
            elif code == turned and partner is not None:
                to_partner = (partner.left - rect.left, partner.top - rect.top, 1.0)
                steps = [(0, "none"), (0.3, "none"), (0.6, _move(to_partner, 1, 1))]
            else:  # the partner waits for the turned card, then they go together
                steps = [(0, "none"), (0.6, "none")]
            steps += [(0.75 if turned is None else 0.85, _move(land, 0.9, 1)),
                      (1, _move(land, 1, land[2]))]
            # Eased between keyframes: each is reached on its offset.
            frames: list[dict[str, object]] = [
                {"offset": o, "transform": t, "easing": "ease-in-out"} for o, t in steps
            ]
            duration = (ANIMATION_MS if turned is None else TURNED_MS) * self.scale
            animation = animate(ghost, frames, {"duration": duration, "fill": "forwards"})
            if code == turned and hidden is not None:
                animation.onfinish = create_once_callable(
                    lambda _event, g=ghost, h=hidden: _landed(g, h)
                )
            else:
                animation.onfinish = create_once_callable(lambda _event, g=ghost: g.remove())

    def celebrate(self) -> None:
        """A win: suit signs fall over the page for at most :data:`CELEBRATION_MS` times
        :attr:`scale` (only when animations are on; the caller checks). A tap on it or any
        key ends it at once. Hook: ``body[data-celebrating]`` while it runs.

        Nothing of it outlives it (:meth:`end_celebration`): its three ways to end (the
        layer's ``pointerdown``, the document's ``keydown``, the last sign's ``finish``) call
        the one proxy kept for the page's life, and are taken off again."""
        self.end_celebration()
        layer = document.createElement("div")
        layer.className = "celebration"
        layer.setAttribute("aria-hidden", "true")
        height = float(window.innerHeight)
        scale = self.scale if self.scale > 0 else 1.0
        longest: Any = None
        animations = []
        for _i in range(CONFETTI):
            suit = random.choice("♠♥♦♣")
            sign = document.createElement("span")
            sign.className = "red" if suit in "♥♦" else "black"
            sign.textContent = suit
            sign.style.left = f"{random.uniform(2, 96):.1f}%"
            duration = random.uniform(1100, CELEBRATION_MS - 500)
            delay = random.uniform(0, CELEBRATION_MS - 100 - duration) * scale
            duration *= scale
            turn = random.choice((-1, 1)) * random.uniform(90, 540)
            frames = [
                {"transform": "translateY(-3rem) rotate(0deg)", "opacity": 1},
                {"transform": f"translateY({height + 48:.0f}px) rotate({turn:.0f}deg)",
                 "opacity": 0.6},
            ]
            animation = animate(sign, frames, {"duration": duration, "delay": delay,
                                               "easing": "ease-in", "fill": "both"})
            animations.append(animation)
            if longest is None or delay + duration > longest[0]:
                longest = (delay + duration, animation)
            layer.appendChild(sign)
        document.body.appendChild(layer)
        document.body.setAttribute("data-celebrating", "")
        end = self._end_proxy
        if end is None:
            end = self._end_proxy = create_proxy(lambda _event=None: self.end_celebration())
        self._celebration = layer
        self._confetti = animations
        layer.addEventListener("pointerdown", end)
        document.addEventListener("keydown", end)
        if longest is not None:
            longest[1].onfinish = end

    def end_celebration(self) -> None:
        """End the win's celebration, if one runs: its listeners are taken off, its
        animations cancelled, its signs taken off the page."""
        current = self._celebration
        if current is None:
            return
        self._celebration = None
        animations, self._confetti = self._confetti, []
        end = self._end_proxy
        if end is not None:
            document.removeEventListener("keydown", end)
            current.removeEventListener("pointerdown", end)
        for animation in animations:
            animation.onfinish = None
            animation.cancel()
        current.remove()
        document.body.removeAttribute("data-celebrating")


def _clone(original: Any, code: str, rect: Any) -> Any:
    """A decoration-only copy of the card element ``original``, placed over ``rect`` (where
    the card was drawn) at exactly its size."""
    ghost = original.cloneNode(True)
    for name in CLONE_DROPS:
        ghost.removeAttribute(name)
    ghost.classList.add("ghost")
    ghost.setAttribute("aria-hidden", "true")
    ghost.setAttribute("data-flying", code)
    ghost.setAttribute("tabindex", "-1")
    ghost.inert = True
    style = ghost.style  # CSSOM, which the page's style-src allows (no style attribute)
    style.removeProperty("visibility")
    style.setProperty("--card-w", f"{rect.width}px")
    style.setProperty("--card-h", f"{rect.height}px")
    style.left = f"{rect.left}px"
    style.top = f"{rect.top}px"
    return ghost


def _landed(ghost: Any, shown: Any) -> None:
    """The turned card's flight ended: remove its copy, show the card beside the stock."""
    ghost.remove()
    shown.style.removeProperty("visibility")


def _landing(rect: Any, pile: Any) -> tuple[float, float, float]:
    """How a card drawn at ``rect`` lands on the discard pile ``pile``: the move of its
    centre onto the pile's (x, y in px) and the scale that gives it the pile's height."""
    dx = pile.left + pile.width / 2 - (rect.left + rect.width / 2)
    dy = pile.top + pile.height / 2 - (rect.top + rect.height / 2)
    scale = pile.height / rect.height if rect.height else 1.0
    return float(dx), float(dy), float(scale)


def _move(to: tuple[float, float, float], share: float, scale: float) -> str:
    """A CSS transform: ``share`` of the way ``to`` (its x, y), at ``scale``."""
    return f"translate({to[0] * share:.1f}px, {to[1] * share:.1f}px) scale({scale:.3f})"


class Sounds:
    """Plays :data:`TONES` by name; the audio context is made on the first sound (after a
    gesture)."""

    def __init__(self) -> None:
        self._context: Any = None

    def _audio(self) -> Any:
        if self._context is None:
            maker = getattr(window, "AudioContext", None) or getattr(
                window, "webkitAudioContext", None
            )
            if maker is None:
                return None
            self._context = maker.new()
        return self._context

    def play(self, name: str) -> None:
        """Play the sound ``name`` (a key of :data:`TONES`); silent where audio is refused."""
        try:
            audio = self._audio()
            if audio is None:
                return
            if str(audio.state) == "suspended":
                audio.resume()
            now = float(audio.currentTime)
            for frequency, start, length in TONES[name]:
                oscillator = audio.createOscillator()
                gain = audio.createGain()
                oscillator.type = "triangle"
                oscillator.frequency.value = frequency
                begin = now + start
                gain.gain.setValueAtTime(0.0001, begin)
                gain.gain.exponentialRampToValueAtTime(VOLUME, begin + 0.01)
                gain.gain.exponentialRampToValueAtTime(0.0001, begin + length)
                oscillator.connect(gain)
                gain.connect(audio.destination)
                oscillator.start(begin)
                oscillator.stop(begin + length + 0.02)
            window.nestorSound = name  # a hook for tests: the last sound played
        except Exception:  # a sound is never worth a broken move
            return

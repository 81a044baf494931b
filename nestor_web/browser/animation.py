"""The board's motion and sounds, drawn after the board: removed pairs flying to the discard pile,
a win's celebration, Web Audio tones. Durations: the normal speed's times :attr:`Motion.scale`."""

from __future__ import annotations

import random
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy
from pyscript import document, window

from ..app.events import Moved
from .dom import animate, missing

ANIMATION_MS = 420  # a removed pair's flight to the discard pile
TURNED_MS = 900  # a Strict stock card: face up on the stock, to its partner, both to the pile
CELEBRATION_MS = 2200  # the longest a win's celebration lasts (a tap or a key ends it)
CONFETTI = 30  # suit signs falling in a win's celebration
STOCK = "@stock"  # the stock pile's key in measure() (no card code looks like it)

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

VOLUME = 0.12  # a tone's peak gain (0..1): a sound for a tap, not an alarm


def measure() -> dict[str, tuple[Any, Any]]:
    """Where each card is drawn now: code -> (element, rectangle); Strict's stock: :data:`STOCK`."""
    drawn = {
        str(e.getAttribute("data-card")): (e, e.getBoundingClientRect())
        for e in document.querySelectorAll("#board [data-card]")
    }
    stock = document.querySelector('#board [data-region="spare"] .card.back')
    if not missing(stock):
        drawn[STOCK] = (stock, stock.getBoundingClientRect())
    return drawn


class Motion:
    """Cards flying to the discard ``pile``, the win's celebration; durations times ``scale``."""

    def __init__(self, pile: Any) -> None:
        self.pile = pile
        self.scale = 1.0
        self._celebration: Any = None  # the layer of the win's celebration running now
        self._confetti: list[Any] = []  # the animations of its signs
        self._end_proxy: Any = None  # what ends any celebration (made at the first win)

    def fly_away(self, moved: Moved, drawn: dict[str, tuple[Any, Any]]) -> None:
        """Fly copies of the cards ``moved`` removed (``body > [data-flying]``, inert) from
        where ``drawn`` (:func:`measure`) had them to the pile; a Strict stock card goes
        face up to its partner first. Input meanwhile goes to the board, already drawn."""
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
        """A win: suit signs fall for at most :data:`CELEBRATION_MS` times :attr:`scale`
        (``body[data-celebrating]``); a tap, a key or the last sign's end ends it."""
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
        """End the win's celebration, if one runs, leaving nothing of it."""
        current = self._celebration
        if current is None:
            return
        self._celebration = None
        animations, self._confetti = self._confetti, []
        document.removeEventListener("keydown", self._end_proxy)  # made before any celebration
        current.removeEventListener("pointerdown", self._end_proxy)
        for animation in animations:
            animation.onfinish = None
            animation.cancel()
        current.remove()
        document.body.removeAttribute("data-celebrating")


def _clone(original: Any, code: str, rect: Any) -> Any:
    """A decoration-only copy of the card element ``original``, placed over ``rect``."""
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
    ghost.remove()
    shown.style.removeProperty("visibility")


def _landing(rect: Any, pile: Any) -> tuple[float, float, float]:
    """How a card at ``rect`` lands on ``pile``: its centre's move (x, y in px), its scale."""
    dx = pile.left + pile.width / 2 - (rect.left + rect.width / 2)
    dy = pile.top + pile.height / 2 - (rect.top + rect.height / 2)
    scale = pile.height / rect.height if rect.height else 1.0
    return float(dx), float(dy), float(scale)


def _move(to: tuple[float, float, float], share: float, scale: float) -> str:
    return f"translate({to[0] * share:.1f}px, {to[1] * share:.1f}px) scale({scale:.3f})"


class Sounds:
    """Plays :data:`TONES` by name; the audio context is made at the first (after a gesture)."""

    def __init__(self) -> None:
        self._context: Any = None

    def play(self, name: str) -> None:
        """Play the sound ``name`` (a key of :data:`TONES`); silent where audio is refused."""
        try:
            if self._context is None:
                maker = getattr(window, "AudioContext", None) or getattr(
                    window, "webkitAudioContext", None
                )
                if maker is None:
                    return
                self._context = maker.new()
            audio = self._context
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

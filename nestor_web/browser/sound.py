"""Sounds made with Web Audio: a few short tones, nothing downloaded; silent where audio is
refused. The audio context is made on the first sound (after a gesture)."""

from __future__ import annotations

from typing import Any

from pyscript import window

TONES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "pair": ((660.0, 0.0, 0.07), (880.0, 0.05, 0.09)),
    "won": ((523.25, 0.0, 0.16), (659.25, 0.12, 0.16), (783.99, 0.24, 0.16),
            (1046.5, 0.36, 0.34)),
    "lost": ((330.0, 0.0, 0.22), (247.0, 0.18, 0.36)),
}
"""Each sound as tones: (frequency in Hz, start in s after now, length in s)."""

VOLUME = 0.12
"""Peak gain of a tone (0..1): quiet, a sound for a tap, not an alarm."""


class Sounds:
    """Plays :data:`TONES` by name."""

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

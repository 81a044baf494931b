"""The game manager: one game in play, the player's selection, saving and the URL.

Pure Python (no browser imports): storage is any object with ``get`` and
``set`` (see :class:`Storage`), so pytest can drive a whole session.

Saved data: ``localStorage["nestor.game"]`` holds
``{"version": 1, "variant": str, "deal": int, "moves": [str, ...], "cursor": int}``
(the game record of every move made, and how many are in effect). It is
written after every change. A saved value that cannot be read is reported,
copied to ``"nestor.game.unreadable"`` so nothing is lost, and a new game
starts; no other key is touched.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import parse_qs, urlencode

from nestor import (
    DEFAULT_VARIANT,
    MAX_DEAL,
    Game,
    NestorError,
    Pair,
    TurnStock,
    check_deal_number,
    get_variant,
    rank_of,
)
from nestor.variants import Variant

SAVE_KEY = "nestor.game"
"""localStorage key of the game in progress."""

UNREADABLE_KEY = "nestor.game.unreadable"
"""Where an unreadable saved game is copied before it is replaced."""

SAVE_VERSION = 1
"""Version of the saved-game shape described in the module docstring."""


class Storage(Protocol):
    """Key-value text storage, such as the browser's localStorage."""

    def get(self, key: str) -> str | None:
        """Return the text stored under ``key``, or ``None``."""

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``."""


class MemoryStorage:
    """A :class:`Storage` in a dict, for tests and when localStorage is unavailable."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data: dict[str, str] = dict(data or {})

    def get(self, key: str) -> str | None:
        """Return the text stored under ``key``, or ``None``."""
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``."""
        self.data[key] = value


@dataclass(frozen=True)
class DealRequest:
    """A deal asked for by the URL: ``variant`` and ``deal`` (``None``: any deal)."""

    variant: Variant
    deal: int | None


def parse_query(query: str) -> tuple[DealRequest | None, str | None]:
    """Read ``?variant=V&deal=N`` from a URL query string.

    Returns ``(request, problem)``: ``request`` is ``None`` when the URL names
    no deal; ``problem`` is a message for the player when a value is bad (then
    ``request`` keeps what was good: a valid variant with ``deal=None``).
    """
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    if "variant" not in params and "deal" not in params:
        return None, None
    problem = None
    variant = get_variant(DEFAULT_VARIANT)
    if "variant" in params:
        try:
            variant = get_variant(params["variant"][0])
        except NestorError as exc:
            problem = f"The link's variant could not be used: {exc}."
    deal = None
    if "deal" in params and problem is None:
        try:
            deal = check_deal_number(params["deal"][0])
        except NestorError as exc:
            problem = f"The link's deal number could not be used: {exc}."
    return DealRequest(variant, deal), problem


def load_saved(text: str) -> Game:
    """Rebuild the game from saved text (the shape in the module docstring).

    Raises:
        NestorError: with a reason for the player, if the text is not a valid
            saved game (bad JSON, wrong version, unknown variant, illegal move).
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
        raise NestorError(f"it is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise NestorError("it is not a saved game")
    version = data.get("version")
    if version != SAVE_VERSION:
        raise NestorError(f"it has an unknown format version ({version!r})")
    return Game.from_json({k: v for k, v in data.items() if k != "version"})


class Session:
    """The game in play and everything the player sees about it.

    Use :meth:`open` to start from the URL and the saved game. Every method
    that changes the game saves it.

    Attributes:
        game: the :class:`nestor.Game` in play.
        selected: the code of the selected available card, or ``None``.
        notice: a problem to report to the player (bad link, unreadable save), or ``None``.
    """

    def __init__(self, game: Game, storage: Storage, rng: random.Random) -> None:
        self.game = game
        self.storage = storage
        self.rng = rng
        self.selected: str | None = None
        self.notice: str | None = None

    @classmethod
    def open(
        cls, storage: Storage, query: str = "", rng: random.Random | None = None
    ) -> Session:
        """Start the session for a page opened with URL query ``query``.

        * The URL's deal is played; if it is the saved game's deal, the saved
          game resumes where it was.
        * With no deal in the URL, the saved game resumes; with none, a random
          standard deal starts.
        * A bad URL value or unreadable saved game is reported in ``notice``
          and a random deal starts; the unreadable text is copied to
          :data:`UNREADABLE_KEY`.
        """
        rng = rng or random.Random()
        request, problems = parse_query(query)
        notes = [problems] if problems else []
        saved: Game | None = None
        raw = storage.get(SAVE_KEY)
        if raw is not None:
            try:
                saved = load_saved(raw)
            except NestorError as exc:
                notes.append(
                    f"Your saved game could not be read: {exc}. It was set aside and a new "
                    "game started."
                )
                storage.set(UNREADABLE_KEY, raw)
        if request is None:
            game = saved or Game(DEFAULT_VARIANT, rng.randrange(MAX_DEAL))
        elif request.deal is None:
            game = Game(request.variant, rng.randrange(MAX_DEAL))
        elif saved and (saved.variant, saved.deal) == (request.variant, request.deal):
            game = saved
        else:
            game = Game(request.variant, request.deal)
        session = cls(game, storage, rng)
        session.notice = " ".join(notes) or None
        session.save()
        return session

    # ---- saving and the URL ----------------------------------------------------------

    def save(self) -> None:
        """Write the game to storage under :data:`SAVE_KEY`."""
        data = {"version": SAVE_VERSION, **self.game.to_json()}
        self.storage.set(SAVE_KEY, json.dumps(data, separators=(",", ":")))

    def query(self) -> str:
        """The URL query that opens this deal: ``"?variant=V&deal=N"``."""
        return "?" + urlencode({"variant": self.game.variant.name, "deal": self.game.deal})

    # ---- player actions --------------------------------------------------------------

    def tap(self, card: str) -> bool:
        """Handle a tap on ``card``; return ``True`` if anything changed.

        An unavailable card (or any card once the game is over) does nothing.
        Tapping the selected card deselects it; an available card of the
        selected card's rank removes the pair; any other available card
        becomes the selection.
        """
        position = self.game.position
        if position.outcome() is not None or card not in position.available():
            return False
        if self.selected is None or self.selected not in position.available():
            self.selected = card
        elif self.selected == card:
            self.selected = None
        elif rank_of(self.selected) == rank_of(card):
            self.game.push(Pair(self.selected, card))
            self.selected = None
            self.save()
        else:
            self.selected = card
        return True

    def turn_stock(self) -> bool:
        """Strict: turn the top stock card if that is legal now; return ``True`` if done."""
        if not self.game.position.can_turn_stock():
            return False
        self.game.push(TurnStock())
        self.selected = None
        self.save()
        return True

    def undo(self) -> bool:
        """Take back the last move, if any; return ``True`` if done."""
        if not self.game.can_undo():
            return False
        self.game.undo()
        self.selected = None
        self.save()
        return True

    def redo(self) -> bool:
        """Replay the last undone move, if any; return ``True`` if done."""
        if not self.game.can_redo():
            return False
        self.game.redo()
        self.selected = None
        self.save()
        return True

    def restart(self) -> None:
        """Start the same deal again from its first position."""
        self._play(Game(self.game.variant, self.game.deal))

    def new_deal(self, variant: str | None = None) -> None:
        """Start a random deal, in ``variant`` if given (else the current one).

        Raises:
            VariantError: unknown variant name.
        """
        v = get_variant(variant) if variant is not None else self.game.variant
        self._play(Game(v, self.rng.randrange(MAX_DEAL)))

    def open_deal(self, variant: str, deal: int | str) -> None:
        """Start a given deal.

        Raises:
            VariantError, DealNumberError: on a bad variant or deal number.
        """
        self._play(Game(variant, check_deal_number(deal)))

    def _play(self, game: Game) -> None:
        self.game = game
        self.selected = None
        self.notice = None
        self.save()

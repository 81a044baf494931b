"""The game manager: one game in play, the player's selection, saving and the URL.

Pure Python (no browser imports): storage is any object with ``get`` and
``set`` (see :class:`Storage`), so pytest can drive a whole session.

Saved data: ``localStorage["nestor.game"]`` holds
``{"version": 1, "variant": str, "deal": int, "moves": [str, ...], "cursor": int,
"hints": int, "solver_moves": int}`` (the game record of every move made, how
many are in effect, and how often the player was helped: hints shown and moves
played by Solve; older saves without the last two count as 0). It is written
after every change. ``localStorage["nestor.settings"]`` holds the settings
(:class:`Settings`). A saved value that cannot be read is reported, copied to
``"<key>.unreadable"`` so nothing is lost, and replaced (a new game, or the
default settings); no other key is touched.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, fields
from typing import Protocol
from urllib.parse import parse_qs, urlencode

from nestor import (
    DEFAULT_VARIANT,
    MAX_DEAL,
    Game,
    Move,
    NestorError,
    Pair,
    Position,
    TurnStock,
    check_deal_number,
    deal_position,
    get_variant,
    rank_of,
)
from nestor.errors import clip
from nestor.jsontext import load_object, loads
from nestor.solver import Solution, Status, solve_steps
from nestor.variants import Variant

from .i18n import LANGUAGES, _, card_name, percent, pick_language, set_language
from .stats import STATS_KEY, Stats, open_stats

SAVE_KEY = "nestor.game"
"""localStorage key of the game in progress."""

UNREADABLE_KEY = "nestor.game.unreadable"
"""Where an unreadable saved game is copied before it is replaced."""

SETTINGS_KEY = "nestor.settings"
"""localStorage key of the settings."""

ARCHIVE_KEY = "nestor.archive"
"""localStorage key of games left in progress: ``{"variant/deal": saved text}``."""

ARCHIVE_SIZE = 20
"""Most games kept in the archive; the oldest is dropped first."""

SAVE_VERSION = 1
"""Version of the saved-game shape described in the module docstring."""

WINNABLE_SEARCH_LIMIT = 2000
"""Deal numbers tried at most when looking for a winnable deal."""


THEMES = ("system", "light", "dark")
"""Colour themes: follow the system's dark mode, or force light or dark."""


@dataclass
class Settings:
    """The player's settings, saved under :data:`SETTINGS_KEY` as a JSON object.

    Attributes:
        language: a code of :data:`nestor_web.i18n.LANGUAGES`, or ``None``
            before the first visit has chosen one from the browser's languages.
        four_colours: suits in four colours (clubs green, diamonds blue).
        animations: animate removed pairs; ``None`` follows the system (off
            when it asks for reduced motion).
        theme: ``"system"``, ``"light"`` or ``"dark"``.
        auto_pair: tapping a card that has exactly one possible partner
            removes the pair at once. Off by default.
        winnable_indicator: after each move, show whether the game can still
            be won (Strict: the chance). Off by default.
        winnable_only: "New deal" picks only deals the solver proves winnable
            (Strict: winnable with the actual stock order).
    """

    language: str | None = None
    four_colours: bool = False
    animations: bool | None = None
    theme: str = "system"
    auto_pair: bool = False
    winnable_indicator: bool = False
    winnable_only: bool = False

    @classmethod
    def from_json_text(cls, text: str) -> Settings:
        """Read settings saved by :meth:`to_json_text` (unknown keys are ignored).

        Raises:
            NestorError: not a JSON object, or a value of the wrong kind.
        """
        data = load_object(text, ("they are", "they have"))
        settings = cls()
        for key, value in data.items():
            if key in {f.name for f in fields(cls)}:
                settings.set(key, value)
        return settings

    def set(self, name: str, value: object) -> None:
        """Set one setting, checking its value.

        Raises:
            NestorError: unknown setting, or a value it cannot take.
        """
        if name == "language":
            if value is not None and value not in LANGUAGES:
                raise NestorError(f"'language' must be one of {', '.join(LANGUAGES)}")
        elif name == "theme":
            if value not in THEMES:
                raise NestorError(f"'theme' must be one of {', '.join(THEMES)}")
        elif name == "animations":
            if value is not None and not isinstance(value, bool):
                raise NestorError("'animations' must be true, false or null")
        elif name in {f.name for f in fields(self)}:
            if not isinstance(value, bool):
                raise NestorError(f"{name!r} must be true or false, not {clip(repr(value))}")
        else:
            raise NestorError(f"unknown setting {clip(name)!r}")
        setattr(self, name, value)

    def to_json_text(self) -> str:
        """The settings as JSON text."""
        return json.dumps(asdict(self), separators=(",", ":"))


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
            problem = _("The link's variant could not be used: {error}.").format(error=exc)
    deal = None
    if "deal" in params and problem is None:
        try:
            deal = check_deal_number(params["deal"][0])
        except NestorError as exc:
            problem = _("The link's deal number could not be used: {error}.").format(error=exc)
    return DealRequest(variant, deal), problem


def load_saved(text: str) -> Game:
    """Rebuild the game from saved text (the shape in the module docstring).

    Raises:
        NestorError: with a reason for the player, if the text is not a valid
            saved game (bad JSON, wrong version, unknown variant, illegal move).
    """
    return load_saved_game(text)[0]


def load_saved_game(text: str) -> tuple[Game, int, int]:
    """Rebuild ``(game, hints, solver_moves)`` from saved text.

    Raises:
        NestorError: with a reason for the player (see :func:`load_saved`).
    """
    data = load_object(text, ("it is", "it has"), SAVE_VERSION)
    game = Game.from_json({k: v for k, v in data.items() if k != "version"})
    hints, solver_moves = load_assists(data)
    return game, hints, solver_moves


def game_key(variant: str, deal: int) -> str:
    """The archive key of a deal: ``"variant/deal"``."""
    return f"{variant}/{deal}"


def _progress_key(text: str) -> str | None:
    """The archive key of saved text with at least one move in effect, else ``None``."""
    try:
        data = loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    cursor, variant, deal = data.get("cursor"), data.get("variant"), data.get("deal")
    if not isinstance(cursor, int) or cursor < 1 or not isinstance(variant, str):
        return None
    if not isinstance(deal, int):
        return None
    return game_key(variant, deal)


def load_assists(data: dict[str, object]) -> tuple[int, int]:
    """Return ``(hints, solver_moves)`` from saved game data (0 when absent).

    Raises:
        NestorError: if a counter is not a whole number >= 0.
    """
    out = []
    for key in ("hints", "solver_moves"):
        value = data.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise NestorError(f"{key!r} must be a whole number, not {value!r}")
        out.append(value)
    return out[0], out[1]


def hint_text(position: Position, solution: Solution) -> str:
    """The sentence that shows a hint for ``position``, given its solution."""
    move = solution.best_move
    if solution.status is Status.UNKNOWN:
        return _("The solver ran out of time on this position: no hint this time.")
    if move is None:
        if position.variant.has_stock and solution.win_probability:
            return _("No move is needed: the game is already won.")
        return _("No winning line remains from here: every way on loses.")
    if isinstance(move, TurnStock):
        text = _("Hint: turn the next stock card.")
    else:
        text = _("Hint: remove the {first} and the {second}.").format(
            first=card_name(move.first), second=card_name(move.second)
        )
    if solution.win_probability is not None:
        text += " " + _("Chance to win with best play: {percent}.").format(
            percent=percent(solution.win_probability)
        )
    return text


def indicator_text(solution: Solution) -> str:
    """The winnable indicator's sentence for a solved position."""
    if solution.win_probability is not None:
        return _("Chance to win with best play: {percent}").format(
            percent=percent(solution.win_probability)
        )
    if solution.status is Status.UNKNOWN:
        return _("Winnable: unknown (the solver ran out of time)")
    if solution.status is Status.WINNABLE:
        return _("Winnable: yes")
    return _("Winnable: no, not any more")


def move_words(move: Move) -> str:
    """A move in words: ``"the seven of hearts and the seven of spades"``, or the stock turn."""
    if isinstance(move, TurnStock):
        return _("the turn of a stock card")
    return _("the {first} and the {second}").format(
        first=card_name(move.first), second=card_name(move.second)
    )


def describe_move(before: Position, after: Position, move: Move) -> str:
    """What a screen reader hears after ``move``: what left, what it uncovered, the end.

    Example: "Removed the seven of hearts and the seven of spades. Now available: the nine
    of clubs in column 3."
    """
    if isinstance(move, TurnStock):
        card = before.stock[0]
        if after.unpaired == card:
            text = _("Turned the {card} from the stock; it cannot pair.").format(
                card=card_name(card)
            )
        else:
            text = _("Turned the {card} from the stock and removed it with its pair.").format(
                card=card_name(card)
            )
    else:
        text = _("Removed {move}.").format(move=move_words(move))
    new = [c for c in after.available() if c not in before.available()]
    places = []
    for card in new:
        place = after.available()[card]
        where = (
            _("in column {number}").format(number=place.slot + 1)
            if place.area == "column" else _("in the reserve")
        )
        places.append(_("the {card} {place}").format(card=card_name(card), place=where))
    if places:
        text += " " + _("Now available: {cards}.").format(cards=", ".join(places))
    outcome = after.outcome()
    if outcome is not None:
        text += " " + (_("You won!") if outcome.won else _("The game is lost."))
    return text


def winnable_deal_steps(
    variant: Variant, rng: random.Random, limit: int = WINNABLE_SEARCH_LIMIT
) -> Generator[None, None, int | None]:
    """Draw deal numbers until the solver proves one winnable; return it.

    Strict counts as winnable when the actual stock order allows a win.
    Yields between solver steps (see :func:`nestor.solver.solve_steps`);
    returns ``None`` after ``limit`` deals without success.
    """
    for _attempt in range(limit):
        number = rng.randrange(MAX_DEAL)
        solution = yield from solve_steps(deal_position(variant, number))
        if solution.known_order is Status.WINNABLE:
            return number
    return None


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
        self.settings = Settings()
        self.hints = 0
        self.solver_moves = 0
        self.hint: Move | None = None
        self.hint_text: str | None = None
        self.announcement: str | None = None
        self.stats = Stats()
        self.clock: Callable[[], int] = lambda: int(time.time() * 1000)
        self._analysis: tuple[Position, Solution] | None = None

    @classmethod
    def open(
        cls,
        storage: Storage,
        query: str = "",
        rng: random.Random | None = None,
        languages: list[str] | None = None,
    ) -> Session:
        """Start the session for a page opened with URL query ``query``.

        * The URL's deal is played: the saved game if it is that deal, else the
          same deal kept in the archive of games left in progress, else fresh.
        * With no deal in the URL, the saved game resumes; with none, a random
          standard deal starts.
        * A bad URL value, or saved data that cannot be read, is reported in
          ``notice``; an unreadable saved game is copied to
          :data:`UNREADABLE_KEY` and a new game starts. Other keys are left alone.
        * A game replaced by another one while it has moves is kept in the
          archive (:data:`ARCHIVE_KEY`), so opening its link again resumes it.
        * The language is the saved one; on the first visit, the first of the
          browser's ``languages`` that the game offers (saved from then on).
        """
        rng = rng or random.Random()
        session = cls(Game(DEFAULT_VARIANT, 0), storage, rng)
        notes: list[str] = []
        settings_error = None
        raw_settings = storage.get(SETTINGS_KEY)
        if raw_settings is not None:
            try:
                session.settings = Settings.from_json_text(raw_settings)
            except NestorError as exc:
                session._store(SETTINGS_KEY + ".unreadable", raw_settings)
                settings_error = exc
        if session.settings.language is None or settings_error is not None:
            session.settings.language = pick_language(languages or [])
            session._store(SETTINGS_KEY, session.settings.to_json_text())
        try:
            set_language(session.settings.language)
        except OSError:
            set_language("en")
            notes.append(
                f"The texts for {LANGUAGES[session.settings.language]} are missing from "
                "this copy of the game, so it speaks English."
            )
        if settings_error is not None:  # reported in the language just chosen
            notes.append(_(
                "Your settings could not be read: {error}. They were set aside and the "
                "defaults are used."
            ).format(error=settings_error))
        request, problem = parse_query(query)
        if problem:
            notes.append(problem)
        saved: tuple[Game, int, int] | None = None
        raw = storage.get(SAVE_KEY)
        if raw is not None:
            try:
                saved = load_saved_game(raw)
            except NestorError as exc:
                notes.append(_(
                    "Your saved game could not be read: {error}. It was set aside and a new "
                    "game started."
                ).format(error=exc))
                session._store(UNREADABLE_KEY, raw)
        session.stats, stats_problem = open_stats(storage, session._store)
        if stats_problem:
            notes.append(stats_problem)
        if saved is not None:
            session.game, session.hints, session.solver_moves = saved
        if request is None:
            if saved is None:
                session.game = Game(DEFAULT_VARIANT, rng.randrange(MAX_DEAL))
        elif request.deal is None:
            session._leave()
            session.game = Game(request.variant, rng.randrange(MAX_DEAL))
            session.hints = session.solver_moves = 0
        else:
            session._resume_or_start(request.variant.name, request.deal)
        session.notice = " ".join([*notes, *filter(None, [session.notice])]) or None
        session.save()
        return session

    # ---- saving and the URL ----------------------------------------------------------

    def save(self) -> None:
        """Write the game to storage under :data:`SAVE_KEY` and forget any shown hint.

        If storage holds another deal with moves made (another tab, or the game
        this session replaced), that game is first moved to the archive.
        """
        self.hint = None
        self.hint_text = None
        data = {
            "version": SAVE_VERSION, **self.game.to_json(),
            "hints": self.hints, "solver_moves": self.solver_moves,
        }
        text = json.dumps(data, separators=(",", ":"))
        previous = self.storage.get(SAVE_KEY)
        # Same version, variant and deal at the start of the text: the same game, no parsing.
        same_game = text[: text.index(',"moves"') + 1]
        if previous is not None and not previous.startswith(same_game):
            self._keep_in_progress(previous)
        self._store(SAVE_KEY, text)

    def _keep_in_progress(self, text: str) -> None:
        """Move saved text of another deal, with moves made, into the archive."""
        key = _progress_key(text)
        if key is None or key == game_key(self.game.variant.name, self.game.deal):
            return
        try:
            load_saved_game(text)  # only a readable game is worth keeping
        except NestorError:
            return
        archive = self._archive()
        archive.pop(key, None)
        archive[key] = text
        while len(archive) > ARCHIVE_SIZE:
            archive.pop(next(iter(archive)))
        self._store(ARCHIVE_KEY, json.dumps(archive, separators=(",", ":")))

    def _store(self, key: str, value: str) -> None:
        """Write to storage; a failure (storage full or blocked) becomes a notice."""
        try:
            self.storage.set(key, value)
        except Exception as exc:  # the browser's storage may refuse any write
            problem = _(
                "Your progress could not be saved: the browser's storage refused it "
                "({error}). The game goes on, but it may be lost when the page closes."
            ).format(error=clip(str(exc)))
            if problem not in (self.notice or ""):
                self.notice = " ".join(filter(None, [self.notice, problem]))

    def _archive(self) -> dict[str, str]:
        """The archive of games left in progress: ``"variant/deal"`` -> saved text."""
        raw = self.storage.get(ARCHIVE_KEY)
        if raw is None:
            return {}
        try:
            data = loads(raw)
        except ValueError:
            data = None
        if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
            return {str(k): v for k, v in data.items()}
        self._store(ARCHIVE_KEY + ".unreadable", raw)
        self.notice = " ".join(filter(None, [
            self.notice,
            _("The games you left in progress could not be read; they were set aside."),
        ]))
        return {}

    def _resume_or_start(self, variant: str, deal: int) -> None:
        """Make ``variant``/``deal`` the game: the saved one, an archived one, or fresh."""
        key = game_key(variant, deal)
        if game_key(self.game.variant.name, self.game.deal) == key:
            return
        self._leave()
        archive = self._archive()
        if key in archive:
            text = archive.pop(key)
            try:
                self.game, self.hints, self.solver_moves = load_saved_game(text)
                self._store(ARCHIVE_KEY, json.dumps(archive, separators=(",", ":")))
                return
            except NestorError as exc:
                self.notice = " ".join(filter(None, [
                    self.notice,
                    _("Your earlier game of this deal could not be read ({error}); "
                      "it starts afresh.").format(error=exc),
                ]))
        self.game = Game(variant, deal)
        self.hints = self.solver_moves = 0

    def set_setting(self, name: str, value: object) -> None:
        """Change one setting (a field of :class:`Settings`) and save the settings.

        Changing the language switches the translations at once.

        Raises:
            NestorError: unknown setting or unfit value.
        """
        self.settings.set(name, value)
        if name == "language" and isinstance(value, str):
            set_language(value)
        self._store(SETTINGS_KEY, self.settings.to_json_text())

    @property
    def assisted(self) -> bool:
        """``True`` once a hint was shown or Solve played a move in this deal."""
        return bool(self.hints or self.solver_moves)

    # ---- the solver --------------------------------------------------------------------

    def analysis(self) -> Solution | None:
        """The solution of the current position, if it has been computed."""
        if self._analysis is not None and self._analysis[0] == self.game.position:
            return self._analysis[1]
        return None

    def analyse_steps(self, max_nodes: int | None = None) -> Generator[None, None, Solution]:
        """Solve the current position (cached); a generator, see ``solve_steps``."""
        position = self.game.position
        known = self.analysis()
        if known is not None:
            return known
        # Strict: the player cannot see the stock, so only the chance matters here.
        solution = yield from solve_steps(position, max_nodes, known_order=False)
        self._analysis = (position, solution)
        return solution

    def show_hint(self, solution: Solution) -> None:
        """Show the hint of ``solution`` (for the current position) and count it."""
        self.hints += 1
        self.save()
        self.hint = solution.best_move
        self.hint_text = hint_text(self.game.position, solution)

    def play_solver_move(self, solution: Solution) -> bool:
        """Solve: play the best move of ``solution`` (for the current position).

        Returns ``False`` (and plays nothing) when no move keeps a chance to win.
        """
        move = solution.best_move
        if move is None or not self.game.position.is_legal(move):
            return False
        self.solver_moves += 1
        self._move(move)
        return True

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
            self._move(Pair(self.selected, card))
        else:
            self.selected = card
        if self.settings.auto_pair and self.selected == card:
            partners = [c for c in position.available() if c != card and c[0] == card[0]]
            if len(partners) == 1:  # only one card it can pair with: pair at once
                self._move(Pair(card, partners[0]))
        return True

    def _move(self, move: Move) -> None:
        """Play ``move`` (legal here), announce what it did, and save."""
        before = self.game.position
        self.game.push(move)
        self.selected = None
        self.announcement = describe_move(before, self.game.position, move)
        self._record()
        self.save()

    def _record(self) -> None:
        """Tell the statistics about the move just put in effect."""
        game = self.game
        if self.stats.record_move(
            game.variant.name, game.deal, self.clock(),
            won=game.position.is_empty(), assisted=self.assisted, first=game.cursor == 1,
        ):
            self._store(STATS_KEY, self.stats.to_json_text())

    def _leave(self) -> None:
        """The player moves on from this deal: the statistics settle it if unfinished."""
        if self.stats.leave(self.game.variant.name, self.game.deal, self.clock()):
            self._store(STATS_KEY, self.stats.to_json_text())

    def reset_stats(self) -> None:
        """Forget all statistics (the caller asks the player first)."""
        self.stats.reset()
        self._store(STATS_KEY, self.stats.to_json_text())

    def turn_stock(self) -> bool:
        """Strict: turn the top stock card if that is legal now; return ``True`` if done."""
        if not self.game.position.can_turn_stock():
            return False
        self._move(TurnStock())
        return True

    def undo(self) -> bool:
        """Take back the last move, if any; return ``True`` if done."""
        if not self.game.can_undo():
            return False
        move = self.game.undo()
        self.selected = None
        self.announcement = _("Took back: {move}.").format(move=move_words(move))
        self.save()
        return True

    def redo(self) -> bool:
        """Replay the last undone move, if any; return ``True`` if done."""
        if not self.game.can_redo():
            return False
        before = self.game.position
        move = self.game.redo()
        self.selected = None
        self.announcement = describe_move(before, self.game.position, move)
        self._record()
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
        """Go to a given deal: resume it if it is saved or archived, else start it.

        Raises:
            VariantError, DealNumberError: on a bad variant or deal number.
        """
        v = get_variant(variant).name
        self._resume_or_start(v, check_deal_number(deal))
        self.selected = None
        self.save()

    def _play(self, game: Game) -> None:
        if (game.variant, game.deal) != (self.game.variant, self.game.deal):
            self._leave()
            self.hints = self.solver_moves = 0  # a restart keeps the deal's help counted
        self.game = game
        self.selected = None
        self.notice = None
        self.save()

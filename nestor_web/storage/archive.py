"""The archive of games left in progress (``nestor.archive``), a part of the storage manager."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from nestor import NestorError
from nestor.jsontext import loads

from ..app.session import SavedGame, Session
from .codecs import game_from_text
from .keys import ARCHIVE_KEY, ARCHIVE_SIZE, UNREADABLE, KeyValueStore


def archive_from_text(text: str) -> dict[str, str]:
    """The archive's text read: ``"variant/deal"`` -> saved-game text, in stored order.

    Raises:
        ValueError: ``text`` is not JSON, or not an object whose values are all strings.
    """
    data = loads(text)
    if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
        return {str(k): v for k, v in data.items()}
    raise ValueError("not an archive")


def _game_key(saved: SavedGame) -> str:
    variant, deal = saved.key
    return f"{variant}/{deal}"


class Archive:
    """The archive's part of :class:`~nestor_web.storage.manager.StorageManager` (a mixin: the
    manager holds the state it uses and writes through the manager's ``_write``).

    Attributes:
        store: the key-value store.
    """

    store: KeyValueStore
    _bad_archive: str | None  # an unreadable archive already reported

    if TYPE_CHECKING:  # the manager's (nestor_web.storage.manager.StorageManager)

        def _get(self, key: str) -> str | None: ...

        def _write(self, key: str, value: str, durable: bool = True) -> bool: ...

        def _set_aside(
            self, key: str, text: str, code: str, error: NestorError | None = None,
            quiet: bool = False,
        ) -> None: ...

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """The :class:`~nestor_web.app.session.Shelf` of the session: remove and return the game of
        ``variant``/``deal`` from the archive, or ``None``."""
        archive = self._archive()
        key = f"{variant}/{deal}"
        text = archive.pop(key, None)
        if text is None:
            return None
        try:
            saved = game_from_text(text)
        except NestorError as exc:
            self._set_aside(ARCHIVE_KEY, self._unreadable_entries(key, text),
                            "archive.entry", exc)
            saved = None
        self._write(ARCHIVE_KEY, json.dumps(archive, separators=(",", ":")))
        return saved

    def _unreadable_entries(self, key: str, text: str) -> str:
        """The archive's set-aside games with ``key``'s ``text`` added, as JSON text (an earlier
        copy that is not such a JSON object, a whole archive set aside, is kept in it under the key
        ``""``)."""
        entries: dict[str, str] = {}
        earlier = self.store.get(ARCHIVE_KEY + UNREADABLE)
        if earlier is not None:
            try:
                data = loads(earlier)
            except ValueError:
                data = None
            if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
                entries = {str(k): v for k, v in data.items()}
            else:
                entries = {"": earlier}
        entries[key] = text
        return json.dumps(entries, separators=(",", ":"))

    def _keep_in_progress(self, text: str, session: Session) -> None:
        """Move saved-game text of another deal, with moves made and not finished, into the archive.
        """
        try:
            saved = game_from_text(text)
        except NestorError:
            return  # only a readable game is worth keeping
        if (
            saved.key == session.key or saved.game.cursor < 1
            or saved.game.position.outcome() is not None  # won or lost: not in progress
        ):
            return
        archive = self._archive()
        key = _game_key(saved)
        archive.pop(key, None)
        archive[key] = text
        while len(archive) > ARCHIVE_SIZE:
            archive.pop(next(iter(archive)))
        self._write(ARCHIVE_KEY, json.dumps(archive, separators=(",", ":")))

    def _archive(self) -> dict[str, str]:
        """The archive: ``"variant/deal"`` -> saved-game text."""
        raw = self._get(ARCHIVE_KEY)
        if raw is None:
            return {}
        try:
            return archive_from_text(raw)
        except ValueError:
            pass
        if raw != self._bad_archive:
            self._bad_archive = raw
            self._set_aside(ARCHIVE_KEY, raw, "archive.unreadable")
        return {}


__all__ = ["Archive", "archive_from_text"]

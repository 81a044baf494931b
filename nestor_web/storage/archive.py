"""The archive of games left in progress (``nestor.archive``): the session's shelf."""

from __future__ import annotations

import json

from nestor import NestorError

from ..app.saved import SavedGame
from .codecs import archive_from_text, game_from_text
from .keys import ARCHIVE_KEY, ARCHIVE_SIZE, UNREADABLE
from .stores import Stores


def _dumps(archive: dict[str, str]) -> str:
    return json.dumps(archive, separators=(",", ":"))


class Archive:
    """The games left in progress, oldest first, at most :data:`.keys.ARCHIVE_SIZE`; an unreadable
    archive or game is set aside (:meth:`.stores.Stores.set_aside`)."""

    def __init__(self, stores: Stores) -> None:
        self.stores = stores
        self._bad: str | None = None  # an unreadable archive already reported

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """Remove and return the game of ``variant``/``deal``, or ``None``
        (:class:`~nestor_web.app.saved.Shelf`)."""
        archive = self.texts()
        key = f"{variant}/{deal}"
        text = archive.pop(key, None)
        if text is None:
            return None
        try:
            saved: SavedGame | None = game_from_text(text)
        except NestorError as exc:
            self.stores.set_aside(ARCHIVE_KEY, self._unreadable_entries(key, text),
                                  "archive.entry", exc)
            saved = None
        self.stores.write(ARCHIVE_KEY, _dumps(archive))
        return saved

    def _unreadable_entries(self, key: str, text: str) -> str:
        """The set-aside games with ``key``'s ``text`` added, as JSON text (an earlier copy that is
        not such an object, a whole archive set aside, is kept under the key ``""``)."""
        earlier = self.stores.store.get(ARCHIVE_KEY + UNREADABLE)
        entries: dict[str, str] = {}
        if earlier is not None:
            try:
                entries = archive_from_text(earlier)
            except ValueError:
                entries = {"": earlier}
        entries[key] = text
        return _dumps(entries)

    def keep(self, text: str, key: tuple[str, int]) -> None:
        """Keep the saved-game ``text`` if it is of a deal other than ``key``, with moves made and
        not finished."""
        try:
            saved = game_from_text(text)
        except NestorError:
            return  # only a readable game is worth keeping
        if (
            saved.key == key or saved.game.cursor < 1
            or saved.game.position.outcome() is not None  # won or lost: not in progress
        ):
            return
        archive = self.texts()
        name = "{}/{}".format(*saved.key)
        archive.pop(name, None)
        archive[name] = text
        while len(archive) > ARCHIVE_SIZE:
            archive.pop(next(iter(archive)))
        self.stores.write(ARCHIVE_KEY, _dumps(archive))

    def texts(self) -> dict[str, str]:
        """The archive: ``"variant/deal"`` -> saved-game text (``{}`` if unreadable)."""
        raw = self.stores.get(ARCHIVE_KEY)
        if raw is None:
            return {}
        try:
            return archive_from_text(raw)
        except ValueError:
            pass
        if raw != self._bad:
            self._bad = raw
            self.stores.set_aside(ARCHIVE_KEY, raw, "archive.unreadable")
        return {}

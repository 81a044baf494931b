"""The archive of games left in progress (``nestor.archive``): the session's shelf."""

from __future__ import annotations

from nestor import NestorError

from ..app.saved import SavedGame
from .codecs import archive_from_text, game_from_text
from .keys import ARCHIVE_KEY, ARCHIVE_SIZE, UNREADABLE, json_text
from .stores import Stores


class Archive:
    """The games left in progress, oldest first; an unreadable archive or game is set aside."""

    def __init__(self, stores: Stores) -> None:
        self.stores = stores
        self._bad: str | None = None  # an unreadable archive already reported

    def take(self, variant: str, deal: int) -> SavedGame | None:
        """Remove and return the game of ``variant``/``deal``, or ``None`` (the session's shelf)."""
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
        self.stores.write(ARCHIVE_KEY, json_text(archive))
        return saved

    def _unreadable_entries(self, key: str, text: str) -> str:
        """The set-aside games plus ``key``'s ``text``, as JSON (a bad archive under ``""``)."""
        earlier = self.stores.store.get(ARCHIVE_KEY + UNREADABLE)
        entries: dict[str, str] = {}
        if earlier is not None:
            try:
                entries = archive_from_text(earlier)
            except ValueError:
                entries = {"": earlier}
        entries[key] = text
        return json_text(entries)

    def keep(self, text: str, key: tuple[str, int]) -> None:
        """Keep the saved-game ``text`` if it is of a deal other than ``key`` and in progress."""
        from ..app.backup import in_progress

        try:
            saved = game_from_text(text)
        except NestorError:
            return  # only a readable game is worth keeping
        if saved.key == key or not in_progress(saved):
            return
        archive = self.texts()
        name = "{}/{}".format(*saved.key)
        archive.pop(name, None)
        archive[name] = text
        self.stores.write(ARCHIVE_KEY, json_text(dict(list(archive.items())[-ARCHIVE_SIZE:])))

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

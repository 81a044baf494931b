"""Following other tabs of the game, a part of the storage manager."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from nestor import NestorError
from nestor.jsontext import loads

from ..app.events import Event
from ..app.lines import descends, join
from ..app.session import Session
from .codecs import game_from_text, game_to_text, settings_from_text
from .durable import SEQ_KEY, seq_of
from .keys import (
    ARCHIVE_SIZE,
    DIVERGED_KEY,
    SAVE_KEY,
    SETTINGS_KEY,
    STATS_KEY,
    TUTORIAL_KEY,
    UNREADABLE,
    KeyValueStore,
)
from .stats_codec import stats_from_text


class TabSync:
    """The other tabs' part of :class:`~nestor_web.storage.manager.StorageManager` (a mixin: the
    manager holds the state it uses and writes through the manager's ``_write``).

    Attributes:
        store: the key-value store.
    """

    store: KeyValueStore
    _written: dict[str, str]  # what the manager last wrote (or read), by key
    _overlay: dict[str, str]  # the durable copy's values, when it was newer at start-up
    _unsaved: dict[str, str]  # values localStorage refused, written again at the next save
    _slot: tuple[str, tuple[str, int] | None] | None  # the game slot as last seen
    _stats_saved: int | None  # the session's stats_changes when last saved
    _own_game: str | None  # the game text this tab saved (or adopted) last
    _stats_stale: bool  # another tab wrote the statistics: merge before saving
    _game_stale: bool  # another tab wrote the game slot: follow() looks at it
    _settings_stale: bool  # another tab wrote the settings: follow() takes them
    _tutorial_stale: bool  # another tab wrote the guide's state: follow() looks at it
    _seen: int  # the highest sequence number this tab wrote or took in

    if TYPE_CHECKING:  # the manager's (nestor_web.storage.manager.StorageManager)

        def _write(self, key: str, value: str, durable: bool = True) -> bool: ...

        def _get(self, key: str) -> str | None: ...

    def changed_elsewhere(self, key: str | None) -> None:
        """Another tab wrote ``key`` (``None``: it cleared the storage)."""
        if key is None:
            self._written.clear()
            self._unsaved.clear()
        else:
            self._written.pop(key, None)
            self._unsaved.pop(key, None)
        self._overlay.clear()  # that tab's values are newer than what start-up restored
        if key in (None, SAVE_KEY):
            text = self.store.get(SAVE_KEY)
            self._slot = None if text is None else (text, None)  # its deal: read when needed
        if key in (None, STATS_KEY):
            self._stats_saved = None
            self._stats_stale = True
        if key in (None, SAVE_KEY):
            self._game_stale = True
        if key in (None, SETTINGS_KEY):
            self._settings_stale = True
        if key in (None, TUTORIAL_KEY):
            self._tutorial_stale = True

    def catch_up(self, session: Session) -> tuple[Event, ...]:
        """Before a command: if another tab saved since this tab last saved or heard (its
        ``nestor.seq`` is higher; the storage event is not here yet, or this tab was frozen), follow
        that save now (:meth:`follow`)."""
        seq = seq_of(self.store.get(SEQ_KEY))
        if seq <= self._seen:
            return ()
        self.changed_elsewhere(STATS_KEY)
        self.changed_elsewhere(SAVE_KEY)
        self.changed_elsewhere(SETTINGS_KEY)
        return self.follow(session)

    def follow(self, session: Session) -> tuple[Event, ...]:
        """Take in what another tab wrote since :meth:`changed_elsewhere` said so: merge its
        statistics into ``session``'s, and show its game if it is of the deal in play here (joined
        with this tab's if both played on; see :mod:`.manager`'s docstring)."""
        self._seen = max(self._seen, seq_of(self.store.get(SEQ_KEY)))
        events = self._follow_stats(session) + self._follow_settings(session)
        events += self._follow_tutorial(session)
        if self._game_stale:
            self._game_stale = False
            events += self._follow_game(session)
        return events

    def _follow_settings(self, session: Session) -> tuple[Event, ...]:
        """The settings another tab wrote (a change there, or a restored backup's): this tab takes
        them, so its next save does not write its own older ones back."""
        if not self._settings_stale:
            return ()
        self._settings_stale = False
        text = self.store.get(SETTINGS_KEY)
        if text is None:
            return ()
        try:
            theirs = settings_from_text(text)
        except NestorError:
            return ()
        events: list[Event] = []
        for name in type(theirs).names():
            value = getattr(theirs, name)
            if value != getattr(session.settings, name):
                try:
                    events += session.set_setting(name, value)
                except NestorError:
                    continue  # (not a value a setting can take: this tab keeps its own)
        self._written[SETTINGS_KEY] = text
        return tuple(events)

    def _follow_tutorial(self, session: Session) -> tuple[Event, ...]:
        """The guided first game ended in another tab (finished or skipped there): it ends here too.
        """
        if not self._tutorial_stale:
            return ()
        self._tutorial_stale = False
        if self.store.get(TUTORIAL_KEY) != "done":
            return ()
        self._written[TUTORIAL_KEY] = "done"
        return session.end_tutorial()

    def _follow_game(self, session: Session) -> tuple[Event, ...]:
        """The game slot another tab wrote: adopt it, keep this tab's, or join the two."""
        text = self.store.get(SAVE_KEY)
        mine_text = game_to_text(session.saved())
        if text is None or text in (mine_text, self._own_game):
            return ()  # cleared, the same, or what this tab wrote (its game is as new)
        try:
            theirs = game_from_text(text)
        except NestorError:
            return ()  # the next save replaces it (nothing readable to lose)
        if theirs.key != session.key:
            return ()  # another deal: the next save archives it
        mine = session.saved()
        self._slot = (text, theirs.key)
        if mine_text == self._own_game and descends(theirs, mine):
            events = session.adopt(theirs)  # that tab played on from this tab's game
            self._written[SAVE_KEY] = text  # the game is that text: nothing to write
            self._own_game = text
            return events
        self._own_game = text  # the slot holds that tab's: the next save writes this tab's
        if descends(mine, theirs):
            return ()  # this tab played on from that tab's game: it is the newer
        joined = join(mine, theirs)  # both played on: one game with the moves of both
        if joined.left_over is not None:
            self._keep_diverged(game_to_text(joined.left_over))
        return session.adopt(joined.saved)

    def _keep_diverged(self, text: str) -> None:
        """Add the saved-game ``text`` of a line that could not be joined to ``nestor.diverged``
        (once; the oldest beyond :data:`.keys.ARCHIVE_SIZE` dropped)."""
        kept: list[str] = []
        raw = self._get(DIVERGED_KEY)
        if raw is not None:
            try:
                data = loads(raw)
            except ValueError:
                data = None
            if isinstance(data, list) and all(isinstance(v, str) for v in data):
                kept = list(data)
            else:
                self._write(DIVERGED_KEY + UNREADABLE, raw)
        if text in kept:
            return
        kept = [*kept, text][-ARCHIVE_SIZE:]
        self._write(DIVERGED_KEY, json.dumps(kept, separators=(",", ":")))

    def _follow_stats(self, session: Session) -> tuple[Event, ...]:
        """Merge the statistics another tab wrote into ``session``'s; leave a write for the next
        save only if they lacked something of this tab's."""
        if not self._stats_stale:
            return ()
        self._stats_stale = False
        text = self.store.get(STATS_KEY)
        if text is None:
            return ()  # cleared: the next save writes this tab's
        try:
            theirs = stats_from_text(text)
        except Exception:  # any error: unreadable, as at start-up
            # Set aside (nothing is lost), then the next save replaces it with this tab's.
            self._write(STATS_KEY + UNREADABLE, text)
            return ()
        lacking = theirs.copy().merge(session.stats)  # would they gain from this tab's?
        events = session.merge_stats(theirs)
        if not lacking:
            self._written[STATS_KEY] = text
            self._stats_saved = session.stats_changes
        return events


__all__ = ["TabSync"]

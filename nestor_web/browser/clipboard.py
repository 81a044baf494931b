"""The clipboard, and the links the page hands out.

The page copies three texts: the replay link of the game in play (Copy link, under the counters
and in the review) and the daily deal's share text with its link. Each goes through
:func:`to_clipboard`, and a link to this page is built in one place, :func:`page_link`, from the
address the page was loaded at and a query the app room writes (:func:`game_link` for a game's
replay link).
"""

from __future__ import annotations

from typing import Any

from pyscript import window

from nestor import Game

from ..app.replay import link_query
from .dom import missing


def page_link(query: str) -> str:
    """This page's address (origin and path, as loaded) with ``query`` (``"?..."``, or ``""``)."""
    location = window.location
    return f"{location.origin}{location.pathname}{query}"


def game_link(game: Game) -> str:
    """The replay link of ``game``'s moves in effect
    (:func:`~nestor_web.app.replay.link_query`)."""
    return page_link(link_query(game))


async def to_clipboard(text: str) -> bool:
    """Write ``text`` to the clipboard (Clipboard API); ``False`` if the browser has no
    clipboard or refuses (NotAllowedError, the page without focus...)."""
    clipboard: Any = getattr(window.navigator, "clipboard", None)
    if missing(clipboard):
        return False
    try:
        await clipboard.writeText(text)
    except Exception:  # noqa: BLE001 - any refusal
        return False
    return True

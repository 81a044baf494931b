"""The clipboard, and the links to this page the page hands out."""

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

"""The words of Settings' "Your progress", as text: a backup made or read (what it brings,
or why it is refused), a restore done, and whether the browser keeps the game's storage."""

from __future__ import annotations

from collections.abc import Mapping

from nestor import NestorError

from ..app.events import ProgressSummary
from .errors import error_text
from .i18n import N_, _, ngettext, pgettext, thousands

REFUSAL_WORDS: Mapping[str, str] = {
    "progress.too_large": N_("This file is too large to be a backup of Nestor ({size}; a backup is "
                             "at most {limit}). Nothing was changed."),
    "progress.not_json": N_("This is not a backup of Nestor: it is not a file the game wrote. "
                            "Nothing was changed."),
    "progress.truncated": N_("This backup is cut short: part of it is missing (was it copied "
                             "whole?). Nothing was changed."),
    "progress.code": N_("This code is damaged: some of its characters are wrong or missing. "
                        "Nothing was changed."),
    "progress.foreign": N_("This file comes from another program, not from Nestor. Nothing was "
                           "changed."),
    "progress.newer": N_("This backup was made by a newer version of Nestor (format {version}; "
                         "this one reads up to {known}). Reload the game to update it, then try "
                         "again. Nothing was changed."),
    "progress.version": N_("This backup's version cannot be read. Nothing was changed."),
    "progress.part": N_("A part of this backup is damaged ({where}). Nothing was changed."),
    "progress.stats": N_("The statistics in this backup cannot be read: {reason}. Nothing was "
                         "changed."),
    "progress.numbers": N_("The statistics in this backup do not add up: {reason}. Nothing was "
                           "changed."),
    "progress.game": N_("A game in this backup cannot be read ({where}): {reason}. Nothing was "
                        "changed."),
    "progress.settings": N_("A setting in this backup has a value it cannot take. Nothing was "
                            "changed."),
    "progress.puzzles": N_("The puzzle record in this backup cannot be read: {reason}. Nothing "
                           "was changed."),
    "progress.damaged": N_("This backup holds a value the game cannot read. Nothing was "
                           "changed."),
}
"""What the player reads when a backup is refused, by its code."""

PASTED_WORDS: Mapping[str, str] = {
    "progress.too_large": N_("This code is too large to be a backup of Nestor (a backup is at most "
                             "{limit}). Nothing was changed."),
    "progress.not_json": N_("This is not a backup code of Nestor: it is not a code the game "
                            "made. Nothing was changed."),
    "progress.foreign": N_("This code comes from another program, not from Nestor. Nothing was "
                           "changed."),
}
"""The refusals that speak of a file, worded for a pasted code."""


def refusal_text(error: NestorError, pasted: bool = False) -> str:
    """Why a backup was refused (a :class:`~nestor_web.storage.progress.ProgressError`, or any
    engine error), in the player's language; ``pasted``: it was a pasted code, not a file."""
    code = getattr(error, "code", "")
    words = (PASTED_WORDS if pasted and code in PASTED_WORDS else REFUSAL_WORDS).get(code)
    if words is None:
        return _("This is not a backup of Nestor ({error}). Nothing was changed.").format(
            error=error_text(error))
    details = {k: str(v) for k, v in error.details.items()}
    inner = getattr(error, "error", None)
    details["reason"] = error_text(inner) if isinstance(inner, NestorError) else (
        _("the data is damaged"))
    size, limit = details.get("size", ""), details.get("limit", "")
    if size.isdigit() and limit.isdigit():  # bytes, as a player reads them
        details["size"], details["limit"] = _sizes(int(size), int(limit))
    try:
        return _(words).format(**details)
    except (KeyError, IndexError):  # a detail missing: the sentence without it
        return _("This backup cannot be read. Nothing was changed.")


def _games_won(summary: ProgressSummary) -> tuple[str, str]:
    games = ngettext("{count} game played", "{count} games played", summary.games).format(
        count=summary.games)
    won = ngettext("{count} won", "{count} won", summary.won).format(count=summary.won)
    return games, won


def summary_text(summary: ProgressSummary) -> str:
    """What a backup brings, before the player chooses merge or replace."""
    games, won = _games_won(summary)
    days = ngettext("{count} daily deal won", "{count} daily deals won",
                    summary.daily_won).format(count=summary.daily_won)
    going = ngettext("{count} game in progress", "{count} games in progress",
                     summary.in_progress).format(count=summary.in_progress)
    return _("This backup holds {games} ({won}), {days} and {going}. Merge it with what is "
             "here (nothing is lost, and the same backup merged twice changes nothing), or "
             "replace what is here with it?").format(games=games, won=won, days=days,
                                                      going=going)


def restored_text(mode: str, summary: ProgressSummary, changed: bool = True) -> str:
    """After a restore (``mode`` ``"merge"`` or ``"replace"``): what is here now; a merge
    that brought nothing new (``changed`` false: the same backup again) says so."""
    if not changed:
        return _("Nothing to bring in: everything in this backup is here already.")
    games, won = _games_won(summary)
    if mode == "replace":
        return _("Restored: you now have {games}, {won}. What was here before is kept: bring it "
                 "back below if you need it.").format(games=games, won=won)
    return _("Merged: you now have {games}, {won}.").format(games=games, won=won)


def backup_words(name: str, copied: bool) -> str:
    """After Back up: the file saved (``name``), and whether its code went to the clipboard
    (else it is shown selected, to copy by hand)."""
    if copied:
        return _("Saved the file {name}. Its code is copied too: paste it on your other device, "
                 "under Restore from a backup.").format(name=name)
    return _("Saved the file {name}. To move your progress without the file, copy the code "
             "below and paste it on your other device.").format(name=name)


def storage_text(persisted: bool | None, used: int | None, quota: int | None) -> str:
    """Whether the browser keeps the game's storage for good (``None``: it cannot say), and
    how much it uses (bytes; ``None``: unknown)."""
    if persisted is True:
        kept = _("Your browser keeps the game's data for good: it will not clear it to make room.")
    elif persisted is False:
        kept = _("Your browser may clear the game's data when it runs short of space, or after "
                 "weeks without a visit: back up your progress now and then.")
    else:
        kept = _("Your browser does not say whether it keeps the game's data: back up your "
                 "progress now and then.")
    if used is None:
        return kept
    size = _size(used)
    if quota:
        return _("{kept} The game (kept for offline play) and your progress take up {size} of "
                 "the {quota} it allows.").format(kept=kept, size=size, quota=_size(quota))
    return _("{kept} The game (kept for offline play) and your progress take up {size}.").format(
        kept=kept, size=size)


def _sizes(size: int, limit: int) -> tuple[str, str]:
    """Two sizes as :func:`_size` words them, in bytes where they would read the same."""
    shown = _size(size), _size(limit)
    if shown[0] != shown[1] or size == limit:
        return shown
    first, second = (ngettext("{number} byte", "{number} bytes", count).format(
        number=thousands(count)) for count in (size, limit))
    return first, second


def _size(count: int) -> str:
    """A size in bytes as a player reads it: ``"12 kB"``, ``"3.4 MB"``, ``"1.2 GB"``."""
    sign = pgettext("decimal sign", ".")
    if count < 1_000_000:
        return _("{number} kB").format(number=max(1, round(count / 1000)))
    if count < 1_000_000_000:
        return _("{number} MB").format(number=f"{count / 1_000_000:.1f}".replace(".", sign))
    tenths = round(count / 100_000_000)  # GB to one decimal, the whole part with its sign
    return _("{number} GB").format(number=f"{thousands(tenths // 10)}{sign}{tenths % 10}")

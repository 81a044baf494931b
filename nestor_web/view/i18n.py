"""Translations through gettext catalogs (locale/, compiled by scripts/locales.py), read
from a folder or the archive: ``_``, ``ngettext`` for plurals, ``pgettext`` for one English
word with two translations, ``N_`` to mark a message looked up later."""

from __future__ import annotations

import gettext as _gettext
import io
from pathlib import Path

DOMAIN = "nestor"

LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}
"""The languages offered, by code, each named in its own language."""

DEFAULT_LANGUAGE = "en"

LOCALE_DIR = Path(__file__).parents[2] / "locale"
"""Where ``<lang>/LC_MESSAGES/nestor.mo`` are (in the page: inside the archive)."""

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_language = DEFAULT_LANGUAGE


def pick_language(preferred: list[str]) -> str:
    """The first offered language among ``preferred`` (``["de-AT", "en"]``), else
    :data:`DEFAULT_LANGUAGE`."""
    for tag in preferred:
        code = str(tag).split("-")[0].split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def set_language(code: str, localedir: Path | str | None = None) -> None:
    """Use language ``code`` for every message from now on. Raises KeyError for a code
    not in :data:`LANGUAGES`, OSError when its catalog is missing."""
    global _current, _language
    if code not in LANGUAGES:
        raise KeyError(code)
    if code == DEFAULT_LANGUAGE:
        _current = _gettext.NullTranslations()
    else:
        path = Path(localedir or LOCALE_DIR) / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        _current = _gettext.GNUTranslations(io.BytesIO(_read(path)))
    _language = code


def _read(path: Path) -> bytes:
    """The bytes of the file at ``path``, through this module's loader (a zipimporter reads
    the archive's members) or from the disk. Raises OSError if there is no such file."""
    get_data = getattr(__spec__.loader if __spec__ else None, "get_data", None)
    if get_data is not None:
        try:
            data: bytes = get_data(str(path))
            return data
        except OSError:  # outside the archive (a catalog folder given): from the disk
            pass
    return path.read_bytes()


def language() -> str:
    """The language in use, e.g. ``"de"``."""
    return _language


def _(message: str) -> str:
    """Translate ``message``."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a plural form chosen by ``n``."""
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` (e.g. ``pgettext("rank", "J")``)."""
    return _current.pgettext(context, message)


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark ``message`` for extraction without translating it now."""
    return message


def NP_(context: str, message: str) -> str:  # noqa: N802 - marker, like N_
    """Mark ``message`` in ``context`` for extraction; translate later with :func:`pgettext`."""
    return message


# ---- words for cards and variants --------------------------------------------------------

_RANK_NAMES = {
    "A": N_("ace"), "2": N_("two"), "3": N_("three"), "4": N_("four"), "5": N_("five"),
    "6": N_("six"), "7": N_("seven"), "8": N_("eight"), "9": N_("nine"), "T": N_("ten"),
    "J": N_("jack"), "Q": N_("queen"), "K": N_("king"),
}
_RANK_LETTERS = {
    "J": NP_("rank", "J"), "Q": NP_("rank", "Q"), "K": NP_("rank", "K"), "A": NP_("rank", "A"),
}
_SUIT_NAMES = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}
_VARIANT_TITLES = {
    "standard": N_("Standard"), "strict": N_("Strict"), "vertical": N_("Vertical"),
    "doublets": N_("Doublets"), "overlapping": N_("Overlapping reserve"),
}


def card_name(card: str) -> str:
    """The card's name in the current language, e.g. ``"ten of hearts"``."""
    return _("{rank} of {suit}").format(rank=_(_RANK_NAMES[card[0]]), suit=_(_SUIT_NAMES[card[1]]))


def rank_label(card: str) -> str:
    """The rank as printed on the card face: ``"10"`` for tens; J, Q, K, A translated."""
    if card[0] == "T":
        return "10"
    if card[0] in _RANK_LETTERS:
        return pgettext("rank", _RANK_LETTERS[card[0]])
    return card[0]


def variant_title(name: str) -> str:
    """A variant's name in the current language."""
    return _(_VARIANT_TITLES[name])


def percent(value: float) -> str:
    """``value`` (0..1) as a whole percentage, e.g. ``"37%"``."""
    return _("{percent}%").format(percent=round(value * 100))


def thousands(number: int) -> str:
    """``number`` with the language's thousands sign (``10,000``, German ``10.000``)."""
    # Translators: the sign between thousands in numbers ("," in English: 100,000).
    return f"{number:,}".replace(",", pgettext("thousands sign", ","))


def decimal(text: str) -> str:
    """A number given as decimal text (``"53.29"``) with the language's decimal sign."""
    # Translators: the decimal sign of numbers ("." in English).
    return text.replace(".", pgettext("decimal sign", "."))


def decimal_percent(text: str) -> str:
    """A percentage given as decimal text (``"53.29"``) as the language writes it:
    ``"53.29%"``, in German ``"53,29 %"``."""
    return _("{percent}%").format(percent=decimal(text))

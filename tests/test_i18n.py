"""Translations: complete catalogs, German on the board, page texts from the catalogs."""

from __future__ import annotations

import json
import random
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from webpage import MemoryCopy, Page, QuotaStore, RefusingStore

from nestor import Game
from nestor_web.app.session import Session
from nestor_web.storage.keys import ARCHIVE_KEY, SAVE_KEY, MemoryStore, StoreRefused
from nestor_web.view import i18n
from nestor_web.view.board import board_view, render_board
from nestor_web.view.texts import KEYS, RULES, TEXTS, keys_html, rules_html

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import locales  # noqa: E402


def test_every_message_has_a_german_translation_and_the_template_is_current() -> None:
    assert locales.problems() == []


def test_the_check_fails_on_a_missing_translation(tmp_path, monkeypatch) -> None:
    po = (ROOT / "locale/de/LC_MESSAGES/nestor.po").read_text()
    broken = tmp_path / "de" / "LC_MESSAGES"
    broken.mkdir(parents=True)
    text = po.replace('msgstr "Neues Spiel"', 'msgstr ""', 1)
    assert text != po
    (broken / "nestor.po").write_text(text)
    (tmp_path / "nestor.pot").write_bytes((ROOT / "locale/nestor.pot").read_bytes())
    monkeypatch.setattr(locales, "LOCALE", tmp_path)
    assert any("New deal" in p for p in locales.problems())


def test_pick_language() -> None:
    assert i18n.pick_language(["de-AT", "en"]) == "de"
    assert i18n.pick_language(["fr-FR", "en-GB"]) == "en"
    assert i18n.pick_language(["fr"]) == "en"
    assert i18n.pick_language([]) == "en"


def test_german_card_names_and_board(german) -> None:
    assert i18n.card_name("TH") == "Herz-Zehn"
    assert i18n.card_name("JS") == "Pik-Bube"
    assert i18n.rank_label("QC") == "D" and i18n.rank_label("TD") == "10"
    assert i18n.variant_title("strict") == "Streng"
    session = Session(Game("standard", 7), rng=random.Random(0))
    view = board_view(session)
    assert view.status == "Tippe zwei freie Karten desselben Werts an, um sie abzuräumen."
    html = render_board(view)
    assert 'aria-label="Spalte 1"' in html and "Reserve" in html
    assert "Karo-Dame, Spalte 1" in html  # QD lies at the bottom of column 1 in deal 7


def test_language_setting_switches_and_is_saved() -> None:
    locales.compile_all()
    store = MemoryStore()
    page = Page(store, "?variant=strict&deal=7", random.Random(0), ["de-DE"])
    try:
        assert page.session.settings.language == "de"
        assert page.view().variant_title == "Streng"
        page.set_setting("language", "en")
        assert page.view().variant_title == "Strict"
        again = Page(store, "", random.Random(0), ["de-DE"])
        assert again.session.settings.language == "en"  # the choice wins over the browser's
    finally:
        i18n.set_language("en")


ENGLISH_ERROR_WORDS = (
    "unknown variant", "choose one of", "must be", "not valid JSON", "out of range",
    "could not", "the text", "variant called", "whole number", "deal number", "is not",
)
"""English that engine errors (and their English words in the view) would bring along."""


SET_ASIDE = " Es wurde beiseitegelegt, und ein neues Spiel beginnt."


@pytest.mark.parametrize(
    ("query", "save", "expected"),
    [
        ("?variant=foo&deal=3", None,
         "Die Variante aus dem Link ist nicht brauchbar: eine Variante „foo“ gibt es nicht."),
        ("?variant=standard&deal=banana", None,
         "Die Spielnummer aus dem Link ist nicht brauchbar: „banana“ ist keine ganze Zahl."),
        ("?variant=standard&deal=99999999999", None,
         "Die Spielnummer aus dem Link ist nicht brauchbar: eine Spielnummer reicht von 0 bis "
         "4294967295, nicht 99999999999."),
        ("", "{not json",
         "Dein gespeichertes Spiel ließ sich nicht lesen: der Text ist kein gültiges JSON."
         + SET_ASIDE),
        ("", '{"version": 1, "variant": "spider", "deal": 4, "moves": []}',
         "Dein gespeichertes Spiel ließ sich nicht lesen: eine Variante „spider“ gibt es nicht."
         + SET_ASIDE),
    ],
    ids=["link variant", "link deal", "link deal range", "save not json", "save variant"],
)
def test_german_notices_hold_no_english(german, query: str, save: str | None,
                                        expected: str) -> None:
    """Engine errors are worded by the view from their codes: no English reaches a German
    notice (before: "…ist nicht brauchbar: unknown variant 'foo'; choose one of: …")."""
    store = MemoryStore({} if save is None else {SAVE_KEY: save})
    page = Page(store, query, random.Random(0), ["de-DE"])
    notice = page.notice or ""
    for words in ENGLISH_ERROR_WORDS:
        assert words not in notice, (words, notice)
    assert notice == expected
    assert page.view().notice == expected


BROKEN = "{" + "x" * 3000
"""Unreadable text too long for :class:`QuotaStore` (5,000 characters) to copy."""


@pytest.mark.parametrize(
    ("store", "query", "english", "german"),
    [
        (lambda: MemoryStore({ARCHIVE_KEY: '{"standard/7": "[]"}'}), "?variant=standard&deal=7",
         "Your earlier game of this deal could not be read (the text is not a JSON object). It "
         "was set aside, and the deal starts afresh.",
         "Dein früheres Spiel mit dieser Nummer ließ sich nicht lesen (der Text ist kein "
         "JSON-Objekt). Es wurde beiseitegelegt, und das Spiel beginnt von vorn."),
        (lambda: QuotaStore(5000, {ARCHIVE_KEY: json.dumps({"standard/7": BROKEN})}),
         "?variant=standard&deal=7",
         "Your earlier game of this deal could not be read (the text is not valid JSON). No "
         "copy of it could be kept, as the browser's storage refused one (the storage is "
         "full). The deal starts afresh.",
         "Dein früheres Spiel mit dieser Nummer ließ sich nicht lesen (der Text ist kein "
         "gültiges JSON). Eine Kopie davon ließ sich nicht aufbewahren, weil der Speicher des "
         "Browsers sie abgelehnt hat (der Speicher ist voll). Das Spiel beginnt von vorn."),
        (lambda: QuotaStore(5000, {SAVE_KEY: BROKEN}), "",
         "Your saved game could not be read: the text is not valid JSON. No copy of it could "
         "be kept, as the browser's storage refused one (the storage is full). A new game "
         "started.",
         "Dein gespeichertes Spiel ließ sich nicht lesen: der Text ist kein gültiges JSON. "
         "Eine Kopie davon ließ sich nicht aufbewahren, weil der Speicher des Browsers sie "
         "abgelehnt hat (der Speicher ist voll). Ein neues Spiel beginnt."),
        (lambda: QuotaStore(5000, {"nestor.settings": BROKEN}), "",
         "Your settings could not be read: the text is not valid JSON. No copy of them could "
         "be kept, as the browser's storage refused one (the storage is full). The defaults "
         "are used.",
         "Deine Einstellungen ließen sich nicht lesen: der Text ist kein gültiges JSON. Eine "
         "Kopie davon ließ sich nicht aufbewahren, weil der Speicher des Browsers sie "
         "abgelehnt hat (der Speicher ist voll). Es gelten die Grundeinstellungen."),
        (lambda: QuotaStore(5000, {"nestor.stats": BROKEN}), "",
         "Your statistics could not be read: the text is not valid JSON. No copy of them "
         "could be kept, as the browser's storage refused one (the storage is full). They "
         "start again from zero.",
         "Deine Statistik ließ sich nicht lesen: der Text ist kein gültiges JSON. Eine Kopie "
         "davon ließ sich nicht aufbewahren, weil der Speicher des Browsers sie abgelehnt hat "
         "(der Speicher ist voll). Sie beginnt wieder bei null."),
        (lambda: QuotaStore(5000, {ARCHIVE_KEY: BROKEN}), "?variant=standard&deal=7",
         "The games you left in progress could not be read. No copy of them could be kept, "
         "as the browser's storage refused one (the storage is full).",
         "Die angefangenen Spiele ließen sich nicht lesen. Eine Kopie davon ließ sich nicht "
         "aufbewahren, weil der Speicher des Browsers sie abgelehnt hat (der Speicher ist "
         "voll)."),
        (lambda: RefusingStore(StoreRefused("QuotaExceededError", "The quota has been exceeded.")),
         "",
         "Your progress could not be saved: the browser's storage refused it (the storage is "
         "full). The game goes on, but it may be lost when the page closes.",
         "Dein Spielstand ließ sich nicht speichern: Der Browser hat es abgelehnt (der "
         "Speicher ist voll). Das Spiel geht weiter, kann aber beim Schließen der Seite "
         "verloren gehen."),
        (lambda: RefusingStore(StoreRefused("SecurityError", "The operation is insecure.")), "",
         "Your progress could not be saved: the browser's storage refused it (the browser "
         "does not allow storage here). The game goes on, but it may be lost when the page "
         "closes.",
         "Dein Spielstand ließ sich nicht speichern: Der Browser hat es abgelehnt (der "
         "Browser erlaubt hier keine Speicherung). Das Spiel geht weiter, kann aber beim "
         "Schließen der Seite verloren gehen."),
    ],
    ids=["archived game", "archived game, no room", "save, no room", "settings, no room",
         "stats, no room", "archive, no room", "quota", "forbidden"],
)
@pytest.mark.parametrize("language", ["en", "de"])
def test_storage_notices_in_both_languages(
    store, query: str, english: str, german: str, language: str
) -> None:
    """Issue 10: an archived game set aside, a copy the store had no room for, the storage's
    own error: exact texts in English and German."""
    locales.compile_all()
    try:
        page = Page(store(), query, random.Random(0), [language])
        assert page.notice == (german if language == "de" else english)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The browser's storage refused part of your progress (the storage is full). "
     "Nothing is lost: the game keeps it in its second store, and saves it in both again "
     "once the browser takes it."),
    ("de", "Der Speicher des Browsers hat einen Teil deines Fortschritts abgelehnt (der "
     "Speicher ist voll). Nichts geht verloren: Das Spiel bewahrt ihn in seinem zweiten "
     "Speicher auf und speichert ihn wieder in beiden, sobald der Browser ihn annimmt."),
])
def test_a_store_that_refuses_what_the_other_kept_is_told_in_both_languages(
    language: str, expected: str
) -> None:
    """localStorage refused the save, the IndexedDB copy took it: the player is told."""
    locales.compile_all()
    full = RefusingStore(StoreRefused("QuotaExceededError", "The quota has been exceeded."))
    try:
        page = Page(full, "?variant=standard&deal=7", random.Random(0), [language],
                    durable=MemoryCopy())
        assert page.notice == expected
    finally:
        i18n.set_language("en")


def test_a_refused_setting_is_worded_in_the_pages_language() -> None:
    """Issue 10: a setting the settings refuse is named by its control's label, in the page's
    language (before: the setting's English field name, "theme")."""
    locales.compile_all()
    page = Page(MemoryStore(), "?variant=standard&deal=7", random.Random(0), ["de-DE"])
    try:
        page.set_setting("theme", "pink")
        assert page.notice == (
            "Diese Einstellung ließ sich nicht ändern: die Einstellung „Farben“ kann nicht "
            "'pink' sein."
        )
        assert page.session.settings.theme == "system"
        page.dismiss()
        page.set_setting("difficulty", "yes")
        assert page.notice == (
            "Diese Einstellung ließ sich nicht ändern: die Einstellung „Schwierigkeit neuer "
            "Spiele“ kann nicht 'yes' sein."
        )
        page.set_setting("language", "en")
        page.dismiss()
        page.set_setting("theme", "pink")
        assert page.notice == (
            "That setting could not be changed: the setting “Colours” cannot be 'pink'."
        )
    finally:
        i18n.set_language("en")


def test_every_setting_is_named_by_its_controls_label() -> None:
    from nestor_web.app.settings import Settings
    from nestor_web.view.texts import SETTING_TEXTS

    assert set(SETTING_TEXTS) == set(Settings.names())
    html = (ROOT / "index.html").read_text()
    labels = [chunk.split("</label>")[0] for chunk in html.split("<label>")[1:]]
    for name, text in SETTING_TEXTS.items():
        label = next(x for x in labels if f'data-setting="{name}"' in x)
        assert f'data-text="{text}"' in label, name


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.words: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append(tag)
        for name, value in attrs:
            if name in ("data-text", "data-label") and value:
                self.ids.add(value)

    def handle_endtag(self, tag: str) -> None:
        if self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip() and "script" not in self.stack and "title" not in self.stack:
            self.words.append(data.strip())


def test_page_texts_come_from_the_catalogs() -> None:
    html = (ROOT / "index.html").read_text()
    body = html[html.index("<body>"):]
    parser = _Ids()
    parser.feed(body)
    assert parser.ids <= set(TEXTS), parser.ids - set(TEXTS)
    # Texts that only code shows: Python, static/js/wake.js (waking), static/js/pwa.js (download).
    used_in_code = {"page-title", "stats", "keys-title", "close", "waking", "download",
                    "download-label"}
    assert set(TEXTS) - parser.ids <= used_in_code
    # No words of its own: every word shown is one the build wrote from the English catalog
    # (scripts/build_shell.py), but the game's name and the separators.
    sys.path.insert(0, str(ROOT / "scripts"))
    import build_shell

    allowed = {"Nestor", "·"}
    for text in build_shell.shell("en").values():
        fragments = _Ids()
        fragments.feed(text)
        allowed |= set(fragments.words) | {text}
    i18n.set_language("en")
    # The counters' numbers of a fresh deal (52 cards left, 0 moves, 0 pairs, 0:00) are
    # figures, not words.
    words = {word for word in parser.words if not re.fullmatch(r"\d+(:\d\d)?", word)}
    assert words <= allowed, words - allowed


def test_rules_and_keys_render_in_both_languages(german) -> None:
    german_rules = rules_html()
    assert "<h2>Ziel</h2>" in german_rules and german_rules.count("<ul>") == 1
    assert "Eingabe oder Leertaste" in keys_html()
    i18n.set_language("en")
    english = rules_html()
    assert "<h2>Goal</h2>" in english
    assert len(re.findall(r"<li>", english)) == sum(1 for tag, _ in RULES if tag == "li")
    assert keys_html().count("<dt>") == len(KEYS)


def test_no_message_hides_inside_an_f_string() -> None:
    # Babel cannot see a _("...") call written inside an f-string's braces.
    paths = sorted((ROOT / "nestor_web").rglob("*.py"))
    assert ROOT / "nestor_web/view/words.py" in paths
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            assert not re.search(r"""\{[^{}]*\b(_|ngettext|pgettext)\(["']""", line), (
                f"{path.name}:{number}: move the message out of the f-string"
            )


def test_messages_are_extracted_from_every_room() -> None:
    """The template takes the messages of the subpackages too (nestor_web/**)."""
    where = {
        location
        for message in locales.extract()
        for location, _line in message.locations
    }
    for path in ("view/words.py", "view/texts.py", "view/i18n.py", "view/board.py",
                 "view/dialogs.py"):
        assert f"nestor_web/{path}" in where
    ids = {message.id for message in locales.extract()}
    assert "in the stock" in ids  # nestor_web/view/words.py


def test_error_words_fit_the_error_codes() -> None:
    """Every worded code is one the engine (or the settings) raises, and its words use only
    that code's details, so no error falls back to a vaguer sentence for want of a field."""
    from string import Formatter

    from nestor import NestorError
    from nestor.errors import CODES
    from nestor_web.app.ranges import RANGE_CODES
    from nestor_web.app.settings import Settings
    from nestor_web.app.statistics.data import STATS_CODES
    from nestor_web.storage.puzzle_codec import PUZZLE_RECORD_CODES
    from nestor_web.view.errors import ERROR_WORDS, error_text

    raised = {code: set(details) for code, details in (
        CODES | RANGE_CODES | STATS_CODES | PUZZLE_RECORD_CODES).items()}
    for name, value in (("nope", True), ("theme", "pink")):
        with pytest.raises(NestorError) as info:
            Settings().set(name, value)
        raised[info.value.code] = set(info.value.details)
    for code, words in ERROR_WORDS.items():
        assert code in raised, code
        fields = {field for _text, field, _spec, _conv in Formatter().parse(words) if field}
        assert fields <= raised[code], (code, fields - raised[code])
        details = {name: f"<{name}>" for name in raised[code]}
        if "kind" in details:  # a type's name, worded as a kind of value: a list here
            details["kind"], details["where"] = "list", "<where>[0]"
            error = NestorError("English", code=code, **details)
            details["kind"] = "a list"
            words = ERROR_WORDS["number.not_whole"] if code == "deal.not_whole" else words
            assert error_text(error) == words.format(**details)
            continue
        assert error_text(NestorError("English", code=code, **details)) == words.format(**details)


def test_the_german_words_of_issue_22_are_each_their_own() -> None:
    # Issue 22 (7): "Zurück" meant Undo, Previous and "back to my game" at once, "Wiederholen"
    # (Redo) sat beside "Wiederholung" (Replay), two variants kept their English names, a
    # verb agreed with the wrong count, and a finished review of no move said "all 0 moves".
    from nestor_web.view import review as review_view

    i18n.set_language("de")
    try:
        words = [i18n._(w) for w in ("Undo", "Previous", "Back to my game", "Redo")]
        assert words == ["Rückgängig", "Voriger", "Zurück zu meinem Spiel", "Wiederherstellen"]
        assert i18n.variant_title("vertical") == "Vertikal"
        assert i18n.variant_title("doublets") == "Dubletten"
        one_of_three = i18n.ngettext(
            "Move {number}, {move}: only {keep} of {count} pair kept the game winnable.",
            "Move {number}, {move}: only {keep} of {count} pairs kept the game winnable.", 3,
        ).format(number=5, move="7♥ 7♠", keep=1, count=3)
        assert one_of_three == "Zug 5, 7♥ 7♠: Gewinnbar blieb das Spiel nur mit 1 von 3 Paaren."

        class NoMoves:
            total = 0
            done = True
            moves: tuple[object, ...] = ()

        assert review_view.progress_text(NoMoves()) == "Noch kein Zug zum Auswerten."  # type: ignore[arg-type]
    finally:
        i18n.set_language("en")

"""The words of Settings' "Your progress" (nestor_web/view/backup.py), in English and German:
every refusal of a backup says what is wrong and that nothing was changed."""

from __future__ import annotations

import pytest

from nestor_web.app.events import ProgressSummary
from nestor_web.storage.progress import PROGRESS_CODES, ProgressError, read_progress
from nestor_web.view.backup import (
    REFUSAL_WORDS,
    backup_words,
    refusal_text,
    restored_text,
    storage_text,
    summary_text,
)

BAD = {
    "progress.not_json": "my notes",
    "progress.foreign": '{"app": "other"}',
    "progress.truncated": '{"format": "nestor-progress", "version": 1, "stats": {',
    "progress.too_large": "x" * 2_000_001,
    "progress.newer": '{"format": "nestor-progress", "version": 9}',
    "progress.code": "NESTOR1:!!!",
}


def test_every_refusal_code_has_its_words() -> None:
    assert set(REFUSAL_WORDS) == set(PROGRESS_CODES)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("code", sorted(BAD))
def test_a_refused_backup_says_why_and_that_nothing_changed(
    code: str, language: str, request: pytest.FixtureRequest
) -> None:
    if language == "de":
        request.getfixturevalue("german")
    with pytest.raises(ProgressError) as caught:
        read_progress(BAD[code])
    assert caught.value.code == code
    text = refusal_text(caught.value)
    nothing = "Nothing was changed." if language == "en" else "Es wurde nichts geändert."
    assert text.endswith(nothing)
    assert "{" not in text  # every detail filled in
    if code == "progress.too_large":  # a byte over: the two sizes differ as the player reads
        assert ("2.000.001 Byte; eine Sicherung hat höchstens 2.000.000 Byte" if language == "de"
                else "2,000,001 bytes; a backup is at most 2,000,000 bytes") in text


@pytest.mark.parametrize("language", ["en", "de"])
def test_sizes_are_shown_in_bytes_only_where_they_would_read_the_same(
    language: str, request: pytest.FixtureRequest
) -> None:
    if language == "de":
        request.getfixturevalue("german")
    far = ProgressError("too large", code="progress.too_large", size=15_300_000, limit=2_000_000)
    text = refusal_text(far)
    assert ("(15,3 MB; eine Sicherung hat höchstens 2,0 MB)" if language == "de"
            else "(15.3 MB; a backup is at most 2.0 MB)") in text
    absurd = ProgressError("too large", code="progress.too_large", size=2_000_049_999_999,
                           limit=2_000_000)
    assert ("(2.000,0 GB;" if language == "de" else "(2,000.0 GB;") in refusal_text(absurd)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(
    ("code", "text"),
    [("progress.too_large", "NESTOR1:" + "A" * 2_000_000), ("progress.not_json", "my notes"),
     ("progress.foreign", '{"app": "other"}')],
)
def test_a_refused_pasted_code_speaks_of_a_code_not_a_file(
    code: str, text: str, language: str, request: pytest.FixtureRequest
) -> None:
    if language == "de":
        request.getfixturevalue("german")
    with pytest.raises(ProgressError) as caught:
        read_progress(text)
    assert caught.value.code == code
    pasted = refusal_text(caught.value, pasted=True)
    as_file = refusal_text(caught.value)
    file_word, code_word = ("Datei", "Code") if language == "de" else ("file", "code")
    assert code_word in pasted and file_word not in pasted, pasted
    assert file_word in as_file
    assert pasted.endswith("Es wurde nichts geändert." if language == "de"
                           else "Nothing was changed.")


def test_the_other_words(german: None) -> None:
    summary = ProgressSummary(games=5, won=3, daily_won=1, in_progress=2)
    assert summary_text(summary).startswith(
        "Diese Sicherung enthält 5 Spiele gespielt (3 gewonnen), 1 Tagesspiel gewonnen und 2 "
        "laufende Spiele.")
    assert restored_text("merge", summary) == (
        "Zusammengeführt: Du hast jetzt 5 Spiele gespielt, 3 gewonnen.")
    assert restored_text("merge", summary, changed=False).startswith("Nichts einzubringen")
    name = "nestor-progress-2026-12-03.json"
    assert name in backup_words(name, False)
    assert storage_text(True, 15_200_000, 10_800_000_000).endswith(
        "belegen 15,2 MB der erlaubten 10,8 GB.")


def test_the_english_summary() -> None:
    summary = ProgressSummary(games=1, won=0, daily_won=0, in_progress=1)
    assert summary_text(summary).startswith(
        "This backup holds 1 game played (0 won), 0 daily deals won and 1 game in progress.")
    assert storage_text(None, None, None).startswith("Your browser does not say")

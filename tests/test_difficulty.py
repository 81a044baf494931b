"""Issue 24 (2): New deal by difficulty, the deal's grade, and the wins per grade, without a
browser (the page's loop: tests/webpage.py)."""

from __future__ import annotations

import json
import random

import pytest
from webpage import Page, SharedStore

from nestor import NestorError
from nestor.grade import grade
from nestor.graded_deals import CUTS_FINGERPRINT, GRADED_DEALS, known_grade
from nestor_web.app.events import GradeKnown
from nestor_web.app.settings import DIFFICULTIES, Settings
from nestor_web.app.statistics.data import DEAL_MEMORY
from nestor_web.storage.codecs import settings_from_text, settings_to_text
from nestor_web.storage.grades import (
    GRADE_MEMORY,
    grades_from_text,
    grades_to_text,
)
from nestor_web.storage.keys import GRADES_KEY, MemoryStore, StoreRefused
from nestor_web.view import i18n
from nestor_web.view.dialogs import grades_html, stats_html

BEYOND = 123_456_789
"""A Standard deal beyond the shipped table (graded in the page)."""


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


def finish(steps):
    """Run a generator of slices to its end; its value."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value



# ---- the setting ------------------------------------------------------------------------


def test_the_difficulty_setting_takes_its_five_values_and_nothing_else() -> None:
    assert DIFFICULTIES == ("any", "winnable", "easy", "medium", "hard")
    settings = Settings()
    assert settings.difficulty == "any"
    for value in DIFFICULTIES:
        settings.set("difficulty", value)
        assert settings_from_text(settings_to_text(settings)).difficulty == value
    for bad in ("Hard", "", None, True, "winnable_only"):
        with pytest.raises(NestorError) as raised:
            settings.set("difficulty", bad)
        assert raised.value.code == "setting.value"
    assert settings.difficulty == "hard"


def test_the_old_winnable_only_setting_reads_as_any_winnable_deal_and_is_still_written() -> None:
    old = {"language": "en", "winnable_only": True}
    assert settings_from_text(json.dumps(old)).difficulty == "winnable"
    assert settings_from_text(json.dumps({"winnable_only": False})).difficulty == "any"
    assert settings_from_text("{}").difficulty == "any"
    # A newer text wins over the older key; an older game reads winnable_only.
    both = {"winnable_only": True, "difficulty": "easy"}
    assert settings_from_text(json.dumps(both)).difficulty == "easy"
    settings = Settings()
    for value, written in (("any", False), ("winnable", True), ("hard", True)):
        settings.set("difficulty", value)
        assert json.loads(settings_to_text(settings))["winnable_only"] is written


# ---- New deal of a grade ----------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "strict", "vertical", "doublets", "overlapping"])
@pytest.mark.parametrize("asked", ["easy", "medium", "hard"])
def test_new_deal_of_a_grade_deals_a_deal_of_that_grade(variant: str, asked: str) -> None:
    page = Page(rng=random.Random(f"{variant}:{asked}"))
    events = page.command(lambda: page.session.new_graded_deal(variant, asked))
    v, deal = page.session.key
    assert v == variant and deal < GRADED_DEALS
    assert known_grade(variant, deal) == asked
    assert GradeKnown(variant, deal, asked) in events
    assert page.session.grade == asked
    view = page.view()
    assert (view.grade, view.grade_text) == (asked, asked.capitalize())


def test_the_grade_of_a_deal_drawn_agrees_with_the_engine() -> None:
    page = Page(rng=random.Random(5))
    page.command(lambda: page.session.new_graded_deal("standard", "hard"))
    assert grade(*page.session.key).grade == "hard"


def test_new_deal_of_a_grade_leaves_out_the_deals_played() -> None:
    page = Page(rng=random.Random(2))
    seen = set()
    for _ in range(6):
        page.command(lambda: page.session.new_graded_deal("vertical", "easy"))
        key = page.session.key
        assert key not in seen
        seen.add(key)
        first = page.session.position.pairs()[0]
        page.play_pair(first.first, first.second)  # played: the statistics remember it
    assert {d for d, _ in page.session.stats.deal_states("vertical")} >= {d for _, d in seen}


# ---- the deal's grade ---------------------------------------------------------------------


def test_a_deal_in_the_table_is_graded_at_once_and_a_deal_beyond_it_is_worked_out() -> None:
    page = Page(query="?variant=standard&deal=4")
    assert page.session.grade is None and page.view().grade_text == ""
    events = page.run(page.session.look_up_grade())
    assert events == (GradeKnown("standard", 4, known_grade("standard", 4) or ""),)
    assert page.session.graded == {}  # from the table: nothing to keep
    page.open_deal("standard", BEYOND)
    assert page.session.look_up_grade() == ()  # not in the table
    events = page.run(finish(page.session.grade_steps()))
    expected = grade("standard", BEYOND).grade
    assert events == (GradeKnown("standard", BEYOND, expected),)
    assert page.session.graded == {("standard", BEYOND): expected}
    kept = json.loads(page.store.get(GRADES_KEY) or "")
    assert kept == {"version": 1, "cuts": CUTS_FINGERPRINT,
                    "grades": [["standard", BEYOND, expected]]}
    # The next visit finds it kept: the page does not grade it again.
    again = Page(page.store, query=f"?variant=standard&deal={BEYOND}")
    assert again.run(again.session.look_up_grade(again.storage.kept_grades())) == (
        GradeKnown("standard", BEYOND, expected),)


def test_the_grades_kept_unite_two_tabs() -> None:
    store = SharedStore()
    one, two = Page(store, query="?variant=standard&deal=20000"), None
    two = Page(store.tab(), query="?variant=doublets&deal=30000")
    one.run(finish(one.session.grade_steps()))
    two.run(finish(two.session.grade_steps()))
    kept = one.storage.kept_grades()
    assert set(kept) == {("standard", 20000), ("doublets", 30000)}


def test_grades_kept_with_other_cut_points_or_unreadable_are_dropped_quietly() -> None:
    assert grades_from_text(grades_to_text({("standard", 9): "easy"}, "other"),
                            CUTS_FINGERPRINT) == {}
    wrong_rows = json.dumps({"version": 1, "cuts": CUTS_FINGERPRINT, "grades": 3})
    for text in ("{", "[]", '{"version": 2}', wrong_rows):
        assert grades_from_text(text, CUTS_FINGERPRINT) == {}
    rows = [["standard", 1, "easy"], ["klondike", 2, "easy"], ["standard", -1, "hard"],
            ["standard", True, "hard"], ["standard", 3, "trivial"], ["Vertical", 4, "hard"],
            [7, 5, "easy"], "row"]
    text = json.dumps({"version": 1, "cuts": CUTS_FINGERPRINT, "grades": rows})
    assert grades_from_text(text, CUTS_FINGERPRINT) == {
        ("standard", 1): "easy", ("vertical", 4): "hard"}
    page = Page(MemoryStore({GRADES_KEY: "<b>not json</b>"}))
    assert page.notice is None and page.storage.kept_grades() == {}


def test_at_most_grade_memory_grades_are_kept_the_oldest_going_first() -> None:
    many = {("standard", 10_000 + n): "hard" for n in range(GRADE_MEMORY + 5)}
    kept = grades_from_text(grades_to_text(many, CUTS_FINGERPRINT), CUTS_FINGERPRINT)
    assert len(kept) == GRADE_MEMORY and ("standard", 10_004) not in kept
    assert ("standard", 10_005) in kept


class GradesRefused(MemoryStore):
    """A store that refuses the grades' key only (full, as a browser says)."""

    def set(self, key: str, value: str) -> None:
        if key == GRADES_KEY:
            raise StoreRefused("QuotaExceededError", "The quota has been exceeded.")
        super().set(key, value)


def test_a_store_that_refuses_the_grades_costs_no_notice() -> None:
    page = Page(GradesRefused(), query=f"?variant=standard&deal={BEYOND}")
    page.run(finish(page.session.grade_steps()))
    assert page.session.grade is not None and page.notice is None
    assert page.store.get(GRADES_KEY) is None


# ---- wins per grade -------------------------------------------------------------------------


def test_the_statistics_count_the_games_of_each_grade() -> None:
    page = Page(rng=random.Random(9))
    page.command(lambda: page.session.new_graded_deal("standard", "easy"))
    page.win()
    page.command(lambda: page.session.new_graded_deal("standard", "hard"))
    first = page.session.position.pairs()[0]
    page.play_pair(first.first, first.second)
    page.open_deal("standard", BEYOND)  # the Hard deal left after a move: lost
    first = page.session.position.pairs()[0]
    page.play_pair(first.first, first.second)
    page.command(lambda: page.session.new_graded_deal("standard", "medium"))
    first = page.session.position.pairs()[0]
    page.play_pair(first.first, first.second)  # a move: Undo can't bring BEYOND back, lost
    records, unknown = page.session.grade_records("standard")
    assert {r.grade: (r.played, r.won) for r in records} == {
        "easy": (1, 1), "medium": (0, 0), "hard": (1, 0), "unwinnable": (0, 0)}
    assert unknown == 1  # BEYOND, not graded yet
    html = grades_html(page.session)
    assert html.count("data-grade-row=") == 4 and 'data-grade-row="easy"' in html
    assert "1 deal played is not graded yet." in html
    # Graded since (kept by the storage manager: here, or by another tab).
    records, unknown = page.session.grade_records("standard", {("standard", BEYOND): "hard"})
    assert unknown == 0 and {r.grade: (r.played, r.won) for r in records}["hard"] == (2, 0)
    html = stats_html(page.session, kept_grades={("standard", BEYOND): "easy"})
    assert "data-grades" in html and "not graded" not in html


def test_the_games_by_grade_say_they_count_only_the_deals_remembered() -> None:
    page = Page()
    note = ("Counted over the deals the game remembers: the last 5,000 deals played, all "
            "variants together.")
    assert f'data-deal-memory="{DEAL_MEMORY}">{note}</p>' in grades_html(page.session)
    assert DEAL_MEMORY == 5000
    i18n.set_language("de")
    try:
        assert ("Gezählt über die Spiele, die sich Nestor merkt: die letzten 5.000 gespielten, "
                "alle Varianten zusammen.") in stats_html(page.session)
    finally:
        i18n.set_language("en")


def test_the_wins_per_grade_are_worded_in_german() -> None:
    page = Page(query="?variant=vertical&deal=3", languages=("de",))
    page.run(page.session.look_up_grade())
    first = page.session.position.pairs()[0]
    page.play_pair(first.first, first.second)
    page.open_deal("vertical", BEYOND)
    first = page.session.position.pairs()[0]
    page.play_pair(first.first, first.second)
    page.command(lambda: page.session.new_deal("vertical", 5))
    first = page.session.position.pairs()[0]
    page.play_pair(first.first, first.second)
    html = grades_html(page.session)
    assert "Spiele nach Schwierigkeit, Vertikal" in html and "Unlösbar" in html
    assert "1 gespieltes Spiel hat noch keine Schwierigkeit." in html
    page.run(page.session.look_up_grade())
    assert page.view().grade_text == {"easy": "Leicht", "medium": "Mittel", "hard": "Schwer",
                                      "unwinnable": "Unlösbar"}[page.session.grade or ""]



# ---- a bad stored value costs that setting only -------------------------------------------


@pytest.mark.parametrize("bad", ['"impossible"', "5", "null", '"<b>hard</b>"'])
def test_a_bad_difficulty_stored_costs_only_that_setting(bad: str) -> None:
    text = ('{"language": "en", "four_colours": true, "theme": "dark", "difficulty": '
            + bad + "}")
    store = MemoryStore({"nestor.settings": text})
    page = Page(store)
    settings = page.session.settings
    assert (settings.four_colours, settings.theme, settings.difficulty) == (True, "dark", "any")
    assert page.notice is not None and page.notice.startswith(
        "One of your settings could not be read: the setting “Difficulty of new deals” "
        "cannot be ")
    assert "your other settings are as you left them" in page.notice
    # The value as the words say it (repr), as text: the page writes the notice as text.
    assert f"cannot be {json.loads(bad)!r}." in page.notice
    assert store.get("nestor.settings.unreadable") == text  # kept as it was
    assert json.loads(store.get("nestor.settings") or "")["four_colours"] is True


def test_settings_that_are_no_object_are_still_set_aside_whole() -> None:
    store = MemoryStore({"nestor.settings": "[1, 2]"})
    page = Page(store)
    assert page.session.settings.four_colours is False
    assert page.notice is not None and page.notice.startswith("Your settings could not be read")
    assert store.get("nestor.settings.unreadable") == "[1, 2]"


def test_the_web_layers_grade_names_are_the_engines() -> None:
    from nestor.deal import GRADE_NAMES
    from nestor.grade import GRADES, UNWINNABLE
    from nestor.graded_deals import LETTERS
    from nestor_web.view.words import GRADE_WORDS

    assert GRADE_NAMES == (*GRADES, UNWINNABLE) == tuple(LETTERS.values())
    assert tuple(GRADE_WORDS) == GRADE_NAMES

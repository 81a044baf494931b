"""Issue 24 (4): the guided first game without a browser: its steps worked out by the engine
from the real board, how the player's moves move it on, Skip, and what the storage manager
keeps so that it starts by itself only on a first visit (the page's loop: tests/webpage.py)."""

from __future__ import annotations

import random

import pytest
from webpage import Page, SharedStore

from nestor import Pair, deal_position
from nestor.graded_deals import known_grade
from nestor.solver import Status, solve
from nestor_web.app.events import DealChanged, TutorialChanged
from nestor_web.app.tutorial import (
    FIRST_VISIT_DEAL,
    FIRST_VISIT_OPENING,
    TUTORIAL_STEPS,
    TUTORIAL_VARIANT,
    TutorialStep,
    reserve_pair,
    tableau_pair,
    tutorial_deal,
)
from nestor_web.storage.keys import SETTINGS_KEY, TUTORIAL_KEY, MemoryStore
from nestor_web.storage.manager import StorageManager, tutorial_to_text
from nestor_web.view import i18n
from nestor_web.view.tutorial import step_text, tutorial_view
from nestor_web.view.words import announcement


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


def guided(seed: int = 1, store: MemoryStore | None = None) -> Page:
    page = Page(store, rng=random.Random(seed))
    page.run(page.session.start_tutorial())
    return page


def step(page: Page) -> str:
    assert page.session.tutorial is not None
    return page.session.tutorial.step


def winnable_after(page: Page, pair: Pair) -> bool:
    return solve(page.session.position.apply(pair)).status is Status.WINNABLE


def test_the_guide_plays_an_easy_deal_and_points_at_a_pair_of_the_tableau() -> None:
    page = guided()
    variant, deal = page.session.key
    assert variant == "standard" and known_grade(variant, deal) == "easy"
    assert page.session.tutorial_seen == "started"
    assert step(page) == "pair"
    tutorial = page.session.tutorial
    assert tutorial is not None and tutorial.waits and len(tutorial.cards) == 2
    places = page.session.position.available()
    first, second = tutorial.cards
    assert {places[first].area, places[second].area} == {"column"}
    assert first[0] == second[0]
    assert winnable_after(page, Pair(first, second))  # it does not lead a beginner astray


def test_each_step_in_turn_as_the_player_plays_it() -> None:
    page = guided(2)
    seen = [step(page)]
    position = page.session.position
    page.play_pair(*(page.session.tutorial.cards))  # type: ignore[union-attr]
    seen.append(step(page))
    covered = page.session.tutorial
    assert covered is not None and not covered.waits
    card, top = covered.cards[:2]
    column = page.session.position.columns[covered.column - 1]
    assert column[-2:] == (card, top)  # the card under the column's available one
    assert card not in page.session.position.available()
    if len(covered.cards) == 3:
        partner = covered.cards[2]
        assert partner[0] == card[0] and partner in page.session.position.available()
    assert page.session.position is not position
    page.run(page.session.tutorial_next())
    seen.append(step(page))
    reserve = page.session.tutorial
    assert reserve is not None and reserve.waits
    places = page.session.position.available()
    assert "reserve" in {places[c].area for c in reserve.cards}
    assert winnable_after(page, Pair(*reserve.cards))
    page.play_pair(*reserve.cards)
    seen.append(step(page))
    assert page.session.tutorial is not None and page.session.tutorial.waits
    page.undo()
    seen.append(step(page))
    assert seen == list(TUTORIAL_STEPS)
    view = tutorial_view(page.session)
    assert view is not None and view.next_label == "Play on" and view.skip_label == ""
    page.run(page.session.tutorial_next())
    assert page.session.tutorial is None and page.session.tutorial_seen == "done"
    assert page.store.get(TUTORIAL_KEY) == "done"


def test_any_pair_moves_the_first_step_on_and_a_move_shows_a_step_again_for_the_new_board(
) -> None:
    page = guided(3)
    tutorial = page.session.tutorial
    assert tutorial is not None
    other = next(p for p in page.session.position.pairs() if set(p.cards) != set(tutorial.cards))
    page.play_pair(other.first, other.second)
    assert step(page) == "covered"
    shown = page.session.tutorial
    pair = page.session.position.pairs()[0]
    page.play_pair(pair.first, pair.second)  # the covered step, for the board after it
    assert step(page) == "covered"
    again = page.session.tutorial
    assert again is not None and again.cards[0] not in page.session.position.available()
    assert shown is not None and page.session.game.cursor == 2


def test_skip_ends_the_guide_at_any_step_and_it_is_kept_done() -> None:
    for steps in range(3):
        page = guided(10 + steps)
        for _ in range(steps):
            if page.session.tutorial and page.session.tutorial.waits:
                page.play_pair(*page.session.tutorial.cards[:2])
            else:
                page.run(page.session.tutorial_next())
        events = page.run(page.session.end_tutorial())
        assert TutorialChanged(None) in events
        assert page.session.tutorial is None and page.store.get(TUTORIAL_KEY) == "done"
        assert tutorial_view(page.session) is None


def test_another_deal_ends_the_guide() -> None:
    page = guided(4)
    page.new_deal()
    assert page.session.tutorial is None and page.store.get(TUTORIAL_KEY) == "done"


def test_the_guide_starts_by_itself_only_on_a_first_visit_or_after_a_reload_in_its_middle(
) -> None:
    stored = StorageManager(MemoryStore()).stored("en")
    assert stored.first_visit and stored.tutorial_seen is None
    # A player of an earlier version: settings stored, never a guide: not a first visit.
    returning = StorageManager(MemoryStore({SETTINGS_KEY: '{"language": "en"}'})).stored("en")
    assert not returning.first_visit and returning.tutorial_seen is None
    store = MemoryStore()
    page = guided(5, store)
    assert store.get(TUTORIAL_KEY) == "started"
    again = StorageManager(store).stored("en")
    assert again.tutorial_seen == "started" and not again.first_visit
    page.run(page.session.end_tutorial())
    assert StorageManager(store).stored("en").tutorial_seen == "done"


def test_a_reload_in_the_guides_middle_takes_it_up_at_the_step_it_showed() -> None:
    store = MemoryStore()
    page = guided(5, store)
    page.play_pair(*(page.session.tutorial.cards))  # type: ignore[union-attr]
    assert step(page) == "covered" and store.get(TUTORIAL_KEY) == "started:covered"
    page.run(page.session.tutorial_next())
    assert step(page) == "reserve" and store.get(TUTORIAL_KEY) == "started:reserve"
    reload = Page(store, rng=random.Random(6))
    reload.open_tutorial()
    assert reload.session.key == page.session.key and step(reload) == "reserve"
    assert reload.session.tutorial == page.session.tutorial
    # Restart: from its first step, and so after a reload.
    reload.run(reload.session.restart())
    assert step(reload) == "pair" and store.get(TUTORIAL_KEY) == "started"
    again = Page(store, rng=random.Random(7))
    again.open_tutorial()
    assert step(again) == "pair"


@pytest.mark.parametrize(("text", "seen", "resume"), [
    ("", None, "pair"), ("started", "started", "pair"), ("done", "done", "pair"),
    ("started:undo", "started", "undo"), ("started:done", "started", "done"),
    ("started:nowhere", None, "pair"), ("done:undo", None, "pair"), ("begun", None, "pair"),
])
def test_what_the_guide_keeps_is_read_back_and_a_value_it_never_writes_is_a_guide_not_started(
    text: str, seen: str | None, resume: str
) -> None:
    stored = StorageManager(MemoryStore({TUTORIAL_KEY: text} if text else {})).stored("en")
    assert (stored.tutorial_seen, stored.tutorial_resume) == (seen, resume)
    if seen is not None:
        assert tutorial_to_text(seen, resume) == text


def test_the_guide_started_again_from_how_to_play_leaves_the_game_in_play_for_undo() -> None:
    page = Page(query="?variant=vertical&deal=3")
    pair = page.session.position.pairs()[0]
    page.play_pair(pair.first, pair.second)
    page.run(page.session.start_tutorial())
    assert page.session.key[0] == "standard" and page.session.left is not None
    assert page.session.left.key == ("vertical", 3)


def test_the_deal_of_the_guide_can_show_every_step() -> None:
    for seed in range(4):
        deal = tutorial_deal(random.Random(seed))
        assert known_grade("standard", deal) == "easy"
        position = deal_position("standard", deal)
        assert any(
            all(position.available()[c].area == "column" for c in p.cards)
            for p in position.pairs()
        )
    assert tutorial_deal(random.Random(7)) == tutorial_deal(random.Random(7))



def test_the_first_visits_deal_is_easy_and_shows_every_step() -> None:
    # What tutorial_deal asks of the deals it draws: a tableau pair that keeps the game
    # winnable, and after it a reserve pair that does.
    from nestor.grade import grade

    assert known_grade(TUTORIAL_VARIANT, FIRST_VISIT_DEAL) == "easy"
    assert grade(TUTORIAL_VARIANT, FIRST_VISIT_DEAL).grade == "easy"  # the engine agrees
    position = deal_position(TUTORIAL_VARIANT, FIRST_VISIT_DEAL)
    opening = tableau_pair(position)
    assert opening is not None and opening[1]
    assert opening[0].cards == FIRST_VISIT_OPENING  # what a first visit shows without solving
    after = reserve_pair(position.apply(opening[0]))
    assert after is not None and after[1]


def test_a_first_visit_plays_the_one_first_deal_and_later_starts_draw_others() -> None:
    for seed in (21, 22):
        page = Page(rng=random.Random(seed))
        events = page.run(page.session.open_tutorial(True, None, None))
        assert page.session.key == (TUTORIAL_VARIANT, FIRST_VISIT_DEAL) and step(page) == "pair"
        assert page.session.grade == "easy"  # the first draw shows it, as the first paint does
        assert not any(isinstance(e, DealChanged) for e in events)
    # Every step of the guide, played through on it.
    seen = [step(page)]
    page.play_pair(*page.session.tutorial.cards)  # type: ignore[union-attr]
    seen.append(step(page))
    page.run(page.session.tutorial_next())
    seen.append(step(page))
    assert page.session.tutorial is not None and page.session.tutorial.waits
    page.play_pair(*page.session.tutorial.cards[:2])
    seen.append(step(page))
    page.run(page.session.undo())
    seen.append(step(page))
    assert tuple(seen) == TUTORIAL_STEPS
    # How to play's "Show me on the board": a random Easy deal, the one played left out.
    page.run(page.session.end_tutorial())
    page.run(page.session.start_tutorial())
    assert page.session.key[1] != FIRST_VISIT_DEAL
    assert known_grade(*page.session.key) == "easy"


@pytest.mark.parametrize(("pointer", "verb"), [("touch", "Tap one"), ("mouse", "Click one"),
                                               ("keyboard", "arrow keys and Enter")])
def test_the_words_follow_the_way_the_player_points(pointer: str, verb: str) -> None:
    page = guided(6)
    page.session.pointer = pointer
    view = tutorial_view(page.session)
    assert view is not None and verb in view.text
    assert view.title == "Your first game, step 1 of 5" and view.skip_label == "Skip the guide"
    assert view.next_label == ""  # the step waits for the player's pair


def test_each_step_is_said_by_the_live_region_in_german() -> None:
    page = Page(rng=random.Random(8), languages=("de",))
    events = page.run(page.session.start_tutorial())
    said = announcement(events, page.session)
    assert said is not None and said.startswith("Dein erstes Spiel, Schritt 1 von 5: ")
    assert "sind beide frei" in said
    tutorial = page.session.tutorial
    assert tutorial is not None
    page.play_pair(*tutorial.cards)
    assert page.announcement is not None and "Schritt 2 von 5" in page.announcement
    view = tutorial_view(page.session)
    assert view is not None and view.next_label == "Weiter"
    assert "ist verdeckt" in view.text and view.skip_label == "Anleitung überspringen"


def test_restart_starts_the_guide_again_on_the_same_deal() -> None:
    page = guided(12)
    tutorial = page.session.tutorial
    assert tutorial is not None
    page.play_pair(*tutorial.cards)
    assert step(page) == "covered"
    key = page.session.key
    page.restart()
    assert page.session.key == key and step(page) == "pair"
    assert page.session.tutorial_seen == "started"


def test_a_reserve_pair_that_would_lose_is_shown_as_one_to_keep() -> None:
    deal = next(d for d in range(200)
                if solve(deal_position("standard", d)).status is Status.LOST
                and reserve_pair(deal_position("standard", d)) is not None)
    position = deal_position("standard", deal)
    offered = reserve_pair(position)
    assert offered is not None
    pair, keeps = offered
    assert not keeps and pair in position.pairs()
    assert "reserve" in {position.available()[c].area for c in pair.cards}
    said = step_text(TutorialStep("reserve", pair.cards, loses=True), "touch")
    assert "would lose this game: keep it for later" in said
    assert "none of them pairs" not in said
    view_words = step_text(TutorialStep("reserve", tuple(position.reserve)), "touch")
    assert "none of them pairs now" in view_words


def test_the_undo_step_names_the_key_to_a_keyboard_player() -> None:
    undo = TutorialStep("undo", waits=True)
    assert "Press U (or Undo) now." in step_text(undo, "keyboard")
    assert "Press Undo now." in step_text(undo, "touch")


def test_a_step_played_in_one_tab_moves_the_guide_on_in_the_other() -> None:
    store = SharedStore()
    one = guided(13, store)
    two = Page(store.tab(), rng=random.Random(14))
    two.open_tutorial()
    assert two.session.key == one.session.key and step(two) == "pair"
    one.play_pair(*(one.session.tutorial.cards))  # type: ignore[union-attr]
    two.receive()
    assert step(one) == step(two) == "covered"
    assert two.session.tutorial == one.session.tutorial  # the same board, the same rings
    assert one.session.tutorial_seen == two.session.tutorial_seen == "started"
    assert store.get(TUTORIAL_KEY) == "started:covered"
    two.run(two.session.tutorial_next())
    one.receive()
    assert step(one) == step(two) == "reserve"


def test_the_guide_ended_in_another_tab_ends_in_this_one() -> None:
    store = SharedStore()
    one = guided(13, store)
    two = Page(store.tab(), rng=random.Random(14))
    two.run(two.session.start_tutorial(fresh=False))
    assert two.session.tutorial is not None
    one.run(one.session.end_tutorial())
    events = two.receive()
    assert TutorialChanged(None) in events and two.session.tutorial is None
    assert two.session.tutorial_seen == "done"


def test_the_guide_is_due_only_on_a_first_visit_without_a_link_or_after_a_reload_in_it(
) -> None:
    from nestor import get_variant
    from nestor_web.app.url import DealRequest

    standard = get_variant("standard")
    fresh = Page(rng=random.Random(15))
    first_deal = fresh.session.key
    events = fresh.run(fresh.session.open_tutorial(True, None, None))
    assert step(fresh) == "pair" and fresh.session.key != first_deal  # a deal of its own
    assert any(isinstance(e, TutorialChanged) for e in events)
    assert not any(isinstance(e, DealChanged) for e in events)  # the page opens on it
    for first_visit, asked, replaying in (
        (True, DealRequest(standard, 7), False),  # a link to a deal
        (True, None, True),  # a replay link
        (False, None, False),  # a returning player
    ):
        page = Page(rng=random.Random(16))
        assert page.session.open_tutorial(first_visit, asked, None, replaying) == ()
        assert page.session.tutorial is None
    page = Page(rng=random.Random(17))
    page.session.tutorial_seen = "started"  # a reload in its middle: again, on that game
    key = page.session.key
    assert page.session.open_tutorial(
        False, DealRequest(standard, key[1]), page.session.saved())
    assert page.session.key == key and step(page) == "pair"
    other = Page(rng=random.Random(18))
    other.session.tutorial_seen = "started"
    assert other.session.open_tutorial(
        False, DealRequest(standard, 12345), other.session.saved()) == ()


def test_a_link_to_another_deal_leaves_the_guide_and_a_reload_in_it_resumes_it() -> None:
    store = MemoryStore()
    guide = guided(19, store)
    deal = guide.session.key[1]
    link = Page(store, query="?deal=12345", rng=random.Random(20))
    link.open_tutorial()
    assert link.session.key == ("standard", 12345) and link.session.tutorial is None
    assert link.session.tutorial_seen == "started"  # left, not ended
    back = Page(store, query=f"?deal={deal}", rng=random.Random(21))
    back.open_tutorial()  # a link back to its deal: not yet a reload
    reload = Page(store, query=f"?deal={deal}", rng=random.Random(22))
    reload.open_tutorial()
    assert reload.session.key == ("standard", deal) and step(reload) == "pair"


def test_a_move_in_a_deal_a_link_opened_ends_the_guide_left_and_a_reload_leaves_it_off() -> None:
    store = MemoryStore()
    guided(19, store)
    link = Page(store, query="?deal=7", rng=random.Random(20))
    link.open_tutorial()
    assert link.session.tutorial is None and link.session.tutorial_seen == "started"
    pair = link.session.position.pairs()[0]
    link.play_pair(pair.first, pair.second)
    assert link.session.tutorial_seen == "done"
    reload = Page(store, query="?deal=7", rng=random.Random(21))
    reload.open_tutorial()
    assert reload.session.key == ("standard", 7) and reload.session.game.cursor == 1
    assert reload.session.tutorial is None and reload.session.tutorial_seen == "done"

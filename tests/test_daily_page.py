"""The daily deal in the web layer without a browser: the link ?daily=, the session's
daily game and its streak, the notices of a bad link, the share text, in both languages."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from helpers import Calendar
from webpage import Page, SharedStore

from nestor import Pair, deal_position
from nestor.daily import daily_deal
from nestor.solver import solve
from nestor_web.app.ending import Ending
from nestor_web.app.url import daily_query, parse_query
from nestor_web.storage.keys import MemoryStore
from nestor_web.view import i18n
from nestor_web.view.daily import daily_label, daily_stats_html, share_text
from nestor_web.view.dialogs import stats_html
from nestor_web.view.end import end_view, render_end

DAY = date(2026, 12, 1)
DEAL = ("doublets", 2716772282)  # daily_deal(DAY), see tests/test_daily.py


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")



def test_the_link_names_the_daily_deal_of_its_date() -> None:
    request, problem = parse_query("?daily=2026-12-01", DAY)
    assert problem is None and request is not None
    assert (request.variant.name, request.deal, request.daily) == (*DEAL, DAY)
    assert daily_query(DAY) == "?daily=2026-12-01"


@pytest.mark.parametrize(("query", "code"), [
    ("?daily=2026-12-02", "date.future"), ("?daily=2026-13-01", "date.unknown"),
    ("?daily=yesterday", "date.syntax"), ("?daily=", "date.syntax"),
])
def test_a_bad_or_later_date_is_a_problem_and_no_request(query: str, code: str) -> None:
    request, problem = parse_query(query, DAY)
    assert request is None and problem is not None
    assert problem.code == "link.daily" and problem.error is not None
    assert problem.error.code == code


def test_opening_the_link_plays_the_daily_deal_and_keeps_the_link() -> None:
    page = Page(query="?daily=2026-12-01", today=Calendar(DAY))
    assert page.session.key == DEAL and page.session.daily == DAY
    assert page.session.query() == "?daily=2026-12-01"
    assert daily_label(page.session) == "Daily deal of 2026-12-01"
    page.restart()
    assert page.session.daily == DAY  # the same deal again: still the daily deal
    page.new_deal()
    assert page.session.daily is None and page.session.query().startswith("?variant=")
    assert daily_label(page.session) is None and share_text(page.session) is None


def test_a_bad_link_leaves_the_saved_game_and_statistics_as_they_were() -> None:
    store = MemoryStore()
    page = Page(store, query="?variant=standard&deal=7", today=Calendar(DAY))
    first = page.session.position.available()
    page.tap(sorted(first)[0])
    legal = page.session.game.legal_moves()[0]
    assert isinstance(legal, Pair)
    page.play_pair(legal.first, legal.second)
    before = dict(store.data)
    for query in ("?daily=2026-12-02", "?daily=31.12.2026"):
        again = Page(store, query=query, today=Calendar(DAY))
        assert again.session.key == ("standard", 7)
        assert again.session.game.cursor == 1 and again.session.daily is None
        assert again.notice is not None and "could not be opened" in again.notice
        assert dict(store.data) == before  # nothing written over
    again.set_setting("language", "de")
    again = Page(store, query="?daily=2026-12-02", today=Calendar(DAY))
    assert again.notice == (
        "Das Tagesspiel des Links ließ sich nicht öffnen: das Tagesspiel vom 2026-12-02 gibt "
        "es noch nicht (heute ist der 2026-12-01). Dein Spiel und deine Statistik bleiben, "
        "wie sie waren."
    )


def test_a_win_on_its_own_date_counts_for_the_daily_streak() -> None:
    calendar = Calendar(DAY - timedelta(days=1))
    page = Page(today=calendar)
    page.open_daily()  # yesterday's deal, yesterday
    page.win()
    calendar.day = DAY
    page.open_daily()
    assert page.session.key == DEAL and page.session.query() == "?daily=2026-12-01"
    page.win()
    summary = page.session.stats.daily_summary(DAY)
    assert (summary.won_today, summary.streak, summary.best_streak) == (True, 2, 2)
    assert 'data-daily-streak="2"' in stats_html(page.session)
    assert share_text(page.session) == (
        "Nestor, daily deal of 2026-12-01 (Doublets): won, 26 of 26 pairs, no help."
    )


def test_a_past_dates_deal_won_later_is_an_ordinary_game() -> None:
    page = Page(today=Calendar(DAY))
    page.open_daily(DAY - timedelta(days=3))
    assert page.session.daily == DAY - timedelta(days=3)
    page.win()
    assert page.session.stats.daily_summary(DAY).days_won == 0
    assert page.session.stats.summary(page.session.game.variant.name).won == 1


def test_a_page_opened_without_a_link_on_todays_deal_plays_it_as_the_daily_deal() -> None:
    store = MemoryStore()
    page = Page(store, today=Calendar(DAY))
    page.open_daily()
    page.tap(sorted(page.session.position.available())[0])
    again = Page(store, today=Calendar(DAY))  # e.g. the installed app's start address
    assert again.session.key == DEAL and again.session.daily == DAY
    later = Page(store, today=Calendar(DAY + timedelta(days=1)))  # the next day: not today's
    assert later.session.key == DEAL and later.session.daily is None


def test_the_share_text_says_result_pairs_and_help_and_no_card_in_both_languages() -> None:
    page = Page(today=Calendar(DAY))
    page.open_daily()
    line = solve(page.session.position).line
    for move in line[:3]:
        assert isinstance(move, Pair)
        page.play_pair(move.first, move.second)
    page.session.help = page.session.help.__class__(hints=1)
    text = share_text(page.session)
    assert text == "Nestor, daily deal of 2026-12-01 (Doublets): in play, 3 of 26 pairs, with help."
    cards = {c for column in deal_position(*daily_deal(DAY)).columns for c in column}
    assert not any(c in (text or "") for c in cards)
    i18n.set_language("de")
    assert share_text(page.session) == (
        "Nestor, Tagesspiel vom 2026-12-01 (Dubletten): im Spiel, 3 von 26 Paaren, mit Hilfe."
    )


class LocalTime:
    """The player's local time, set by the test: its date (the session's ``today``) and the
    statistics' clock (ms since 1970, read as this machine's local time, as the page reads
    the browser's)."""

    def __init__(self, when: datetime) -> None:
        self.when = when

    def today(self) -> date:
        return self.when.date()

    def clock(self) -> int:
        return int(self.when.timestamp() * 1000)


def page_at(time: LocalTime, store: MemoryStore, query: str = "") -> Page:
    return Page(store, query=query, today=time.today, clock=time.clock)


def win_dates(page: Page, first: date, days: int) -> None:
    """Win the daily deals of ``days`` dates from ``first`` on, each on its date."""
    for n in range(days):
        page.session.today = lambda n=n: first + timedelta(days=n)  # type: ignore[misc]
        page.open_daily()
        page.win()


def end_words(page: Page) -> str | None:
    view = end_view(page.session, Ending())
    return None if view is None else view.daily


DEC_4 = date(2026, 12, 4)


def test_a_daily_deal_started_before_midnight_and_won_after_counts_for_its_date() -> None:
    time = LocalTime(datetime(2026, 12, 4, 23, 58, 30))
    store = MemoryStore()
    page = page_at(time, store)
    win_dates(page, DEC_4 - timedelta(days=3), 3)  # a streak of 3 up to 3 December
    page.session.today = time.today
    page.open_daily()
    assert page.session.daily == DEC_4
    line = solve(page.session.position).line
    for move in line[:-1]:
        assert isinstance(move, Pair)
        page.play_pair(move.first, move.second)
    time.when = datetime(2026, 12, 5, 0, 0, 30)
    last = line[-1]
    assert isinstance(last, Pair)
    page.play_pair(last.first, last.second)
    stats = page.session.stats
    assert stats.daily_won(DEC_4)
    summary = stats.daily_summary(time.today())
    assert (summary.won_today, summary.streak, summary.best_streak) == (False, 4, 4)
    assert end_words(page) == "Daily deal of 2026-12-04 won: it counts for its own date, " \
        "a run of 4 days ending that day; best daily streak 4."
    html = render_end(end_view(page.session, Ending()))  # type: ignore[arg-type]
    assert 'data-end-daily="counted"' in html
    i18n.set_language("de")
    assert end_words(page) == "Tagesspiel vom 2026-12-04 gewonnen: Es zählt für seinen " \
        "eigenen Tag, eine Serie von 4 Tagen bis zu diesem Tag; beste Tagesserie 4."
    i18n.set_language("en")
    # The next day's page, opened without a link: the streak stands, the game is still the
    # daily deal of its date, its end screen says so.
    time.when = datetime(2026, 12, 5, 9, 0)
    again = page_at(time, store)
    assert again.session.key == daily_deal(DEC_4) and again.session.daily == DEC_4
    assert again.session.stats.daily_summary(time.today()).streak == 4
    assert end_words(again) == "Daily deal of 2026-12-04 won: it counts for its own date, " \
        "a run of 4 days ending that day; best daily streak 4."


def test_a_win_on_its_date_says_the_streak() -> None:
    time = LocalTime(datetime(2026, 12, 4, 10, 0))
    page = page_at(time, MemoryStore())
    page.open_daily()
    page.win()
    assert end_words(page) == "Daily deal of 2026-12-04 won: daily streak 1 day."
    page.open_deal("doublets", 4)
    page.win()
    assert end_words(page) is None  # an ordinary deal: no daily line


@pytest.mark.parametrize("way", ["link", "start address"])
def test_a_daily_deal_started_on_its_date_and_resumed_days_later_counts_for_its_date(
    way: str,
) -> None:
    time = LocalTime(datetime(2026, 12, 4, 20, 0))
    store = MemoryStore()
    page = page_at(time, store)
    win_dates(page, DEC_4 - timedelta(days=5), 5)  # a streak of 5 up to 3 December
    page.session.today = time.today
    page.open_daily()
    line = solve(page.session.position).line
    for move in line[:3]:
        assert isinstance(move, Pair)
        page.play_pair(move.first, move.second)
    page.open_deal("standard", 7)  # left, then settled as lost at the next deal's first move
    first = page.session.position.pairs()[0]  # a numbered deal: a new deal may have no pair
    page.play_pair(first.first, first.second)
    assert page.session.stats.deal_result(*daily_deal(DEC_4)) == "lost"
    time.when = datetime(2026, 12, 7, 12, 0)
    if way == "link":  # the daily deal's link, resumed from the games kept
        page = page_at(time, store, "?daily=2026-12-04")
    else:  # back to it by its deal number's link: still the daily deal of the date started
        page = page_at(time, store, "?variant={}&deal={}".format(*daily_deal(DEC_4)))
    assert page.session.daily == DEC_4 and page.session.game.cursor == 3
    page.win()
    assert page.session.stats.daily_won(DEC_4)
    assert page.session.stats.deal_result(*daily_deal(DEC_4)) == "won"
    assert page.session.stats.daily_summary(time.today()).streak == 0  # 5, 6 Dec not won
    # What the win did for its date, not today's streak (0): a run of 6 ending on 4 December.
    assert end_words(page) == "Daily deal of 2026-12-04 won: it counts for its own date, " \
        "a run of 6 days ending that day; best daily streak 6."


def test_a_past_dates_deal_started_later_does_not_count_and_the_end_screen_says_why() -> None:
    time = LocalTime(datetime(2026, 12, 7, 12, 0))
    page = page_at(time, MemoryStore())
    page.open_daily(DEC_4)
    page.win()
    assert not page.session.stats.daily_won(DEC_4)
    assert end_words(page) == (
        "Daily deal of 2026-12-04: this game was started after that date, so the win counts "
        "as an ordinary game, not for the daily streak.")
    html = render_end(end_view(page.session, Ending()))  # type: ignore[arg-type]
    assert 'data-end-daily="not"' in html
    i18n.set_language("de")
    assert end_words(page) == (
        "Tagesspiel vom 2026-12-04: Dieses Spiel wurde erst nach diesem Tag begonnen, darum "
        "zählt der Sieg als gewöhnliches Spiel, nicht für die Tagesserie.")


def test_a_daily_deal_started_in_one_tab_and_won_after_midnight_in_another_counts() -> None:
    time = LocalTime(datetime(2026, 12, 4, 23, 50))
    store = SharedStore()
    first = page_at(time, store)
    first.open_daily()
    line = solve(first.session.position).line
    for move in line[:2]:
        assert isinstance(move, Pair)
        first.play_pair(move.first, move.second)
    time.when = datetime(2026, 12, 5, 0, 5)
    second = page_at(time, store.tab(), "?daily=2026-12-04")
    assert second.session.daily == DEC_4 and second.session.game.cursor == 2
    second.win()
    assert second.session.stats.daily_won(DEC_4)
    first.receive()
    assert first.session.stats.daily_won(DEC_4)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_dates_won_are_counted_in_the_languages_plural(
    language: str, request: pytest.FixtureRequest
) -> None:
    time = LocalTime(datetime(2026, 12, 4, 10, 0))
    page = page_at(time, MemoryStore())
    if language == "de":
        request.getfixturevalue("german")
    words = {"en": ("Daily deal: 0 dates won,", "Daily deal: 1 date won,",
                    "Daily deal: 2 dates won,"),
             "de": ("Tagesspiel: 0 Tage gewonnen,", "Tagesspiel: 1 Tag gewonnen,",
                    "Tagesspiel: 2 Tage gewonnen,")}[language]
    assert words[0] in daily_stats_html(page.session)
    win_dates(page, DEC_4 - timedelta(days=1), 1)
    assert words[1] in daily_stats_html(page.session)
    win_dates(page, DEC_4, 1)
    assert words[2] in daily_stats_html(page.session)

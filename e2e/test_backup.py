"""Issue 23 in Chromium: progress backed up in one on-disk profile and restored in fresh ones
(a file, then a code), merged twice without a change, merged with a third device's for the
union; bad files and codes refused in English and German with nothing stored changed
(localStorage and the IndexedDB copy, key by key); the browser asked to keep the storage at
a win, not at load."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    _watch,
    control,
    saves_done,
    wait_ready_page,
)
from helpers import (
    back_up,
    open_game,
    open_restore,
    play,
    restore_file,
    winnable_deal_lost_by_first_moves,
)
from lines import find_winnable, losing_line
from playwright.sync_api import BrowserContext, Page, Playwright, expect

from nestor import Game, Pair
from nestor.daily import daily_deal
from nestor_web.storage.progress import read_progress
from nestor_web.storage.stats_codec import stats_from_text

ROOT = Path(__file__).resolve().parent.parent
V1 = (ROOT / "tests" / "data" / "progress-v1.json").read_text()
"""A version-1 backup (tests/test_progress.py reads it too)."""

STORED = """() => new Promise((resolve, reject) => {
  const local = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key.startsWith("nestor.") && key !== "nestor.board") local[key] = localStorage.getItem(key);
  }
  const request = indexedDB.open("nestor", 1);
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const all = {};
    const cursor = request.result.transaction("kv").objectStore("kv").openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (at) { all[at.key] = at.value; at.continue(); return; }
      request.result.close();
      resolve({local, durable: all});
    };
    cursor.onerror = () => reject(cursor.error);
  };
})"""
"""Everything the game keeps (but the board of the first paint, a drawing): localStorage's
keys and the IndexedDB copy's, key by key."""

TODAY = """() => { const d = new Date(), two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`; }"""
"""The page's local date, as ISO text (the daily deal's)."""

PERSIST_CALLS = """
window.__persistCalls = 0;
if (navigator.storage && navigator.storage.persist) {
  const persist = navigator.storage.persist.bind(navigator.storage);
  navigator.storage.persist = () => { window.__persistCalls += 1; return persist(); };
}"""
"""Count the page's calls of ``navigator.storage.persist``."""


def disk_profile(playwright: Playwright, base_url: str, folder: Path,
                 request: pytest.FixtureRequest) -> BrowserContext:
    """A browser with its profile on disk at ``folder`` (as a player's), recorded and checked
    like the other contexts; the clipboard allowed (Back up copies the code)."""
    context = playwright.chromium.launch_persistent_context(
        folder, executable_path=CHROMIUM, args=list(CHROMIUM_ARGS), headless=True,
        base_url=base_url, reduced_motion="reduce", service_workers="block",
        permissions=["clipboard-read", "clipboard-write"],
    )
    _watch(request.node, context, base_url)
    return context


def first_page(context: BrowserContext) -> Page:
    return context.pages[0] if context.pages else context.new_page()


def win(page: Page, variant: str, deal: int, query: str | None = None) -> None:
    line = find_line(variant, deal)
    open_game(page, wait_ready_page, query or f"?variant={variant}&deal={deal}")
    for move in line:
        play(page, move)
    expect(page.locator("body")).to_have_attribute("data-outcome", "won")


def find_line(variant: str, deal: int) -> list[Any]:
    from lines import winning_line

    line = winning_line(Game(variant, deal).start)
    assert line is not None, (variant, deal)
    return line


def figures(page: Page, today: date) -> dict[str, Any]:
    """What the statistics panel would show: each variant's counters (streaks too) and the
    daily record."""
    stats = stats_from_text(page.evaluate("localStorage.getItem('nestor.stats')"))
    out: dict[str, Any] = {v: stats.summary(v) for v in ("standard", "doublets", "vertical")}
    out["daily"] = stats.daily_summary(today)
    return out


@pytest.mark.parametrize("whole", [
    pytest.param(False, id="a-win-and-a-game"),
    # make test-slow: a loss, the daily deal won and a third device's union too (each part's
    # rules: tests/test_progress.py, without a browser)
    pytest.param(True, id="the-union", marks=pytest.mark.slow),
])
def test_progress_moves_to_fresh_profiles_and_merges_to_the_union(
    playwright: Playwright, base_url: str, tmp_path: Path, request: pytest.FixtureRequest,
    site_context: Any, whole: bool,
) -> None:
    # Device A (a profile on disk): two wins (one of them today's daily deal), a loss, a game
    # in progress (make test: a win and a game in progress). The browser is asked to keep the
    # storage at the win, not at load.
    if whole:
        a = disk_profile(playwright, base_url, tmp_path / "a", request)
        page = first_page(a)
    else:  # (make test: a fresh profile in memory, one browser fewer to start)
        a = site_context(base_url, permissions=["clipboard-read", "clipboard-write"])
        page = a.new_page()
    page.add_init_script(PERSIST_CALLS)
    doublets, _line = find_winnable("doublets")
    win(page, "doublets", doublets)
    # The ask is a task the winning move's draw starts: wait for it, then once only.
    page.wait_for_function("() => window.__persistCalls > 0")
    saves_done(page)
    assert page.evaluate("window.__persistCalls") == 1
    if whole:
        page.reload()  # the won board shown again: no win now, nothing asked
        wait_ready_page(page)
        saves_done(page)
        assert page.evaluate("window.__persistCalls") == 0
    today = date.fromisoformat(page.evaluate(TODAY))
    if whole:
        lost = winnable_deal_lost_by_first_moves()
        open_game(page, wait_ready_page, f"?variant=standard&deal={lost}")
        assert page.evaluate("window.__persistCalls") == 0  # (a new page: not at load)
        for move in losing_line("standard", lost):
            play(page, move)
        expect(page.locator("body")).to_have_attribute("data-outcome", "lost")
        variant, deal = daily_deal(today)
        win(page, variant, deal, f"?daily={today.isoformat()}")
    in_progress = find_winnable("vertical")[0]
    open_game(page, wait_ready_page, f"?variant=vertical&deal={in_progress}")
    first = next(m for m in Game("vertical", in_progress).legal_moves() if isinstance(m, Pair))
    play(page, first)
    expect(page.locator("#moves-made")).to_have_text("1")
    saves_done(page)
    expected = figures(page, today)
    name, text = back_up(page)
    assert name == f"nestor-progress-{today.isoformat()}.json"
    backup = json.loads(text)
    assert (backup["format"], backup["version"]) == ("nestor-progress", 1)
    if whole:
        a.close()

    # Device B, a fresh profile: the file restored, merged: the same statistics, streaks and daily
    # record, and the game in progress comes into play.
    b = site_context(base_url)
    page = b.new_page()
    open_game(page, wait_ready_page, "?variant=standard&deal=1")
    brings = restore_file(page, name, text, "merge")
    summary = read_progress(text).parts.summary()
    assert f"{summary.games} games played ({summary.won} won)" in brings
    assert figures(page, today) == expected
    page.keyboard.press("Escape")
    expect(page.locator("#deal-number")).to_have_text(str(in_progress))
    expect(page.locator("#moves-made")).to_have_text("1")
    # The same file again: nothing stored changes.
    before = page.evaluate(STORED)
    restore_file(page, name, text, "merge")
    assert page.evaluate(STORED) == before
    expect(page.locator("#restore-done")).to_have_text(
        "Nothing to bring in: everything in this backup is here already.")

    if not whole:
        return
    # Device C (a fresh profile): a win of its own, brought to B by its code: B holds the union.
    c = site_context(base_url, permissions=["clipboard-read", "clipboard-write"])
    other = c.new_page()
    win(other, "doublets", find_winnable("doublets", doublets + 30)[0])
    # The statistics' reset offers a backup first (issue 23 (5)): C backs up from there.
    control(other, "stats").click()
    other.locator('[data-action="stats-reset"]').click()
    with other.expect_download() as caught:
        other.locator('[data-action="stats-backup"]').click()
    expect(other.locator("#stats-backup-words")).to_contain_text(caught.value.suggested_filename)
    other.locator('[data-action="stats-reset-cancel"]').click()
    other.keyboard.press("Escape")
    code_c = other.locator("[data-backup-code]").input_value()
    assert read_progress(code_c).parts.summary().won == 1
    theirs = stats_from_text(other.evaluate("localStorage.getItem('nestor.stats')"))
    open_restore(page)
    page.locator("[data-restore-code]").fill(code_c)
    expect(page.locator("[data-restore-summary]")).to_be_visible()
    page.locator('[data-action="restore-merge"]').click()
    expect(page.locator("#restore-done")).to_be_visible()
    saves_done(page)
    union = figures(page, today)
    assert union["doublets"].won == expected["doublets"].won + theirs.summary("doublets").won
    assert union["standard"] == expected["standard"]


BAD = {
    "not JSON": ("notes.txt", "my solitaire notes\n",
                 "This is not a backup of Nestor: it is not a file the game wrote.",
                 "Das ist keine Sicherung von Nestor"),
    "another program's JSON": ("scores.json", json.dumps({"app": "other", "scores": [1, 2]}),
                               "This file comes from another program, not from Nestor.",
                               "Diese Datei stammt von einem anderen Programm"),
    "a newer version": ("new.json", V1.replace('"version":1,', '"version":7,', 1),
                        "This backup was made by a newer version of Nestor (format 7;",
                        "Diese Sicherung stammt von einer neueren Version von Nestor (Format 7;"),
    "cut short": ("cut.json", V1[: len(V1) // 2],
                  "This backup is cut short: part of it is missing",
                  "Diese Sicherung ist abgeschnitten"),
    "10 MB": ("big.json", '{"format":"nestor-progress","x":"' + "x" * 10_000_000 + '"}',
              "This file is too large to be a backup of Nestor (10.0 MB; a backup is at most "
              "2.0 MB).",
              "Diese Datei ist zu groß für eine Sicherung von Nestor (10,0 MB; eine Sicherung "
              "hat höchstens 2,0 MB)."),
    "more wins than games": ("odd.json", V1.replace('"played":1,"won":1', '"played":1,"won":5'),
                             "The statistics in this backup do not add up:",
                             "Die Statistik in dieser Sicherung geht nicht auf:"),
    "HTML in a name": ("html.json", V1.replace('"doublets":{', '"<img src=x onerror=alert(1)>":{'),
                       "The statistics in this backup cannot be read:",
                       "Die Statistik in dieser Sicherung lässt sich nicht lesen:"),
    "a damaged code": (None, "NESTOR1:eJzz!!!not-base64", "This code is damaged",
                       "Dieser Code ist beschädigt"),
}
"""Bad backups: a file's name and text (``None``: pasted as a code), and the start of what the
player reads, in English and German."""


@pytest.mark.parametrize("language", [
    "en",
    # make test-slow: the German words of each refusal are tests/test_backup_words.py's too
    pytest.param("de", marks=pytest.mark.slow),
])
def test_bad_backups_are_refused_in_the_players_language_and_change_nothing(
    page: Page, wait_ready, language: str
) -> None:
    open_game(page, wait_ready, "?variant=doublets&deal=3")
    play(page, next(m for m in Game("doublets", 3).legal_moves() if isinstance(m, Pair)))
    if language == "de":
        control(page, "settings").click()
        page.select_option("#opt-language", "de")
    saves_done(page)
    before = page.evaluate(STORED)
    assert before["local"]["nestor.game"]
    error = page.locator("[data-restore-error]")
    for what, (name, text, english, german) in BAD.items():
        open_restore(page)
        if name is None:
            page.locator("[data-restore-code]").fill(text)
        else:
            page.locator("[data-restore-code]").fill("")
            page.locator("[data-restore-file]").set_input_files(
                {"name": name, "mimeType": "application/json", "buffer": text.encode()})
        expect(error, what).to_be_visible()
        expect(error, what).to_contain_text(english if language == "en" else german)
        expect(error, what).to_contain_text("Nothing was changed." if language == "en"
                                            else "Es wurde nichts geändert.")
        expect(page.locator("[data-restore-summary]"), what).to_be_hidden()
        expect(page.locator("img")).to_have_count(0)  # the name was text, not markup
        saves_done(page)
        assert page.evaluate(STORED) == before, what
    # A good one after them shows what it brings, and nothing is stored until merge.
    page.locator("[data-restore-code]").fill("")
    page.locator("[data-restore-file]").set_input_files(
        {"name": "good.json", "mimeType": "application/json", "buffer": V1.encode()})
    expect(page.locator("[data-restore-summary]")).to_be_visible()
    expect(error).to_be_hidden()
    assert page.evaluate(STORED) == before
    # Settings says whether the browser keeps the storage, and what the game takes up.
    expect(page.locator("#progress-storage")).to_contain_text(
        "take up" if language == "en" else "belegen")
    # Replace: the backup's game comes into play; what was here is brought back at a tap.
    page.locator('[data-action="restore-replace"]').click()
    expect(page.locator("#restore-done")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#deal-number")).to_have_text("60")  # the backup's game in play
    expect(page.locator("#moves-made")).to_have_text("2")
    control(page, "settings").click()
    page.locator('[data-action="restore-replaced"]').click()
    page.keyboard.press("Escape")
    expect(page.locator("#deal-number")).to_have_text("3")
    expect(page.locator("#moves-made")).to_have_text("1")
    saves_done(page)
    back = page.evaluate(STORED)
    for key in ("nestor.game", "nestor.archive", "nestor.settings"):  # (no archive: {})
        assert json.loads(back["local"].get(key) or "{}") == json.loads(
            before["local"].get(key) or "{}"), key


def absurd(text: str, change: Any) -> str:
    """The backup ``text`` with ``change`` made to its data."""
    data = json.loads(text)
    change(data)
    return json.dumps(data)


def test_an_absurd_backup_is_refused_with_its_reason_and_the_statistics_still_open(
    page: Page, wait_ready
) -> None:
    """A fastest win of 400 digits was taken in, and the statistics never opened again (an
    OverflowError in the dialog), even after a reload. It is refused with the reason, nothing
    stored changes, and the statistics open."""
    open_game(page, wait_ready, "?variant=doublets&deal=3")
    play(page, next(m for m in Game("doublets", 3).legal_moves() if isinstance(m, Pair)))
    saves_done(page)
    before = page.evaluate(STORED)
    text = absurd(V1, lambda d: d["stats"]["variants"]["doublets"].update(
        fastest_ms=int("4" * 400)))
    open_restore(page)
    page.locator("[data-restore-file]").set_input_files(
        {"name": "absurd.json", "mimeType": "application/json", "buffer": text.encode()})
    error = page.locator("[data-restore-error]")
    expect(error).to_have_text(
        "The statistics in this backup do not add up: “variants['doublets']['fastest_ms']” is "
        "a time longer than a century. Nothing was changed.")
    expect(page.locator("[data-restore-summary]")).to_be_hidden()
    # The same, pasted as a code: the refusal speaks of a code.
    page.locator("[data-restore-code]").fill("my notes")
    expect(error).to_have_text("This is not a backup code of Nestor: it is not a code the game "
                               "made. Nothing was changed.")
    saves_done(page)
    assert page.evaluate(STORED) == before
    page.keyboard.press("Escape")
    control(page, "stats").click()
    expect(page.locator("#stats-dialog table").first).to_be_visible()
    row = page.locator("#stats-dialog tbody tr", has_text="Doublets")
    expect(row).to_contain_text("1")


def seed_stats(page: Page, text: str) -> None:
    """Store ``text`` as nestor.stats before the page's first load only (not at a reload)."""
    page.add_init_script(
        "if (!sessionStorage.getItem('seeded')) {"
        f"  localStorage.setItem('nestor.stats', {json.dumps(text)});"
        "  sessionStorage.setItem('seeded', '1');"
        "}"
    )


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_stored_statistics_out_of_range_are_set_aside_and_the_statistics_open(
    page: Page, wait_ready
) -> None:
    """A stored nestor.stats holding a 400-digit fastest win (and a daily best streak as
    long) is unreadable like any damaged value: set aside, reported; the statistics open."""
    stats = json.loads(V1)["stats"]
    stats["variants"]["doublets"]["fastest_ms"] = int("4" * 400)
    stats["daily"]["best_streak"] = int("9" * 400)
    text = json.dumps(stats)
    seed_stats(page, text)
    open_game(page, wait_ready, "?variant=doublets&deal=3")
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("#notice-text")).to_contain_text("a time longer than a century")
    saves_done(page)
    assert page.evaluate("localStorage.getItem('nestor.stats.unreadable')") == text
    control(page, "stats").click()
    expect(page.locator("#stats-dialog table").first).to_be_visible()
    expect(page.locator("#stats-dialog .daily-stats")).to_contain_text("best daily streak 0")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # type: ignore[index]


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
def test_a_stored_date_won_at_the_calendars_end_is_set_aside_and_the_game_loads(
    page: Page, wait_ready
) -> None:
    """A stored date won of 9999-12-31 stopped the page at "Loading the game…" (an
    OverflowError in the streak's arithmetic): now it is out of its range, set aside and
    reported; the game plays and the statistics open."""
    stats = json.loads(V1)["stats"]
    stats["daily"].update(won=["9999-12-31"], best_streak=1)
    text = json.dumps(stats)
    seed_stats(page, text)
    open_game(page, wait_ready, "?variant=doublets&deal=3")
    expect(page.locator("#notice-text")).to_contain_text(
        "is 9999-12-31, a date no daily deal was won on")
    saves_done(page)
    assert page.evaluate("localStorage.getItem('nestor.stats.unreadable')") == text
    control(page, "stats").click()
    expect(page.locator("#stats-dialog .daily-stats")).to_contain_text("0 dates won")

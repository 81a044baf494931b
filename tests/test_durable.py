"""The durable copy (nestor_web.storage.keys, stores.py and the storage manager's use of it): every
save reaches it, a store a crash took back is restored from it, a store that took a save in
part reads as older than the copy that took it whole, a store's refusal is told, and a write
is reported as lost only when both refused it."""

from __future__ import annotations

import json

import pytest
from webpage import MemoryCopy, Page, QuotaStore, SharedStore

from nestor import Pair
from nestor.solver import solve
from nestor_web.storage.keys import (
    BOARD_KEY,
    REPLACED_KEY,
    SAVE_KEY,
    SEQ_KEY,
    SETTINGS_KEY,
    STATS_KEY,
    MemoryStore,
    Snapshot,
    StoreRefused,
    next_seq,
    seq_of,
)
from nestor_web.storage.progress import read_progress
from nestor_web.storage.stats_codec import stats_from_text
from nestor_web.storage.stores import Stores
from nestor_web.view.i18n import set_language

DEAL = "?variant=standard&deal=20"
REFUSED = (
    "Your progress could not be saved: the browser's storage refused it (OSError). The game "
    "goes on, but it may be lost when the page closes."
)
KEPT = (
    "The browser's storage refused part of your progress (the storage is full). Nothing is "
    "lost: the game keeps it in its second store, and saves it in both again once the "
    "browser takes it."
)


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


class FullStore(MemoryStore):
    """localStorage over its quota: refuses every write."""

    def set(self, key: str, value: str) -> None:
        raise OSError("QuotaExceededError")


def test_every_save_reaches_the_copy_with_a_growing_number() -> None:
    copy = MemoryCopy()
    page = Page(query=DEAL, durable=copy)
    first = seq_of(copy.data[SEQ_KEY])
    moves = page.play_pairs(2)
    assert json.loads(copy.data[SAVE_KEY])["moves"] == moves
    assert copy.data[SAVE_KEY] == page.store.get(SAVE_KEY)
    assert copy.data[STATS_KEY] == page.store.get(STATS_KEY)
    assert copy.data[SETTINGS_KEY] == page.store.get(SETTINGS_KEY)
    assert seq_of(copy.data[SEQ_KEY]) > first
    assert copy.data[SEQ_KEY] == page.store.get(SEQ_KEY)  # both carry the save's number
    page.storage.save_board("en", lambda: ([["div", {}]], {}))
    assert page.store.get(BOARD_KEY) is not None and BOARD_KEY not in copy.data


def test_a_store_a_crash_took_back_is_restored_from_the_copy() -> None:
    copy = MemoryCopy()
    store = MemoryStore()
    page = Page(store, DEAL, durable=copy)
    page.play_pairs(1)
    before_crash = dict(store.data)  # what localStorage had on disk when the browser died
    moves = page.play_pairs(4)
    stats = store.get(STATS_KEY)

    relaunched = Page(MemoryStore(before_crash), "", durable=copy)
    assert relaunched.storage.stores.restored
    assert [str(m) for m in relaunched.session.game.moves] == moves
    assert relaunched.session.key == ("standard", 20)
    assert relaunched.store.get(SAVE_KEY) == copy.data[SAVE_KEY]  # localStorage repaired
    assert relaunched.store.get(STATS_KEY) == stats
    assert relaunched.notice is None


@pytest.mark.parametrize(("key", "damaged"), [
    (SAVE_KEY, "{x"),
    (STATS_KEY, "x" * (4 << 20)),  # 4 MiB of nothing readable
    (STATS_KEY, '{"version": 1, "variants": 7}'),
    (SETTINGS_KEY, "[1, 2]"),
])
def test_an_unreadable_newer_copy_never_erases_a_readable_store(key: str, damaged: str) -> None:
    # Issue 19: a 3-move game in localStorage, and in IndexedDB, under a sequence number
    # 1000 higher, an unreadable value: start-up reported it, started a new game and erased
    # the good one from both stores (or reset the statistics to zero).
    copy = MemoryCopy()
    store = MemoryStore()
    page = Page(store, DEAL, durable=copy)
    page.set_setting("highlight_partners", False)
    moves = page.play_pairs(3)
    good = store.get(key)
    assert good is not None
    copy.data[key] = damaged
    copy.data[SEQ_KEY] = str(seq_of(store.get(SEQ_KEY)) + 1000)

    again = Page(store, "", durable=copy)
    assert [str(m) for m in again.session.game.moves] == moves
    assert again.session.key == ("standard", 20)
    assert again.store.get(key) == good
    summary = again.session.stats.summary("standard")
    assert summary.played == 1
    assert again.session.settings.highlight_partners is False
    assert again.store.get(key + ".unreadable") == damaged  # set aside, kept
    assert again.notice is None  # nothing was lost
    assert copy.data[key] == good  # the copy has the readable value again


def test_a_readable_newer_copy_still_wins_value_by_value() -> None:
    # The copy's other values are newer and readable: they are taken; only the damaged one
    # gives way to the store's.
    copy = MemoryCopy()
    store = MemoryStore()
    page = Page(store, DEAL, durable=copy)
    page.set_setting("highlight_partners", False)
    page.play_pairs(1)
    before_crash = dict(store.data)
    moves = page.play_pairs(2)
    stats = copy.data[STATS_KEY]
    copy.data[SETTINGS_KEY] = "{damaged"
    relaunched = Page(MemoryStore(before_crash), "", durable=copy)
    assert relaunched.storage.stores.restored
    assert [str(m) for m in relaunched.session.game.moves] == moves
    assert relaunched.store.get(STATS_KEY) == stats
    assert relaunched.store.get(SETTINGS_KEY) == before_crash[SETTINGS_KEY]
    assert relaunched.session.settings.highlight_partners is False
    assert relaunched.notice is None


def test_a_newer_store_wins_over_an_older_copy() -> None:
    copy = MemoryCopy()
    store = MemoryStore()
    page = Page(store, DEAL, durable=copy)
    page.play_pairs(1)
    old_copy = MemoryCopy(dict(copy.data))  # the copy was evicted back to an older state
    moves = page.play_pairs(2)
    again = Page(store, "", durable=old_copy)
    assert not again.storage.stores.restored
    assert [str(m) for m in again.session.game.moves] == moves
    # The copy catches up at once (the page's first save), with a number above both: a
    # crash now loses nothing that localStorage held.
    for key in (SAVE_KEY, STATS_KEY, SETTINGS_KEY, SEQ_KEY):
        assert old_copy.data[key] == store.get(key), key
    assert seq_of(old_copy.data[SEQ_KEY]) > seq_of(copy.data[SEQ_KEY])


def test_a_save_the_copy_missed_reaches_it_at_the_next_start() -> None:
    """The page went (a reload, a closed tab) after the store took a save but before the
    copy's write finished: the next start writes it to the copy, though nothing changed."""
    copy = MemoryCopy()
    store = MemoryStore()
    page = Page(store, DEAL, durable=copy)
    page.play_pairs(1)
    missed = MemoryCopy(dict(copy.data))
    page.play_pairs(1)
    again = Page(store, "", durable=missed)
    assert not again.storage.stores.restored
    assert missed.data[SAVE_KEY] == store.get(SAVE_KEY)
    assert missed.data[STATS_KEY] == store.get(STATS_KEY)
    assert missed.data[SEQ_KEY] == store.get(SEQ_KEY)


def test_a_refusal_of_one_store_is_told_once_and_of_both_as_a_loss() -> None:
    copy = MemoryCopy()
    page = Page(FullStore(), DEAL, durable=copy)
    assert page.notice == KEPT.replace("the storage is full", "OSError")  # nothing is lost
    assert json.loads(copy.data[SAVE_KEY])["moves"] == []
    page.dismiss()
    page.play_pairs(1)
    assert page.session.notices == []  # told once while the store goes on refusing
    assert json.loads(copy.data[SAVE_KEY])["moves"]

    told: list[bool] = []
    page.storage.stores.late = lambda: told.append(True)
    copy.refuse = "QuotaExceededError"
    page.play_pairs(1)
    assert told  # the page is told to draw the notice the late answer brought
    page._take_problems()
    assert page.notice == REFUSED


def test_without_a_copy_a_refusal_is_reported_at_once() -> None:
    page = Page(FullStore(), DEAL)
    page.play_pairs(1)
    assert page.notice == REFUSED


def used(store: QuotaStore) -> int:
    return sum(len(value) for value in store.data.values())


def won(data: dict[str, str]) -> int:
    """The standard games won in the statistics stored in ``data``."""
    return stats_from_text(data[STATS_KEY]).summary("standard").won


def win_in_a_full_store(room: int = 10) -> tuple[QuotaStore, MemoryCopy, Page]:
    """Deal 20 won by taps, its last pair made with only ``room`` characters free in
    localStorage (another app of the origin filled it): the game's text, 8 characters
    longer, fits; the statistics' (35 longer) do not. The copy takes the whole save."""
    copy = MemoryCopy()
    store = QuotaStore(1 << 30)
    page = Page(store, DEAL, durable=copy)
    line = solve(page.session.position).line
    for move in line[:-1]:
        assert isinstance(move, Pair)
        page.play_pair(move.first, move.second)
    store.limit = used(store) + room
    last = line[-1]
    assert isinstance(last, Pair)
    page.play_pair(last.first, last.second)
    assert page.session.position.is_empty()
    assert json.loads(store.data[SAVE_KEY])["moves"][-1] == str(last)  # the game fitted
    assert won(store.data) == 0 and won(copy.data) == 1  # the statistics did not
    return store, copy, page


def test_a_win_the_full_store_took_in_part_is_read_from_the_copy_that_took_it_whole() -> None:
    # The store took the winning game and the save's number but refused the statistics; the
    # copy took all of it under the same number: the store's copy won at the next start
    # (1 played, 0 won), and no notice was shown.
    store, copy, page = win_in_a_full_store()
    assert page.notice == KEPT
    assert seq_of(store.get(SEQ_KEY)) < seq_of(copy.data[SEQ_KEY])  # the store reads as older

    store.limit = used(store)  # the store is as full at the next start
    again = Page(store, "", durable=copy)
    assert again.storage.stores.restored
    assert again.session.stats.summary("standard").won == 1
    assert again.notice == KEPT  # the store refused the repair too: told again
    assert seq_of(store.get(SEQ_KEY)) < seq_of(copy.data[SEQ_KEY])  # still partial: older
    assert Page(store, "", durable=copy).session.stats.summary("standard").won == 1

    store.limit = 1 << 30  # the other app's data is gone
    again.set_setting("highlight_partners", False)  # a save that changes no statistics
    assert won(store.data) == 1 and won(copy.data) == 1
    assert store.get(SEQ_KEY) == copy.data[SEQ_KEY]
    assert Page(QuotaStore(1 << 30, dict(store.data)), "").session.stats.summary(
        "standard").won == 1  # localStorage alone holds the win now


def test_once_there_is_room_a_save_writes_what_the_store_refused_before_its_number() -> None:
    # The next save after space was freed wrote its own values and a new number over the
    # copy's, leaving the store's statistics without the win under the copy's newest number.
    store, copy, page = win_in_a_full_store()
    store.limit = 1 << 30
    page.set_setting("highlight_partners", False)  # a save that changes no statistics
    assert won(store.data) == 1 and won(copy.data) == 1
    assert store.get(SEQ_KEY) == copy.data[SEQ_KEY]
    for durable in (MemoryCopy(dict(copy.data)), None):
        again = Page(QuotaStore(1 << 30, dict(store.data)), "", durable=durable)
        assert again.session.stats.summary("standard").won == 1
        assert again.session.settings.highlight_partners is False
        assert again.notice is None


def test_a_restored_backup_the_full_store_took_in_part_comes_back_whole() -> None:
    # A restore is one save: the progress it replaced is kept under nestor.replaced (a
    # backup file, the longest value), which a store with little room refuses.
    backup_page = Page(MemoryStore(), DEAL)
    backup_page.win()
    backup = read_progress(backup_page.storage.export_progress(backup_page.session))
    copy = MemoryCopy()
    store = QuotaStore(1 << 30)
    page = Page(store, "?variant=standard&deal=7", durable=copy)
    page.play_pairs(2)
    store.limit = used(store) + 200
    page.command(lambda: page.storage.restore(page.session, backup, "replace"))
    assert REPLACED_KEY not in store.data and REPLACED_KEY in copy.data
    assert page.notice == KEPT
    store.limit = used(store)
    again = Page(store, "", durable=copy)
    assert again.session.stats.summary("standard").won == 1
    assert again.session.key == ("standard", 20)
    assert again.storage.replaced_progress() is not None  # "Bring back what was replaced"


class PickyStore(SharedStore):
    """A tab's view of a shared localStorage that refuses writes of the keys in
    :attr:`refuse` (the other tabs' views take them)."""

    refuse: frozenset[str] = frozenset()

    def set(self, key: str, value: str) -> None:
        if key in self.refuse:
            raise StoreRefused("QuotaExceededError")
        super().set(key, value)


def test_a_value_the_store_refused_is_not_written_over_another_tabs_newer_one() -> None:
    store = PickyStore()
    copy = MemoryCopy()  # one IndexedDB for the origin, as for localStorage
    tab_a = Page(store, "?variant=standard&deal=7", durable=copy)
    tab_b = Page(store.tab(), "?variant=standard&deal=7", durable=copy)
    store.refuse = frozenset({SETTINGS_KEY})
    tab_a.set_setting("highlight_partners", False)  # refused here, kept in the copy
    assert tab_a.notice == KEPT
    tab_b.set_setting("theme", "dark")  # then the player changed a setting in the other tab
    store.refuse = frozenset()  # there is room again
    tab_a.receive()  # tab A hears tab B's settings, takes them, and saves; then it closes
    assert json.loads(store.data[SETTINGS_KEY])["theme"] == "dark"
    assert store.get(SEQ_KEY) == copy.data[SEQ_KEY]  # tab B's number: none goes down
    again = Page(MemoryStore(dict(store.data)), "", durable=MemoryCopy(dict(copy.data)))
    assert again.session.settings.theme == "dark"


def test_a_refused_board_is_no_loss_and_not_told() -> None:
    class NoRoomForTheBoard(MemoryStore):
        def set(self, key: str, value: str) -> None:
            if key == BOARD_KEY:
                raise OSError("QuotaExceededError")
            super().set(key, value)

    for durable in (MemoryCopy(), None):
        page = Page(NoRoomForTheBoard(), DEAL, durable=durable)
        page.play_pairs(2)
        assert page.notice is None
        assert BOARD_KEY not in page.store.data  # type: ignore[attr-defined]


def test_sequence_numbers() -> None:
    assert next_seq(5, 3) == 6  # a clock set back never makes a number go down
    assert next_seq(5, 1_700_000_000_000) == 1_700_000_000_000
    assert [seq_of(t) for t in (None, "", "12", "-3", "1e5", "9" * 21)] == [0, 0, 12, 0, 0, 0]

    def newer(local_seq: int, durable: Snapshot | None) -> bool:
        return Stores(MemoryStore({SEQ_KEY: str(local_seq)}), None, durable).restored

    assert newer(3, Snapshot(4)) and not newer(4, Snapshot(4)) and not newer(4, None)

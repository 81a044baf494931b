"""The soak of issue 10: random actions in one profile, checked against a model.

Taps on available cards (pairs, a winning line played out to the win, and taps that pair
nothing: a covered card, the same card twice, two cards of different ranks), undo, redo,
restart, new deal, variant changes, reloads, and a second tab that opens the deal shown,
plays a few pairs and closes. The test keeps a model beside the page: the game of each deal
(``nestor.Game``: the engine answers every rules question) and the statistics, recomputed
from the actions by the rules of ``nestor_web/app/statistics/`` (played from a deal's
first move, won at its winning move once, lost when the player leaves a deal unwon; streaks
per variant).

After every action the page must show the model's game (moves, cards left, available
cards, selection). After every reload and at the end, what is stored must replay to what
the page shows: ``nestor.game`` in localStorage and in the IndexedDB copy (the same text,
under the same sequence number) gives the page's moves and available cards, and
``nestor.stats`` gives the model's statistics (counts, history, deal results) exactly.

The actions are drawn from a seeded ``random.Random``; the seed is printed (pytest ``-s``,
and in the failure message); ``NESTOR_SOAK_SEED`` replays one. ``make test`` runs
:data:`SHORT` actions, ``make test-soak`` (the ``soak`` marker) :data:`LONG`.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from conftest import READY_TIMEOUT_MS, control, saves_done
from playwright.sync_api import BrowserContext, Page

from nestor import VARIANTS, Game, Outcome, Pair, TurnStock
from nestor.solver import solve
from nestor_web.app.statistics.record import Stats
from nestor_web.storage.codecs import game_from_text
from nestor_web.storage.stats_codec import stats_from_text

SHORT = 15
LONG = 1000

STATE = """() => ({
  search: location.search,
  moves: document.getElementById("moves-made").textContent,
  left: document.getElementById("cards-left").textContent,
  available: [...document.querySelectorAll("#board [data-card][data-available]")]
    .map((e) => e.dataset.card).sort(),
  selected: [...document.querySelectorAll("#board [data-selected]")].map((e) => e.dataset.card),
  pending: !!window.nestorSavePending,
  notice: (document.getElementById("notice") || {}).textContent || "",
})"""

SHOWS = """([moves, left, available, selected]) => {
  const state = (STATE)();
  return !state.pending && state.moves === moves && state.left === left
    && state.available.join() === available.join() && state.selected.join() === selected.join();
}""".replace("STATE", STATE)

DURABLE = """() => new Promise((resolve) => {
  const request = indexedDB.open("nestor", 1);
  request.onerror = () => resolve(null);
  request.onsuccess = () => {
    const db = request.result, out = {};
    const cursor = db.transaction("kv", "readonly").objectStore("kv").openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (at) { out[at.key] = at.value; at.continue(); } else { db.close(); resolve(out); }
    };
  };
})"""


@dataclass
class StatsModel:
    """The statistics rules, recomputed from the actions (one tab's unsettled game: the
    second tab only ever plays the deal the first one shows).

    A game is settled at its winning or losing move; a game left (New deal, a variant)
    stays unsettled while Undo could still bring it back, and settles as lost at the first
    move of another game or when the page starts again alone; undoing a losing move takes
    its loss back (the history no longer shows it, the streak is recounted)."""

    deals: dict[tuple[str, int], str] = field(default_factory=dict)
    counts: dict[str, list[int]] = field(default_factory=dict)  # played, won, streak, best
    history: list[tuple[str, int, str]] = field(default_factory=list)
    playing: tuple[str, int] | None = None

    def _count(self, variant: str) -> list[int]:
        return self.counts.setdefault(variant, [0, 0, 0, 0])

    def move(self, key: tuple[str, int], won: bool, lost: bool = False) -> None:
        if self.playing is not None and self.playing != key:
            self._settle(self.playing, "lost")
        if key not in self.deals:
            self.deals[key] = "playing"
            self._count(key[0])[0] += 1
        if self.deals[key] == "playing":
            self.playing = key
        if self.deals[key] == "won":
            return
        if won:
            self._count(key[0])[1] += 1
            self._settle(key, "won")
        elif lost and self.deals[key] == "playing":
            self._settle(key, "lost")

    def take_back(self, key: tuple[str, int]) -> None:
        """The losing move of ``key`` was undone: its loss is taken back."""
        if self.deals.get(key) != "lost" or self.playing not in (None, key):
            return
        for i in range(len(self.history) - 1, -1, -1):
            if self.history[i][:2] == key:
                if self.history[i][2] != "lost":
                    return
                del self.history[i]
                break
        self.deals[key] = "playing"
        self.playing = key
        c = self._count(key[0])
        run = 0
        for variant, _, result in reversed(self.history):
            if variant == key[0]:
                if result != "won":
                    break
                run += 1
        c[2] = run
        c[3] = max(c[3], run)

    def started(self, key: tuple[str, int]) -> None:
        """The page started again, the only tab, showing ``key``: every other unsettled
        game (one left and not taken back) settles as lost."""
        for other, state in list(self.deals.items()):
            if state == "playing" and other != key:
                self._settle(other, "lost")
        self.playing = key if self.deals.get(key) == "playing" else None

    def _settle(self, key: tuple[str, int], result: str) -> None:
        self.deals[key] = result
        if self.playing == key:
            self.playing = None
        c = self._count(key[0])
        c[2] = c[2] + 1 if result == "won" else 0
        c[3] = max(c[3], c[2])
        self.history.append((*key, result))


class Soak:
    """The page, the model, and the actions."""

    def __init__(self, context: BrowserContext, page: Page, seed: int) -> None:
        self.context = context
        self.page = page
        self.rng = random.Random(seed)
        self.seed = seed
        self.stats = StatsModel()
        self.game = Game("standard", 0)
        self.selected: str | None = None
        self.done: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()  # time spent per kind of action
        self.checks = 0
        self._last_tap: tuple[tuple[float, float], float] | None = None
        self.log: list[tuple[str, str, int, int]] = []  # action, then deal and moves

    # ---- the page -----------------------------------------------------------------------

    def open(self, query: str) -> None:
        self.page.goto("/" + query)
        self._ready(self.page)
        self._take_deal()

    def _ready(self, page: Page) -> None:
        page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_TIMEOUT_MS)
        saves_done(page)

    def _take_deal(self) -> None:
        """The deal the page shows now (from its address) is the model's, fresh."""
        search = self.page.evaluate("location.search")
        params = dict(p.split("=") for p in search.lstrip("?").split("&"))
        self.game = Game(params["variant"], int(params["deal"]))
        self.selected = None

    def expect_shown(self, page: Page | None = None) -> None:
        """The page shows the model's game and selection (waits for it, then the save)."""
        page = page or self.page
        position = self.game.position
        expected = [str(self.game.cursor), str(position.cards_left()),
                    sorted(position.available()), [self.selected] if self.selected else []]
        try:
            page.wait_for_function(SHOWS, arg=expected, timeout=20_000)
        except Exception:
            raise AssertionError(
                f"seed {self.seed}, after {sum(self.done.values())} actions {dict(self.done)}: "
                f"the page shows {page.evaluate(STATE)}, the model {expected}"
            ) from None

    def click(self, selector: str) -> None:
        self.page.click(selector)

    def tap(self, card: str) -> None:
        """A real click on ``card``; a click at the spot of the last one within Chromium's
        double-click time would count as its second click, which the game ignores on
        purpose (the card that moved up under it), so the player's pause is made first."""
        if self.page.locator('body[data-end="shown"]').count():
            # The end screen lies over the board (issue 22): a player closes it first.
            self.page.keyboard.press("Escape")
            self.page.wait_for_selector('body:not([data-end="shown"])', timeout=10_000)
        locator = self.page.locator(f'#board [data-card="{card}"][data-available]')
        try:
            box = locator.bounding_box(timeout=15_000)
        except Exception:
            raise AssertionError(
                f"seed {self.seed}, after {sum(self.done.values())} actions, tapping {card}: "
                f"the page shows {self.page.evaluate(STATE)}, the model "
                f"{sorted(self.game.position.available())} selected {self.selected}; "
                f"last actions {self.log[-6:]}"
            ) from None
        if box is not None:
            spot = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            if self._last_tap is not None:
                (x, y), at = self._last_tap
                pause = 0.6 - (time.monotonic() - at)
                if abs(x - spot[0]) < 12 and abs(y - spot[1]) < 12 and pause > 0:
                    time.sleep(pause)
            self._last_tap = (spot, time.monotonic())
        locator.click()

    # ---- the model's moves ----------------------------------------------------------------

    def _moved(self) -> None:
        self.selected = None
        position = self.game.position
        outcome = position.outcome()
        self.stats.move((self.game.variant.name, self.game.deal), outcome is Outcome.WON,
                        lost=outcome not in (None, Outcome.WON))

    def _tap_model(self, card: str) -> None:
        """Session.tap's rules (auto-pair off), on the model."""
        position = self.game.position
        available = position.available()
        if position.outcome() is not None or card not in available:
            return
        selected = self.selected if self.selected in available else None
        if selected == card:
            self.selected = None
        elif selected is not None and card in position.partners(selected):
            self.game.push(Pair(selected, card))
            self._moved()
        else:
            self.selected = card

    # ---- actions ------------------------------------------------------------------------

    def pair(self) -> None:
        position = self.game.position
        pairs = position.pairs()
        if not pairs:
            if position.can_turn_stock():
                self.click('[data-action="turn"]')
                self.game.push(TurnStock())
                self._moved()
                return
            self.undo()
            return
        move = self.rng.choice(pairs)
        if self.rng.random() < 0.6 and self.game.variant.name != "strict":
            best = solve(position).best_move
            if isinstance(best, Pair):
                move = best
        first, second = move.cards if self.rng.random() < 0.5 else move.cards[::-1]
        if self.selected is not None and self.selected not in move.cards:
            self.tap(self.selected)  # deselect first
            self._tap_model(self.selected)
        self._tap_pair((first, second))

    def _tap_pair(self, cards: tuple[str, str]) -> None:
        """Tap the cards of a pair (one of them may be selected already): a tap on the
        other card of a selected one plays the pair, and then nothing is left to tap."""
        before = self.game.cursor
        for card in cards:
            if self.game.cursor != before:
                break
            if self.selected != card:
                self.tap(card)
                self._tap_model(card)

    def play_out(self) -> None:
        """Tap the solver's winning line to its end (a win), if the deal can still be won;
        else a pair."""
        if self.game.variant.name == "strict":
            self.pair()
            return
        line = solve(self.game.position).line
        if not line:
            self.pair()
            return
        for move in line:
            assert isinstance(move, Pair)
            if self.selected is not None and self.selected not in move.cards:
                self.tap(self.selected)
                self._tap_model(self.selected)
            self._tap_pair(move.cards)

    def tap_nothing(self) -> None:
        """A tap that pairs nothing."""
        position = self.game.position
        available = list(position.available())
        kind = self.rng.choice(["covered", "twice", "other rank"])
        if kind == "covered":
            covered = [c for col in position.columns for c in col if c not in available]
            if covered:
                card = self.rng.choice(covered)
                self.page.locator(f'#board [data-card="{card}"]').dispatch_event("click")
                return
        if self.selected is not None:  # a partner of the selected card would pair
            available = [c for c in available if c not in position.partners(self.selected)]
        if not available:
            return
        card = self.rng.choice(available)
        if kind == "twice":
            for _ in range(2):
                self.tap(card)
                self._tap_model(card)
            return
        others = [c for c in available if c[:-1] != card[:-1]]
        for c in [card, *(self.rng.sample(others, 1) if others else [])]:
            if self.selected is not None and c in position.partners(self.selected):
                continue  # that would pair
            self.tap(c)
            self._tap_model(c)

    def undo(self) -> None:
        if self.game.can_undo():
            lost = self.game.position.outcome() not in (None, Outcome.WON)
            self.click('[data-action="undo"]')
            self.game.undo()
            self.selected = None
            if lost:
                self.stats.take_back((self.game.variant.name, self.game.deal))

    def redo(self) -> None:
        if self.game.can_redo():
            self.click('[data-action="redo"]')
            self.game.redo()
            self._moved()

    def restart(self) -> None:
        control(self.page, "restart").click()
        self.game = Game(self.game.variant, self.game.deal)
        self.selected = None

    def new_deal(self, variant: str | None = None) -> None:
        before = self.page.evaluate("location.search")
        if variant is None:
            control(self.page, "new").click()
        else:
            self.page.select_option("#variant", variant)
        self.page.wait_for_function("s => location.search !== s", arg=before)
        self._take_deal()  # the game left settles at the first move of another game

    def variant(self) -> None:
        self.new_deal(self.rng.choice([v for v in VARIANTS if v != self.game.variant.name]))

    def reload(self) -> None:
        self.page.reload()
        self._ready(self.page)
        self.stats.started((self.game.variant.name, self.game.deal))
        self.selected = None
        self.expect_shown()
        self.check_stored()

    def second_tab(self) -> None:
        """A second tab opens the deal shown, plays one to three pairs and closes; the first
        tab follows it."""
        if self.game.position.outcome() is not None:
            self.undo()
            return
        other = self.context.new_page()
        other.emulate_media(reduced_motion="reduce")
        other.goto("/" + self.page.evaluate("location.search"))
        self._ready(other)
        selected, self.selected = self.selected, None
        self.expect_shown(other)
        for _ in range(self.rng.randint(1, 3)):
            pairs = self.game.position.pairs()
            if not pairs:
                break
            move = self.rng.choice(pairs)
            for card in move.cards:
                other.click(f'#board [data-card="{card}"][data-available]')
            self.game.push(move)
            self._moved()
        self.expect_shown(other)
        other.close()
        self.page.bring_to_front()  # back to the first tab (a tab behind draws no frames)
        del selected  # the first tab shows the second's game: its selection is gone
        self.expect_shown()

    # ---- what is stored -----------------------------------------------------------------

    def check_stored(self) -> None:
        """localStorage and the IndexedDB copy hold the game the page shows, and the
        statistics of the model."""
        page = self.page
        deadline = time.monotonic() + 20
        while True:
            local = page.evaluate(
                "() => Object.fromEntries(['nestor.game', 'nestor.stats', 'nestor.seq']"
                ".map((k) => [k, localStorage.getItem(k)]))"
            )
            durable = page.evaluate(DURABLE) or {}
            if all(durable.get(k) == local[k] for k in local) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        where = f"seed {self.seed}, after {sum(self.done.values())} actions"
        assert durable.get("nestor.seq") == local["nestor.seq"], where
        assert durable.get("nestor.game") == local["nestor.game"], where
        assert durable.get("nestor.stats") == local["nestor.stats"], where
        assert local["nestor.game"] is not None, (
            f"{where}: no saved game; the page {page.url} shows {page.evaluate(STATE)}, "
            f"localStorage {local}, IndexedDB {durable}; last actions {self.log[-6:]}"
        )
        saved = game_from_text(local["nestor.game"]).game
        state = page.evaluate(STATE)
        assert (saved.variant.name, saved.deal) == (self.game.variant.name, self.game.deal), where
        assert saved.to_json() == self.game.to_json(), where
        assert state["moves"] == str(saved.cursor), where
        assert state["available"] == sorted(saved.position.available()), where
        # No statistics are stored before the first move in this profile.
        stats = Stats() if local["nestor.stats"] is None else stats_from_text(local["nestor.stats"])
        for name in VARIANTS:
            s = stats.summary(name)
            c = self.stats.counts.get(name, [0, 0, 0, 0])
            got = (s.played, s.won, s.won_with_help, s.streak, s.best_streak)
            assert got == (c[0], c[1], 0, c[2], c[3]), f"{where}: {name} {got} != {c}"
        history = [(h.variant, h.deal, h.result) for h in stats.history(last=500)]
        assert history == self.stats.history[-500:], (
            f"{where}: stored {stats.history(last=500, taken_back=True)}, "
            f"the model {self.stats.history[-500:]}, actions {self.log}"
        )
        for (variant, deal), state_ in self.stats.deals.items():
            assert stats.deal_result(variant, deal) == state_, f"{where}: {variant}/{deal}"
        self.checks += 1

    # ---- the run ------------------------------------------------------------------------

    ACTIONS = (
        ("pair", 32), ("play_out", 3), ("tap_nothing", 15), ("undo", 14), ("redo", 9),
        ("restart", 3), ("new_deal", 5), ("variant", 4), ("reload", 3), ("second_tab", 3),
    )

    def run(self, actions: int) -> None:
        names = [n for n, _ in self.ACTIONS]
        weights = [w for _, w in self.ACTIONS]
        for _ in range(actions):
            name = self.rng.choices(names, weights)[0]
            start = time.monotonic()
            getattr(self, name)()
            self.log.append((name, self.game.variant.name, self.game.deal, self.game.cursor))
            self.done[name] += 1
            self.expect_shown()
            self.seconds[name] += time.monotonic() - start
        self.check_stored()


def soak(context: BrowserContext, page: Page, actions: int) -> None:
    seed = int(os.environ.get("NESTOR_SOAK_SEED") or random.SystemRandom().randrange(10**9))
    print(f"soak: seed {seed} (NESTOR_SOAK_SEED={seed} replays it), {actions} actions")
    page.emulate_media(reduced_motion="reduce")
    run = Soak(context, page, seed)
    run.open(f"?variant=standard&deal={run.rng.randrange(1000)}")
    run.run(actions)
    wins = sum(result == "won" for *_, result in run.stats.history)
    print(f"soak: seed {seed}: {dict(run.done)}; {run.checks} checks of what is stored, "
          f"{len(run.stats.history)} games settled ({wins} won), 0 differences; seconds: "
          + ", ".join(f"{k} {v:.1f}" for k, v in run.seconds.most_common()))


@pytest.mark.soak_sample
def test_soak_short(context: BrowserContext, page: Page) -> None:
    # Its own context: the soak opens second tabs in the page's profile.
    soak(context, page, SHORT)


@pytest.mark.soak
def test_soak_long(context: BrowserContext, page: Page) -> None:
    # Its own context: the soak opens second tabs in the page's profile.
    soak(context, page, LONG)

"""The composition root: makes the page's parts, hands each what it uses, and runs the page's
commands (every change goes through :class:`.controller.Controller`)."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyscript import document, window

from nestor import NestorError, Outcome, get_variant

from ..app.events import Event, Moved, Problem, Restored, SettingChanged
from ..app.replay import replay_request
from ..app.session import Session
from ..app.url import parse_query, puzzle_asked
from ..storage.keys import DurableCopy, Snapshot
from ..storage.manager import StorageManager
from ..view.i18n import pick_language
from ..view.words import clock_text
from .actuator import DIALOGS, Actuator
from .controller import Controller, use_language
from .dom import Tasks, fine_pointer, flag, listen, local_today, missing
from .end import DailyPanel, EndScreen
from .input import Input, Tooltips, VariantPicker
from .replay import ReplayMode
from .review import ReviewPanel
from .solver_work import SolverWork
from .stores import only_page, open_durable, open_store

if TYPE_CHECKING:  # imported on its first use (App.progress, App.tutorial, App.puzzles)
    from .backup import ProgressPanel
    from .puzzle import PuzzleMode
    from .tutorial import TutorialPanel

window.performance.mark("nestor:py-imported")  # the boot bench's phases: main.py's imports done

LATER_MODULES = (
    "nestor_web.app.statistics.merge",
    "nestor.solver",
    "nestor.analysis",
    "nestor_web.view.dialogs",
    "nestor_web.app.review",
    "nestor_web.view.review",
)
"""Imported just after start-up, one a task (nothing draws the board with them)."""

TIMER_TICK_SECONDS = 1.0  # how often the running timer's text is brought up to date


def _saving(pending: bool) -> None:
    window.nestorSavePending = pending  # a hook for tests: a save waits for the next task


class App:
    """The page's one game: owns the session and wires the rooms together."""

    def __init__(
        self,
        durable: DurableCopy | None = None,
        snapshot: Snapshot | None = None,
        alone: bool | None = None,
    ) -> None:
        store, problem = open_store()
        if problem is not None and durable is not None:
            # localStorage refused, IndexedDB not: every save still goes to the durable copy,
            # and comes back from it (the notice said progress would be lost).
            problem = Problem("storage.forbidden.one_store")
        self.storage = StorageManager(store, durable, snapshot)
        languages = [str(x) for x in window.navigator.languages] or [
            str(window.navigator.language)
        ]
        # A replay link shows the replay, apart from the game: the game in progress resumes
        # as if the address named no deal, and a link that cannot be shown is only reported.
        search = str(window.location.search)
        replay, replay_problem = replay_request(search)
        puzzling = replay is None and replay_problem is None and puzzle_asked(search) is not None
        replaying = replay is not None or replay_problem is not None or puzzling
        stored = self.storage.stored(pick_language(languages))
        asked, link_problem = (None, None) if replaying else parse_query(search, local_today())
        self.session = session = Session.start(
            asked, stored.game, settings=stored.settings, stats=stored.stats,
            shelf=self.storage.archive, leave_saved=alone is not False, today=local_today,
        )
        if alone:
            session.settle_left_games()
        session.tutorial_seen = stored.tutorial_seen
        session.tutorial_resume = stored.tutorial_resume
        self.storage.save(session)
        # Timed while the page shows the game: not while hidden, nor under a mode's link.
        session.set_visible(str(document.visibilityState) != "hidden" and not replaying)
        # Until the first press: a screen with a mouse or a trackpad is clicked, else tapped.
        session.pointer = "mouse" if fine_pointer() else "touch"
        for trouble in (problem, replay_problem, link_problem):
            if trouble is not None:
                session.notice(trouble)
        use_language(session)
        self.tasks = tasks = Tasks()
        self.actuator = actuator = Actuator()
        self.daily = DailyPanel()
        actuator.fill_texts()
        self._other_tabs = listen(window, "storage", self.other_tab)
        self.controller = controller = Controller(
            session, self.storage, actuator.draw, asyncio.get_event_loop().call_soon, _saving,
            actuator.measure, follow=self.follow,
        )
        self.storage.stores.late = controller.late_problems
        self.input = Input(
            session, controller, actuator, self.action, self.setting, self.address_changed
        )
        self.replays = ReplayMode(session, controller, tasks, actuator, self.cover_game)
        self._puzzles: PuzzleMode | None = None  # the puzzle mode, on first use
        self.review = ReviewPanel(
            session, controller, tasks, actuator, lambda attempt: self.puzzles().show(attempt)
        )
        self.picker = VariantPicker(self.deal_new)
        self.end = EndScreen(session, tasks, actuator)
        self.solver_work = SolverWork(session, controller, tasks, self.storage)
        self.tooltips = Tooltips()
        self._progress: ProgressPanel | None = None  # Settings' "Your progress", on first use
        self._installed = listen(window, "appinstalled",
                                 lambda _event: self.progress().keep_for_good())
        self._visibility = listen(document, "visibilitychange", self.visibility_changed)
        actuator.enable_controls()
        if replay_problem is not None:  # the broken link gives way to the game's address
            window.history.replaceState(None, "", session.query())
        if replay is not None:  # first, so the game's first draw leaves the address alone
            self.replays.show(replay)
        self._tutorial: TutorialPanel | None = None  # the guided first game, on first use
        if puzzling:  # (its notice, for a link that names no puzzle, drawn at once)
            self.puzzles().open_address(search)
        # A mode's link that showed nothing gives the game back its timer.
        session.set_visible(str(document.visibilityState) != "hidden"
                            and not actuator.address_held)
        controller.update(session.open_tutorial(
            stored.first_visit, asked, stored.game, replaying))
        self._wake_up()
        actuator.ready()
        asyncio.get_event_loop().call_later(0.05, self._import_the_rest)
        asyncio.get_event_loop().call_later(TIMER_TICK_SECONDS, self._tick)

    def _tick(self) -> None:
        elapsed = self.session.elapsed_ms()
        if self.session.timer_running() and self.session.settings.show_timer:
            self.actuator.show_text("timer", clock_text(elapsed))
        wait = TIMER_TICK_SECONDS - (elapsed % 1000) / 1000 + 0.01
        asyncio.get_event_loop().call_later(wait, self._tick)

    @staticmethod
    def _import_the_rest(index: int = 0) -> None:
        if index < len(LATER_MODULES):
            importlib.import_module(LATER_MODULES[index])
            asyncio.get_event_loop().call_later(0, App._import_the_rest, index + 1)

    def _wake_up(self) -> None:
        """End static/js/wake.js's waking state; apply the taps made on the waking board, in
        order, if it showed the deal in play (not one restored from the durable copy)."""
        body = document.body
        if not body.hasAttribute("data-waking"):
            return
        body.removeAttribute("data-waking")
        body.removeAttribute("aria-busy")
        for bar in document.querySelectorAll(".waking-bar"):
            bar.remove()
        wake: Any = getattr(window, "nestorWake", None)
        if missing(wake) or missing(wake.taps) or self.storage.stores.restored:
            return
        if str(wake.deal) != "{}/{}".format(*self.session.key):
            return
        for tap in list(wake.taps):  # {card} or {action}: the other is absent
            card, action = getattr(tap, "card", None), getattr(tap, "action", None)
            if not missing(card):
                self.input.tap(str(card))
            elif not missing(action):
                self.action(str(action))

    def follow(self, events: tuple[Event, ...]) -> None:
        """After the board is drawn: panels (new language), guide, daily line, end, solver work."""
        session = self.session
        if any(isinstance(e, SettingChanged) and e.name == "language" for e in events):
            self.replays.draw()
            if self._puzzles is not None:
                self._puzzles.draw()
            if self._progress is not None:
                self._progress.draw()
        if self._puzzles is not None and any(isinstance(e, Restored) for e in events):
            self._puzzles.record_changed()  # a backup brought its puzzle record in
        if any(isinstance(e, Moved) and e.outcome is Outcome.WON for e in events):
            self.progress().keep_for_good()
        self.end.follow(session, self.actuator.address_held)
        if session.tutorial is not None or self._tutorial is not None:
            from ..view.tutorial import tutorial_view

            self.tutorial().draw(tutorial_view(session))
        self.daily.draw(session)
        self.end.draw(session, events)
        self.solver_work.start_needed()

    def visibility_changed(self, _event: Any = None) -> None:
        """The page was hidden or shown, or a mode covered or left the game: the timer follows."""
        hidden = str(document.visibilityState) == "hidden"
        events = self.session.set_visible(not hidden and not self.actuator.address_held)
        if events:
            self.controller.update(events)
            if hidden:
                self.controller.save()  # at once: the page may never be shown again

    def cover_game(self, mode: str, covered: bool, push: bool = False) -> None:
        """The replay or a puzzle (``mode``, its section's id) covers the game, which leaves
        it the address and stops its timer; or leaves it (``push``: a new history entry)."""
        document.getElementById(mode).hidden = not covered
        flag(document.body, "data-mode", mode if covered else None)
        self.actuator.address_held = covered
        self.visibility_changed()
        if not covered:
            if push:
                window.history.pushState(None, "", self.session.query())
            self.controller.update(())
            self.actuator.restore_focus()

    def other_tab(self, event: Any) -> None:
        """Another tab wrote ``event.key`` (or cleared all): taken in; the open panels follow."""
        key = event.key if isinstance(event.key, str) else None
        if self.controller.other_tab(key) and self.actuator.el["stats-dialog"].open:
            self.fill_stats()
        if key in (None, "nestor.puzzles") and self._puzzles is not None:
            self._puzzles.record_changed()

    def puzzles(self) -> PuzzleMode:
        """The puzzle mode (imported, with the puzzles, when first opened)."""
        if self._puzzles is None:
            from .puzzle import PuzzleMode

            self._puzzles = PuzzleMode(
                self.session, self.controller, self.tasks, self.actuator, self.storage,
                self.cover_game,
            )
        return self._puzzles

    def progress(self) -> ProgressPanel:
        """Settings' "Your progress" (imported on first use)."""
        if self._progress is None:
            from .backup import ProgressPanel

            self._progress = ProgressPanel(
                self.session, self.controller, self.tasks, self.storage
            )
        return self._progress

    def tutorial(self) -> TutorialPanel:
        """The guided first game's sheet (made on first use)."""
        if self._tutorial is None:
            from .tutorial import TutorialPanel

            self._tutorial = TutorialPanel()
        return self._tutorial

    def fill_stats(self, confirm_reset: bool = False, focus: str | None = None) -> None:
        """Write the statistics panel with the wins per grade; focus the selector ``focus``."""
        from ..view.dialogs import stats_html

        self.actuator.el["stats-text"].innerHTML = stats_html(
            self.session, confirm_reset, self.storage.kept_grades())
        if focus is not None:
            target = document.querySelector(focus)
            if not missing(target):
                target.focus()

    def action(self, name: str, value: str | None = None) -> None:
        """Do what a control (or its key) stands for."""
        s = self.session
        run = self.controller.run
        if name == "deselect" and self.end.escape():
            return  # Escape closes the end screen first
        simple: dict[str, Callable[[], tuple[Event, ...]]] = {
            "restart": s.restart, "undo": s.undo, "redo": s.redo, "turn": s.turn_stock,
            "deselect": s.clear_selection, "dismiss": s.dismiss_notices, "finish": s.finish,
        }
        others: dict[str, Callable[[], object]] = {
            "new": lambda: self.deal_new(s.game.variant.name),
            "daily": lambda: run(s.open_daily, animate=False),
            "share": lambda: self.tasks.spawn(lambda: self.daily.share(s)),
            "copy-link": self.replays.copy_link,
            "review": self.review.open,
            # the statistics' reset offers a backup first
            "stats-backup": lambda: self.tasks.spawn(
                lambda: self.progress().back_up("stats-backup-words")),
        }
        if name in simple:
            run(simple[name])
        elif name in others:
            others[name]()
        elif name == "solve":
            if s.solving:
                self.controller.update(s.stop_solving())
            else:
                self.tasks.spawn(self.solver_work.solve_task)
        elif name == "hint":
            s.stop_solving()  # drawn by the hint's own first draw, at once
            self.tasks.spawn(self.solver_work.hint_task)
        elif name == "variant" and value is not None:
            self.deal_new(value)
        elif name == "tutorial":  # How to play's "Show me on the board"
            self.actuator.el["rules-dialog"].close()
            run(lambda: s.start_tutorial(fresh=True), animate=False)
            self.actuator.restore_focus()
        elif name in ("tutorial-next", "tutorial-skip"):
            run(s.tutorial_next if name == "tutorial-next" else s.end_tutorial, animate=False)
            # The button pressed may be gone: the board takes the focus, the page scrolled to
            # it only for a player on the keys (a tap must not move the page).
            if not self.tutorial().focus_next():
                self.actuator.restore_focus(scroll=s.pointer == "keyboard")
        elif name == "puzzles":
            self.replays.leave(push=False)
            self.puzzles().open()
        elif name in ("keys", "settings", "rules"):
            self.actuator.toggle_dialog(name)
            if name == "settings" and self.actuator.el["settings-dialog"].open:
                self.progress().draw()
        elif name == "stats":
            self.fill_stats()
            self.actuator.toggle_dialog("stats")
        elif name == "close":
            for dialog in DIALOGS:
                self.actuator.el[f"{dialog}-dialog"].close()  # (a closed one: nothing happens)
        elif name in ("stats-reset", "stats-reset-confirm", "stats-reset-cancel"):
            if name == "stats-reset-confirm":
                s.reset_stats()
                self.controller.schedule_save()
            self.fill_stats(
                name == "stats-reset",
                '#stats-text [data-action="stats-reset-cancel"], '
                '#stats-text [data-action="stats-reset"]',
            )

    def setting(self, name: str, value: object) -> None:
        """A settings control changed (a refused value is put back, with a notice)."""
        try:
            events = self.session.set_setting(name, value)
        except NestorError as exc:
            events = self.session.notice(Problem("setting.refused", exc))
            self.actuator.forget("settings")
        self.controller.update(events)

    def address_changed(self) -> None:
        """Back or Forward: show the address's replay, puzzle or deal (resumed if in progress)."""
        query = str(window.location.search)
        if self.replays.address_changed(*replay_request(query)):
            return
        if puzzle_asked(query) is not None:
            self.puzzles().open_address(query)
            return
        if self._puzzles is not None:
            self._puzzles.leave(push=False)
        request, problem = parse_query(query, local_today())
        self.session.stop_solving()  # drawn with the deal of the address, or the notice
        if request is not None and request.daily is not None:
            day = request.daily
            self.controller.run(lambda: self.session.open_daily(day), animate=False)
        elif request is not None and request.deal is not None:
            self.controller.run(
                lambda: self.session.open_deal(request.variant.name, request.deal or 0),
                animate=False,
            )
        elif problem is not None:
            self.controller.update(self.session.notice(problem))

    def deal_new(self, variant: str) -> None:
        """New deal of ``variant`` by the ``difficulty`` setting: any, winnable, or graded."""
        try:
            get_variant(variant)
        except NestorError as exc:
            self.controller.update(self.session.notice(Problem("deal.refused", exc)))
            return
        difficulty = self.session.settings.difficulty
        if difficulty == "winnable":
            self.tasks.spawn(lambda: self.solver_work.winnable_deal_task(variant))
        elif difficulty == "any":
            self.controller.run(lambda: self.session.new_deal(variant), animate=False)
        else:  # a grade: drawn from the grades shipped with the game
            self.controller.run(
                lambda: self.session.new_graded_deal(variant, difficulty), animate=False
            )


async def start() -> App:
    """Create the app once the durable copy is read; awaited once by ``main.py``."""
    durable, snapshot = await open_durable()
    return App(durable, snapshot, await only_page())

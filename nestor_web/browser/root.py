"""The composition root: wires storage, the session, the view, the actuator and input.

Every change runs one way: input → a session command, which returns what happened →
the view of the new state → the actuator draws it → the storage manager saves what
changed (right after, in the next task, so the board is on screen first). That loop is
:class:`~nestor_web.browser.controller.Controller`'s (free of ``js``, and run by the unit
tests as it runs here); the root makes the page's parts, hands them to each other, and is the
screen the loop draws on (the board, the panels, and the solver work a draw starts).
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Coroutine, Generator
from typing import TYPE_CHECKING, Any, TypeVar

from pyodide.ffi import create_proxy
from pyscript import document, window

from nestor import NestorError, Outcome, get_variant

from ..app.events import Event, Moved, Problem, Restored, SettingChanged
from ..app.replay import replay_request
from ..app.session import Session
from ..app.settings import ANIMATION_SCALE, shown_animations
from ..app.url import is_puzzle_query, parse_query
from ..storage.durable import DurableCopy, Snapshot
from ..storage.manager import StorageManager
from ..view.board import BoardView
from ..view.i18n import pick_language, set_language
from ..view.words import clock_text
from .actuator import DIALOGS, Actuator
from .controller import Controller
from .daily import DailyPanel, local_today
from .durable import only_page, open_durable
from .end import EndScreen
from .input import Input
from .local_storage import open_store, watch_other_tabs
from .picker import VariantPicker
from .replay import ReplayMode
from .review import ReviewPanel
from .solver_work import SolverWork
from .tasks import Tasks
from .tooltip import Tooltips

if TYPE_CHECKING:  # imported on its first use (App.progress, App.tutorial, App.puzzles)
    from datetime import date

    from ..app.puzzle import PuzzleTry
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
"""Imported once the board takes input, not before: nothing draws the board with them (the
merge of another tab's statistics, the solver, the analysis, the statistics dialog, the
review's work and its view).
``tests/test_startup_imports.py`` lists what start-up imports."""

T = TypeVar("T")

TIMER_TICK_SECONDS = 1.0
"""How often the timer's text is brought up to date while it runs."""


class _NextTask:
    """The controller's scheduler in the page: the event loop's next task; the hook
    ``window.nestorSavePending`` is true while a save waits for it (tests wait for it)."""

    def soon(self, callback: Callable[[], None]) -> None:
        asyncio.get_event_loop().call_soon(callback)

    def save_pending(self, pending: bool) -> None:
        window.nestorSavePending = pending


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
        puzzling = replay is None and replay_problem is None and is_puzzle_query(search)
        replaying = replay is not None or replay_problem is not None or puzzling
        session: Session = self.storage.resume(
            "" if replaying else search, pick_language(languages), alone=alone,
            today=local_today,
        )
        self.session = session
        # Timed while the page shows the game: not while hidden, nor under a mode's link.
        session.set_visible(str(document.visibilityState) != "hidden" and not replaying)
        # Until the first press: a screen with a mouse or a trackpad is clicked, else tapped.
        session.pointer = "mouse" if window.matchMedia("(any-pointer: fine)").matches else "touch"
        for trouble in (problem, replay_problem):
            if trouble is not None:
                session.notice(trouble)
        self._use_language()
        self.tasks = Tasks()
        self.actuator = Actuator()
        self.daily = DailyPanel()
        self.actuator.fill_texts()
        self._other_tabs = watch_other_tabs(self.other_tab)
        self.input = Input(self)
        self.replays = ReplayMode(self)
        self._puzzles: PuzzleMode | None = None  # the puzzle mode, on first use
        self.review = ReviewPanel(self)
        self.picker = VariantPicker(self)
        self.end = EndScreen(self)
        self.solver_work = SolverWork(self)
        self.tooltips = Tooltips()
        self._progress: ProgressPanel | None = None  # Settings' "Your progress", on first use
        self._installed = create_proxy(lambda _event: self.progress().keep_for_good())
        window.addEventListener("appinstalled", self._installed)
        self.controller = Controller(session, self.storage, self, _NextTask())
        self._visibility = create_proxy(self.visibility_changed)
        document.addEventListener("visibilitychange", self._visibility)
        self.actuator.enable_controls()
        if replay_problem is not None:  # the broken link gives way to the game's address
            window.history.replaceState(None, "", session.query())
        if replay is not None:  # first, so the game's first draw leaves the address alone
            self.replays.show(replay)
        self._tutorial: TutorialPanel | None = None  # the guided first game, on first use
        if puzzling:  # (its notice, for a link that names no puzzle, drawn at once)
            self.puzzles().open_address()
        # A mode's link that showed nothing gives the game back its timer.
        session.set_visible(str(document.visibilityState) != "hidden"
                            and not self.actuator.address_held)
        asked = None if replaying else parse_query(search, local_today())[0]
        self.update(session.open_tutorial(self.storage.first_visit, asked, replaying))
        self._wake_up()
        self.actuator.ready()
        asyncio.get_event_loop().call_later(0.05, self._import_the_rest)
        asyncio.get_event_loop().call_later(TIMER_TICK_SECONDS, self._tick)

    def _tick(self) -> None:
        """Show the timer's time (every :data:`TIMER_TICK_SECONDS`, lined up with its whole
        seconds so it steps evenly)."""
        elapsed = self.session.elapsed_ms()
        if self.session.timer_running() and self.session.settings.show_timer:
            self.actuator.show_timer(clock_text(elapsed))
        wait = TIMER_TICK_SECONDS - (elapsed % 1000) / 1000 + 0.01
        asyncio.get_event_loop().call_later(wait, self._tick)

    def visibility_changed(self, _event: Any = None) -> None:
        """The page was hidden or shown, or a mode covered the game or left it: the timer
        stops or goes on (and its time is saved at once when it stops: the page may never
        be shown again)."""
        hidden = str(document.visibilityState) == "hidden"
        events = self.session.set_visible(not hidden and not self.actuator.address_held)
        if events:
            self.update(events)
            if hidden:
                self.save()

    @staticmethod
    def _import_the_rest(index: int = 0) -> None:
        """Import :data:`LATER_MODULES` just after start-up, one a task, so the first hint,
        review or statistics tap does not wait for them and a tap in between is not held up
        by all of them. A tap that needs one sooner imports it itself."""
        if index < len(LATER_MODULES):
            importlib.import_module(LATER_MODULES[index])
            asyncio.get_event_loop().call_later(0, App._import_the_rest, index + 1)

    # ---- the one path of every change: the controller's ---------------------------------

    def run(self, command: Callable[[], tuple[Event, ...]], animate: bool = True) -> None:
        """Run a session command; if anything happened, draw it and save it
        (:meth:`Controller.run`)."""
        self.controller.run(command, animate)

    def update(self, events: tuple[Event, ...], drawn: Any = None) -> None:
        """Draw the session after ``events``, then save soon (:meth:`Controller.update`)."""
        self.controller.update(events, drawn)

    def save(self) -> None:
        """Save what changed now (:meth:`Controller.save`)."""
        self.controller.save()

    def other_tab(self, key: str | None) -> None:
        """Another tab wrote ``key``: the controller takes it in; the statistics dialog, when
        it is open, shows the merged statistics."""
        if self.controller.other_tab(key) and self.actuator.el["stats-dialog"].open:
            self.actuator.fill_stats(self.stats_html())
        if key in (None, "nestor.puzzles") and self._puzzles is not None:
            self._puzzles.record_changed()

    # ---- the screen the controller draws on (controller.Screen) ---------------------------

    def measure(self) -> Any:
        """Where the cards are before a command, when animations are on."""
        return self.actuator.measure() if self.animations() else None

    def follow(self, session: Session) -> None:
        """After a command: the end screen's state follows the game (it waits while a replay
        or a puzzle is shown)."""
        self.end.follow(session, self.replays.shown or self.puzzle_shown())

    def draw(
        self, session: Session, view: BoardView, events: tuple[Event, ...], said: str | None,
        drawn: Any,
    ) -> None:
        """Draw the board, its counters and controls, the daily deal's line and the end
        screen; start the solver work the new position needs (the winnable indicator, the
        check behind Finish). A change of language (the setting, another tab's, a restored
        backup's) first puts the page's own words in it."""
        if any(isinstance(e, SettingChanged) and e.name == "language" for e in events):
            self._use_language()
            self.actuator.fill_texts()
            self.replays.draw()
            if self._puzzles is not None:
                self._puzzles.draw()
            if self._progress is not None:  # Settings' "Your progress", in the new words
                self._progress.draw()
        if self._puzzles is not None and any(isinstance(e, Restored) for e in events):
            self._puzzles.record_changed()  # a backup brought its puzzle record in
        if any(isinstance(e, Moved) and e.outcome is Outcome.WON for e in events):
            self.progress().keep_for_good()  # a win just now (not a won board shown again)
        self.actuator.apply_settings(session.settings, self.motion())
        self.actuator.draw(view, events, said, drawn)
        if session.tutorial is not None or self._tutorial is not None:
            from ..view.tutorial import tutorial_view

            self.tutorial().draw(tutorial_view(session))
        self.daily.draw(session)
        self.end.draw(session, events)
        work = self.solver_work
        if (
            session.settings.winnable_indicator
            and session.analysis() is None
            and work.indicator_for is not session.position
        ):
            self.tasks.spawn(work.indicator_task)
        if session.finishable() is None and work.finish_for is not session.position:
            self.tasks.spawn(work.finish_check_task)
        if session.grade is None and session.key not in work.grading:
            self.tasks.spawn(work.grade_task)

    def draw_problems(self, view: BoardView) -> None:
        """Draw the notices a save reported (the board ``view`` carries them)."""
        self.actuator.draw(view)

    def _wake_up(self) -> None:
        """The live board has replaced the stored one (static/js/wake.js): apply the taps
        made on it, in order, if it showed the deal now in play (not if start-up restored a
        newer game from the durable copy: the painted board was older than the game)."""
        woken = self.actuator.wake_up(getattr(window, "nestorWake", None))
        if woken is None or woken[0] != "{}/{}".format(*self.session.key):
            return
        if self.storage.restored:
            return
        for kind, value in woken[1]:
            if kind == "card":
                self.tap(value)
            else:
                self.action(value)

    def motion(self) -> str:
        """The animation speed in effect (one of :data:`ANIMATION_SPEEDS`): the setting, or
        when unset, ``"normal"`` unless the system asks for reduced motion
        (:func:`shown_animations`)."""
        reduced = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        return shown_animations(self.session.settings.animations, reduced)

    def animations(self) -> bool:
        """Animate at all (:meth:`motion` is not ``"off"``)?"""
        return self.motion() != "off"

    def animation_scale(self) -> float:
        """What the animations' durations are multiplied by now (:data:`ANIMATION_SCALE`;
        ``0.0`` when they are off)."""
        return ANIMATION_SCALE[self.motion()]

    def _use_language(self) -> None:
        code = self.session.settings.language or "en"
        try:
            set_language(code)
        except OSError:
            set_language("en")
            self.session.notice(Problem("language.missing", args=(("language", code),)))

    # ---- commands from the input manager --------------------------------------------------

    def tap(self, card: str) -> None:
        """A tap on a card."""
        self.run(lambda: self.session.tap(card))

    def drop(self, card: str, onto: str) -> bool:
        """A card dragged onto another: the pair is played if they pair (as tap-tap would);
        did a move happen?"""
        played: list[bool] = []

        def command() -> tuple[Event, ...]:
            events = self.session.pair(card, onto)
            played.append(bool(events))
            return events

        self.run(command)
        return played[0]

    def pointer_used(self, kind: str) -> None:
        """The player pressed with ``kind`` (a ``pointerType``: ``"mouse"``, ``"pen"``,
        ``"touch"``; or ``"keyboard"``): the advice on the status line says so from the next
        draw on (the press's own command draws it)."""
        self.session.pointer = {"pen": "mouse", "": "mouse"}.get(kind, kind)

    def key_focus(self, step: int) -> None:
        """Arrow keys."""
        self.actuator.move_focus(step)

    def dialog_open(self, name: str | None = None) -> bool:
        """Is a dialog open, or the replay shown (either handles its own keys)? With ``name``
        (``"keys"``, ``"stats"``): that dialog."""
        if name is not None:
            return self.actuator.dialog_open(name)
        return self.actuator.dialog_open() or self.replays.shown or self.puzzle_shown()

    def puzzle_shown(self) -> bool:
        """Is the puzzle mode shown?"""
        return self._puzzles is not None and self._puzzles.shown

    def puzzles(self) -> PuzzleMode:
        """The puzzle mode (:mod:`.puzzle`, imported, with the puzzles, when first opened:
        start-up needs none of it)."""
        if self._puzzles is None:
            from .puzzle import PuzzleMode

            self._puzzles = PuzzleMode(self)
        return self._puzzles

    def open_puzzles(self) -> None:
        """"Puzzles" in the menu: today's puzzle if it was not tried today, else one near
        the player's rating; the game in play waits (a new history entry: Back returns to
        it)."""
        from ..app.puzzle import daily_try, next_try

        if self.replays.shown:
            self.replays.leave(push=False)
        mode = self.puzzles()
        record = self.storage.puzzles()
        today = local_today()
        attempt = daily_try(today) if today not in record.daily else next_try(
            record, mode.rng, today)
        mode.show(attempt, "push")

    def practise(self, attempt: PuzzleTry) -> None:
        """The review's "Practise this": ``attempt``, a puzzle from the player's own game,
        in the puzzle mode; the game waits and the address stays its own."""
        self.puzzles().show(attempt)

    def today(self) -> date:
        """The player's local date."""
        return local_today()

    # ---- what the panels ask of the page (their ports: EndPort, ReplayPort, ReviewPort) ---

    def progress(self) -> ProgressPanel:
        """Settings' "Your progress" (:mod:`.backup`, imported on its first use: the first
        tap does not need it)."""
        if self._progress is None:
            from .backup import ProgressPanel

            self._progress = ProgressPanel(self)
        return self._progress

    def spawn(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run the coroutine ``make()`` returns as a task of the page (:meth:`Tasks.spawn`)."""
        self.tasks.spawn(make)

    async def sliced(self, steps: Generator[None, None, T]) -> T:
        """Run ``steps`` to its end in the page's time slices (:meth:`Tasks.sliced`)."""
        return await self.tasks.sliced(steps)

    def tutorial(self) -> TutorialPanel:
        """The guided first game's sheet (made on first use)."""
        if self._tutorial is None:
            from .tutorial import TutorialPanel

            self._tutorial = TutorialPanel()
        return self._tutorial

    def kept_grades(self) -> dict[tuple[str, int], str]:
        """The grades the page worked out before, for deals beyond the shipped table
        (:meth:`StorageManager.kept_grades`)."""
        return self.storage.kept_grades()

    def stats_html(self, confirm_reset: bool = False) -> str:
        """The statistics panel's content (:func:`~nestor_web.view.dialogs.stats_html`), with
        the wins per grade of the deals whose grade is known."""
        from ..view.dialogs import stats_html

        return stats_html(self.session, confirm_reset, self.kept_grades())

    def restore_focus(self, card: str = "") -> None:
        """Give the board the focus: ``card`` if available, else the first available card."""
        self.actuator.restore_focus(card, None)

    def panel_open(self) -> bool:
        """Is one of the page's panels (a modal dialog) open?"""
        return self.actuator.dialog_open()

    def toggle_dialog(self, name: str) -> None:
        """Open the panel ``name``, or close it if open."""
        self.actuator.toggle_dialog(name)

    def cover_game(self, covered: bool) -> None:
        """``True`` while a mode (the replay, a puzzle) covers the game: drawing the game
        leaves the address alone (it is the mode's), and the game's timer stops, as when the
        page is hidden."""
        self.actuator.address_held = covered
        self.visibility_changed()

    def action(self, name: str, value: str | None = None) -> None:
        """Do what a control (or its key) stands for."""
        s = self.session
        if name == "deselect" and self.end.escape():
            return  # Escape closes the end screen first
        simple: dict[str, Callable[[], tuple[Event, ...]]] = {
            "restart": s.restart, "undo": s.undo, "redo": s.redo, "turn": s.turn_stock,
            "deselect": s.clear_selection, "dismiss": s.dismiss_notices, "finish": s.finish,
        }
        if name in simple:
            self.run(simple[name])
        elif name == "solve":
            if s.solving:
                self.update(s.stop_solving())
            else:
                self.tasks.spawn(self.solver_work.solve_task)
        elif name == "hint":
            s.stop_solving()  # drawn by the hint's own first draw, at once
            self.tasks.spawn(self.solver_work.hint_task)
        elif name == "new":
            self.deal_new(s.game.variant.name)
        elif name == "daily":
            self.run(s.open_daily, animate=False)
        elif name == "share":
            self.tasks.spawn(lambda: self.daily.share(s))
        elif name == "variant" and value is not None:
            self.deal_new(value)
        elif name == "tutorial":  # How to play's "Show me on the board"
            if self.actuator.el["rules-dialog"].open:
                self.actuator.toggle_dialog("rules")
            self.run(lambda: s.start_tutorial(fresh=True), animate=False)
            self.restore_focus()
        elif name in ("tutorial-next", "tutorial-skip"):
            self.run(s.tutorial_next if name == "tutorial-next" else s.end_tutorial,
                     animate=False)
            if not self.tutorial().focus_next():  # the button pressed may be gone:
                self.restore_focus()  # the board takes the focus
        elif name == "copy-link":
            self.replays.copy_link()
        elif name == "review":
            self.open_review()
        elif name == "puzzles":
            self.open_puzzles()
        elif name in ("keys", "settings", "rules"):
            self.actuator.toggle_dialog(name)
            if name == "settings" and self.actuator.el["settings-dialog"].open:
                self.progress().draw()
        elif name == "stats":
            self.actuator.fill_stats(self.stats_html())
            self.actuator.toggle_dialog("stats")
        elif name == "close":
            for dialog in DIALOGS:
                if self.actuator.el[f"{dialog}-dialog"].open:
                    self.actuator.toggle_dialog(dialog)
        elif name == "stats-backup":  # the reset's confirmation offers a backup first
            self.tasks.spawn(lambda: self.progress().back_up("stats-backup-words"))
        elif name in ("stats-reset", "stats-reset-confirm", "stats-reset-cancel"):
            if name == "stats-reset-confirm":
                s.reset_stats()
                self.controller.schedule_save()
            self.actuator.fill_stats(
                self.stats_html(confirm_reset=name == "stats-reset"),
                '#stats-text [data-action="stats-reset-cancel"], '
                '#stats-text [data-action="stats-reset"]',
            )

    def open_review(self) -> None:
        """Open the review of the game in play (its moves in effect), worked out with the
        solver in the page's time slices and shown as it fills in (the Review control, and
        the end screen's Review button)."""
        self.review.open()

    def setting(self, name: str, value: object) -> None:
        """A settings control changed."""
        try:
            events = self.session.set_setting(name, value)
        except NestorError as exc:
            events = self.session.notice(Problem("setting.refused", exc))
            self.actuator.forget("settings")  # put the control back to the setting's value
        self.update(events)

    def address_changed(self) -> None:
        """Back or Forward: go to the deal in the address (resumed if in progress)."""
        if self.replays.address_changed():
            return
        if is_puzzle_query(str(window.location.search)):
            self.puzzles().open_address()
            return
        if self.puzzle_shown():
            self.puzzles().leave(push=False)
        request, problem = parse_query(str(window.location.search), local_today())
        self.session.stop_solving()  # drawn with the deal of the address, or the notice
        if request is not None and request.daily is not None:
            day = request.daily
            self.run(lambda: self.session.open_daily(day), animate=False)
        elif request is not None and request.deal is not None:
            self.run(lambda: self.session.open_deal(request.variant.name, request.deal or 0),
                     animate=False)
        elif problem is not None:
            self.update(self.session.notice(problem))

    def deal_new(self, variant: str) -> None:
        """New deal of ``variant``, as the setting ``difficulty`` says: any deal, one the
        solver proves winnable first, or one of the grade chosen."""
        try:
            get_variant(variant)
        except NestorError as exc:
            self.update(self.session.notice(Problem("deal.refused", exc)))
            return
        difficulty = self.session.settings.difficulty
        if difficulty == "winnable":
            self.tasks.spawn(lambda: self.solver_work.winnable_deal_task(variant))
        elif difficulty == "any":
            self.run(lambda: self.session.new_deal(variant), animate=False)
        else:  # a grade: drawn from the grades shipped with the game (nestor.graded_deals)
            self.run(lambda: self.session.new_graded_deal(variant, difficulty), animate=False)


async def start() -> App:
    """Create the app on the current page, once the durable copy is read (static/js/durable.js
    began reading it before Python started); awaited once by ``main.py``."""
    durable, snapshot = await open_durable()
    return App(durable, snapshot, await only_page())

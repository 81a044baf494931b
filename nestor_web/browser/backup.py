"""Settings' "Your progress": Back up (file and code), Restore (file or code, merged or replacing),
undoing a replace, asking to keep the storage for good. Backup texts reach the page as text only."""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

from pyodide.ffi import create_once_callable
from pyscript import document, window

from nestor import NestorError

from ..app.events import Restored
from ..app.session import Session
from ..storage.manager import StorageManager
from .controller import Controller
from .dom import Tasks, listen, local_today, missing, show_copy, to_clipboard

if TYPE_CHECKING:
    from ..storage.progress import Progress


class ProgressPanel:
    """Draws and runs Settings' "Your progress"."""

    def __init__(
        self, session: Session, controller: Controller, tasks: Tasks, storage: StorageManager
    ) -> None:
        self.session = session
        self.controller = controller
        self.tasks = tasks
        self.storage = storage
        self.el = {
            name: document.getElementById(name)
            for name in ("progress", "progress-storage", "backup-box", "backup-words",
                         "backup-code", "restore-box", "restore-file", "restore-code",
                         "restore-error", "restore-summary", "restore-brings", "restore-done")
        }
        self.restore_button = self.el["progress"].querySelector('[data-action="restore"]')
        self.replaced_button = self.el["progress"].querySelector(
            '[data-action="restore-replaced"]')
        self.pending: Progress | None = None  # the backup read, waiting for merge or replace
        self._asked_to_keep = False
        self._proxies = [
            listen(self.el["progress"], "click", self.on_click),
            listen(self.el["restore-file"], "change", self.on_file),
            listen(self.el["restore-code"], "input", self.on_code),
        ]

    def on_click(self, event: Any) -> None:  # noqa: ANN401
        """A button of "Your progress"."""
        target = event.target.closest("[data-action]")
        if missing(target) or target.disabled:
            return
        action = str(target.getAttribute("data-action"))
        if action == "backup":
            self.tasks.spawn(lambda: self.back_up())
        elif action == "restore":
            self.show_restore(self.el["restore-box"].hidden)
        elif action in ("restore-merge", "restore-replace") and self.pending is not None:
            self.restore(self.pending, action.removeprefix("restore-"))
        elif action == "restore-replaced":
            replaced = self.storage.replaced_progress()
            if replaced is not None:
                self.restore(replaced, "replace")

    def on_file(self, _event: Any) -> None:  # noqa: ANN401
        """A backup file was picked: read it (refused unread when far too large)."""
        files = self.el["restore-file"].files
        if missing(files) or int(files.length) == 0:
            return
        self.tasks.spawn(lambda: self._read_file(files.item(0)))

    def on_code(self, _event: Any) -> None:  # noqa: ANN401
        """The pasted code changed: read it (nothing shown while the field is empty)."""
        text = str(self.el["restore-code"].value).strip()
        if not text:
            self._show(None, None)
            return
        self._read(text, pasted=True)

    async def back_up(self, words_id: str | None = None) -> None:
        """Download the progress as a file; copy its code, or show it selected to copy by hand.
        ``words_id``: another element that says so too (the statistics' reset)."""
        from ..storage.progress import backup_name, progress_to_code
        from ..view.backup import backup_words

        text = self.storage.export_progress(self.session)
        name = backup_name(local_today())
        _download(text, name)
        code = progress_to_code(text)
        copied = await to_clipboard(code)
        self.el["backup-words"].textContent = backup_words(name, copied)
        if words_id is not None:
            said = document.getElementById(words_id)
            if not missing(said):
                said.textContent = backup_words(name, copied)
        self.el["backup-box"].hidden = False
        show_copy(self.el["backup-box"], self.el["backup-code"], code, copied)

    def show_restore(self, shown: bool) -> None:
        """Show or hide Restore's file picker and code field (hiding forgets what was read)."""
        self.el["restore-box"].hidden = not shown
        self.restore_button.setAttribute("aria-expanded", "true" if shown else "false")
        if not shown:
            self.el["restore-code"].value = ""
            self.el["restore-file"].value = ""
            self._show(None, None)

    def restore(self, progress: Progress, mode: str) -> None:
        """Merge or replace with ``progress``: one save, drawn, and said."""
        from ..view.backup import restored_text

        happened = self.controller.run(
            lambda: self.storage.restore(self.session, progress, mode), animate=False)
        done = next((e for e in happened if isinstance(e, Restored)), None)
        self.show_restore(False)
        if done is not None:
            self.el["restore-done"].textContent = restored_text(
                done.mode, done.summary, done.changed)
            self.el["restore-done"].hidden = False
        self.draw()

    def keep_for_good(self) -> None:
        """Ask the browser once to keep the storage for good (at a win or an install)."""
        if self._asked_to_keep:
            return
        self._asked_to_keep = True
        self.tasks.spawn(self._persist)

    def draw(self) -> None:
        """Draw whether the storage is kept and its use, and the replaced progress's button."""
        self.replaced_button.hidden = self.storage.replaced_progress() is None
        self.tasks.spawn(self._draw_storage)

    async def _draw_storage(self) -> None:
        from ..view.backup import storage_text

        storage: Any = getattr(window.navigator, "storage", None)
        persisted: bool | None = None
        used: int | None = None
        quota: int | None = None
        if not missing(storage):
            with suppress(Exception):  # a browser without it, or refusing: not known
                persisted = bool(await storage.persisted())
            with suppress(Exception):
                estimate = await storage.estimate()
                used, quota = int(estimate.usage), int(estimate.quota)
        self.el["progress-storage"].textContent = storage_text(persisted, used, quota)

    async def _persist(self) -> None:
        storage: Any = getattr(window.navigator, "storage", None)
        if missing(storage):
            return
        try:
            if not bool(await storage.persisted()):
                await storage.persist()
        except Exception:  # noqa: BLE001 - refused or not offered: the game plays on
            return
        if self.el["progress"].closest("dialog").open:
            await self._draw_storage()

    async def _read_file(self, file: Any) -> None:  # noqa: ANN401
        from ..storage.progress import MAX_SIZE, ProgressError

        if int(file.size) > MAX_SIZE:  # refused without reading 10 MB into the page
            self._show(None, ProgressError(
                "too large", code="progress.too_large", size=int(file.size), limit=MAX_SIZE))
            return
        self.el["restore-code"].value = ""
        self._read(str(await file.text()))

    def _read(self, text: str, pasted: bool = False) -> None:
        from ..storage.progress import read_progress

        try:
            progress = read_progress(text)
        except NestorError as exc:
            self._show(None, exc, pasted)
            return
        self._show(progress, None)

    def _show(
        self, progress: Progress | None, error: NestorError | None, pasted: bool = False
    ) -> None:
        """Show what ``progress`` brings, or why ``error`` refused a code (``pasted``) or file."""
        from ..view.backup import refusal_text, summary_text

        self.pending = progress
        self.el["restore-done"].hidden = True
        box = self.el["restore-error"]
        box.textContent = "" if error is None else refusal_text(error, pasted)
        box.hidden = error is None
        if progress is not None:
            self.el["restore-brings"].textContent = summary_text(progress.parts.summary())
        self.el["restore-summary"].hidden = progress is None


def _download(text: str, name: str) -> None:
    """Hand ``text`` to the browser as a downloaded file called ``name`` (JSON)."""
    parts = window.Array.new()
    parts.push(text)
    blob = window.Blob.new(parts, window.Object.fromEntries([["type", "application/json"]]))
    url = window.URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href = url
    link.download = name
    link.hidden = True
    document.body.appendChild(link)
    link.click()
    link.remove()
    window.setTimeout(create_once_callable(lambda: window.URL.revokeObjectURL(url)), 10_000)


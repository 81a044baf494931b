"""Crash-proof saving: play, SIGKILL the whole browser, relaunch on the same profile.

Chromium writes localStorage to disk lazily (moves made seconds before a kill were lost); the
game also writes each save to IndexedDB (static/js/durable.js, durability "strict"), and at
start-up takes whichever copy is newer (nestor_web/storage/keys.py).

The browser here is started by hand, not by Playwright: in a session of its own (so the kill
takes its whole process group: browser, renderers, GPU and storage services at once), on a
profile folder on disk, reached over CDP. A move is durable half a second after the board
showed it: every move made before the moment of the kill must be there after the relaunch.
``make test-soak`` kills at six moments after the last move (``make test`` none: a kill and its
relaunch cost 20 s there, and the storage they guard is tests/test_storage*.py's too).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, stored
from helpers import play_pairs
from playwright.sync_api import Page, Playwright, expect

from nestor import Game

DEAL = "?variant=standard&deal=20"
PAIRS = 5


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def own_browser(playwright: Playwright, profile: Path) -> Iterator[tuple[Page, list[str]]]:
    """Debian's chromium on ``profile``, in a process group of its own; a new page on it,
    and the list of URLs that page requests. On leaving, the whole group is SIGKILLed."""
    port = _free_port()
    process = subprocess.Popen(
        [CHROMIUM, "--headless=new", *CHROMIUM_ARGS, f"--user-data-dir={profile}",
         f"--remote-debugging-port={port}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("chromium did not start") from None
                time.sleep(0.1)
        browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        page = browser.contexts[0].new_page()
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        yield page, requests
    finally:
        kill(process)


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the browser's whole process group, as a phone's system kills a browser."""
    with suppress(ProcessLookupError):  # already gone
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_TIMEOUT_MS)


def crash_and_relaunch(playwright: Playwright, base_url: str, tmp_path: Path, wait: float) -> None:
    profile = tmp_path / "profile"
    game = Game("standard", 20)
    with own_browser(playwright, profile) as (page, requests):
        page.goto(base_url + "/" + DEAL)
        ready(page)
        play_pairs(page, game, PAIRS)
        time.sleep(wait)  # then the browser dies: the context manager's kill
    assert all(url.startswith(base_url) or url == "about:blank" for url in requests), requests

    with own_browser(playwright, profile) as (page, requests):
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(base_url + "/")
        ready(page)
        expect(page.locator("#deal-number")).to_have_text("20")
        expect(page.locator("#cards-left")).to_have_text(str(game.position.cards_left()))
        saved = json.loads(stored(page, "nestor.game") or "{}")
        assert saved.get("moves") == [str(m) for m in game.moves]  # localStorage repaired
        stats = json.loads(stored(page, "nestor.stats") or "{}")
        assert stats["variants"]["standard"]["played"] == 1
        assert [d[:2] for d in stats["deals"]] == [["standard", 20]]
        assert not problems, problems
        assert all(url.startswith(base_url) for url in requests), requests


@pytest.mark.soak
@pytest.mark.parametrize("wait", [0.5, 1.0, 2.0, 5.0, 12.0, 30.0])
def test_every_move_survives_a_kill_at_any_moment(
    playwright: Playwright, base_url: str, tmp_path: Path, wait: float
) -> None:
    crash_and_relaunch(playwright, base_url, tmp_path, wait)

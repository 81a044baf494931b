"""The smoke tier in the two other engines: Firefox ESR and WebKitGTK (e2e/engine_drivers.py).

One session per engine, every step in sequence (each engine boot costs seconds): a first visit
of a winnable deal (its line from lines.find_winnable), a pair by tapping and one by dragging
(pointer events), Undo, the service worker taking the page (it claims a first visit's), a
reload offline (the site's server stopped, its connections shut) that resumes the game, the
Settings panel switched to German and the dark theme, and the rest of the line, offline, to the
end screen of a win.
Every state is read once the page is still (conftest's STILL: no animation running, no save
pending). No console error, uncaught error, failed load or policy violation, and no request
leaving the origin: recorded by e2e/engines/probe.js, which the test's copy of the site loads
first (WebKitGTK's WebDriver has no init scripts and no console log), and for Firefox by
puppeteer's own events too. Each step's time is printed (``pytest -rP`` shows it). Marked
``engines``: make test leaves the tier out, make test-engines runs it.
"""

from __future__ import annotations

import contextlib
import gettext
import shutil
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import (
    READY_SELECTOR,
    READY_TIMEOUT_MS,
    STILL,
    SiteCopy,
    build_site,
    built_once,
    serve,
)
from engine_drivers import ENGINES, Engine, EngineMissing
from helpers import LUMINANCE, shown_codes
from lines import find_winnable

from nestor import Game, Move, Pair

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "e2e" / "engines" / "probe.js"
PROBE_PATH = "static/js/e2e-probe.js"  # under static/js/: sw.js precaches it with the rest
WASM = "/static/vendor/pyodide/pyodide.asm.wasm"
READY_S = READY_TIMEOUT_MS / 1000


def card(code: str) -> str:
    """The selector of the available card ``code`` on the board."""
    return f'#board [data-card="{code}"][data-available]'


@pytest.fixture(scope="session")
def probed_site(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """conftest's built site, its index.html loading e2e/engines/probe.js before anything
    else, its service worker rebuilt so that the changed page and the probe are precached
    too: made once per run (its Workbox build takes 2.5 s), by the first worker that asks,
    as ``built_site`` is (conftest.built_once), and never changed."""
    def build(root: Path) -> None:
        shutil.copytree(built_site, root)
        shutil.copy(PROBE, root / PROBE_PATH)
        index = root / "index.html"
        html = index.read_text(encoding="utf-8")
        marker = '<meta charset="utf-8">'
        assert marker in html
        index.write_text(html.replace(
            marker, f'{marker}\n  <script src="./{PROBE_PATH}"></script>', 1), encoding="utf-8")
        build_site.build_sw(root, quiet=True)

    return built_once(tmp_path_factory, "probed-site", build)


PROBED = ("index.html", PROBE_PATH, "sw.js")
"""What :func:`probed_site` changed or added beside the built site (Workbox's runtime,
workbox-<hash>.js, is the same file)."""


class Server:
    """The site copy's server and the connections it accepted, to go offline for real:
    stopping the server leaves its keep-alive connections answering (serve.py speaks HTTP/1.1),
    so :meth:`cut` stops it and shuts every connection it accepted too."""

    def __init__(self, site: SiteCopy) -> None:
        self.site = site
        self.connections: list[socket.socket] = []

    def setup(self, handler: Any) -> None:
        """Note the connection of ``handler`` if it is this site's."""
        if handler.server.server_address[1] == self.site.port:
            self.connections.append(handler.connection)

    def cut(self) -> None:
        """No server and no open connection: every request fails as on a network that is down."""
        self.site.stop()
        for connection in self.connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def probed_copy(
    site_copy: SiteCopy, probed_site: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[SiteCopy, Server]]:
    """conftest's ``site_copy`` (the built site, served on a port of its own) with
    :func:`probed_site`'s files in place of its own, and its :class:`Server`."""
    for name in (*PROBED, *(p.name for p in probed_site.glob("workbox-*.js"))):
        shutil.copy(probed_site / name, site_copy.root / name)
    server = Server(site_copy)
    setup = serve.Handler.setup

    def noting_setup(handler: Any) -> None:
        setup(handler)
        server.setup(handler)

    monkeypatch.setattr(serve.Handler, "setup", noting_setup)
    yield site_copy, server


class Smoke:
    """One engine's page and what it recorded, with the steps' times."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.problems: list[str] = []
        self.resources: list[str] = []
        self.times: list[tuple[str, float]] = []

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Time the step ``name``; print it when it is done."""
        began = time.monotonic()
        yield
        seconds = time.monotonic() - began
        self.times.append((name, seconds))
        print(f"{self.engine.name}: {name}: {seconds:.2f} s", flush=True)

    def text(self, selector: str) -> str:
        """The text of the first element matching ``selector``."""
        return str(self.engine.evaluate(
            f"document.querySelector({selector!r}).textContent.trim()"))

    def still(self, timeout_s: float = 15.0) -> None:
        """Wait until the page is still (conftest's STILL): read a state only then."""
        self.engine.wait(f"({STILL})()", timeout_s, "the page still")

    def ready(self) -> None:
        """Wait until the game has booted (body[data-ready]) and the page is still.

        Raises:
            AssertionError: it did not boot; with what the page shows and recorded.
        """
        try:
            self.engine.wait(f"document.querySelector({READY_SELECTOR!r})", READY_S, "ready")
        except TimeoutError as error:
            shown = self.engine.evaluate(
                "({url: location.href, body: [...document.body.attributes].map("
                "a => `${a.name}=${a.value}`).join(' '), text: document.body.innerText"
                ".slice(0, 400), probe: window.__nestorProbe || null, controller: "
                "navigator.serviceWorker.controller !== null})")
            raise AssertionError(f"{error}; the page: {shown}") from None
        self.still()

    def collect(self) -> None:
        """Take what the probe recorded in the page shown (before it leaves it)."""
        found = self.engine.evaluate("window.__nestorProbe || null")
        assert found is not None, f"{self.engine.name}: the probe did not run in the page"
        self.problems += found["problems"]
        self.resources += found["resources"]

    def moves(self) -> int:
        """The moves made, as the page counts them (#moves-made)."""
        return int(self.text("#moves-made"))

    def board(self) -> list[str]:
        """The cards on the board, in the page's order."""
        return list(self.engine.evaluate(
            "[...document.querySelectorAll('#board [data-card]')].map(e => e.dataset.card)"))

    def shows(self, game: Game) -> None:
        """The page is still and shows ``game``: its cards and its number of moves."""
        self.counted(game)
        self.still()
        assert self.moves() == len(game.moves)
        assert self.board() == shown_codes(game)

    def counted(self, game: Game) -> None:
        """Wait until the page counts the moves and the cards left of ``game`` (#moves-made,
        #cards-left): the next tap may come, as a player's does while the last move's mark
        fades (1.6 s); the board is read only once the page is still (:meth:`shows`)."""
        moves, left = len(game.moves), game.position.cards_left()
        self.engine.wait(
            f"document.querySelector('#moves-made').textContent.trim() === '{moves}' && "
            f"document.querySelector('#cards-left').textContent.trim() === '{left}'",
            15, f"{moves} moves made, {left} cards left")

    def tap(self, move: Move, game: Game) -> None:
        """Play the pair ``move`` by tapping its two cards, and on ``game``; wait until the
        page counts it."""
        assert isinstance(move, Pair), move
        self.engine.click(*(card(code) for code in move.cards))
        game.push(move)
        self.counted(game)

    def centre(self, code: str) -> tuple[float, float]:
        """The middle of the card ``code`` in the viewport."""
        x, y = self.engine.evaluate(
            f"(() => {{ const r = document.querySelector('{card(code)}')"
            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        return float(x), float(y)

    def control(self, name: str) -> None:
        """Click the control ``#controls [data-action=name]``, opening the More menu first
        when it is in there (as conftest.control does for Chromium)."""
        selector = f'#controls [data-action="{name}"]'
        if not self.engine.evaluate(f"document.querySelector({selector!r}).checkVisibility()"):
            self.engine.click("#controls [data-menu]")
            self.engine.wait(f"document.querySelector({selector!r}).checkVisibility()", 5,
                             f"{name} in the More menu")
        self.engine.click(selector)


def smoke(run: Smoke, site: SiteCopy, server: Server) -> None:
    """Every step of the tier in ``run``'s engine, on ``site`` (probed, served by ``server``),
    one after the other."""
    engine = run.engine
    deal, line = find_winnable("standard")
    assert isinstance(line[0], Pair) and isinstance(line[1], Pair)
    game = Game("standard", deal)
    de = gettext.translation("nestor", localedir=ROOT / "locale", languages=["de"])

    with run.step("first visit"):
        engine.goto(f"{site.origin}/?variant=standard&deal={deal}")
        run.ready()
        assert run.text("#deal-number") == str(deal)
        run.shows(game)

    with run.step("a pair by tapping"):
        first, second = line[0].cards
        engine.click(card(first))
        engine.wait(f"document.querySelector('{card(first)}').hasAttribute('data-selected')",
                    5, "the first card selected")
        engine.click(card(second))
        game.push(line[0])
        run.counted(game)  # the board is read once it is still, after Undo

    with run.step("a pair by dragging"):
        first, second = line[1].cards
        x, y = run.centre(first)
        to = run.centre(second)
        engine.mouse_move(x, y)
        engine.mouse_down()
        engine.mouse_move(*to, steps=8)
        # The card follows the pointer, marked, its partner under it the drop target.
        assert engine.evaluate(
            f"document.querySelector('{card(first)}').hasAttribute('data-dragging')"), \
            "the card is not dragged"
        assert engine.evaluate("document.querySelector('[data-drop]')?.dataset.card") == second
        engine.mouse_up()
        game.push(line[1])
        run.counted(game)

    with run.step("undo"):
        run.control("undo")
        game.undo()
        run.shows(game)  # the tapped pair gone, the dragged one back
        assert engine.evaluate(
            "document.querySelectorAll('[data-dragging], [data-drop], [data-drop-target], "
            "[data-selected]').length") == 0

    with run.step("under the service worker"):  # it claims the first visit's page
        engine.wait("navigator.serviceWorker.controller !== null", READY_S,
                    "the page controlled by the service worker")

    with run.step("offline reload, resumed"):  # the reload, with the network gone
        server.cut()  # no server, no connection: only the worker's cache can answer
        run.collect()
        engine.reload()
        run.ready()
        assert engine.evaluate("navigator.serviceWorker.controller !== null")
        run.shows(game)
        assert engine.evaluate(
            "!document.querySelector('#controls [data-action=\"redo\"]').disabled")

    with run.step("Settings in German and dark"):
        run.control("settings")
        engine.wait("document.querySelector('#settings-dialog').open", 5, "Settings open")
        run.still()
        light = engine.evaluate(f"({LUMINANCE})(document.querySelector('#settings-dialog'))")
        assert light > 0.8, f"the Settings panel is not light at first: luminance {light}"
        engine.select('select[data-setting="language"]', "de")
        engine.wait("document.documentElement.lang === 'de'", 5, "the page in German")
        engine.select('select[data-setting="theme"]', "dark")
        engine.wait("document.documentElement.dataset.theme === 'dark'", 5, "the dark theme")
        run.still()
        assert run.text("#settings-title") == de.gettext("Settings")
        assert run.text("#settings-dialog form button") == de.gettext("Close")
        light = engine.evaluate(f"({LUMINANCE})(document.querySelector('#settings-dialog'))")
        assert 0 <= light < 0.1, f"the Settings panel is not dark: luminance {light}"
        engine.click("#settings-dialog form button")
        engine.wait("!document.querySelector('#settings-dialog').open", 5, "Settings closed")

    with run.step(f"offline, the rest of the line ({len(line) - 1} pairs), won"):
        for move in line[1:]:
            run.tap(move, game)
        run.shows(game)
        engine.wait("document.body.dataset.outcome === 'won'", 15, "the game won")
        run.still()
        assert engine.evaluate("document.querySelector('[data-end-screen]').checkVisibility()")
        assert run.text("#end-title") == de.gettext("You won!")
        assert run.text("#cards-left") == "0"
        run.collect()


# Selenium's own use of its deprecated RemoteConnection argument, on every session it starts.
@pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")
@pytest.mark.parametrize("name", list(ENGINES))
def test_smoke_in_another_engine(
    name: str, probed_copy: tuple[SiteCopy, Server], tmp_path: Path
) -> None:
    site, server = probed_copy
    began = time.monotonic()
    try:
        engine = ENGINES[name](tmp_path / f"{name}-profile")
    except EngineMissing as missing:
        pytest.fail(f"{name}: {missing}", pytrace=False)
    print(f"{name} {engine.version}: started in {time.monotonic() - began:.2f} s", flush=True)
    run = Smoke(engine)
    try:
        smoke(run, site, server)
    except BaseException:
        # What the page recorded so far, beside the failure (pytest shows the output).
        with contextlib.suppress(Exception):
            run.collect()
        print("\n".join(["recorded:", *run.problems, *engine.native_problems()]))
        raise
    finally:
        engine.close()
    print(f"{name}: all steps {sum(s for _, s in run.times):.2f} s, "
          f"with the start {time.monotonic() - began:.2f} s")

    requests = run.resources + engine.native_requests()
    assert any(urlsplit(url).path == WASM for url in requests), "no request was recorded"
    leaving = [url for url in requests if urlsplit(url).scheme not in ("data", "blob", "about")
               and f"{urlsplit(url).scheme}://{urlsplit(url).netloc}" != site.origin]
    problems = run.problems + engine.native_problems()
    assert not leaving and not problems, "\n".join(
        [f"request left the origin {site.origin}: {url}" for url in leaving] + problems)

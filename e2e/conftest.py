"""Browser tests: pytest-playwright driving Debian's chromium against the site served locally.

What every test in e2e/ gets:

* ``base_url`` - the origin of a ThreadingHTTPServer on 127.0.0.1:<free port> serving the repo
  root with scripts/serve.py's handler (the same as ``make play``), started once per session.
  It sends netlify.toml's headers, so every test runs under the production security policy.
  ``page.goto("/")`` is resolved against it.
* ``page`` - the resident page of the worker's one shared browser context (``shared_context``), kept
  open from test to test (its renderer and HTTP cache stay warm, as a returning player's do; a test
  marked ``own_page`` gets a new page of that context instead); service workers are blocked, and
  every kind of the origin's site data (localStorage, IndexedDB, PyScript's own store, caches,
  cookies, sessionStorage) and the permissions a test granted (``page.context.grant_permissions``)
  are cleared before each test, while the resident page waits on a page that runs no game. A test
  that needs more asks for ``context``, a fresh profile of its own (two tabs, init scripts for the
  context, a service worker: marked ``service_worker``, else they are blocked there too), and says
  why in one line; its ``page`` is then in that context.
  Every request, console error, uncaught page error and Content-Security-Policy violation is
  recorded; the test FAILS if any request left the origin or any console error / page error /
  policy violation happened. Opt out per test with ``@pytest.mark.allow_console_errors``
  (errors and violations) or ``@pytest.mark.allow_external_requests``.
  The recording is available as the ``page_log`` fixture.
* ``site_copy`` - a copy of the site as ``make site`` builds it (service worker included),
  built once per session and copied to a temporary folder per test, served on its own port by
  a server the test can stop, restart and change files under: for offline and update tests.
  ``site_context(origin, **options)`` opens another browser context (fresh profile) with the
  same recording and checks.
* ``bfcache_context`` - a fresh profile in a Chromium of its own that keeps the pages left in
  its back/forward cache (Playwright turns that cache off in the browsers it starts): for Back
  to a page still running.
* ``still(page)`` / ``saves_done(page)`` - wait until nothing animates and no save is pending,
  or until the saves are in localStorage and the IndexedDB copy: read a state only then.
  ``axe_run`` / ``axe_violations`` run axe-core on the still page.
* ``wait_ready(page)`` / the ``game`` fixture - wait for ``body[data-ready]``, set by the game's
  Python once it has booted (Pyodide takes ~3 s cold, more on a busy CI box).

Every page load boots Pyodide afresh (about 0.8 s in the resident page, 2 s in a new page, 3 s
in a fresh profile): put related assertions in one test rather than one boot per assertion.
Under ``pytest -n`` (pytest-xdist) each worker has its own server, port, Chromium and context.

Browser: scripts/chromium.py's ``CHROMIUM`` and ``CHROMIUM_ARGS``, as for the scripts and benches.
Environment: CHROMIUM (default /usr/bin/chromium), NESTOR_READY_TIMEOUT_MS (default 60000).
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import io
import os
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, BinaryIO
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe, AxeResults
from playwright.sync_api import (
    Browser,
    BrowserContext,
    BrowserType,
    ConsoleMessage,
    Locator,
    Page,
    Request,
    WebError,
    expect,
)

from nestor import Game, Pair

ROOT = Path(__file__).resolve().parent.parent
READY_SELECTOR = "body[data-ready]"
READY_TIMEOUT_MS = int(os.environ.get("NESTOR_READY_TIMEOUT_MS", "60000"))

# URL schemes that are not network requests to another origin.
_LOCAL_SCHEMES = ("data", "blob", "about")


# Reports each Content-Security-Policy violation to the test (through an exposed function), and
# keeps it in the page's window.__nestorCspLog too, for page.wait_for_function.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  const text = `${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`
               + ` at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`;
  const report = window.__nestorCspViolation;
  if (report) report(text);
  (window.__nestorCspLog ||= []).push(text);
});
"""


def _load_script(name: str) -> ModuleType:
    path = ROOT / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"nestor_scripts_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


serve = _load_script("serve")
build_site = _load_script("build_site")
chromium = _load_script("chromium")  # the flag list shared with scripts/ and bench/
CHROMIUM: str = chromium.CHROMIUM
CHROMIUM_ARGS: tuple[str, ...] = chromium.CHROMIUM_ARGS


# --------------------------------------------------------------------------- browser + server
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.exit(
            f"e2e: no browser at {CHROMIUM}. Install Debian's chromium "
            "(apt-get install chromium) or set CHROMIUM=/path/to/chromium.",
            returncode=3,
        )
    args = dict(browser_type_launch_args)
    args.pop("channel", None)  # --browser-channel means a Playwright-downloaded build: none here
    args.setdefault("headless", True)  # pytest --headed still works where there is a display
    args["executable_path"] = CHROMIUM
    args["args"] = [*args.get("args", []), *CHROMIUM_ARGS, *TEST_ARGS]
    return args


TEST_ARGS = ("--process-per-site", "--js-flags=--liftoff-only --no-opt --no-maglev")
"""Flags for the browser tests alone (the benchmarks measure Chromium as players run it).

``--process-per-site``: the pages of one site in one profile share one renderer process, as a
tab opened from another would. A new page of the shared context then boots in the process the
resident page keeps warm, in 1.2 s alone instead of 1.6 s, and on two cores the browser tests
took 285 s and 272 s instead of 328 s (three workers, one after the other).

``--js-flags=--liftoff-only --no-opt --no-maglev``: V8 runs Pyodide's WebAssembly with its
baseline compiler only, and JavaScript (Pyodide's glue, PyScript, ours) without its optimizing
compilers, never recompiling hot functions in background threads. Each fresh profile compiled
the interpreter's hot functions again: a boot there took 4.7 s of CPU with WebAssembly's
optimizing tier and 2.9 s without it, a boot in the resident page's process 1.3 s either way.
The browser tests are CPU-bound on two cores: with ``--liftoff-only`` they took 603 s of CPU
instead of 653 s (313 s instead of 337 s, one run after the other); leaving out the
JavaScript compilers too cut a third of them by 5% and 11% more (122.6 s of CPU instead of
128.5, 114.7 instead of 128.8)."""


BETWEEN_TESTS = "/e2e-between-tests"
"""Where the resident page waits between two tests (:class:`_WaitingRoomHandler`): a page of
the same origin, so the renderer process and the runtime's compiled code in it are kept (the
next boot takes about 0.8 s instead of 2 s), with no game running (nothing saves while the
site data is cleared)."""

WAITING_ROOM = (
    b'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Between tests</title>'
    b'<link rel="icon" href="./static/icons/icon.svg" type="image/svg+xml"></head>'
    b"<body></body></html>"
)
"""The page at :data:`BETWEEN_TESTS`: no script, and the game's icon (without one the browser
asks for /favicon.ico, whose "not found" would be a console error, maybe after the next test
began)."""


class _WaitingRoomHandler(serve.Handler):  # type: ignore[name-defined,misc]
    """serve.py's handler (the headers of netlify.toml, as ``make play``), and the resident
    page's waiting room at :data:`BETWEEN_TESTS`."""

    def send_head(self) -> BinaryIO | None:
        if urlsplit(self.path).path != BETWEEN_TESTS:
            return super().send_head()  # type: ignore[no-any-return]
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(WAITING_ROOM)))
        self.end_headers()
        return io.BytesIO(WAITING_ROOM)


@pytest.fixture(scope="session")
def site_server() -> Iterator[str]:
    """Serve the repo root on 127.0.0.1:<free port>; yields the origin (no trailing slash)."""
    for needed in ("static/vendor/pyscript/core.js", "sw.js", "static/icons/icon-192.png"):
        if not (ROOT / needed).is_file():
            pytest.exit(f"e2e: {needed} is missing; run `make vendor` first", returncode=3)
    server = serve.make_server(directory=ROOT, quiet=True, handler=_WaitingRoomHandler)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    try:
        yield serve.origin(server)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def base_url(site_server: str) -> str:
    return site_server


# --------------------------------------------------------------------------- request/console guard
@dataclass
class PageLog:
    """Everything one browser context did, recorded from its events."""

    origin: str
    requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)

    def on_request(self, request: Request) -> None:
        self.requests.append(request.url)

    def on_console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            loc = msg.location
            where = f" ({loc.get('url')}:{loc.get('lineNumber')})" if loc.get("url") else ""
            self.console_errors.append(f"{msg.text}{where}")

    def on_web_error(self, error: WebError) -> None:
        self.page_errors.append(str(error.error))

    def on_csp_violation(self, report: str) -> None:
        self.csp_violations.append(report)

    def watch(self, context: BrowserContext) -> None:
        """Record what ``context`` does from now on."""
        context.on("request", self.on_request)
        context.on("console", self.on_console)
        context.on("weberror", self.on_web_error)
        context.expose_function("__nestorCspViolation", self.on_csp_violation)
        context.add_init_script(CSP_LISTENER)

    def external_requests(self) -> list[str]:
        out = []
        for url in self.requests:
            parts = urlsplit(url)
            if parts.scheme in _LOCAL_SCHEMES:
                continue
            if f"{parts.scheme}://{parts.netloc}" != self.origin:
                out.append(url)
        return out

    def problems(self, allow_console: bool, allow_external: bool) -> list[str]:
        found = []
        if not allow_external:
            found += [
                f"request left the origin {self.origin}: {u}" for u in self.external_requests()
            ]
        if not allow_console:
            found += [f"console error: {e}" for e in self.console_errors]
            found += [f"page error: {e}" for e in self.page_errors]
            found += [f"CSP violation: {e}" for e in self.csp_violations]
        return found


_PAGE_LOGS = pytest.StashKey[list[PageLog]]()
_REPORTED = pytest.StashKey[set[str]]()  # problems already reported


def _problems(item: pytest.Item) -> list[str]:
    allow_console = item.get_closest_marker("allow_console_errors") is not None
    allow_external = item.get_closest_marker("allow_external_requests") is not None
    return [
        problem
        for log in item.stash.get(_PAGE_LOGS, [])
        for problem in log.problems(allow_console=allow_console, allow_external=allow_external)
    ]


GUIDE_SEEN = """try {
  if (localStorage.getItem("nestor.tutorial") === null) {
    localStorage.setItem("nestor.tutorial", "done");
  }
} catch (e) {}"""
"""An init script: the player has seen the guided first game (issue 24 (4)), which a first
visit starts by itself, on a deal of its own, with a sheet over the foot of the screen. Every
context of the browser tests plays as such a player, but a test marked ``first_visit``."""


def _watch(item: pytest.Item, context: BrowserContext, origin: str) -> PageLog:
    log = PageLog(origin=origin.rstrip("/"))
    if item.get_closest_marker("first_visit") is None:
        context.add_init_script(GUIDE_SEEN)
    log.watch(context)
    item.stash.setdefault(_PAGE_LOGS, []).append(log)
    return log


def _report_late(item: pytest.Item, context: BrowserContext) -> None:
    # Events that arrived after the test body: one round trip delivers them, then report
    # whatever pytest_runtest_call below did not already report.
    with contextlib.suppress(Exception):  # the test may have closed the context itself
        context.cookies()
    reported = item.stash.setdefault(_REPORTED, set())
    late = [p for p in _problems(item) if p not in reported]
    reported.update(late)
    if late:
        pytest.fail("after the test body:\n  " + "\n  ".join(late), pytrace=False)


@pytest.fixture
def context(
    context: BrowserContext, request: pytest.FixtureRequest, base_url: str
) -> Iterator[BrowserContext]:
    """A fresh browser context (a profile of its own), recorded and checked. Ask for it only
    when the test needs what the shared one cannot give: a fresh profile or HTTP cache, a
    service worker, two tabs, a reload of a profile's first visit, init scripts for the whole
    context; the test says why in one line. Service workers are blocked in it unless the test
    is marked ``service_worker`` (a first visit with the worker precaches 13 MB beside the
    page's own requests: 0.5 s more CPU)."""
    _watch(request.node, context, base_url)
    yield context
    _report_late(request.node, context)


@pytest.fixture
def bfcache_context(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    browser_context_args: dict[str, Any],
    request: pytest.FixtureRequest,
    base_url: str,
) -> Iterator[BrowserContext]:
    """A fresh profile, service workers allowed, in a Chromium of its own that keeps the pages
    left in its back/forward cache as a player's browser does: Playwright starts the browsers
    it drives with that cache turned off (``--disable-back-forward-cache``), so Back in
    ``page`` or ``context`` always loads the page again. Recorded and checked as ``context``;
    the browser is closed after the test. Back: ``page.go_back(wait_until="commit")`` (a
    page shown from the cache fires no load event)."""
    browser = browser_type.launch(
        **browser_type_launch_args, ignore_default_args=["--disable-back-forward-cache"]
    )
    try:
        context = browser.new_context(**browser_context_args, service_workers="allow")
        _watch(request.node, context, base_url)
        yield context
        _report_late(request.node, context)
    finally:
        browser.close()


# The kinds of site data Storage.clearDataForOrigin removes between two tests in the shared
# context: everything the origin keeps (the game's localStorage and IndexedDB copy, PyScript's
# own IndexedDB store, caches, cookies), but not the HTTP cache, which is what is shared.
CLEARED = ",".join((
    "cookies", "file_systems", "indexeddb", "local_storage", "shader_cache",
    "websql", "service_workers", "cache_storage", "storage_buckets",
))


# Waits, in the waiting room, until the last save of the page the resident page left is in
# the game's IndexedDB copy: a write transaction on the copy's stores begins only after every
# earlier one on them has completed. The left page's last save (at "visibilitychange") may
# still be committing; cleared before it lands, it would come back in the next test's game.
# Each wait gives up after 5 s with an error that names it.
SAVES_LANDED = """async () => {
  const within = (label, promise) => Promise.race([promise, new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`the waiting room's ${label} took over 5 s`)), 5000))]);
  const db = await within("opening of the IndexedDB copy", new Promise((resolve, reject) => {
    const request = indexedDB.open("nestor");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  }));
  const stores = [...db.objectStoreNames];
  if (stores.length) {
    await within("write transaction", new Promise((resolve, reject) => {
      const transaction = db.transaction(stores, "readwrite");
      transaction.oncomplete = resolve;
      transaction.onabort = () => reject(transaction.error);
    }));
  }
  db.close();
}"""


NO_SERVICE_WORKER = "delete Navigator.prototype.serviceWorker;"
"""An init script: the browser offers no service workers (as where a policy turns them off),
so a boot in the shared context is a return visit's, as a player's under the worker is. Only
blocked, they would still be offered, and every boot would take a first visit's path (copies
of what it fetched kept for a worker that never installs: docs/testing.md). A test's own
``context`` keeps them offered (blocked unless it is marked ``service_worker``)."""

VIEWPORT = {"width": 1280, "height": 720}
"""Playwright's default viewport, which the resident page is given back after each test."""


class SharedContext:
    """The worker's one browser context for the ``page`` fixture, its resident page, and the
    recording of the test that uses it now (the context's event handlers are attached once
    and hand each event to :attr:`log`)."""

    def __init__(self, context: BrowserContext, origin: str) -> None:
        self.context = context
        self.origin = origin.rstrip("/")
        self.log = PageLog(origin=self.origin)
        self.resident: Page | None = None
        self.crashed = False  # the resident page's renderer crashed: a new one is made
        context.on("request", lambda r: self.log.on_request(r))
        context.on("console", lambda m: self.log.on_console(m))
        context.on("weberror", lambda e: self.log.on_web_error(e))
        context.expose_function("__nestorCspViolation", lambda t: self.log.on_csp_violation(t))
        context.add_init_script(CSP_LISTENER)
        context.add_init_script(GUIDE_SEEN)  # no test of the shared context is a first visit
        context.add_init_script(NO_SERVICE_WORKER)

    def page_for(self, item: pytest.Item, own: bool) -> Page:
        """The page of test ``item``, the origin's site data cleared first.

        It is the resident page (the one page that stays open from test to test, given back
        its viewport and media), or with ``own`` a new page (a test that adds init scripts,
        routes or a clock to its page: they would outlive it on the resident one). Before it
        is handed over, the resident page leaves the game (:data:`BETWEEN_TESTS`), every other
        page is closed and the site data is cleared: no page of the game runs meanwhile.
        What the pages do from then on is recorded for ``item``."""
        self.log = PageLog(origin=self.origin)  # what happens in between is nobody's
        resident = self.resident
        if resident is None or resident.is_closed() or self.crashed:
            if resident is not None:
                with contextlib.suppress(Exception):
                    resident.close()
            resident = self.resident = self.context.new_page()
            self.crashed = False
            resident.on("crash", lambda _page: setattr(self, "crashed", True))
        resident.goto(self.origin + BETWEEN_TESTS)
        resident.evaluate("sessionStorage.clear()")  # the tab's own, kept across navigations
        for other in self.context.pages:
            if other is not resident:
                other.close()
        self.context.clear_permissions()  # a test may have granted the clipboard's
        resident.evaluate(SAVES_LANDED)
        cdp = self.context.new_cdp_session(resident)
        try:
            cdp.send("Storage.clearDataForOrigin",
                     {"origin": self.origin, "storageTypes": CLEARED})
        finally:
            cdp.detach()
        if own:
            page = self.context.new_page()
        else:
            page = resident
            page.set_viewport_size(VIEWPORT)
            page.emulate_media(media="null", color_scheme="light", reduced_motion="reduce",
                               forced_colors="none", contrast="null")
        self.log = PageLog(origin=self.origin)
        item.stash.setdefault(_PAGE_LOGS, []).append(self.log)
        return page


@pytest.fixture(scope="session")
def shared_context(
    browser: Browser, browser_context_args: dict[str, Any]
) -> Iterator[SharedContext]:
    """The worker's browser context behind ``page``: one for all its tests, so its HTTP cache
    and the renderer's compiled code stay warm from test to test; no service worker (each
    test would precache 13 MB again: blocked, and not offered, :data:`NO_SERVICE_WORKER`);
    reduced motion preferred (a test of an animation asks for it:
    ``page.emulate_media(reduced_motion="no-preference")``); site data cleared before each
    test."""
    context = browser.new_context(
        **browser_context_args, service_workers="block", reduced_motion="reduce"
    )
    shared = SharedContext(context, browser_context_args["base_url"])
    yield shared
    with contextlib.suppress(Exception):
        context.close()


@pytest.fixture
def page(request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page with empty site data: in the test's own ``context`` if it asked for one, else in
    the worker's :func:`shared_context` (the HTTP cache warm, no service worker): its resident
    page, or a new page for a test marked ``own_page``."""
    if "context" in request.fixturenames:
        own: BrowserContext = request.getfixturevalue("context")
        yield own.new_page()
        return
    shared: SharedContext = request.getfixturevalue("shared_context")
    own_page = request.node.get_closest_marker("own_page") is not None
    page = shared.page_for(request.node, own=own_page)
    yield page
    _report_late(request.node, shared.context)
    shared.log = PageLog(origin=shared.origin)


@pytest.fixture
def page_log(page: Page, request: pytest.FixtureRequest) -> PageLog:
    """What this test's page (and its context) did so far: requests, console and page errors,
    policy violations."""
    return request.node.stash[_PAGE_LOGS][0]


@pytest.fixture
def page_logs(request: pytest.FixtureRequest) -> list[PageLog]:
    """The recordings of every context this test opened, ``context``'s first if it has one."""
    return request.node.stash.setdefault(_PAGE_LOGS, [])


@pytest.fixture
def site_context(
    browser: Browser, request: pytest.FixtureRequest
) -> Iterator[Callable[..., BrowserContext]]:
    """``site_context(origin, **options)``: a new browser context (a fresh profile) on ``origin``,
    recorded and checked like ``context``; closed after the test. Its service workers are
    blocked unless ``options`` say ``service_workers="allow"``."""
    opened: list[BrowserContext] = []

    def open_context(origin: str, **options: Any) -> BrowserContext:
        options.setdefault("service_workers", "block")
        ctx = browser.new_context(base_url=origin, **options)
        _watch(request.node, ctx, origin)
        opened.append(ctx)
        return ctx

    yield open_context
    for ctx in opened:
        _report_late(request.node, ctx)
        with contextlib.suppress(Exception):
            ctx.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Turn what the page did wrong into a failure of the test itself (not a teardown error)."""
    try:
        result = yield
    except BaseException:
        # The test failed on its own: show what the page did wrong next to its traceback.
        problems = _problems(item)
        item.stash[_REPORTED] = set(problems)
        if problems:
            item.add_report_section("call", "page problems", "\n".join(problems))
        raise
    problems = _problems(item)
    item.stash[_REPORTED] = set(problems)
    if problems:
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)
    return result


# --------------------------------------------------------------------------- readiness
def wait_ready_page(page: Page, timeout_ms: int = READY_TIMEOUT_MS) -> Page:
    """Wait until the page's Python has booted and set body[data-ready]."""
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=timeout_ms)
    return page


def new_deal_with_a_pair(page: Page, variant: str = "standard", tries: int = 10) -> int:
    """Tap New deal until the deal dealt has a pair to make, as a player would (about one
    standard deal in 260 has none: lost as dealt); the deal number. Each tap waits for the
    address to change.

    Raises:
        AssertionError: ``tries`` deals in a row had no pair.
    """
    for _ in range(tries):
        shown = page.evaluate("location.search")
        control(page, "new").click()
        expect(page).not_to_have_url(re.compile(re.escape(shown) + "$"))
        deal = int(page.locator("#deal-number").inner_text())
        if any(isinstance(m, Pair) for m in Game(variant, deal).legal_moves()):
            return deal
    raise AssertionError(f"{tries} new deals in a row had no pair")


def control(page: Page, name: str) -> Locator:
    """The game control ``#controls [data-action=name]`` (``name`` "install": the
    ``[data-install]`` button), visible: when it is in the closed "More" menu (Daily deal,
    Restart, Solve; on a phone also New deal and the panels' icon buttons) that menu is
    opened first. Raises (a Playwright timeout) if the button is not shown even then."""
    selector = "[data-install]" if name == "install" else f'[data-action="{name}"]'
    button = page.locator(f"#controls {selector}")
    if not button.is_visible():
        page.locator("#controls [data-menu]").click()
        expect(button).to_be_visible()
    return button


# True once nothing on the page moves: no animation or transition is running but the endless
# ones (the loading bar's shimmer, a spinner), which change no colour or place of the content.
SAVED = "!window.nestorSavePending && !(window.nestorDurable && window.nestorDurable.writing)"
"""True once no save is pending: none scheduled (the page saves in the task after it draws)
and none on its way to the IndexedDB copy."""

STILL = f"""() => {SAVED} && document.getAnimations().every(
    (a) => a.playState !== "running"
           || a.effect === null
           || a.effect.getComputedTiming().endTime === Infinity)"""


def still(page: Page, timeout_ms: float = 10_000) -> Page:
    """Wait until the page is still: no finite animation or transition running (a pair's
    flight, the end screen's arrival, the last move's mark, a drag sliding back) and no save
    pending. Read a state (axe, a screenshot, a contrast measure) only after this: a check in
    the middle of a fade reads blended colours."""
    page.wait_for_function(STILL, timeout=timeout_ms)
    return page


AXE = Axe()


def axe_run(page: Page, **options: Any) -> AxeResults:
    """axe-core on ``page`` once it is :func:`still`; ``options`` go to ``Axe.run``."""
    return AXE.run(still(page), **options)


def axe_violations(page: Page, context: str | None = None) -> list[str]:
    """axe-core's violations on the still page (within ``context``, a selector), one line
    each: the rule, its help, how many nodes and the first node's selector."""
    results = axe_run(page, context=context)
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])}x, e.g. {v['nodes'][0]['target']})"
        for v in results.response["violations"]
    ]


def saves_done(page: Page) -> Page:
    """Wait until no save is pending (:data:`SAVED`): the page's saves are in localStorage
    and in the IndexedDB copy."""
    page.wait_for_function(f"() => {SAVED}")
    return page


def stored(page: Page, key: str) -> str | None:
    """localStorage[key] once the page has saved (:func:`saves_done`): saving runs in the task
    after the board is drawn, and the IndexedDB copy's write completes after that."""
    saves_done(page)
    value = page.evaluate("k => localStorage.getItem(k)", key)
    return value if isinstance(value, str) else None


@pytest.fixture
def wait_ready() -> Callable[..., Page]:
    """``wait_ready(page)`` - block until ``body[data-ready]`` (default timeout 60 s)."""
    return wait_ready_page


@pytest.fixture
def game(page: Page) -> Page:
    """A fresh page with the game (index.html at the repo root) booted and ready."""
    page.goto("/")
    return wait_ready_page(page)


# --------------------------------------------------------------------------- a site of its own
class _CountingHandler(serve.Handler):  # type: ignore[name-defined,misc]
    """serve.py's handler, also noting each response's path and body size, and each
    request's path and status, and waiting ``site.chunk_delay`` seconds after each
    ``site.chunk_bytes`` it sends (a slow network)."""

    sent: list[tuple[str, int]]
    site: SiteCopy

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.site.answered.append((urlsplit(self.path).path, int(code)))
        super().log_request(code, size)

    def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:
        size = 0
        while chunk := source.read(self.site.chunk_bytes):
            outputfile.write(chunk)
            size += len(chunk)
            if self.site.chunk_delay:
                time.sleep(self.site.chunk_delay)
        self.sent.append((urlsplit(self.path).path, size))


@dataclass
class SiteCopy:
    """The site as ``make site`` builds it, in a folder of its own, served on a fixed port."""

    root: Path
    port: int = 0
    sent: list[tuple[str, int]] = field(default_factory=list)
    answered: list[tuple[str, int]] = field(default_factory=list)
    """Each request's path and status (a 304 included), in order."""
    chunk_delay: float = 0.0
    """Seconds the server waits after each ``chunk_bytes`` of a response (0: as fast as it
    can)."""
    chunk_bytes: int = 256 * 1024
    _server: Any = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Serve the folder (again) on the same port; the first start picks a free one."""
        handler = type("Counting", (_CountingHandler,), {"sent": self.sent, "site": self})
        server = serve.make_server(
            port=self.port, directory=self.root, quiet=True, handler=handler
        )
        self.port = server.server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self._server = server

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def rebuild_sw(self) -> None:
        """Build sw.js again after a change, as a new deployment would."""
        build_site.build_sw(self.root)

    def bytes_sent(self) -> int:
        return sum(size for _, size in self.sent)


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str,
               build: Callable[[Path], None]) -> Path:
    """The folder ``name`` that ``build(folder)`` fills, made once per session by the first
    xdist worker that asks (the others wait on a file lock in the folder the workers share)
    and never changed after. A build that failed half-way is started again from nothing."""
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's folder is in the run's own (pytest-N/popen-gwK): share that.
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    root, done = shared / name, shared / f"{name}.done"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                if root.exists():
                    shutil.rmtree(root)
                build(root)
                done.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return root


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as ``make site`` builds it (its files and sw.js, Workbox run included), built
    once per session (:func:`built_once`) and never changed: :func:`site_copy` copies it."""
    return built_once(tmp_path_factory, "built-site",
                      lambda root: build_site.build(root, quiet=True))


@pytest.fixture
def site_copy(built_site: Path, tmp_path: Path) -> Iterator[SiteCopy]:
    """A copy of the site (``make site``'s files and sw.js) served on 127.0.0.1:<its own port>,
    in a folder of the test's own that it may change (a new deployment)."""
    site = SiteCopy(root=tmp_path / "site")
    shutil.copytree(built_site, site.root)
    site.start()
    try:
        yield site
    finally:
        site.stop()


def _runs_long(item: pytest.Item) -> bool:
    """Whether a browser test is among the long ones: the soak sample, the layout audit (marked
    ``long``), and the tests that open profiles of their own (each boots cold, 3 s or more,
    often twice), the other engines' smoke tier among them."""
    names = getattr(item, "fixturenames", ())
    return any(item.get_closest_marker(m) is not None for m in ("soak_sample", "long")) or any(
        name in names
        for name in ("context", "site_context", "site_copy", "probed_copy", "bfcache_context")
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``context`` of a test not marked ``service_worker`` blocks service workers
    (pytest-playwright's ``browser_context_args`` marker). The long browser tests first (the
    soak sample, the longest of all, leading), then the rest, each group in its order:
    pytest-xdist hands the tests out in this order, so no worker is left running a long one
    while the others idle at the end. A random order (make test-twice) shuffles them all."""
    for item in items:
        if ("context" in getattr(item, "fixturenames", ())
                and item.get_closest_marker("service_worker") is None):
            item.add_marker(pytest.mark.browser_context_args(service_workers="block"))
    items.sort(key=lambda item: (item.get_closest_marker("soak_sample") is None,
                                 not _runs_long(item)))

"""Browser tests: pytest-playwright driving Debian's chromium against the site served locally.

What every test in e2e/ gets:

* ``base_url`` - the origin of a ThreadingHTTPServer on 127.0.0.1:<free port> serving the repo
  root with scripts/serve.py's handler (the same as ``make play``), started once per session.
  ``page.goto("/")`` is resolved against it.
* ``context`` / ``page`` - pytest-playwright's function-scoped ones, so each test starts from a
  fresh profile (empty localStorage, cookies, cache). Every request, console error and uncaught
  page error in that context is recorded; the test FAILS if any request left the origin or any
  console error / page error happened. Opt out per test with
  ``@pytest.mark.allow_console_errors`` or ``@pytest.mark.allow_external_requests``.
  The recording is available as the ``page_log`` fixture.
* ``wait_ready(page)`` / the ``game`` fixture - wait for ``body[data-ready]``, set by the game's
  Python once it has booted (Pyodide takes ~3 s cold, more on a busy CI box).

Every page load boots Pyodide afresh (~3 s, ~14 MB): put related assertions in one test rather
than one boot per assertion.

Environment: CHROMIUM (default /usr/bin/chromium), NESTOR_READY_TIMEOUT_MS (default 60000).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request, WebError

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
READY_SELECTOR = "body[data-ready]"
READY_TIMEOUT_MS = int(os.environ.get("NESTOR_READY_TIMEOUT_MS", "60000"))

# Keep Chromium from talking to anything but the test server (see
# shared notes, browser-runtime.md). No --user-data-dir: each context is a fresh profile.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

# URL schemes that are not network requests to another origin.
_LOCAL_SCHEMES = ("data", "blob", "about")


def _load_serve() -> ModuleType:
    spec = importlib.util.spec_from_file_location("nestor_scripts_serve", ROOT / "scripts/serve.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


serve = _load_serve()


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
    args["args"] = [*args.get("args", []), *CHROMIUM_ARGS]
    return args


@pytest.fixture(scope="session")
def site_server() -> Iterator[str]:
    """Serve the repo root on 127.0.0.1:<free port>; yields the origin (no trailing slash)."""
    if not (ROOT / "static/vendor/pyscript/core.js").is_file():
        pytest.exit("e2e: static/vendor/ is missing; run `make vendor` first", returncode=3)
    server, origin = serve.serve_in_thread(ROOT, quiet=True)
    try:
        yield origin
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

    def on_request(self, request: Request) -> None:
        self.requests.append(request.url)

    def on_console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            loc = msg.location
            where = f" ({loc.get('url')}:{loc.get('lineNumber')})" if loc.get("url") else ""
            self.console_errors.append(f"{msg.text}{where}")

    def on_web_error(self, error: WebError) -> None:
        self.page_errors.append(str(error.error))

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
        return found


_PAGE_LOG = pytest.StashKey[PageLog]()
_REPORTED = pytest.StashKey[int]()


def _problems(item: pytest.Item) -> list[str]:
    log = item.stash.get(_PAGE_LOG, None)
    if log is None:
        return []
    return log.problems(
        allow_console=item.get_closest_marker("allow_console_errors") is not None,
        allow_external=item.get_closest_marker("allow_external_requests") is not None,
    )


@pytest.fixture
def context(
    context: BrowserContext, request: pytest.FixtureRequest, base_url: str
) -> Iterator[BrowserContext]:
    log = PageLog(origin=base_url.rstrip("/"))
    context.on("request", log.on_request)
    context.on("console", log.on_console)
    context.on("weberror", log.on_web_error)
    request.node.stash[_PAGE_LOG] = log
    yield context
    # Events that arrived after the test body: one round trip delivers them, then report
    # whatever pytest_runtest_call below did not already report.
    with contextlib.suppress(Exception):  # the test may have closed the context itself
        context.cookies()
    late = _problems(request.node)[request.node.stash.get(_REPORTED, 0) :]
    if late:
        pytest.fail("after the test body:\n  " + "\n  ".join(late), pytrace=False)


@pytest.fixture
def page_log(context: BrowserContext, request: pytest.FixtureRequest) -> PageLog:
    """The requests / console errors / page errors recorded so far in this test's context."""
    return request.node.stash[_PAGE_LOG]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Turn what the page did wrong into a failure of the test itself (not a teardown error)."""
    try:
        result = yield
    except BaseException:
        # The test failed on its own: show what the page did wrong next to its traceback.
        problems = _problems(item)
        item.stash[_REPORTED] = len(problems)
        if problems:
            item.add_report_section("call", "page problems", "\n".join(problems))
        raise
    problems = _problems(item)
    item.stash[_REPORTED] = len(problems)
    if problems:
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)
    return result


# --------------------------------------------------------------------------- readiness
def wait_ready_page(page: Page, timeout_ms: int = READY_TIMEOUT_MS) -> Page:
    """Wait until the page's Python has booted and set body[data-ready]."""
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=timeout_ms)
    return page


@pytest.fixture
def wait_ready() -> Callable[..., Page]:
    """``wait_ready(page)`` - block until ``body[data-ready]`` (default timeout 60 s)."""
    return wait_ready_page


@pytest.fixture
def game(page: Page) -> Page:
    """A fresh page with the game (index.html at the repo root) booted and ready."""
    page.goto("/")
    return wait_ready_page(page)

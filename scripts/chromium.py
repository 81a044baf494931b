"""The one Chromium launch setup for the browser tests, the scripts and the benchmarks.

Imported by e2e/conftest.py, scripts/screenshots.py, scripts/measure_offline.py and the
browser benchmarks in bench/ (``import chromium`` with scripts/ on ``sys.path``: a script run
as ``python scripts/x.py`` has it there already; bench/ and e2e/ put it there).

The browser is Debian's chromium (``CHROMIUM`` in the environment, default
``/usr/bin/chromium``), never one downloaded by Playwright. The flags keep it from talking to
anything but the local test server on 127.0.0.1: every other host name resolves to nothing,
and the background services (updates, sync, QUIC probes) are off. No ``--user-data-dir``:
each browser context is a fresh profile.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserType

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
"""Path of the Chromium executable: ``$CHROMIUM``, else Debian's ``/usr/bin/chromium``."""

CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
)
"""Command-line flags for every Chromium the project starts (see the module docstring)."""


def launch(browser_type: BrowserType, **options: Any) -> Browser:  # noqa: ANN401
    """Start :data:`CHROMIUM` headless with :data:`CHROMIUM_ARGS` (plus ``options["args"]``).

    ``browser_type`` is ``playwright.chromium`` from ``sync_playwright()``; other keyword
    ``options`` go to ``BrowserType.launch`` as they are.

    Raises:
        FileNotFoundError: no executable file at :data:`CHROMIUM`.
    """
    if not os.access(CHROMIUM, os.X_OK):
        raise FileNotFoundError(
            f"no browser at {CHROMIUM}: install Debian's chromium (apt-get install chromium) "
            "or set CHROMIUM=/path/to/chromium"
        )
    args = [*CHROMIUM_ARGS, *options.pop("args", [])]
    options.setdefault("headless", True)
    return browser_type.launch(executable_path=CHROMIUM, args=args, **options)

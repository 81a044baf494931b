"""The two engines of the smoke tier (e2e/test_engines.py) besides Chromium, behind one interface.

* :class:`Firefox` - Debian's Firefox ESR (``firefox-esr``), driven by puppeteer-core over
  WebDriver BiDi from a Node process of its own (``e2e/engines/firefox.mjs``), one JSON line a
  command on its stdin. Playwright's own Firefox build cannot be downloaded here.
* :class:`WebKit` - WebKitGTK's MiniBrowser (``webkit2gtk-driver``), driven by Selenium through
  ``WebKitWebDriver`` under an Xvfb display of its own (with ``--headless`` no session started).

Each starts with a temporary on-disk profile (Firefox's ``userDataDir``; WebKit's XDG data and
cache folders), service workers allowed, and is closed by :meth:`Engine.close`. Input is the
engine's own: a click is a real press and release in the middle of the element, a drag the
mouse moved with its button down, which the page sees as pointer events.
"""

from __future__ import annotations

import glob
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIREFOX = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")
WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER_GLOB = "/usr/lib/*/webkit2gtk-4.1/MiniBrowser"
FIREFOX_SCRIPT = ROOT / "e2e" / "engines" / "firefox.mjs"
PUPPETEER = ROOT / "node_modules" / "puppeteer-core" / "package.json"

APT = "apt-get install -y firefox-esr webkit2gtk-driver xvfb"
"""The Debian packages the tier needs (``make test-engines`` installs them when run as root)."""


class EngineMissing(RuntimeError):
    """An engine, its driver or its display server is not installed."""


class Engine(ABC):
    """One browser engine with one page open, driven as a player would drive it."""

    name: str
    version: str = ""
    """The engine's version, as its driver says."""

    @abstractmethod
    def goto(self, url: str) -> None:
        """Load ``url`` in the page; return once its load event fired."""

    @abstractmethod
    def reload(self) -> None:
        """Reload the page; return once its load event fired."""

    @abstractmethod
    def evaluate(self, js: str) -> Any:
        """The value of the JavaScript expression ``js`` in the page (a promise awaited)."""

    @abstractmethod
    def click(self, *selectors: str) -> None:
        """For each selector in turn, click the middle of the first element it matches with
        the mouse (the page's handlers run between two clicks, as between a player's)."""

    @abstractmethod
    def mouse_move(self, x: float, y: float, steps: int = 1) -> None:
        """Move the mouse to (``x``, ``y``) in the viewport, in ``steps`` moves."""

    @abstractmethod
    def mouse_down(self) -> None:
        """Press the mouse's main button where the mouse is."""

    @abstractmethod
    def mouse_up(self) -> None:
        """Release the mouse's main button where the mouse is."""

    @abstractmethod
    def select(self, selector: str, value: str) -> None:
        """Pick the option ``value`` of the ``<select>`` matching ``selector``."""

    @abstractmethod
    def close(self) -> None:
        """Close the browser and whatever was started for it (idempotent)."""

    def wait(self, js: str, timeout_s: float = 10.0, what: str = "") -> None:
        """Wait until the expression ``js`` is true in the page, polled every 50 ms.

        Raises:
            TimeoutError: it was not true within ``timeout_s``, with ``what`` in the message.
        """
        deadline = time.monotonic() + timeout_s
        while True:
            if self.evaluate(f"!!({js})"):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: {what or js} not within {timeout_s:.0f} s")
            time.sleep(0.05)

    def native_problems(self) -> list[str]:
        """What the engine's own protocol reported wrong (console errors, uncaught errors)."""
        return []

    def native_requests(self) -> list[str]:
        """The URLs the engine's own protocol saw requested (none if it reports none)."""
        return []


# --------------------------------------------------------------------------- Firefox
class Firefox(Engine):
    """Firefox ESR through ``node e2e/engines/firefox.mjs`` (puppeteer-core, WebDriver BiDi)."""

    name = "firefox"

    def __init__(self, profile: Path, timeout_s: float = 60.0) -> None:
        if not os.access(FIREFOX, os.X_OK):
            raise EngineMissing(f"no Firefox at {FIREFOX}: {APT} (as root), or set FIREFOX")
        if not PUPPETEER.is_file():
            raise EngineMissing("puppeteer-core is not installed: make vendor (npm ci)")
        self.timeout_s = timeout_s
        self._problems: list[str] = []
        self._requests: list[str] = []
        self._answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self._stderr: list[str] = []
        self._next = 0
        profile.mkdir(parents=True, exist_ok=True)
        self._process: subprocess.Popen[str] | None = subprocess.Popen(
            ["node", str(FIREFOX_SCRIPT), str(profile), FIREFOX],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1,
        )
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        ready = self._answer(timeout_s)  # {"event": "ready"} once the browser is up
        self.version = str(ready.get("text", ""))

    def _read(self) -> None:
        assert self._process and self._process.stdout
        for line in self._process.stdout:
            message = json.loads(line)
            event = message.get("event")
            if event in ("console", "pageerror"):
                self._problems.append(f"{event}: {message['text']}")
            elif event == "request":
                self._requests.append(str(message["text"]))
            elif event == "requestfailed":
                self._problems.append(f"request failed: {message['text']}")
            else:  # an answer, or "ready"
                self._answers.put(message)
        self._answers.put({"error": "the driver process ended"})

    def _read_stderr(self) -> None:
        assert self._process and self._process.stderr
        for line in self._process.stderr:
            self._stderr.append(line.rstrip())

    def _answer(self, timeout_s: float) -> dict[str, Any]:
        try:
            message = self._answers.get(timeout=timeout_s)
        except queue.Empty:
            raise TimeoutError(f"firefox: no answer within {timeout_s:.0f} s") from None
        if "error" in message:
            raise RuntimeError(f"firefox: {message['error']}\n" + "\n".join(self._stderr[-20:]))
        return message

    def _call(self, op: str, timeout_s: float | None = None, **args: Any) -> Any:
        if self._process is None:
            raise RuntimeError("firefox: closed")
        self._next += 1
        assert self._process.stdin
        self._process.stdin.write(json.dumps({"id": self._next, "op": op, **args}) + "\n")
        self._process.stdin.flush()
        answer = self._answer((timeout_s or self.timeout_s) + 5)
        if answer.get("id") != self._next:
            raise RuntimeError(f"firefox: answer {answer} to command {self._next}")
        return answer.get("value")

    def goto(self, url: str) -> None:
        """Load ``url``; return once its load event fired."""
        self._call("goto", url=url)

    def reload(self) -> None:
        """Reload; return once the load event fired."""
        self._call("reload")

    def evaluate(self, js: str) -> Any:
        """The value of the expression ``js`` (a promise awaited)."""
        return self._call("eval", js=js)

    def wait(self, js: str, timeout_s: float = 10.0, what: str = "") -> None:
        """Wait until ``js`` is true (puppeteer's waitForFunction, polled every 50 ms)."""
        try:
            self._call("wait", timeout_s=timeout_s, js=js, timeout=int(timeout_s * 1000))
        except RuntimeError as error:
            if "TimeoutError" in str(error):
                raise TimeoutError(
                    f"firefox: {what or js} not within {timeout_s:.0f} s") from None
            raise

    def click(self, *selectors: str) -> None:
        """Click each in turn with the mouse (puppeteer's page.click), in one command."""
        self._call("click", selectors=selectors)

    def mouse_move(self, x: float, y: float, steps: int = 1) -> None:
        """Move the mouse in ``steps`` moves."""
        self._call("move", x=x, y=y, steps=steps)

    def mouse_down(self) -> None:
        """Press the main button."""
        self._call("down")

    def mouse_up(self) -> None:
        """Release the main button."""
        self._call("up")

    def select(self, selector: str, value: str) -> None:
        """Pick an option (puppeteer's page.select: the input and change events follow)."""
        self._call("select", selector=selector, value=value)

    def close(self) -> None:
        """Close Firefox, then end the driver process (killed if it does not end)."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            assert process.stdin
            process.stdin.write(json.dumps({"id": 0, "op": "close"}) + "\n")
            process.stdin.flush()
            process.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    def native_problems(self) -> list[str]:
        """Console errors and uncaught errors puppeteer reported, and failed requests."""
        return list(self._problems)

    def native_requests(self) -> list[str]:
        """Every request of the page puppeteer saw."""
        return list(self._requests)


# --------------------------------------------------------------------------- WebKit
class WebKit(Engine):
    """WebKitGTK's MiniBrowser through Selenium and ``WebKitWebDriver``, on an Xvfb display."""

    name = "webkit"

    def __init__(self, profile: Path, timeout_s: float = 60.0) -> None:
        # Imported here: the Chromium tests do not need Selenium.
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service

        browsers = sorted(glob.glob(MINIBROWSER_GLOB))
        missing = [name for name, found in (
            ("WebKitWebDriver", os.access(WEBKIT_DRIVER, os.X_OK)),
            ("MiniBrowser", bool(browsers)),
            ("Xvfb", shutil.which("Xvfb") is not None),
        ) if not found]
        if missing:
            raise EngineMissing(f"no {', '.join(missing)}: {APT} (as root)")
        self.timeout_s = timeout_s
        self._xvfb: subprocess.Popen[bytes] | None = None
        self._driver: Any = None
        self._mouse = (0.0, 0.0)  # where the last move left the mouse, in the viewport
        profile.mkdir(parents=True, exist_ok=True)
        try:
            display = self._start_display()
            options = webdriver.WebKitGTKOptions()
            options.binary_location = browsers[-1]
            options.add_argument("--automation")
            environment = {
                **os.environ, "DISPLAY": display, **JSC_OPTIONS,
                # The profile: WebKit keeps its data (the service worker's caches, local
                # storage, IndexedDB) and its HTTP cache under these.
                "XDG_DATA_HOME": str(profile / "data"), "XDG_CACHE_HOME": str(profile / "cache"),
                "XDG_CONFIG_HOME": str(profile / "config"),
            }
            service = Service(executable_path=WEBKIT_DRIVER, env=environment,
                              log_output=str(profile / "webkitwebdriver.log"))
            self._driver = webdriver.WebKitGTK(options=options, service=service)
            self._driver.set_window_rect(0, 0, 1280, 800)
            self.version = str(self._driver.capabilities.get("browserVersion", ""))
        except BaseException:
            self.close()
            raise

    def _start_display(self) -> str:
        """Start Xvfb on a free display number (it writes the number on a pipe)."""
        read, write = os.pipe()
        try:
            self._xvfb = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                 "-nolisten", "tcp"],
                pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            os.close(write)
            write = -1
            number = b""
            while not number.endswith(b"\n"):
                chunk = os.read(read, 16)
                if not chunk:
                    raise EngineMissing("Xvfb ended before it named its display")
                number += chunk
            return f":{number.decode().strip()}"
        finally:
            os.close(read)
            if write >= 0:
                os.close(write)

    def goto(self, url: str) -> None:
        """Load ``url`` (WebDriver's Navigate To waits for the load event)."""
        self._driver.get(url)

    def reload(self) -> None:
        """Reload (WebDriver's Refresh waits for the load event)."""
        self._driver.refresh()

    def evaluate(self, js: str) -> Any:
        """The value of ``js`` (WebDriver's Execute Script awaits a promise)."""
        return self._driver.execute_script(f"return ({js});")

    def click(self, *selectors: str) -> None:
        """WebDriver's Element Click on each: scrolled into view, a real press in its
        middle."""
        from selenium.webdriver.common.by import By

        for selector in selectors:
            self._driver.find_element(By.CSS_SELECTOR, selector).click()

    def _pointer(self) -> Any:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        return ActionBuilder(self._driver, duration=0)

    def mouse_move(self, x: float, y: float, steps: int = 1) -> None:
        """Move the mouse in ``steps`` moves, each a WebDriver pointer move, from where it is."""
        x0, y0 = self._mouse
        actions = self._pointer()
        for step in range(1, steps + 1):
            share = step / steps
            actions.pointer_action.move_to_location(
                round(x0 + (x - x0) * share), round(y0 + (y - y0) * share))
        actions.perform()
        self._mouse = (x, y)

    def mouse_down(self) -> None:
        """Press the main button (the pointer stays pressed for the next actions)."""
        actions = self._pointer()
        actions.pointer_action.pointer_down()
        actions.perform()

    def mouse_up(self) -> None:
        """Release the main button."""
        actions = self._pointer()
        actions.pointer_action.pointer_up()
        actions.perform()

    def select(self, selector: str, value: str) -> None:
        """Pick the option: WebDriver's Element Click on it (input and change follow)."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.select import Select

        Select(self._driver.find_element(By.CSS_SELECTOR, selector)).select_by_value(value)

    def close(self) -> None:
        """Quit the session (the MiniBrowser and WebKitWebDriver end), then stop Xvfb."""
        driver, self._driver = self._driver, None
        if driver is not None:
            try:
                driver.quit()
            except Exception:  # noqa: BLE001 - closing whatever is left
                driver.service.stop()
        xvfb, self._xvfb = self._xvfb, None
        if xvfb is not None:
            xvfb.terminate()
            try:
                xvfb.wait(timeout=10)
            except subprocess.TimeoutExpired:
                xvfb.kill()
                xvfb.wait()


JSC_OPTIONS = {"JSC_useOMGJIT": "false"}
"""JavaScriptCore's options for the browser tests (its web process reads ``JSC_*`` from the
environment): WebAssembly runs on its baseline compiler (BBQ) only, never recompiled by the
optimizing tier (OMG), as the Chromium tests run V8's Liftoff only (conftest's TEST_ARGS). The
first visit's boot took 7.2 to 7.9 s with it, 2.5 to 3.2 s without it (one engine alone on 2
cores); the game's code does the same either way."""


ENGINES: dict[str, Callable[[Path], Engine]] = {"firefox": Firefox, "webkit": WebKit}
"""Each engine by name: called with a profile folder, it starts the browser."""

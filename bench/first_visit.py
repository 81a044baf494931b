#!/usr/bin/env python3
"""Benchmark: a first visit over a real link, beside a bare Pyodide page (the floor).

Usage: .venv/bin/python bench/first_visit.py [--rates 9,1.6:4] [--rounds 3] [--quick]
                                             [--no-build] [--json FILE]
(``make bench-first-visit``; root only: it makes a network namespace)

The site is built as a host would publish it (scripts/build_site.py) into build/bench-site/,
with the floor page of ``make bench-boot`` (bench/floor/) copied beside it, so the floor boots
the very vendored files the game loads. Debian's nginx serves it on 127.0.0.1 with gzip on (as
static hosts compress: html, css, js/mjs, json, wasm, toml, svg) and netlify.toml's headers
(read by scripts/serve.py's ``load_header_rules``), from a configuration written into a
temporary folder. nginx and Chromium run in a network namespace of the bench's own, whose
loopback is held to the link's rate by a token bucket (``tc ... tbf``, its MTU set to 1500 so
the bucket fits a packet); the service worker's own fetches cross that link too. The
namespace, nginx and the temporary folder are removed at exit.

Each rate is a block of ``--rounds`` interleaved rounds (the order of the cases rotated from
round to round), run by this script again inside the namespace (``--inside``); every visit
starts from a fresh profile on disk (a persistent context on a new temporary folder, service
workers allowed, as a player's browser keeps caches). Cases per rate:

* **floor**: bench/floor/index.html, ``loadPyodide()`` then ``1+1``;
* **game /** and **game deal 7** (``/?variant=standard&deal=7``): a first visit;
* **return /**: the profile of the ``game /`` visit closed once its worker was installed and
  the network quiet, then opened again at ``/``.

``--rates`` takes ``MBIT[:CPU]`` items: ``1.6:4`` is 1.6 Mbit/s with every page's main thread
slowed 4 times (CDP ``Emulation.setCPUThrottlingRate``, set before navigation; the service
worker is not slowed). ``--quick`` runs the first rate only.

Measured in each visit:

* **first card**: ms from navigation start until a ``#board [data-card]`` element is in the
  DOM and a frame was painted after it (a ``requestAnimationFrame`` once the MutationObserver
  saw it, then a message: the task after that frame);
* **ready**: ``body[data-ready]`` appears; the floor: ``1+1`` returned;
* **bytes on the wire**: nginx's ``$bytes_sent`` (headers and compressed bodies) summed over
  the requests logged during the visit, the service worker's included: before ready (logged by
  then) and in all (after ready, the bench waits for the worker and then for the network to be
  quiet for 2 s: no request in nginx's hands and none logged);
* **phases**: when each request ended (nginx's ``$msec``, wall clock, minus the navigation's
  wall-clock start, ``Date.now() - performance.now()`` in the page) and began (minus its
  ``$request_time``); the page's ``nestor:`` performance marks; PyScript's ``py:progress``
  events; Resource Timing's ``responseEnd`` of pyodide.asm.wasm, python_stdlib.zip,
  nestor.zip.gz and main.py (as the page saw them: from the worker once it controls the page).

nginx logs a request when its last byte is in the socket's buffer, not when it arrived:
listening with a small send buffer keeps the two close, but a response can still wait in the
token bucket's queue (up to its 4 s of latency) after nginx logged it.

Prints per rate the medians [min-max] of each case, the ratios over the floor of the same rate,
the target lines, then per case the phase table (median ms from navigation start, each request
with its median bytes). It never fails on a time: exit status 0 unless something broke.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_site  # noqa: E402
import chromium  # noqa: E402
import serve  # noqa: E402

SITE = ROOT / "build" / "bench-site"
"""Where the bench builds the site it serves (not dist/: other work builds that)."""
FLOOR_DIR = ROOT / "bench" / "floor"
FLOOR_URL = "/bench/floor/index.html"
GAME_URLS = {"game /": "/", "game deal 7": "/?variant=standard&deal=7"}
"""The game's first visits, by the name printed for them."""
CASES = ("floor", "game /", "game deal 7", "return /")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PORT = 8080
"""nginx's port on the namespace's own loopback (no one else listens there)."""
STATUS_PATH = "/__bench/status"
"""nginx's stub_status, to know when no request is in its hands (not logged)."""
BURST, LATENCY = "32kb", "4000ms"
"""The token bucket's burst and queue (tc-tbf): a link's buffer, not a shaper's artefact."""
SNDBUF = "32k"
"""nginx's socket send buffer: small, so a request is logged close to when its bytes left."""
GZIP_TYPES = (
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/wasm",
    "application/toml",
    "image/svg+xml",
    "text/plain",
    "text/x-python",
)
"""What nginx compresses besides text/html (always compressed): as static hosts do."""
FILES_TIMED = ("pyodide.asm.wasm", "python_stdlib.zip", "nestor.zip.gz", "main.py")
"""Files whose Resource Timing ``responseEnd`` goes into the phase table."""
READY_TIMEOUT_MS = 600_000
QUIET_S = 2.0
"""How long the network must be quiet after ready before a visit's bytes are summed."""
QUIET_CAP_S = 240.0
"""Longest wait for that quiet (a worker still precaching at 1.6 Mbit/s takes a while)."""
TARGET_CARD, TARGET_READY, TARGET_BYTES_MB = 0.10, 1.10, 0.75
"""The first visit's targets: first card and ready over the floor's ready, bytes over its."""

# Installed before any script of the page: window.__fv, the first card, ready, py:progress.
PROBE = """
(() => {
  if (window.__fv) return;
  const fv = window.__fv = { cardInDom: null, card: null, ready: null, progress: [] };
  addEventListener("py:progress", (event) => {
    fv.progress.push([performance.now(), String(event.detail)]);
  });
  const painted = () => {  // the task after the next frame: that frame has been painted
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { fv.card = performance.now(); };
    channel.port2.postMessage(null);
  };
  const observer = new MutationObserver(() => {
    if (fv.cardInDom === null && document.querySelector("#board [data-card]")) {
      fv.cardInDom = performance.now();
      requestAnimationFrame(painted);
    }
    if (fv.ready === null && document.body && document.body.hasAttribute("data-ready")) {
      fv.ready = performance.now();
    }
    if (fv.cardInDom !== null && fv.ready !== null) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true,
                               attributeFilter: ["data-ready"] });
})();
"""

# Read at the end of a visit: the navigation's wall-clock start, the probe, marks, files.
COLLECT = """
(names) => {
  const arrived = {};
  for (const entry of performance.getEntriesByType("resource")) {
    const path = new URL(entry.name).pathname;
    for (const name of names) {
      if (path.endsWith("/" + name) && !(name in arrived)) arrived[name] = entry.responseEnd;
    }
  }
  const marks = performance.getEntriesByType("mark")
    .filter((entry) => entry.name.startsWith("nestor:"))
    .map((entry) => [entry.name, entry.startTime]);
  const nav = performance.getEntriesByType("navigation")[0];
  return { origin: Date.now() - performance.now(), fv: window.__fv,
           floor: window.__floor || null, arrived, marks,
           document: nav ? [nav.workerStart, nav.responseEnd] : null };
}
"""

LOG_FORMAT = (
    '$msec $request_time $status $bytes_sent $body_bytes_sent $connection "$request"'
    ' "$http_sec_fetch_dest"'
)
"""nginx's access log: end time (wall clock, s), duration (s), status, bytes with headers,
body bytes, connection, request line, Sec-Fetch-Dest (document, script, empty for fetch()...)."""
LOG_LINE = re.compile(
    r'^(?P<msec>[\d.]+) (?P<rtime>[\d.]+) (?P<status>\d+) (?P<sent>\d+) (?P<body>\d+)'
    r' (?P<conn>\d+) "(?P<request>[^"]*)" "(?P<dest>[^"]*)"$'
)


# --------------------------------------------------------------------------- data
@dataclass
class Request:
    """One request in nginx's log: its label, times in ms from navigation start, bytes."""

    label: str
    start: float
    end: float
    sent: int
    status: int


@dataclass
class Visit:
    """One page load: times in ms from navigation start, bytes on the wire."""

    card: float | None
    ready: float
    bytes_before: int
    bytes_total: int
    events: dict[str, float] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)

    @staticmethod
    def from_json(data: dict[str, Any]) -> Visit:
        """The visit ``asdict`` wrote."""
        requests = [Request(**r) for r in data.pop("requests")]
        return Visit(**data, requests=requests)


@dataclass(frozen=True)
class Rate:
    """A link's rate (Mbit/s) and how many times every page's main thread is slowed."""

    mbit: float
    cpu: float

    @property
    def label(self) -> str:
        cpu = f", CPU slowed {self.cpu:g}x" if self.cpu != 1 else ""
        return f"{self.mbit:g} Mbit/s{cpu}"

    @staticmethod
    def parse(text: str) -> Rate:
        """``MBIT[:CPU]``, e.g. ``9`` or ``1.6:4``."""
        mbit, _, cpu = text.partition(":")
        rate = Rate(float(mbit), float(cpu) if cpu else 1.0)
        if rate.mbit <= 0 or rate.cpu < 1:
            raise ValueError(f"bad rate {text!r}: Mbit/s above 0, CPU at least 1")
        return rate


# --------------------------------------------------------------------------- nginx
def _quote(text: str, regex: bool = False) -> str:
    """``text`` as one quoted nginx token, backslashes and quotes escaped; a value (not a
    ``regex``) must name no variable."""
    if "$" in text and not regex:
        raise ValueError(f"nginx would read a variable in {text!r}")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _mime(value: str) -> tuple[str, bool]:
    """A Content-Type split into its type and whether it names charset=utf-8."""
    kind, _, params = value.partition(";")
    return kind.strip(), "charset=utf-8" in params.replace(" ", "").lower()


def nginx_conf(
    site: Path, prefix: Path, rules: list[serve.HeaderRule], port: int = PORT
) -> str:
    """An nginx.conf serving ``site`` on 127.0.0.1:``port`` as a static host would.

    gzip for the types of :data:`GZIP_TYPES`; the types of scripts/serve.py's ``MIME_TYPES``;
    netlify.toml's ``rules``: a Content-Type rule becomes a location of its own (its type, so
    gzip still knows it), every other header a ``map`` from the requested path (the query
    left out) to its value, in the rules' order, sent by ``add_header`` (Cache-Control's
    default is serve.py's, Netlify's). Logs, pid and temporary files go into ``prefix``.
    """
    charset_types: set[str] = set()
    types = []
    for ext, value in serve.MIME_TYPES.items():
        kind, utf8 = _mime(value)
        types.append(f"    {kind} {ext.lstrip('.')};")
        if utf8 and kind != "text/html":  # text/html is always one of charset_types
            charset_types.add(kind)
    by_header: dict[str, list[tuple[str, str]]] = {}
    type_locations = []
    for rule in rules:
        for name, value in rule.values.items():
            if name.lower() == "content-type":
                kind, utf8 = _mime(value)
                if utf8 and kind != "text/html":
                    charset_types.add(kind)
                type_locations.append(
                    f"    location ~* {_quote(rule.regex.pattern, regex=True)} {{\n"
                    f"      types {{ }}\n      default_type {_quote(kind)};\n    }}"
                )
            else:
                by_header.setdefault(name, []).append((rule.regex.pattern, value))
    maps, adds = [], []
    for i, (name, entries) in enumerate(by_header.items()):
        var = f"$bench_header_{i}"
        default = serve.DEFAULT_CACHE_CONTROL if name.lower() == "cache-control" else ""
        lines = [f"    default {_quote(default)};"]
        for regex, value in entries:
            lines.append(f"    {_quote('~*' + regex, regex=True)} {_quote(value)};")
        maps.append(f"  map $bench_path {var} {{\n" + "\n".join(lines) + "\n  }")
        adds.append(f"    add_header {name} {var} always;")
    user = "user root;" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"  {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    nl = "\n"
    return f"""# Written by bench/first_visit.py for one run; removed with its folder.
{user}
worker_processes 1;
daemon off;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
events {{ worker_connections 256; }}
http {{
  types {{
{nl.join(types)}
  }}
  default_type application/octet-stream;
  charset utf-8;
  charset_types {" ".join(sorted(charset_types))};
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  server_tokens off;
  gzip on;
  gzip_comp_level 6;
  gzip_min_length 256;
  gzip_vary on;
  gzip_proxied any;
  gzip_types {" ".join(GZIP_TYPES)};
  log_format bench '{LOG_FORMAT}';
  access_log {prefix / "access.log"} bench;
{temp}
  map $request_uri $bench_path {{
    "~^(?<path>[^?]*)" $path;
  }}
{nl.join(maps)}
  server {{
    listen 127.0.0.1:{port} sndbuf={SNDBUF};
    server_name localhost;
    root {site};
    index index.html;
{nl.join(adds)}
    location = {STATUS_PATH} {{
      stub_status;
      access_log off;
    }}
{nl.join(type_locations)}
  }}
}}
"""


def read_log(path: Path, offset: int) -> list[dict[str, str]]:
    """The access log's lines from byte ``offset`` on, parsed (a line being written left out)."""
    with path.open("rb") as f:
        f.seek(offset)
        text = f.read().decode("utf-8", "replace")
    out = []
    for line in text.splitlines():
        match = LOG_LINE.match(line)
        if match:
            out.append(match.groupdict())
    return out


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""An opener that asks nginx itself, whatever proxy the environment names."""


def in_flight(origin: str) -> int:
    """Requests in nginx's hands now, the status request itself left out."""
    with _DIRECT.open(origin + STATUS_PATH, timeout=30) as response:
        text = response.read().decode()
    reading = int(re.search(r"Reading: (\d+)", text).group(1))  # type: ignore[union-attr]
    writing = int(re.search(r"Writing: (\d+)", text).group(1))  # type: ignore[union-attr]
    return reading + writing - 1


def wait_quiet(origin: str, log: Path) -> None:
    """Wait until no request was in nginx's hands and none was logged for QUIET_S seconds
    (at most QUIET_CAP_S)."""
    started = last = time.monotonic()
    size = log.stat().st_size
    while time.monotonic() - last < QUIET_S and time.monotonic() - started < QUIET_CAP_S:
        time.sleep(0.2)
        now_size = log.stat().st_size
        if now_size != size or in_flight(origin) > 0:
            size, last = now_size, time.monotonic()


# --------------------------------------------------------------------------- inside
class Browser:
    """Fresh on-disk profiles (persistent contexts) for one rate, with the probe installed."""

    def __init__(self, playwright: Any, origin: str, cpu: float) -> None:  # noqa: ANN401
        self.playwright, self.origin, self.cpu = playwright, origin, cpu

    def open(self, folder: Path) -> tuple[Any, Any]:
        """The profile in ``folder`` (new or kept) and a page of it, its CPU slowed."""
        context = self.playwright.chromium.launch_persistent_context(
            str(folder),
            executable_path=chromium.CHROMIUM,
            args=list(chromium.CHROMIUM_ARGS),
            headless=True,
            base_url=self.origin,
            service_workers="allow",
        )
        context.add_init_script(PROBE)
        page = context.pages[0] if context.pages else context.new_page()
        if self.cpu != 1:
            session = context.new_cdp_session(page)
            session.send("Emulation.setCPUThrottlingRate", {"rate": self.cpu})
        return context, page


def request_label(request: str, dest: str) -> str:
    """``GET /path [dest]``, a query shown as ``?…`` (Workbox's revisions, the deal link)."""
    method, _, rest = request.partition(" ")
    target = rest.rsplit(" ", 1)[0] if " " in rest else rest
    path, query = target.split("?", 1) if "?" in target else (target, "")
    return f"{method} {path}{'?…' if query else ''} [{dest if dest != '-' else 'none'}]"


def measure(page: Any, url: str, log: Path, origin: str, floor: bool) -> Visit:  # noqa: ANN401
    """Load ``url`` in ``page``; wait for ready, for a worker if the page has one, for the
    network to be quiet; the visit's figures from the page and nginx's log."""
    offset = log.stat().st_size
    page.goto(url, wait_until="commit", timeout=READY_TIMEOUT_MS)
    if floor:
        page.wait_for_function(
            "window.__floor && (window.__floor.ready !== null || window.__floor.error !== null)",
            timeout=READY_TIMEOUT_MS,
            polling=100,
        )
    else:
        page.wait_for_function(
            "window.__fv && window.__fv.ready !== null", timeout=READY_TIMEOUT_MS, polling=100
        )
        page.evaluate(
            """() => Promise.race([navigator.serviceWorker.ready,
                                   new Promise((done) => setTimeout(done, 120000))])
                       .then(() => true)"""
        )
    wait_quiet(origin, log)
    got: dict[str, Any] = page.evaluate(COLLECT, list(FILES_TIMED))
    fv = got["fv"]
    if floor:
        result = got["floor"]
        if result["error"] is not None or result["result"] != 2:
            raise RuntimeError(f"the floor page failed: {result}")
        ready = float(result["ready"])
    else:
        ready = float(fv["ready"])
    events: dict[str, float] = {}
    if got["document"]:
        worker_start, response_end = got["document"]
        if worker_start:  # 0: no service worker asked
            events["document: service worker started (workerStart)"] = worker_start
        events["document: responseEnd"] = response_end
    for at, text in fv["progress"]:
        events.setdefault(f"py:progress {text}", at)
    for name, at in got["marks"]:
        events.setdefault(f"mark {name}", at)
    for name, at in got["arrived"].items():
        events[f"page saw {name} (Resource Timing responseEnd)"] = at
    if fv["cardInDom"] is not None:
        events["first card in the DOM"] = fv["cardInDom"]
    if fv["card"] is not None:
        events["first card painted"] = fv["card"]
    events["ready" if not floor else "ready (1+1 returned)"] = ready
    requests: list[Request] = []
    seen: dict[str, int] = {}
    for entry in read_log(log, offset):
        label = request_label(entry["request"], entry["dest"])
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label += f" #{seen[label]}"
        end = float(entry["msec"]) * 1000 - got["origin"]
        start = end - float(entry["rtime"]) * 1000
        requests.append(Request(label, start, end, int(entry["sent"]), int(entry["status"])))
    return Visit(
        card=fv["card"],
        ready=ready,
        bytes_before=sum(r.sent for r in requests if r.end <= ready),
        bytes_total=sum(r.sent for r in requests),
        events=events,
        requests=requests,
    )


def run_inside(args: argparse.Namespace) -> int:
    """Inside the namespace: ``--rounds`` rounds of every case at the rate set; JSON out."""
    from playwright.sync_api import sync_playwright

    log, origin = Path(args.log), args.origin
    visits: dict[str, list[dict[str, Any]]] = {case: [] for case in CASES}

    def fresh() -> Path:  # in the run's folder, which the outer process removes whatever happens
        return Path(tempfile.mkdtemp(prefix="profile-", dir=args.profiles))

    def floor(browser: Browser) -> None:
        folder = fresh()
        try:
            context, page = browser.open(folder)
            visits["floor"].append(asdict(measure(page, FLOOR_URL, log, origin, floor=True)))
            context.close()
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def game(browser: Browser, name: str) -> None:
        folder = fresh()
        try:
            context, page = browser.open(folder)
            visits[name].append(asdict(measure(page, GAME_URLS[name], log, origin, False)))
            context.close()
            if name == "game /":  # the same profile again: the return visit
                context, page = browser.open(folder)
                visits["return /"].append(asdict(measure(page, "/", log, origin, False)))
                context.close()
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    units: list[tuple[str, Callable[[Browser], None]]] = [("floor", floor)]
    for name in GAME_URLS:
        units.append((name, functools.partial(game, name=name)))
    with sync_playwright() as p:
        browser = Browser(p, origin, args.cpu)
        for r in range(args.rounds):
            shift = r % len(units)
            for label, unit in units[shift:] + units[:shift]:
                started = time.monotonic()
                unit(browser)
                print(
                    f"  {args.label}, round {r + 1}/{args.rounds}: {label}"
                    f" ({time.monotonic() - started:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    Path(args.out).write_text(json.dumps(visits))
    return 0


# --------------------------------------------------------------------------- outside
def run(cmd: list[str]) -> None:
    """Run ``cmd``, raising with its output if it fails."""
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")


class Namespace:
    """A network namespace of the bench's own, its loopback up, at a link's MTU; removed at
    exit (also by ``atexit``, should the run end without reaching its ``finally``)."""

    def __init__(self) -> None:
        self.name = f"nestor-bench-{os.getpid()}"
        run(["ip", "netns", "add", self.name])
        atexit.register(self.remove)
        self.exec(["ip", "link", "set", "lo", "up"])
        # loopback's 65,536-byte packets never fit the token bucket: every one would be dropped
        self.exec(["ip", "link", "set", "lo", "mtu", "1500"])

    def prefix(self) -> list[str]:
        """The command prefix that runs a command inside the namespace."""
        return ["ip", "netns", "exec", self.name]

    def exec(self, cmd: list[str]) -> None:
        run([*self.prefix(), *cmd])

    def shape(self, mbit: float) -> None:
        """Hold the loopback to ``mbit`` Mbit/s (a token bucket, replacing any before)."""
        self.exec(
            ["tc", "qdisc", "replace", "dev", "lo", "root", "tbf", "rate", f"{mbit:g}mbit",
             "burst", BURST, "latency", LATENCY]
        )

    def remove(self) -> None:
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True, check=False)


class Nginx:
    """nginx inside the namespace, from a configuration written into ``prefix``."""

    def __init__(self, namespace: Namespace, site: Path, prefix: Path) -> None:
        self.conf = prefix / "nginx.conf"
        self.log = prefix / "access.log"
        pid = prefix / "nginx.pid"  # written once its socket listens
        self.conf.write_text(nginx_conf(site, prefix, serve.load_header_rules()))
        base = [NGINX, "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(self.conf)]
        run([*base, "-t", "-q"])
        self.process = subprocess.Popen([*namespace.prefix(), *base])  # ip execs nginx
        atexit.register(self.stop)
        self.origin = f"http://127.0.0.1:{PORT}"
        deadline = time.monotonic() + 10
        while not pid.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start: {(prefix / 'error.log').read_text()}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful; then by force
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def build(site: Path) -> None:
    """The site as a host publishes it, with the floor page beside it."""
    build_site.build(site, quiet=True)
    shutil.copytree(FLOOR_DIR, site / "bench" / "floor")


def preflight() -> str | None:
    """Why the bench cannot run here, or None."""
    if os.geteuid() != 0:
        return "it makes a network namespace: run it as root (sudo make bench-first-visit)"
    for tool in ("ip", "tc"):
        if shutil.which(tool) is None:
            return f"no {tool}: apt-get install iproute2"
    if not os.access(NGINX, os.X_OK):
        return "no nginx: apt-get install nginx-light"
    if not os.access(chromium.CHROMIUM, os.X_OK):
        return f"no browser at {chromium.CHROMIUM}: apt-get install chromium"
    if not (ROOT / "static" / "vendor" / "pyodide").is_dir():
        return "no static/vendor/: run make vendor first"
    return None


# --------------------------------------------------------------------------- report
def med(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def fmt_ms(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values):.0f} [{min(values):.0f}–{max(values):.0f}]"


def fmt_mb(values: list[float]) -> str:
    if not values:
        return "—"
    m = statistics.median(values)
    return f"{m / 1e6:.2f} [{min(values) / 1e6:.2f}–{max(values) / 1e6:.2f}]"


def over(a: float | None, b: float | None) -> str:
    return "—" if a is None or not b else f"{a / b:.2f}"


def figures(visits: list[Visit], key: str) -> list[float]:
    return [float(v) for v in (getattr(x, key) for x in visits) if v is not None]


def print_rate(rate: Rate, cases: dict[str, list[Visit]], rounds: int) -> list[str]:
    """The table of one rate; returns its target lines (printed together after)."""
    floor_ready = med(figures(cases["floor"], "ready"))
    floor_bytes = med(figures(cases["floor"], "bytes_total"))
    print(f"## {rate.label}: {rounds} round{'s' if rounds != 1 else ''}")
    head = (
        f"{'case':12} {'first card (ms)':>20} {'ready (ms)':>20} {'MB before ready':>18}"
        f" {'MB in all':>18} {'card/fl':>8} {'ready/fl':>8} {'MB-fl':>7}"
    )
    print(head)
    print("-" * len(head))
    for name, visits in cases.items():
        total = med(figures(visits, "bytes_total"))
        extra = "—"
        if total is not None and floor_bytes is not None:
            extra = f"{(total - floor_bytes) / 1e6:+.2f}"
        print(
            f"{name:12} {fmt_ms(figures(visits, 'card')):>20}"
            f" {fmt_ms(figures(visits, 'ready')):>20}"
            f" {fmt_mb(figures(visits, 'bytes_before')):>18}"
            f" {fmt_mb(figures(visits, 'bytes_total')):>18}"
            f" {over(med(figures(visits, 'card')), floor_ready):>8}"
            f" {over(med(figures(visits, 'ready')), floor_ready):>8} {extra:>7}"
        )
    print()
    lines = []
    for name, short in (("game /", "/"), ("game deal 7", "deal 7")):
        visits = cases[name]
        where = f"({short}, {rate.label})"
        card, ready = med(figures(visits, "card")), med(figures(visits, "ready"))
        total = med(figures(visits, "bytes_total"))
        if card is not None and floor_ready:
            verdict = "ok" if card / floor_ready <= TARGET_CARD else "missed"
            value = f"{card / floor_ready:.2f} {verdict}"
        else:
            value = "no card before the bench stopped — missed"
        lines.append(f"target first-card/floor-ready <= {TARGET_CARD:.2f} {where}: {value}")
        if ready is not None and floor_ready:
            verdict = "ok" if ready / floor_ready <= TARGET_READY else "missed"
            lines.append(
                f"target ready/floor <= {TARGET_READY:.2f} {where}: {ready / floor_ready:.2f}"
                f" {verdict}"
            )
        if total is not None and floor_bytes is not None:
            more = (total - floor_bytes) / 1e6
            verdict = "ok" if more <= TARGET_BYTES_MB else "missed"
            lines.append(
                f"target bytes <= floor + {TARGET_BYTES_MB:.2f} MB {where}: floor"
                f" {floor_bytes / 1e6:.2f} MB {more:+.2f} MB {verdict}"
            )
    back = cases["return /"]
    lines.append(
        f"return visit ({rate.label}): board {fmt_ms(figures(back, 'card'))} ms,"
        f" ready {fmt_ms(figures(back, 'ready'))} ms,"
        f" {fmt_mb(figures(back, 'bytes_total'))} MB"
    )
    return lines


def print_phases(rate: Rate, name: str, visits: list[Visit]) -> None:
    """Median ms from navigation start of each event and request of one case, in order."""
    rows: dict[str, list[float]] = {}
    starts: dict[str, list[float]] = {}
    sizes: dict[str, list[float]] = {}
    statuses: dict[str, set[int]] = {}
    for v in visits:
        for event, at in v.events.items():
            rows.setdefault(event, []).append(at)
        for r in v.requests:
            key = f"net {r.label}"
            rows.setdefault(key, []).append(r.end)
            starts.setdefault(key, []).append(r.start)
            sizes.setdefault(key, []).append(r.sent)
            statuses.setdefault(key, set()).add(r.status)

    def order(key: str) -> float:
        return statistics.median(rows[key])

    print(f"### {name}, {rate.label}: median ms from navigation start (n: visits it was seen in)")
    width = max((len(k) for k in rows), default=10)
    print(f"{'event / request (end; start, bytes on the wire, status)':{width}} {'ms':>7}  detail")
    for key in sorted(rows, key=order):
        n = len(rows[key])
        seen = f" (n={n})" if n < len(visits) else ""
        if key in starts:
            status = "/".join(str(s) for s in sorted(statuses[key]))
            detail = (
                f"started {statistics.median(starts[key]):.0f}, "
                f"{statistics.median(sizes[key]) / 1e3:.1f} kB, {status}"
            )
        else:
            detail = ""
        print(f"{key:{width}} {order(key):7.0f}  {detail}{seen}")
    print()


def report(results: dict[Rate, dict[str, list[Visit]]], rounds: int, loads: list[float]) -> None:
    print(
        f"first visit over a link held by tc-tbf (burst {BURST}, latency {LATENCY}), nginx"
        f" with gzip, Chromium, fresh on-disk profiles, {rounds} round{'s' if rounds != 1 else ''}"
        " interleaved per rate;"
        f" load average {' -> '.join(f'{x:.1f}' for x in loads)}"
    )
    print(
        "times: ms from navigation start, median [min–max]; bytes: nginx's $bytes_sent (headers"
        " and compressed bodies, the service worker's fetches included), MB = 10^6 bytes;"
    )
    print(
        "card/fl, ready/fl: medians over the floor's ready; MB-fl: median bytes in all minus the"
        " floor's; return /: the profile of game / opened again"
    )
    print()
    targets: list[str] = []
    for rate, cases in results.items():
        targets += print_rate(rate, cases, rounds)
    print("targets (reported, not asserted):")
    for line in targets:
        print(f"  {line}")
    print()
    for rate, cases in results.items():
        for name, visits in cases.items():
            print_phases(rate, name, visits)


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    """SIGTERM as an exit, so that the ``finally`` blocks and ``atexit`` clean up."""
    raise SystemExit(128 + signum)


def run_outside(args: argparse.Namespace, rates: list[Rate]) -> int:
    """Build, serve, shape each rate in turn and measure it inside the namespace; report."""
    problem = preflight()
    if problem:
        print(f"bench-first-visit: {problem}", file=sys.stderr)
        return 1
    if not args.no_build or not (SITE / "index.html").is_file():
        print(f"building the site into {SITE.relative_to(ROOT)}/", file=sys.stderr, flush=True)
        build(SITE)

    signal.signal(signal.SIGTERM, _exit_on_signal)
    results: dict[Rate, dict[str, list[Visit]]] = {}
    loads = [os.getloadavg()[0]]
    prefix = Path(tempfile.mkdtemp(prefix="nestor-bench-nginx-"))
    namespace = Namespace()
    nginx: Nginx | None = None
    child: subprocess.Popen[bytes] | None = None
    try:
        nginx = Nginx(namespace, SITE, prefix)
        for rate in rates:
            namespace.shape(rate.mbit)
            out = prefix / f"visits-{rate.mbit:g}-{rate.cpu:g}.json"
            cmd = [
                *namespace.prefix(), sys.executable, str(Path(__file__).resolve()), "--inside",
                "--origin", nginx.origin, "--log", str(nginx.log), "--out", str(out),
                "--rounds", str(args.rounds), "--cpu", str(rate.cpu), "--label", rate.label,
                "--profiles", str(prefix),
            ]
            child = subprocess.Popen(cmd)
            if child.wait() != 0:
                print(f"bench-first-visit: the run at {rate.label} failed", file=sys.stderr)
                return 1
            data = json.loads(out.read_text())
            results[rate] = {
                case: [Visit.from_json(v) for v in data[case]] for case in CASES
            }
    finally:
        if child is not None and child.poll() is None:  # stopped from outside: stop it too
            child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        if nginx is not None:
            nginx.stop()
        namespace.remove()
        shutil.rmtree(prefix, ignore_errors=True)
    loads.append(os.getloadavg()[0])
    if args.json:
        every = {
            rate.label: {case: [asdict(v) for v in visits] for case, visits in cases.items()}
            for rate, cases in results.items()
        }
        args.json.write_text(json.dumps(every, indent=1))
    report(results, args.rounds, loads)
    return 0


def rates_arg(text: str) -> list[Rate]:
    try:
        return [Rate.parse(item) for item in text.split(",") if item.strip()]
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument(
        "--rates",
        type=rates_arg,
        default=rates_arg("9,1.6:4"),
        help="MBIT[:CPU] items, comma-separated (default 9,1.6:4: 1.6 Mbit/s with the CPU"
        " slowed 4x)",
    )
    ap.add_argument("--rounds", type=int, default=3, help="rounds per rate (default 3)")
    ap.add_argument("--quick", action="store_true", help="the first rate only")
    ap.add_argument(
        "--no-build", action="store_true", help=f"serve {SITE.relative_to(ROOT)}/ as it is"
    )
    ap.add_argument("--json", type=Path, help="also write every visit's figures to this file")
    # inside the namespace (the script runs itself there): one rate's rounds
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--origin", help=argparse.SUPPRESS)
    ap.add_argument("--log", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--cpu", type=float, default=1.0, help=argparse.SUPPRESS)
    ap.add_argument("--label", default="", help=argparse.SUPPRESS)
    ap.add_argument("--profiles", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if args.inside:
        return run_inside(args)
    rates: list[Rate] = args.rates[:1] if args.quick else args.rates
    return run_outside(args, rates)


if __name__ == "__main__":
    sys.exit(main())

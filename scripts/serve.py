#!/usr/bin/env python3
"""Static dev server for the repo root (stdlib only), bound to 127.0.0.1.

Usage: python3 scripts/serve.py [--port 8000] [--host 127.0.0.1] [--dir REPO_ROOT] [--quiet]
                                [--rebuild-sw]

It sends the headers that netlify.toml gives the production host (security policy, types,
caching), read from that file itself, so local play and the browser tests run under the same
policy. Also imported by e2e/conftest.py (make_server) so the tests serve the site exactly
as `make play` does.

--rebuild-sw (used by `make play`): when the browser asks for /sw.js or /static/nestor.zip.gz and
a module changed since the archive was written, write it again (scripts/pyscript_config.py);
when it asks for /sw.js and a file of the site changed since sw.js was built, rebuild that too
(node scripts/build_sw.mjs). The open game then offers the new version, as a deployed one would.
"""

from __future__ import annotations

import argparse
import functools
import io
import re
import socket
import subprocess
import sys
import threading
import tomllib
from dataclasses import dataclass
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
NETLIFY_TOML = ROOT / "netlify.toml"

# Set explicitly: mimetypes' guesses depend on the host's /etc/mime.types.
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".toml": "application/toml",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
}

# What Netlify sends when no rule sets Cache-Control: always revalidate.
DEFAULT_CACHE_CONTROL = "public, max-age=0, must-revalidate"


# --------------------------------------------------------------------------- netlify.toml headers
class HeaderConfigError(ValueError):
    """netlify.toml's [[headers]] cannot be applied as Netlify would."""


@dataclass(frozen=True)
class HeaderRule:
    """One [[headers]] table: the ``for`` path pattern and its header values."""

    pattern: str
    regex: re.Pattern[str]
    values: dict[str, str]


def for_regex(pattern: str) -> re.Pattern[str]:
    """The regular expression Netlify builds from a ``for`` path (as its headers parser does).

    Segments are split on "/": ``:name`` matches one segment, a lone ``*`` matches the rest of
    the path (or nothing), a ``*`` inside a segment matches any characters, anything else is
    literal. A trailing slash is optional and the match ignores case.
    """
    parts = []
    for part in pattern.strip().split("/"):
        part = part.rstrip()
        if not part:
            continue
        if part.startswith(":"):
            parts.append("([^/]+)")
        elif part == "*":
            parts.append("?(.*)")
        elif "*" in part:
            parts.append("(.*)".join(re.escape(p) for p in part.split("*")))
        else:
            parts.append(re.escape(part))
    return re.compile("^/" + "/".join(parts) + "/?$", re.IGNORECASE)


def _header_value(name: str, raw: object) -> str:
    """Normalize a value as Netlify does: trim; comma-separated items joined by ", "."""
    if isinstance(raw, str):
        value = ", ".join(re.split(r"\s*,\s*", raw.strip()))
    elif isinstance(raw, list) and all(isinstance(v, str) for v in raw):
        value = ", ".join(v.strip() for v in raw)
    else:
        raise HeaderConfigError(f"header {name!r}: the value must be a string or a list of them")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        raise HeaderConfigError(f"header {name!r}: control character (newline?) in the value")
    return value


def parse_header_rules(config: dict[str, Any]) -> list[HeaderRule]:
    """The [[headers]] rules of a parsed netlify.toml, in file order."""
    tables = config.get("headers", [])
    if not isinstance(tables, list):
        raise HeaderConfigError("[[headers]] must be an array of tables")
    rules = []
    for i, table in enumerate(tables, 1):
        pattern = table.get("for") if isinstance(table, dict) else None
        if not isinstance(pattern, str) or not pattern.strip().startswith("/"):
            raise HeaderConfigError(f"[[headers]] number {i}: 'for' must be a path starting with /")
        values = table.get("values", {})
        if not isinstance(values, dict):
            raise HeaderConfigError(f"[[headers]] number {i}: 'values' must be a table")
        seen: set[str] = set()
        normalized = {}
        for name, raw in values.items():
            name = name.strip()
            if not re.fullmatch(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", name):
                raise HeaderConfigError(f"[[headers]] number {i}: bad header name {name!r}")
            if name.lower() in seen:
                raise HeaderConfigError(f"[[headers]] number {i}: {name!r} is set twice")
            seen.add(name.lower())
            normalized[name] = _header_value(name, raw)
        rules.append(HeaderRule(pattern.strip(), for_regex(pattern), normalized))
    return rules


def load_header_rules(path: Path = NETLIFY_TOML) -> list[HeaderRule]:
    """Read netlify.toml's [[headers]] rules."""
    with path.open("rb") as f:
        return parse_header_rules(tomllib.load(f))


def headers_for(rules: list[HeaderRule], url_path: str) -> dict[str, str]:
    """The headers every matching rule gives ``url_path`` (a URL path, query allowed).

    Two matching rules setting the same header is an error: Netlify would send both values
    joined, which is never what a policy or a cache header means.
    """
    path = unquote(urlsplit(url_path).path) or "/"
    out: dict[str, str] = {}
    source: dict[str, str] = {}
    for rule in rules:
        if not rule.regex.match(path):
            continue
        for name, value in rule.values.items():
            key = name.lower()
            if key in source:
                raise HeaderConfigError(
                    f"{path}: {name} is set by both {source[key]!r} and {rule.pattern!r}"
                )
            source[key] = rule.pattern
            out[name] = value
    return out


# --------------------------------------------------------------------------- service worker
# What the service worker precaches (scripts/build_sw.mjs): a change to any of these, or to the
# build script, makes sw.js stale.
SW_INPUTS = (
    "index.html", "pyscript.toml", "main.py", "nestor", "nestor_web", "locale", "static", "docs"
)


def sw_stale(directory: Path) -> bool:
    """True if sw.js is missing or older than a file it precaches."""
    try:
        built = (directory / "sw.js").stat().st_mtime_ns
    except FileNotFoundError:
        return True
    inputs = [ROOT / "scripts" / "build_sw.mjs"]
    for name in SW_INPUTS:
        top = directory / name
        if top.is_dir():
            inputs += [p for p in top.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        elif top.is_file():
            inputs.append(top)
    return any(p.stat().st_mtime_ns > built for p in inputs)


def archive_stale(directory: Path) -> bool:
    """True if static/nestor.zip.gz (the modules the config ships) is missing or older than a
    module, data file or catalog it holds, or than a module added since."""
    try:
        built = (directory / "static" / "nestor.zip.gz").stat().st_mtime_ns
    except FileNotFoundError:
        return True
    inputs = [ROOT / "scripts" / "pyscript_config.py"]
    for name in ("nestor", "nestor_web", "locale"):
        top = directory / name
        inputs += [p for p in top.rglob("*") if p.suffix in (".py", ".mo", ".bin") and p.is_file()]
        inputs += [p for p in top.rglob("*") if p.is_dir() and "__pycache__" not in p.parts]
    return any(p.stat().st_mtime_ns > built for p in inputs)


def build_archive(directory: Path) -> None:
    """Write ``directory``'s pyscript.toml and static/nestor.zip.gz; on failure, say so and go
    on."""
    cmd = [sys.executable, str(ROOT / "scripts" / "pyscript_config.py")]
    result = subprocess.run(cmd, cwd=directory, capture_output=True, text=True, check=False)
    sys.stderr.write(result.stdout + result.stderr)


def build_sw(directory: Path) -> None:
    """Run the Workbox build for ``directory``; on failure, say so and go on."""
    cmd = ["node", str(ROOT / "scripts" / "build_sw.mjs"), str(directory)]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    sys.stderr.write(result.stdout + result.stderr)


# --------------------------------------------------------------------------- server
class Handler(SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler with netlify.toml's headers, fixed MIME types, no dotfiles."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    protocol_version = "HTTP/1.1"  # keep-alive: a page boot makes ~40 requests
    # Headers and body leave in two writes: without TCP_NODELAY, Nagle's algorithm and delayed
    # ACKs hold each response back, which the service worker's one-by-one precaching turns
    # into seconds.
    disable_nagle_algorithm = True
    quiet = False
    rules: list[HeaderRule] = []
    rebuild_sw = False
    _sw_lock = threading.Lock()
    _extra: dict[str, str] | None = None
    _config_error: HeaderConfigError | None = None

    def _rule_headers(self) -> dict[str, str]:
        if self._extra is None:
            try:
                self._extra = headers_for(self.rules, getattr(self, "path", "/"))
            except HeaderConfigError as e:  # reported by send_head as a 500
                self._extra, self._config_error = {}, e
        return self._extra

    def send_header(self, keyword: str, value: str) -> None:
        # A header netlify.toml sets for this path replaces the handler's own (Content-Type).
        if keyword.lower() in {k.lower() for k in self._rule_headers()}:
            return
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        extra = self._rule_headers()
        for name, value in extra.items():
            super().send_header(name, value)
        if "cache-control" not in {k.lower() for k in extra}:
            super().send_header("Cache-Control", DEFAULT_CACHE_CONTROL)
        super().end_headers()

    def handle_one_request(self) -> None:
        self._extra = self._config_error = None  # keep-alive: one handler, several requests
        super().handle_one_request()

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        # Never serve .git/, .venv/, .ci/ ... even on loopback.
        path = unquote(urlsplit(self.path).path)
        parts = path.split("/")
        if any(p.startswith(".") and p not in (".", "..") for p in parts):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        self._rule_headers()
        if self._config_error is not None:
            self.log_error("netlify.toml: %s", self._config_error)
            self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR, f"netlify.toml: {self._config_error}")
            return None
        if self.rebuild_sw and path in ("/sw.js", "/static/nestor.zip.gz"):
            directory = Path(self.directory)
            with self._sw_lock:
                if directory == ROOT and archive_stale(directory):
                    build_archive(directory)
                if path == "/sw.js" and sw_stale(directory):
                    build_sw(directory)
        return super().send_head()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: object
    ) -> None:
        # A browser closing a connection mid-response is not an error worth a traceback.
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def make_server(
    host: str = "127.0.0.1",
    port: int = 0,
    directory: Path = ROOT,
    quiet: bool = False,
    headers_file: Path = NETLIFY_TOML,
    rebuild_sw: bool = False,
    handler: type[Handler] = Handler,
) -> Server:
    """Bind (port 0 = any free port) without serving yet; call serve_forever().

    The responses carry the headers of ``headers_file`` (netlify.toml), read once here.
    ``handler`` may be a subclass of :class:`Handler` (the tests count bytes with one).
    """
    attrs = {"quiet": quiet, "rules": load_header_rules(headers_file), "rebuild_sw": rebuild_sw}
    bound = functools.partial(type("BoundHandler", (handler,), attrs), directory=str(directory))
    return Server((host, port), bound)


def origin(server: Server) -> str:
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}"


def serve_in_thread(
    directory: Path = ROOT, quiet: bool = True, port: int = 0
) -> tuple[Server, str]:
    """Start a server on 127.0.0.1:<port> (0: any free one) in a daemon thread.

    Returns the server and its origin.
    """
    server = make_server(port=port, directory=directory, quiet=quiet)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    return server, origin(server)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Serve the Nestor site for local play.")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (loopback only)")
    ap.add_argument("--dir", type=Path, default=ROOT, help="folder to serve (repo root)")
    ap.add_argument("--quiet", "-q", action="store_true", help="no request log")
    ap.add_argument(
        "--rebuild-sw", action="store_true", help="rebuild a stale sw.js when it is requested"
    )
    args = ap.parse_args(argv)

    try:
        server = make_server(
            args.host, args.port, args.dir.resolve(), args.quiet, rebuild_sw=args.rebuild_sw
        )
    except HeaderConfigError as e:
        print(f"serve: netlify.toml: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"serve: cannot bind {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        return 1
    print(f"Serving {args.dir.resolve()} at {origin(server)}/  (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

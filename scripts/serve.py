#!/usr/bin/env python3
"""Static dev server for the repo root (stdlib only), bound to 127.0.0.1.

Usage: python3 scripts/serve.py [--port 8000] [--host 127.0.0.1] [--dir REPO_ROOT] [--quiet]

Also imported by e2e/conftest.py (make_server) so the tests serve the site exactly
as `make play` does.
"""

from __future__ import annotations

import argparse
import functools
import io
import socket
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent

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


class Handler(SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler with fixed MIME types, no-cache, and dotfiles hidden."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    protocol_version = "HTTP/1.1"  # keep-alive: a page boot makes ~40 requests
    quiet = False

    def end_headers(self) -> None:
        # Revalidate every time (cheap 304s via If-Modified-Since) so reloads see edits.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        # Never serve .git/, .venv/, .ci/ ... even on loopback.
        parts = unquote(urlsplit(self.path).path).split("/")
        if any(p.startswith(".") and p not in (".", "..") for p in parts):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
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
    host: str = "127.0.0.1", port: int = 0, directory: Path = ROOT, quiet: bool = False
) -> Server:
    """Bind (port 0 = any free port) without serving yet; call serve_forever()."""
    handler = functools.partial(
        type("BoundHandler", (Handler,), {"quiet": quiet}), directory=str(directory)
    )
    return Server((host, port), handler)


def origin(server: Server) -> str:
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}"


def serve_in_thread(directory: Path = ROOT, quiet: bool = True) -> tuple[Server, str]:
    """Start a server on 127.0.0.1:<free port> in a daemon thread; return it and its origin."""
    server = make_server(port=0, directory=directory, quiet=quiet)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    return server, origin(server)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Serve the Nestor site for local play.")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (loopback only)")
    ap.add_argument("--dir", type=Path, default=ROOT, help="folder to serve (repo root)")
    ap.add_argument("--quiet", "-q", action="store_true", help="no request log")
    args = ap.parse_args(argv)

    try:
        server = make_server(args.host, args.port, args.dir.resolve(), args.quiet)
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

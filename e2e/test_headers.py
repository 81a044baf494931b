"""The production headers (netlify.toml), the web app manifest and its icons, in Chromium.

The session's server (scripts/serve.py) sends netlify.toml's headers to every test; these tests
check that it does, that the game runs under that policy without a single violation, and that
the policy holds no more than the runtime needs.
"""

from __future__ import annotations

import json
import re
import struct
import threading
import urllib.request
from urllib.parse import urljoin, urlsplit

import pytest
from conftest import ROOT, control, serve
from helpers import next_frame, play_pairs
from playwright.sync_api import BrowserContext, Page, Route, expect

from nestor import Game, Pair

RULES = serve.load_header_rules()
WASM = "/static/vendor/pyodide/pyodide.asm.wasm"


def head(url: str) -> urllib.request.addinfourl:
    return urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=10)


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height

PLUGINS_OFF = ("deprecations-manager", "donkey", "py-editor", "py-game", "py-terminal")


def test_served_headers_are_netlify_tomls(base_url) -> None:
    chunk = next((ROOT / "static/vendor/pyscript").glob("core-*.js")).name
    runtime = next(ROOT.glob("workbox-*.js")).name
    paths = [
        "/", "/index.html", "/?variant=standard&deal=7", "/sw.js", f"/{runtime}", "/pyscript.toml",
        "/main.py", "/static/manifest.webmanifest", WASM, "/static/vendor/pyodide/pyodide.mjs",
        "/static/vendor/pyscript/core.js", f"/static/vendor/pyscript/{chunk}",
        "/static/icons/icon-192.png", "/missing.html",
    ]
    for path in paths:
        try:
            response = head(base_url + path)
        except urllib.error.HTTPError as error:  # the 404 carries the headers all the same
            response = error
        expected = serve.headers_for(RULES, path)
        for name, value in expected.items():
            assert response.headers.get_all(name) == [value], (path, name)
        if "Cache-Control" not in expected:
            assert response.headers["Cache-Control"] == serve.DEFAULT_CACHE_CONTROL, path
    assert head(base_url + WASM).headers["Content-Type"] == "application/wasm"
    manifest = head(base_url + "/static/manifest.webmanifest")
    assert manifest.headers["Content-Type"] == "application/manifest+json"


def test_manifest_and_icons(base_url) -> None:
    manifest_url = base_url + "/static/manifest.webmanifest"
    manifest = json.loads(get(manifest_url))
    assert manifest["name"].startswith("Nestor") and manifest["short_name"] == "Nestor"
    assert manifest["display"] == "standalone"
    # Relative to the manifest, so the app works from a sub-path too: both are the site's root.
    assert urljoin(manifest_url, manifest["start_url"]) == base_url + "/"
    assert urljoin(manifest_url, manifest["scope"]) == base_url + "/"
    html = get(base_url + "/").decode()
    theme = re.search(r'<meta name="theme-color" content="([^"]+)"', html)
    assert theme and theme.group(1) == manifest["theme_color"]
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])

    purposes = set()
    for icon in manifest["icons"]:
        data = get(urljoin(manifest_url, icon["src"]))
        purposes.add((icon["sizes"], icon["purpose"]))
        if icon["type"] == "image/svg+xml":
            assert icon["sizes"] == "any" and data.lstrip().startswith(b"<svg")
        else:
            assert icon["type"] == "image/png"
            width, height = png_size(data)
            assert icon["sizes"] == f"{width}x{height}", icon
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    for shot in manifest["screenshots"]:
        width, height = png_size(get(urljoin(manifest_url, shot["src"])))
        assert shot["sizes"] == f"{width}x{height}", shot
    assert {s["form_factor"] for s in manifest["screenshots"]} == {"narrow", "wide"}

    # index.html links the manifest and the Apple touch icon.
    links = dict(re.findall(r'<link rel="([^"]+)" href="([^"]+)"', html))
    assert links["manifest"] == "./static/manifest.webmanifest"
    assert png_size(get(urljoin(base_url + "/", links["apple-touch-icon"]))) == (180, 180)


@pytest.mark.service_worker
def test_game_runs_under_the_policy_without_violations(
    context: BrowserContext, page: Page, wait_ready, page_log
) -> None:
    # Its own context: the service worker runs under the policy too.
    response = page.goto("/?variant=standard&deal=7")
    assert response is not None
    policy = serve.headers_for(RULES, "/")["Content-Security-Policy"]
    assert response.headers["content-security-policy"] == policy
    wait_ready(page)
    # COOP and COEP: the page is cross-origin isolated (Pyodide gets a SharedArrayBuffer).
    assert page.evaluate("crossOriginIsolated") is True
    # The service worker controls the page after the first load.
    page.wait_for_function("navigator.serviceWorker.controller !== null")

    # Play, and show every part of the page that renders something.
    game = Game("standard", 7)
    move = next(m for m in game.legal_moves() if isinstance(m, Pair))
    for card in move.cards:
        page.click(f'[data-card="{card}"][data-available]')
    expect(page.locator("#cards-left")).to_have_text("50")
    page.click('[data-action="undo"]')
    page.click('[data-action="hint"]')
    for variant in ("vertical", "overlapping", "strict", "doublets"):
        page.select_option("#variant", variant)
        expect(page).to_have_url(re.compile(f"variant={variant}"))
    control(page, "new").click()
    # The panels and dialogs, each closed by its own button (a form of method "dialog",
    # which the policy's form-action 'none' must not refuse).
    for name in ("settings", "rules", "stats", "keys"):
        page.click(f'#controls [data-action="{name}"]')
        dialog = page.locator(f"#{name}-dialog")
        expect(dialog).to_have_attribute("open", "")
        dialog.get_by_role("button", name="Close").click()
        expect(dialog).not_to_have_attribute("open", "")
    expect(page.locator("body")).not_to_have_attribute("data-busy", "")  # the hint is done
    # Violation events are queued as tasks: let the page paint a frame and run what is queued.
    # (Any that came later still fails the test: conftest reports them after the test body.)
    next_frame(page)
    assert page_log.csp_violations == []
    assert page_log.console_errors == [] and page_log.page_errors == []
    assert page_log.external_requests() == []
    # The PyScript plugins the config turns off were not even downloaded (error is kept).
    chunks = {u.rsplit("/", 1)[1].rsplit("-", 1)[0] for u in page_log.requests if "/pyscript/" in u}
    assert "error" in chunks and not chunks & set(PLUGINS_OFF), chunks
    # Our modules came in one archive: no Python file but the entry script was fetched.
    paths = [urlsplit(u).path for u in page_log.requests]
    assert "/static/nestor.zip.gz" in paths
    assert "/main.py" in paths
    assert {p for p in paths if p.endswith((".py", ".mo"))} == {"/main.py"}, paths


@pytest.mark.allow_console_errors
def test_pyscript_still_needs_unsafe_eval(site_context, page_logs, base_url) -> None:
    # The policy allows 'unsafe-eval' for PyScript alone (see netlify.toml). Without it, PyScript
    # must still fail: once it no longer does, drop 'unsafe-eval' from the policy.
    context = site_context(base_url, service_workers="block")
    page = context.new_page()

    def without_unsafe_eval(route: Route) -> None:
        response = route.fetch()
        headers = dict(response.headers)
        headers["content-security-policy"] = headers["content-security-policy"].replace(
            " 'unsafe-eval'", ""
        )
        route.fulfill(response=response, headers=headers)

    page.route(re.compile(r"/\?csp-canary$"), without_unsafe_eval)
    page.goto("/?csp-canary")

    def refused() -> list[str]:  # reported by conftest's securitypolicyviolation listener
        return [v for log in page_logs for v in log.csp_violations if "blocked eval" in v]

    page.wait_for_function(
        "() => (window.__nestorCspLog || []).some(v => v.includes('blocked eval'))",
        timeout=30_000,
    )
    assert refused() and all("/static/vendor/pyscript/core-" in v for v in refused()), refused()
    assert page.locator("body[data-ready]").count() == 0


@pytest.mark.slow  # make test-slow: make test: the game under the policy
def test_a_host_that_sends_no_headers_serves_a_game_that_plays(
    site_context, wait_ready, tmp_path
) -> None:
    # netlify.toml's headers are the host's: one that cannot send them (a plain file host)
    # serves the game without its policy and unisolated, and it plays all the same.
    bare = tmp_path / "no-headers.toml"
    bare.write_text("")
    server = serve.make_server(directory=ROOT, quiet=True, headers_file=bare)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        origin = serve.origin(server)
        context = site_context(origin, service_workers="block")
        page = context.new_page()
        response = page.goto("/?variant=standard&deal=7")
        assert response is not None and "cross-origin-embedder-policy" not in response.headers
        wait_ready(page)
        assert page.evaluate("crossOriginIsolated") is False
        play_pairs(page, Game("standard", 7))  # the cards left show 50 after it
    finally:
        server.shutdown()
        server.server_close()


def test_a_host_that_sends_the_archive_as_gzip_content_serves_a_game_that_plays(
    site_context, wait_ready, tmp_path
) -> None:
    # Some hosts send a .gz file with "Content-Encoding: gzip": the browser then hands the
    # page the zip itself, which static/js/interpreter.js takes as it is.
    encoded = tmp_path / "gzip-encoding.toml"
    encoded.write_text(
        '[[headers]]\n  for = "/static/nestor.zip.gz"\n'
        '  [headers.values]\n    Content-Encoding = "gzip"\n'
    )
    server = serve.make_server(directory=ROOT, quiet=True, headers_file=encoded)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        context = site_context(serve.origin(server), service_workers="block")
        page = context.new_page()
        with page.expect_response("**/static/nestor.zip.gz") as archive:
            page.goto("/?variant=standard&deal=7")
        assert archive.value.headers.get("content-encoding") == "gzip"
        wait_ready(page)
        play_pairs(page, Game("standard", 7))  # the cards left show 50 after it
    finally:
        server.shutdown()
        server.server_close()

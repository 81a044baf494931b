"""The vendored PyScript + Pyodide runtime boots from the local server alone."""

import os
import re

from playwright.sync_api import Page, expect

SHOTS = os.environ.get("NESTOR_SCREENSHOT_DIR")  # e.g. e2e/artifacts, to look at the page


def test_smoke_page_boots_python_offline(page: Page, wait_ready, page_log, base_url) -> None:
    response = page.goto("/e2e/smoke/")
    assert response is not None and response.ok
    wait_ready(page)

    expect(page.locator("#out")).to_have_text(
        re.compile(r"^Hello from Python 3\.\d+\.\d+ on emscripten$")
    )
    boot_ms = int(page.locator("body").get_attribute("data-boot-ms") or "0")
    print(f"boot: {boot_ms} ms to data-ready")
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, "smoke.png"))

    # The runtime came from our server: interpreter, wasm, stdlib, lock file, PyScript chunks.
    paths = {u.removeprefix(base_url) for u in page_log.requests}
    for needed in (
        "/static/vendor/pyscript/core.js",
        "/static/vendor/pyodide/pyodide.mjs",
        "/static/vendor/pyodide/pyodide.asm.wasm",
        "/static/vendor/pyodide/python_stdlib.zip",
        "/e2e/smoke/main.py",
    ):
        assert needed in paths, f"{needed} not requested; got {sorted(paths)}"
    assert page_log.external_requests() == []
    assert page_log.console_errors == [] and page_log.page_errors == []

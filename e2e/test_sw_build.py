"""The service worker a deployment writes: a browser's update check never meets half of one."""

from __future__ import annotations

import re

from helpers import deploy

IMPORTS = re.compile(r'importScripts\("([^"]+)"\)')
BOOT = re.compile(r"^self\.NESTOR_BOOT=\{bytes:(\d+)\};")


def test_a_new_deployment_changes_sw_js_alone(site_copy) -> None:
    # A browser's update check compares sw.js and every script it imports byte for byte. When
    # a deployment changed an imported script too (the precache total once had a file of its
    # own, written a moment before sw.js), a check that fell between the two writes installed a
    # worker of the old manifest: after the takeover the player still had the old version, and
    # was offered the new one again. So what changes with a deployment is in sw.js only.
    root = site_copy.root
    before = (root / "sw.js").read_text()
    imported = IMPORTS.findall(before)
    assert imported == ["static/js/sw-install.js"]
    scripts = {name: (root / name).read_bytes() for name in imported}

    deploy(site_copy, 2)
    after = (root / "sw.js").read_text()
    assert after != before
    assert IMPORTS.findall(after) == imported
    assert {name: (root / name).read_bytes() for name in imported} == scripts
    assert not (root / "sw.next.js").exists()  # written whole, then renamed into place

    # The total the download bar counts up to is sw.js's first line: what a boot fetches.
    total = BOOT.match(after)
    assert total, after[:200]
    fetched = ["static/nestor.zip.gz", *(
        f"static/vendor/pyodide/{name}"
        for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"))]
    assert int(total.group(1)) == sum((root / name).stat().st_size for name in fetched)

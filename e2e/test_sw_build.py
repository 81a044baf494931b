"""The service worker a deployment writes: a browser's update check never meets half of one."""

from __future__ import annotations

import re

from test_offline import deploy

IMPORTS = re.compile(r'importScripts\("([^"]+)"\)')
TOTAL = re.compile(r"^self\.NESTOR_PRECACHE=\{bytes:(\d+),files:(\d+)\};")
ENTRY = re.compile(r'\{url:"([^"]+)"')


def test_a_new_deployment_changes_sw_js_alone(site_copy) -> None:
    # A browser's update check compares sw.js and every script it imports byte for byte. When
    # a deployment changed an imported script too (the precache total once had a file of its
    # own, written a moment before sw.js), a check that fell between the two writes installed a
    # worker of the old manifest: after the takeover the player still had the old version, and
    # was offered the new one again. So what changes with a deployment is in sw.js only.
    root = site_copy.root
    before = (root / "sw.js").read_text()
    imported = IMPORTS.findall(before)
    assert imported == ["static/js/sw-progress.js"]
    scripts = {name: (root / name).read_bytes() for name in imported}

    deploy(site_copy, 2)
    after = (root / "sw.js").read_text()
    assert after != before
    assert IMPORTS.findall(after) == imported
    assert {name: (root / name).read_bytes() for name in imported} == scripts
    assert not (root / "sw.next.js").exists()  # written whole, then renamed into place

    # The total the progress bar counts up to is sw.js's first line: the manifest's files.
    total = TOTAL.match(after)
    assert total, after[:200]
    files = ENTRY.findall(after)
    assert int(total.group(2)) == len(files)
    assert int(total.group(1)) == sum((root / name).stat().st_size for name in files)

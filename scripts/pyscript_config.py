#!/usr/bin/env python3
"""Write pyscript.json: the PyScript config that ships nestor/, nestor_web/ and the catalogs.

Usage: python3 scripts/pyscript_config.py [--check]

Run it after adding or removing a module; ``--check`` only reports whether the file is
up to date (exit status 1 if not). tests/test_site.py fails when it is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("nestor", "nestor_web")
CATALOGS = ("locale/de/LC_MESSAGES/nestor.mo",)  # compiled by scripts/locales.py compile


def config() -> str:
    """The config text: the vendored interpreter, and each module at the same path."""
    paths = [
        str(p.relative_to(ROOT)) for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))
    ]
    files = {f"./{path}": f"./{path}" for path in [*paths, *CATALOGS]}
    data = {"interpreter": "./static/vendor/pyodide/pyodide.mjs", "files": files}
    return json.dumps(data, indent=2) + "\n"


def main() -> int:
    """Write (or with --check, compare) pyscript.json; return the exit status."""
    path = ROOT / "pyscript.json"
    text = config()
    if "--check" in sys.argv[1:]:
        fresh = path.exists() and path.read_text() == text
        print("pyscript.json is up to date" if fresh else "pyscript.json is stale")
        return 0 if fresh else 1
    path.write_text(text)
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

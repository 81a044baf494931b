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
# PyScript 0.7.31's default plugins (the table in static/vendor/pyscript/core-*.js) that the
# game does not use, turned off ("!name"): each one off is a chunk the page does not import.
#   codemirror            the editor's loader, for <py-editor> (bundled: no request of its own)
#   deprecations-manager  warns about scripts loaded from pyscript.net/latest (we vendor)
#   donkey                a worker-backed exec/eval helper for code playgrounds
#   py-editor, py-game, py-terminal    the <py-editor>, py-game and terminal script types
# Kept: error, which shows a Python error on the page (off, its chunk is imported all the same).
PLUGINS_OFF = (
    "codemirror", "deprecations-manager", "donkey", "py-editor", "py-game", "py-terminal"
)


def config() -> str:
    """The config text: the vendored interpreter, the plugins off, each module at its path."""
    paths = [
        str(p.relative_to(ROOT)) for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))
    ]
    files = {f"./{path}": f"./{path}" for path in [*paths, *CATALOGS]}
    data = {
        "interpreter": "./static/vendor/pyodide/pyodide.mjs",
        "plugins": [f"!{name}" for name in PLUGINS_OFF],
        "files": files,
    }
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

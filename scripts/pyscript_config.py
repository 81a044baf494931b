#!/usr/bin/env python3
"""Write pyscript.toml: the PyScript config that ships nestor/, nestor_web/ and the catalogs.

Usage: python3 scripts/pyscript_config.py [--check]

Run it after adding or removing a module; ``--check`` only reports whether the file is
up to date (exit status 1 if not). tests/test_site.py fails when it is stale.

The config is TOML, as the project's specification names it. PyScript reads it with the small
TOML parser of its runtime (static/vendor/pyscript/toml-*.js, precached by sw.js), which knows
only plain tables, strings, arrays and numbers: this writes nothing else, every key and string
quoted, and tests/test_site.py checks that ``tomllib`` reads the file as :func:`data` gives it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyscript.toml"
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


class Config(TypedDict):
    """pyscript.toml's tables, as ``tomllib`` reads them."""

    interpreter: str
    plugins: list[str]
    files: dict[str, str]


def data() -> Config:
    """The config: the vendored interpreter, the plugins off, each module at its own path.

    Shape: ``{"interpreter": str, "plugins": [str, ...], "files": {source: destination}}``,
    every path relative to the page ("./nestor/game.py").
    """
    paths = [
        str(p.relative_to(ROOT)) for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))
    ]
    return {
        "interpreter": "./static/vendor/pyodide/pyodide.mjs",
        "plugins": [f"!{name}" for name in PLUGINS_OFF],
        "files": {f"./{path}": f"./{path}" for path in [*paths, *CATALOGS]},
    }


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for these paths and names)."""
    return json.dumps(text)


def config() -> str:
    """The text of pyscript.toml for :func:`data`."""
    config = data()
    lines = [
        "# Written by scripts/pyscript_config.py (run it after adding or removing a module).",
        f"interpreter = {_string(config['interpreter'])}",
        "plugins = [" + ", ".join(_string(p) for p in config["plugins"]) + "]",
        "",
        "[files]",
    ]
    lines += [f"{_string(src)} = {_string(dest)}" for src, dest in config["files"].items()]
    return "\n".join(lines) + "\n"


def main() -> int:
    """Write (or with --check, compare) pyscript.toml; return the exit status."""
    text = config()
    if "--check" in sys.argv[1:]:
        fresh = CONFIG.exists() and CONFIG.read_text() == text
        print("pyscript.toml is up to date" if fresh else "pyscript.toml is stale")
        return 0 if fresh else 1
    CONFIG.write_text(text)
    print(f"wrote {CONFIG.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

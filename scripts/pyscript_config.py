#!/usr/bin/env python3
"""Write pyscript.toml, static/nestor.zip and static/nestor-build.json: the PyScript config, the
archive it ships, and the ids a start-up snapshot is kept under.

Usage: python3 scripts/pyscript_config.py [--check]

The archive holds nestor/, nestor_web/ (every .py file) and the compiled catalogs, at their
paths in the repo; the config's ``files`` has PyScript unpack it into Python's working folder
(``"./static/nestor.zip" = "./*"``): one request instead of one per module. ``make vendor``
runs this, and so does ``scripts/serve.py --rebuild-sw`` (make play) when a module changed;
scripts/build_site.py writes the archive of the site it builds. ``--check`` only reports whether
both are up to date (exit status 1 if not). The archive is the same bytes for the same files
(fixed times and order), so an unchanged tree gives an unchanged sw.js.

static/nestor-build.json is ``{"pyodide": BUILD_ID, "code": SHA-256 of static/nestor.zip}``
(both 64 hex digits): the vendored Pyodide's build id (the one it writes into a memory snapshot
and checks on restore, read from static/vendor/pyodide/pyodide.mjs) and the digest of our code.
The config's ``interpreter`` is static/js/snapshot.js, a wrapper of Pyodide's ``loadPyodide``
that restores a snapshot stored under exactly these two ids, else boots normally.

The config is TOML, as the project's specification names it. PyScript reads it with the small
TOML parser of its runtime (static/vendor/pyscript/toml-*.js, precached by sw.js), which knows
only plain tables, strings, arrays and numbers: this writes nothing else, every key and string
quoted, and tests/test_site.py checks that ``tomllib`` reads the file as :func:`data` gives it.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyscript.toml"
ARCHIVE = "static/nestor.zip"  # relative to the site's root
BUILD_INFO = "static/nestor-build.json"  # beside it: the ids a snapshot is kept under
PYODIDE_MJS = "static/vendor/pyodide/pyodide.mjs"  # copied by scripts/vendor.py
INTERPRETER = "./static/js/snapshot.js"  # the wrapper of loadPyodide (start-up snapshots)
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


def members(root: Path = ROOT) -> list[str]:
    """The archive's files, relative to ``root``: each module of both packages, the catalogs.

    Raises:
        FileNotFoundError: a catalog is not compiled yet (scripts/locales.py compile).
    """
    paths = [
        str(p.relative_to(root)) for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))
    ]
    for catalog in CATALOGS:
        if not (root / catalog).is_file():
            raise FileNotFoundError(f"{catalog} is missing: run scripts/locales.py compile")
    return [*paths, *CATALOGS]


def archive(root: Path = ROOT) -> bytes:
    """The zip of :func:`members` (deflated, each entry dated 1980-01-01, in that order)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in members(root):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, (root / name).read_bytes())
    return out.getvalue()


class BuildInfo(TypedDict):
    """static/nestor-build.json: what a start-up snapshot must have been made from."""

    pyodide: str
    code: str


def pyodide_build_id(pyodide_mjs: Path) -> str:
    """The ``BUILD_ID`` in Pyodide's ``pyodide.mjs`` (64 hex digits).

    Raises:
        FileNotFoundError: the file is missing (run the setup step, make vendor).
        ValueError: the file holds no (or more than one) build id.
    """
    found = set(re.findall(r'BUILD_ID:"([0-9a-f]{64})"', pyodide_mjs.read_text(encoding="utf-8")))
    if len(found) != 1:
        raise ValueError(f"{pyodide_mjs}: expected one BUILD_ID, found {len(found)}")
    return str(found.pop())


def build_info(archive_bytes: bytes, pyodide_mjs: Path) -> BuildInfo:
    """The snapshot ids for an archive of ``archive_bytes`` and the Pyodide at ``pyodide_mjs``.

    Raises:
        FileNotFoundError, ValueError: as :func:`pyodide_build_id`.
    """
    return {
        "pyodide": pyodide_build_id(pyodide_mjs),
        "code": hashlib.sha256(archive_bytes).hexdigest(),
    }


def build_info_text(info: BuildInfo) -> str:
    """The text of static/nestor-build.json."""
    return json.dumps(info, indent=2, sort_keys=True) + "\n"


def _write(dest: Path, data: bytes) -> bool:
    if dest.is_file() and dest.read_bytes() == data:
        return False
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(data)
    return True


def write_archive(dest: Path, root: Path = ROOT, pyodide_mjs: Path | None = None) -> bool:
    """Write :func:`archive` to ``dest``, and :func:`build_info` beside it (``nestor-build.json``
    in the same folder), each unless it holds those bytes already; True if either was written.

    ``pyodide_mjs``: the Pyodide the site ships (default: ``root``'s vendored one).

    Raises:
        FileNotFoundError: a catalog or Pyodide is missing (run the setup step, make vendor).
        ValueError: as :func:`pyodide_build_id`.
    """
    data = archive(root)
    info = build_info(data, pyodide_mjs or root / PYODIDE_MJS)
    wrote = _write(dest, data)
    wrote = _write(dest.with_name(Path(BUILD_INFO).name), build_info_text(info).encode()) or wrote
    return wrote


def data() -> Config:
    """The config: the wrapper of the vendored Pyodide, the plugins off, the archive unpacked.

    Shape: ``{"interpreter": str, "plugins": [str, ...], "files": {"./static/nestor.zip":
    "./*"}}``, paths relative to the page; ``./*`` is Python's working folder.
    """
    return {
        "interpreter": INTERPRETER,
        "plugins": [f"!{name}" for name in PLUGINS_OFF],
        "files": {f"./{ARCHIVE}": "./*"},
    }


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for these paths and names)."""
    return json.dumps(text)


def config() -> str:
    """The text of pyscript.toml for :func:`data`."""
    config = data()
    lines = [
        "# Written by scripts/pyscript_config.py, with the archive it ships.",
        f"interpreter = {_string(config['interpreter'])}",
        "plugins = [" + ", ".join(_string(p) for p in config["plugins"]) + "]",
        "",
        "[files]",
    ]
    lines += [f"{_string(src)} = {_string(dest)}" for src, dest in config["files"].items()]
    return "\n".join(lines) + "\n"


def main() -> int:
    """Write (or with --check, compare) pyscript.toml and the archive; return the exit status."""
    text = config()
    if "--check" in sys.argv[1:]:
        fresh = CONFIG.exists() and CONFIG.read_text() == text
        data = archive()
        zipped = (ROOT / ARCHIVE).is_file() and (ROOT / ARCHIVE).read_bytes() == data
        info = build_info_text(build_info(data, ROOT / PYODIDE_MJS))
        ids = (ROOT / BUILD_INFO).is_file() and (ROOT / BUILD_INFO).read_text() == info
        print("pyscript.toml is " + ("up to date" if fresh else "stale"))
        print(f"{ARCHIVE} is " + ("up to date" if zipped else "stale"))
        print(f"{BUILD_INFO} is " + ("up to date" if ids else "stale"))
        return 0 if fresh and zipped and ids else 1
    if not CONFIG.exists() or CONFIG.read_text() != text:
        CONFIG.write_text(text)
        print(f"wrote {CONFIG.relative_to(ROOT)}")
    if write_archive(ROOT / ARCHIVE):
        print(f"wrote {ARCHIVE} and {BUILD_INFO}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

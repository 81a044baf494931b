#!/usr/bin/env python3
"""Write pyscript.toml and static/nestor.zip.gz: the PyScript config and the archive it ships.

Usage: python3 scripts/pyscript_config.py [--check]

The archive holds nestor/ and nestor_web/ as bytecode alone (each module ``X.py`` as ``X.pyc``,
no source), but for the command lines (:data:`LEFT_OUT`), their data files (:data:`DATA`) and
the compiled catalogs, at their paths in the repo. Its members are stored, not compressed, and
the site serves the whole zip gzipped (:func:`shipped`): one stream compresses across the
modules, which share names and code, where a zip deflates each member on its own.
static/js/interpreter.js fetches it while Pyodide starts, has Python decompress the gzip into
its working folder (``/home/pyodide/nestor.zip``) and puts it on ``sys.path``. Python imports
the modules from it (zipimport, as it does the standard library): one request, nothing
unpacked, nothing to inflate, and no module compiled from source in the page. The bytecode
is written by the vendored Pyodide's own Python (scripts/compile_stdlib.mjs)
as ``python -OO`` would, asserts and docstrings out, a dataclass's docstring kept
(``--keep-dataclass-docs``), and the methods its dataclasses compile are compiled with them
(:data:`DATACLASS_CODE`), as is PyScript's own Python package (:data:`PYSCRIPT_CACHE`); a
traceback names the module's file in the archive and its line,
with no source line to show. The catalogs are read through the modules' loader
(nestor_web/view/i18n.py). The archive's zip comment stamps what it was made from
(:func:`stamp`), so an archive already current is known without Node (``--check``,
scripts/build_site.py). ``make vendor`` runs this, and so does ``scripts/serve.py
--rebuild-sw`` (make play) when a module changed; scripts/build_site.py writes the archive of
the site it builds. ``--check`` only reports whether both are up to date (exit status 1 if
not). The archive is the same bytes for the same files (fixed times and order), so an unchanged
tree gives an unchanged sw.js.

The config is TOML, as the project's specification names it. PyScript reads it with the small
TOML parser of its runtime (static/vendor/pyscript/toml-*.js, precached by sw.js), which knows
only plain tables, strings, arrays and numbers: this writes nothing else, every key and string
quoted, and tests/test_site.py checks that ``tomllib`` reads the file as :func:`data` gives it.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyscript.toml"
ARCHIVE = "static/nestor.zip.gz"  # relative to the site's root: the archive, gzipped
WORKING_FOLDER = "/home/pyodide"  # PyScript's working folder: Python's cwd
SHIPPED_AS = "nestor.zip"  # the archive's name there, on sys.path (static/js/interpreter.js)
PACKAGES = ("nestor", "nestor_web")
CATALOGS = ("locale/de/LC_MESSAGES/nestor.mo",)  # compiled by scripts/locales.py compile
# The packages' data files, read through their loader.
DATA = ("nestor/graded_deals.bin", "nestor/puzzles/puzzles.txt")
DATACLASS_CODE = "nestor_web/browser/dataclass_code.bin"
"""The methods the modules' dataclasses compile, compiled by the build
(nestor_web/browser/precompiled.py)."""
PYSCRIPT_CACHE = "nestor_web/browser/pyscript_cache.bin"
"""PyScript's own Python package as bytecode (nestor_web/browser/precompiled.py)."""
LEFT_OUT = (
    "nestor/__main__.py", "nestor/cli.py", "nestor_web/__main__.py",
    "nestor_web/view/first_visit.py",
)
"""Files of the packages the page never reads, not shipped: the command lines, and the first
visit's board that the build draws
(tests/test_site.py checks that the page's imports reach every other module and none of these;
scripts/trim_stdlib.py keeps no stdlib module only these import)."""
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


def modules(root: Path = ROOT) -> list[str]:
    """The modules the archive ships, relative to ``root``: every ``.py`` file of both
    packages but :data:`LEFT_OUT`, in order."""
    found = (p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py")))
    return [path for p in found if (path := str(p.relative_to(root))) not in LEFT_OUT]


def members(root: Path = ROOT) -> list[str]:
    """The archive's files, relative to ``root``: the :func:`modules`, their :data:`DATA`,
    the catalogs.

    Raises:
        FileNotFoundError: a catalog is not compiled yet (scripts/locales.py compile).
    """
    for catalog in CATALOGS:
        if not (root / catalog).is_file():
            raise FileNotFoundError(f"{catalog} is missing: run scripts/locales.py compile")
    return [*modules(root), *DATA, *CATALOGS]


def archive(root: Path = ROOT) -> bytes:
    """The zip of :func:`members` (stored, each entry dated 1980-01-01, in that order), each
    module as its bytecode (:func:`with_bytecode`): what Python imports from.

    Raises:
        FileNotFoundError: a catalog is not compiled yet.
        RuntimeError: the bytecode could not be written (see :func:`with_bytecode`).
    """
    return _archive_of(sources(root))


def _archive_of(zipped: bytes) -> bytes:
    """The archive of the sources zip ``zipped``: its bytecode added, its members stored, its
    :func:`stamp` as the comment."""
    return stamped(stored(with_bytecode(zipped)), stamp(zipped))


def stored(zipped: bytes) -> bytes:
    """``zipped`` with every member stored (not compressed), in the same order, names and
    dates: :func:`shipped` compresses the whole."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(zipped)) as source, zipfile.ZipFile(out, "w") as zf:
        for info in source.infolist():
            copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            copy.compress_type = zipfile.ZIP_STORED
            copy.external_attr = info.external_attr
            zf.writestr(copy, source.read(info))
    return out.getvalue()


def shipped(data: bytes) -> bytes:
    """The archive ``data`` as the site serves it: gzipped (level 9, no name, no time: the
    same bytes for the same archive)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def unshipped(data: bytes) -> bytes:
    """The archive in the site's file ``data`` (what :func:`shipped` made).

    Raises:
        OSError, EOFError: ``data`` is not gzip (``gzip.BadGzipFile`` is an OSError).
    """
    return gzip.decompress(data)


def stamp(zipped: bytes) -> bytes:
    """What the archive of the sources zip ``zipped`` is made from, as the archive's zip
    comment: the SHA-256 of the sources, of the compiler script, of this script (which packs
    the archive) and of the vendored Pyodide's and PyScript's versions. An archive whose
    comment is this is current without compiling it again."""
    digest = hashlib.sha256(zipped)
    digest.update((ROOT / "scripts" / "compile_stdlib.mjs").read_bytes())
    digest.update(Path(__file__).read_bytes())
    for package in ("pyodide", "@pyscript/core"):
        manifest = ROOT / "node_modules" / package / "package.json"
        digest.update(manifest.read_bytes() if manifest.is_file() else b"")
    return b"nestor sources " + digest.hexdigest().encode()


def stamped(zipped: bytes, comment: bytes) -> bytes:
    """``zipped`` with the zip comment ``comment``."""
    out = io.BytesIO(zipped)
    with zipfile.ZipFile(out, "a") as zf:
        zf.comment = comment
    return out.getvalue()


def current(dest: Path, root: Path = ROOT) -> bool:
    """Whether the archive at ``dest`` was made from ``root``'s sources as they are now (its
    comment is their :func:`stamp`): checked without Node.

    Raises:
        FileNotFoundError: a catalog is not compiled yet.
    """
    return _stamped_with(dest, stamp(sources(root)))


def _stamped_with(dest: Path, comment: bytes) -> bool:
    """Whether the site's archive at ``dest`` is a zip with the comment ``comment`` (False if
    it is no gzipped zip)."""
    try:
        with zipfile.ZipFile(io.BytesIO(unshipped(dest.read_bytes()))) as zf:
            return zf.comment == comment
    except (OSError, EOFError, zipfile.BadZipFile):
        return False


def sources(root: Path = ROOT) -> bytes:
    """The zip of :func:`members` as sources (what the archive's bytecode is made from)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in members(root):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, (root / name).read_bytes())
    return out.getvalue()


def with_bytecode(zipped: bytes) -> bytes:
    """``zipped`` with each ``.py`` member replaced by its bytecode (``.pyc``), written by the
    vendored Pyodide's Python in Node (scripts/compile_stdlib.mjs); the same bytes for the
    same input.

    Raises:
        RuntimeError: Node or node_modules/pyodide is missing (``make vendor`` installs them),
            or a module does not compile; the message is the compiler's.
    """
    with tempfile.TemporaryDirectory(prefix="nestor-archive-") as tmp:
        source, output = Path(tmp) / "sources.zip", Path(tmp) / "archive.zip"
        source.write_bytes(zipped)
        cmd = ["node", str(ROOT / "scripts" / "compile_stdlib.mjs"), str(source), str(output),
               "--optimize", "2", "--keep-dataclass-docs",
               "--mount", f"{WORKING_FOLDER}/{SHIPPED_AS}",
               "--dataclass-code", DATACLASS_CODE, "--pyscript-cache", PYSCRIPT_CACHE]
        try:
            result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        except FileNotFoundError as error:
            raise RuntimeError(f"the archive needs Node to write its bytecode: {error}") from None
        if result.returncode != 0 or not output.is_file():
            raise RuntimeError(f"the archive's bytecode failed: {result.stderr.strip()}")
        return output.read_bytes()


def write_archive(dest: Path, data: bytes | None = None, root: Path = ROOT) -> bool:
    """Write the archive ``data`` (default: :func:`archive` of ``root``, unless ``dest`` is
    :func:`current`) to ``dest`` as the site serves it (:func:`shipped`) unless it holds those
    bytes already; True if written."""
    if data is None:
        zipped = sources(root)  # zipped once: for the check and, if stale, for the archive
        if _stamped_with(dest, stamp(zipped)):
            return False
        data = _archive_of(zipped)
    served = shipped(data)
    if dest.is_file() and dest.read_bytes() == served:
        return False
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(served)
    return True


def data() -> Config:
    """The config: the vendored interpreter (through static/js/interpreter.js, which
    static/js/pwa.js started already, and which writes the archive into the working folder),
    and the plugins off.

    Shape: ``{"interpreter": str, "plugins": [str, ...]}``, paths relative to the page.
    """
    return {
        "interpreter": "./static/js/interpreter.js",
        "plugins": [f"!{name}" for name in PLUGINS_OFF],
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
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    """Write (or with --check, compare) pyscript.toml and the archive; return the exit status."""
    text = config()
    try:
        if "--check" in sys.argv[1:]:
            fresh = CONFIG.exists() and CONFIG.read_text() == text
            up_to_date = current(ROOT / ARCHIVE)
            print("pyscript.toml is " + ("up to date" if fresh else "stale"))
            print(f"{ARCHIVE} is " + ("up to date" if up_to_date else "stale"))
            return 0 if fresh and up_to_date else 1
        if not CONFIG.exists() or CONFIG.read_text() != text:
            CONFIG.write_text(text)
            print(f"wrote {CONFIG.relative_to(ROOT)}")
        if write_archive(ROOT / ARCHIVE):
            print(f"wrote {ARCHIVE}")
    except (FileNotFoundError, RuntimeError) as error:
        print(f"pyscript_config: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

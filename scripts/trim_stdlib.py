#!/usr/bin/env python3
"""Write a smaller copy of Pyodide's ``python_stdlib.zip`` with only the modules the game needs.

    node_modules/pyodide/python_stdlib.zip  ->  build/python_stdlib.trimmed.zip

Part of the setup step (``make vendor``): ``scripts/compile_stdlib.mjs`` then compiles the
trimmed copy to bytecode as ``static/vendor/pyodide/python_stdlib.zip``, the one the page loads.
It is always made from the npm package's zip by these scripts, never edited by hand.

What is kept (stdlib only, runs on the build host's Python 3.11; the zip holds Python 3.14
sources, which this Python cannot parse, so imports are read with a line scanner, not ``ast``):

1. :data:`IN_USE`: every module of the zip that was in ``sys.modules`` after the game booted
   and was played (hint, solve on/off, statistics, keys, taps, undo/redo/restart/new, German,
   another variant, every setting, a reload with ``?deal=``): Pyodide's and PyScript's own
   imports and ours. Measured in Debian Chromium, Pyodide 314.0.7, ``@pyscript/core`` 0.7.31
   (2026-12-01: 148 modules; ``sorted(sys.modules)`` read through a temporary hook in
   ``main.py``, in a page with service workers blocked).
2. The standard-library modules that ``main.py`` and the modules of ``nestor/`` and
   ``nestor_web/`` the page ships import (scanned each run, so a new import in our code is
   kept without editing this file; the command lines, which the page leaves out, are not
   scanned: scripts/pyscript_config.py's ``LEFT_OUT``).
3. :data:`CODECS`: the codecs a lookup by name may need (found at run time, never imported).
4. The closure of 1-3 over module-level imports (an import inside a ``def`` runs only when
   called, one under ``if __name__ == "__main__":`` never on import) and over the parent
   packages of each kept module.

Everything else (unittest, multiprocessing, pydoc, email parsers, ...) is left out: a game
path that imports one of them raises ``ModuleNotFoundError``. After upgrading Pyodide or
PyScript, measure :data:`IN_USE` again.

Usage: python3 scripts/trim_stdlib.py [--source ZIP] [--output ZIP] [--quiet]
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
OUTPUT = ROOT / "build" / "python_stdlib.trimmed.zip"

IN_USE: tuple[str, ...] = (
    "__future__", "_collections_abc", "_colorize", "_opcode_metadata", "_py_warnings", "_pyodide",
    "_pyodide._base", "_pyodide._core_docs", "_pyodide._future_helper", "_pyodide._importhook",
    "_pyodide.docs_argspec", "_pyodide.docstring", "_pyodide.jsbind", "_sitebuiltins", "_ssl",
    "_weakrefset", "abc", "annotationlib", "ast", "asyncio", "asyncio.base_events",
    "asyncio.base_futures", "asyncio.base_subprocess", "asyncio.base_tasks", "asyncio.constants",
    "asyncio.coroutines", "asyncio.events", "asyncio.exceptions", "asyncio.format_helpers",
    "asyncio.futures", "asyncio.graph", "asyncio.locks", "asyncio.log", "asyncio.mixins",
    "asyncio.protocols", "asyncio.queues", "asyncio.runners", "asyncio.selector_events",
    "asyncio.sslproto", "asyncio.staggered", "asyncio.streams", "asyncio.subprocess",
    "asyncio.taskgroups", "asyncio.tasks", "asyncio.threads", "asyncio.timeouts",
    "asyncio.transports", "asyncio.trsock", "asyncio.unix_events", "base64", "bisect", "bz2",
    "codecs", "codeop", "collections", "compression", "compression._common",
    "compression._common._streams", "compression.zstd", "compression.zstd._zstdfile", "concurrent",
    "concurrent.futures", "concurrent.futures._base", "contextlib", "contextvars", "copy",
    "copyreg", "dataclasses", "dis", "encodings", "encodings.aliases", "encodings.cp437",
    "encodings.utf_8", "enum", "fnmatch", "functools", "genericpath", "gettext", "glob", "heapq",
    "html", "html.entities", "importlib", "importlib._abc", "importlib._bootstrap",
    "importlib._bootstrap_external", "importlib.abc", "importlib.machinery", "importlib.util",
    "inspect", "io", "ipaddress", "json", "json.decoder", "json.encoder", "json.scanner",
    "keyword", "linecache", "locale", "logging", "lzma", "ntpath", "opcode", "operator", "os",
    "pathlib", "pathlib._os", "posixpath", "pyodide", "pyodide._package_loader", "pyodide._state",
    "pyodide.code", "pyodide.common", "pyodide.ffi", "pyodide.webloop", "random", "re",
    "re._casefix", "re._compiler", "re._constants", "re._parser", "reprlib", "selectors", "shutil",
    "signal", "site", "socket", "ssl", "stat", "string", "struct", "subprocess", "tempfile",
    "textwrap", "threading", "token", "tokenize", "traceback", "types", "typing", "urllib",
    "urllib.parse", "warnings", "weakref", "zipfile", "zipfile._path", "zipfile._path.glob",
    "zipimport",
)
"""Modules of the zip in ``sys.modules`` after a boot and a session of play (see above)."""

CODECS: tuple[str, ...] = (
    "encodings.aliases", "encodings.ascii", "encodings.latin_1", "encodings.utf_8",
    "encodings.utf_8_sig", "encodings.utf_16", "encodings.utf_32", "encodings.idna",
)
"""Codec modules ``codecs.lookup`` may import by name (UTF-8, ASCII, Latin-1 and kin)."""

_IMPORT = re.compile(
    r"^[ \t]*(?:import[ \t]+(?P<modules>[\w. \t,]+)"
    r"|from[ \t]+(?P<source>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n#;]*))",
    re.MULTILINE,
)
_BLOCK = re.compile(r"^(?:(?:async[ \t]+)?def[ \t]|if[ \t]+__name__[ \t]*==)")


def module_level(source: str) -> str:
    """``source`` with the bodies of top-level ``def``s and ``if __name__ == ...`` blocks blanked.

    A line scan by indentation (methods of a class are blanked too: their ``def`` is the
    first one on the stack). Triple-quoted text is not tracked: an ``import`` line inside a
    docstring counts as an import, which only keeps more. Returns text with as many lines.
    """
    out: list[str] = []
    block_indent: int | None = None
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped:
            out.append("")
            continue
        indent = len(line) - len(line.lstrip())
        if block_indent is not None and indent <= block_indent:
            block_indent = None
        if block_indent is None and _BLOCK.match(stripped):
            block_indent = indent
        out.append("" if block_indent is not None else line)
    return "\n".join(out)


def imported_names(source: str, package: str) -> Iterator[str]:
    """The dotted names ``source`` imports; ``package`` resolves relative imports.

    ``package`` is the module's package (the module itself for an ``__init__``; ``""`` at top
    level). ``from a import b`` yields ``a`` and ``a.b`` (``b`` may be a submodule); the caller
    drops names that are not modules of the zip.
    """
    for match in _IMPORT.finditer(source):
        if match["modules"]:
            for part in match["modules"].split(","):
                words = part.split()
                if words:
                    yield words[0]
            continue
        dotted = match["source"]
        level = len(dotted) - len(dotted.lstrip("."))
        module = dotted.lstrip(".")
        if level:
            base = package.split(".") if package else []
            base = base[: len(base) - (level - 1)] if level > 1 else base
            module = ".".join([*base, module] if module else base)
        if not module:
            continue
        yield module
        for part in match["names"].strip("()").split(","):
            words = part.split()
            if words and words[0] != "*":
                yield f"{module}.{words[0]}"


class Stdlib:
    """The modules of one ``python_stdlib.zip``: dotted name -> member path."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.members = {info.filename: info for info in archive.infolist()}

    def path(self, module: str) -> str | None:
        """The member holding ``module`` (``a/b.py`` or ``a/b/__init__.py``), or None."""
        base = module.replace(".", "/")
        for candidate in (f"{base}/__init__.py", f"{base}.py"):
            if candidate in self.members:
                return candidate
        return None

    def imports(self, module: str) -> Iterator[str]:
        """The dotted names ``module`` imports at module level (see :func:`module_level`)."""
        path = self.path(module)
        if path is None:
            return
        source = self.archive.read(path).decode("utf-8", "replace")
        package = module if path.endswith("/__init__.py") else module.rpartition(".")[0]
        yield from imported_names(module_level(source), package)

    def closure(self, roots: Iterable[str]) -> set[str]:
        """``roots`` that are modules of the zip, their parent packages and what they import."""
        kept: set[str] = set()
        todo = list(roots)
        while todo:
            parts = todo.pop().split(".")
            for i in range(1, len(parts) + 1):
                name = ".".join(parts[:i])
                if name not in kept and self.path(name) is not None:
                    kept.add(name)
                    todo.extend(self.imports(name))
        return kept


def our_imports(root: Path = ROOT, paths: Iterable[str] | None = None) -> set[str]:
    """Every dotted name imported anywhere (also inside functions) in ``paths`` under ``root``
    (folders are scanned for ``*.py``; default: :func:`shipped`)."""
    found: set[str] = set()
    for entry in shipped(root) if paths is None else paths:
        target = root / entry
        files = sorted(target.rglob("*.py")) if target.is_dir() else [target]
        for file in files:
            found.update(imported_names(file.read_text(encoding="utf-8"), ""))
    return found


def shipped(root: Path = ROOT) -> tuple[str, ...]:
    """The files of our code the page runs: ``main.py`` and the modules static/nestor.zip.gz
    ships (scripts/pyscript_config.py's ``modules``), relative to ``root``."""
    spec = importlib.util.spec_from_file_location(
        "nestor_trim_pyscript_config", ROOT / "scripts" / "pyscript_config.py"
    )
    assert spec and spec.loader
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    return ("main.py", *config.modules(root))


def trim(source: Path, output: Path, roots: Iterable[str]) -> tuple[int, int, int]:
    """Write to ``output`` the members of ``source`` that hold the closure of ``roots``.

    Members keep their order, dates and compression; a kept package keeps its folder entry.
    Returns (modules kept, bytes of ``source``, bytes of ``output``).

    Raises:
        FileNotFoundError: no file at ``source``.
        zipfile.BadZipFile: ``source`` is not a zip.
    """
    with zipfile.ZipFile(source) as archive:
        stdlib = Stdlib(archive)
        modules = stdlib.closure(roots)
        keep = {p for m in modules if (p := stdlib.path(m)) is not None}
        folders = {p.rpartition("/")[0] + "/" for p in keep if p.endswith("/__init__.py")}
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_name(output.name + ".part")
        with zipfile.ZipFile(partial, "w") as out:
            for info in archive.infolist():
                if info.filename in keep or info.filename in folders:
                    out.writestr(info, archive.read(info), compress_type=info.compress_type)
        partial.replace(output)
    return len(modules), source.stat().st_size, output.stat().st_size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=SOURCE, help="Pyodide's stdlib zip")
    ap.add_argument("--output", type=Path, default=OUTPUT, help="where to write the copy")
    ap.add_argument("--quiet", "-q", action="store_true")
    args = ap.parse_args(argv)
    if not args.source.is_file():
        print(f"trim_stdlib: no {args.source}: run npm ci first", file=sys.stderr)
        return 1
    kept, before, after = trim(args.source, args.output, [*IN_USE, *CODECS, *our_imports()])
    if not args.quiet:
        print(
            f"trim_stdlib: {args.output.name}: {kept} modules, {after:,} bytes "
            f"(from {before:,}: {before - after:,} saved, {100 * (before - after) / before:.0f}%)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

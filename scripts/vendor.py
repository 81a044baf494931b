#!/usr/bin/env python3
"""Copy the browser runtime from node_modules/ into static/vendor/ (stdlib only).

    static/vendor/pyscript/  <- node_modules/@pyscript/core/dist/  (whole folder, no .map files,
                                and not its unused service-worker.js placeholder)
    static/vendor/pyodide/   <- the Pyodide files a page requests at boot, but its standard
                                library: python_stdlib.zip there is built, not copied (the
                                trimmed, compiled zip of scripts/trim_stdlib.py and
                                scripts/compile_stdlib.mjs; see the Makefile's STDLIB)
    static/vendor/fake-indexeddb/ <- node_modules/fake-indexeddb/build/esm/ and its LICENSE:
                                an IndexedDB in memory, which static/js/pwa.js gives PyScript
                                where the browser's own is refused (its core opens one at boot)

Run `npm ci` first. The copy is a sync: unchanged files are skipped (same size and
mtime), changed ones are copied, and files no longer shipped are removed, so an
upgrade that renames PyScript's hashed chunks leaves nothing stale behind.

Usage: python3 scripts/vendor.py [--check] [--quiet]
  --check   exit 1 if static/vendor/ is not up to date (copies nothing)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
VENDOR = ROOT / "static" / "vendor"

PYSCRIPT_SRC = NODE_MODULES / "@pyscript" / "core" / "dist"
PYODIDE_SRC = NODE_MODULES / "pyodide"
FAKE_IDB_SRC = NODE_MODULES / "fake-indexeddb"

# What a PyScript page loading pyodide.mjs requests at boot (measured with the e2e smoke test:
# these four and python_stdlib.zip, nothing lazily, as long as the config lists no `packages`).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)
BUILT = (VENDOR / "pyodide" / "python_stdlib.zip",)
"""Files in the vendored folders that the setup step builds: never removed as stale."""

SKIP_SUFFIXES = (".map",)
# PyScript's empty placeholder for its optional `service-worker` attribute, which the game does
# not use (its own service worker is sw.js). Left out, every hyphenated .js name in the PyScript
# folder is a content-hashed chunk, which netlify.toml may cache as immutable.
SKIP_NAMES = ("service-worker.js",)


def planned() -> dict[Path, Path]:
    """Map destination path -> source path for every file to vendor."""
    missing = [p for p in (PYSCRIPT_SRC, PYODIDE_SRC, FAKE_IDB_SRC) if not p.is_dir()]
    if missing:
        names = ", ".join(str(p.relative_to(ROOT)) for p in missing)
        raise SystemExit(f"vendor: {names} missing; run `npm ci` first")

    plan: dict[Path, Path] = {}
    for src in sorted(PYSCRIPT_SRC.rglob("*")):
        if src.is_file() and not src.name.endswith(SKIP_SUFFIXES) and src.name not in SKIP_NAMES:
            plan[VENDOR / "pyscript" / src.relative_to(PYSCRIPT_SRC)] = src
    for name in PYODIDE_FILES:
        src = PYODIDE_SRC / name
        if not src.is_file():
            raise SystemExit(f"vendor: {src.relative_to(ROOT)} missing (pyodide layout changed?)")
        plan[VENDOR / "pyodide" / name] = src
    for src in sorted((FAKE_IDB_SRC / "build" / "esm").rglob("*.js")):
        plan[VENDOR / "fake-indexeddb" / src.relative_to(FAKE_IDB_SRC / "build" / "esm")] = src
    plan[VENDOR / "fake-indexeddb" / "LICENSE"] = FAKE_IDB_SRC / "LICENSE"
    return plan


def up_to_date(dst: Path, src: Path) -> bool:
    try:
        d, s = dst.stat(), src.stat()
    except FileNotFoundError:
        return False
    return d.st_size == s.st_size and d.st_mtime_ns == s.st_mtime_ns


def stale(plan: dict[Path, Path]) -> list[Path]:
    """Files under the vendored folders that are not in the plan."""
    out: list[Path] = []
    for top in ("pyscript", "pyodide", "fake-indexeddb"):
        base = VENDOR / top
        if base.is_dir():
            out += [
                p for p in base.rglob("*") if p.is_file() and p not in plan and p not in BUILT
            ]
    return sorted(out)


def versions() -> dict[str, str]:
    out = {}
    packages = (("@pyscript/core", PYSCRIPT_SRC.parent), ("pyodide", PYODIDE_SRC),
                ("fake-indexeddb", FAKE_IDB_SRC))
    for name, pkg in packages:
        out[name] = json.loads((pkg / "package.json").read_text(encoding="utf-8"))["version"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only report; exit 1 if out of date")
    ap.add_argument("--quiet", "-q", action="store_true")
    args = ap.parse_args(argv)

    plan = planned()
    todo = [(d, s) for d, s in plan.items() if not up_to_date(d, s)]
    extra = stale(plan)

    if args.check:
        for d, _ in todo:
            print(f"out of date: {d.relative_to(ROOT)}")
        for p in extra:
            print(f"stale: {p.relative_to(ROOT)}")
        return 1 if todo or extra else 0

    for dst, src in todo:
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = dst.with_name(dst.name + ".tmp")
        shutil.copy2(src, tmp)  # copy2 keeps mtime: the next run skips it
        os.replace(tmp, dst)
    for p in extra:
        p.unlink()
    for top in ("pyscript", "pyodide", "fake-indexeddb"):  # drop empty folders left behind
        for d in sorted((VENDOR / top).rglob("*"), reverse=True):
            if d.is_dir() and not any(d.iterdir()):
                d.rmdir()

    if not args.quiet:
        v = ", ".join(f"{k} {val}" for k, val in versions().items())
        print(
            f"vendor: {len(plan)} files in {VENDOR.relative_to(ROOT)}/ ({v}); "
            f"{len(todo)} copied, {len(extra)} removed"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

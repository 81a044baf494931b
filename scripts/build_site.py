#!/usr/bin/env python3
"""Build the folder a static host publishes (dist/ by default): `make site` runs this.

Usage: python3 scripts/build_site.py [DEST] [--quiet]

Copies only what the game serves: index.html, main.py, pyscript.toml, static/ (runtime, CSS, JS,
icons, manifest), the odds table and the screenshots the manifest names; writes the archive the
config ships to Python (static/nestor.zip.gz: nestor/, nestor_web/, the catalogs) from the tree as
it is now; then builds DEST/sw.js for exactly these files (scripts/build_sw.mjs). Run the
setup step first (make vendor). e2e/conftest.py builds its site copies with it too.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("docs/odds.md", "docs/screenshot-phone.png", "docs/screenshot-desktop.png")


def pyscript_config() -> ModuleType:
    """scripts/pyscript_config.py, imported (this file is also loaded by path, by the tests)."""
    spec = importlib.util.spec_from_file_location(
        "nestor_pyscript_config", ROOT / "scripts" / "pyscript_config.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def site_files() -> list[str]:
    """Paths (relative to the repo) of the files to publish, static/ excepted (the archive of
    our modules is in static/)."""
    return ["index.html", "main.py", "pyscript.toml", *DOCS]


def build_sw(dest: Path, quiet: bool = False) -> None:
    """(Re)build DEST/sw.js with Workbox."""
    result = subprocess.run(
        ["node", str(ROOT / "scripts" / "build_sw.mjs"), str(dest)],
        capture_output=True, text=True, check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"build_site: the service worker build failed:\n{result.stderr}")
    if not quiet:
        sys.stdout.write(result.stdout)


def build(dest: Path, quiet: bool = False) -> None:
    """Write the site into ``dest`` (emptied first), service worker included."""
    if not (ROOT / "static" / "vendor" / "pyodide").is_dir():
        raise SystemExit("build_site: static/vendor/ is missing; run `make vendor` first")
    if dest.exists():
        shutil.rmtree(dest)
    ignore = shutil.ignore_patterns("__pycache__", ".*", "*.tmp")
    shutil.copytree(ROOT / "static", dest / "static", ignore=ignore)
    for rel in site_files():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    config = pyscript_config()
    config.write_archive(dest / config.ARCHIVE)
    build_sw(dest, quiet)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", nargs="?", type=Path, default=ROOT / "dist")
    ap.add_argument("--quiet", "-q", action="store_true")
    args = ap.parse_args(argv)
    build(args.dest.resolve(), args.quiet)
    if not args.quiet:
        size = sum(p.stat().st_size for p in args.dest.rglob("*") if p.is_file())
        print(f"{args.dest} is ready to publish ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

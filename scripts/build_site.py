#!/usr/bin/env python3
"""Build the folder a static host publishes (dist/ by default): `make site` runs this.

Usage: python3 scripts/build_site.py [DEST] [--quiet]

Copies only what the game serves: index.html, main.py, pyscript.toml, static/ (runtime, CSS, JS,
icons, manifest), the odds table and the screenshots the manifest names; writes the archive the
config ships to Python (static/nestor.zip.gz: nestor/, nestor_web/, the catalogs) from the tree as
it is now; puts the page's stylesheets into one file and its render-blocking scripts into
another (bundle_page); then builds DEST/sw.js for exactly these files (scripts/build_sw.mjs).
Run the setup step first (make vendor). e2e/conftest.py builds its site copies with it too.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
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


STYLESHEET = re.compile(r'\n *<link rel="stylesheet" href="\./(static/css/[\w.-]+\.css)">')
RENDER_BLOCKING = re.compile(
    r'\n *<script src="\./(static/js/[\w.-]+\.js)" defer blocking="render"></script>'
)
PAGE_CSS = "static/css/page.css"
PAGE_SCRIPT = "static/js/shell.js"


def bundle_page(dest: Path) -> None:
    """Rewrite DEST/index.html to load its own stylesheets (static/css/) as one file
    (PAGE_CSS) and its render-blocking scripts as another (PAGE_SCRIPT), each the files' texts
    in the page's order (the same cascade, the same order of running), in place of the first
    tag of each kind; the files joined are removed from DEST. A first visit's paint then waits
    for three files besides the page where it waited for eleven (over HTTP/1.1 a browser asks
    for six at a time).

    Raises SystemExit if a file joined holds a url() (it would resolve from another folder)."""
    page = dest / "index.html"
    html = page.read_text(encoding="utf-8")
    for pattern, bundle, tag, joiner in (
        (STYLESHEET, PAGE_CSS, '\n  <link rel="stylesheet" href="./{}">', "\n"),
        (RENDER_BLOCKING, PAGE_SCRIPT, '\n  <script src="./{}" defer blocking="render"></script>',
         "\n;\n"),
    ):
        found = list(pattern.finditer(html))
        if len(found) < 2:
            continue
        texts = []
        for match in found:
            text = (dest / match.group(1)).read_text(encoding="utf-8")
            if bundle.endswith(".css") and "url(" in text:
                raise SystemExit(f"build_site: {match.group(1)} holds a url(): join it by hand")
            texts.append(f"/* {match.group(1)} */\n{text}")
        for match in found:
            (dest / match.group(1)).unlink()
        (dest / bundle).write_text(joiner.join(texts), encoding="utf-8")
        first = found[0]
        html = (html[: first.start()] + tag.format(bundle)
                + pattern.sub("", html[first.end():]))
    page.write_text(html, encoding="utf-8")


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
    bundle_page(dest)
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

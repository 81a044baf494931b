"""scripts/build_site.py's bundle_page: the published page loads its stylesheets and its
render-blocking scripts as one file each, in the order the page gave them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, script_module

build_site = script_module("build_site")

PAGE = """<!doctype html>
<html><head>
  <script type="module" src="./static/js/boot.js" async></script>
  <link rel="stylesheet" href="./static/vendor/pyscript/core.css">
  <link rel="stylesheet" href="./static/css/a.css">
  <link rel="stylesheet" href="./static/css/b.css">
  <script src="./static/js/one.js" defer blocking="render"></script>
  <script src="./static/js/two.js" defer blocking="render"></script>
  <script src="./static/js/later.js" defer></script>
  <link rel="stylesheet" href="./static/css/last.css">
</head><body></body></html>
"""


def fake_site(tmp_path: Path, css_b: str = "b { color: blue; }") -> Path:
    files = {
        "index.html": PAGE,
        "static/vendor/pyscript/core.css": "core {}",
        "static/css/a.css": "a { color: red; }",
        "static/css/b.css": css_b,
        "static/css/last.css": "last { color: green; }",
        "static/js/one.js": "window.ONE = 1",
        "static/js/two.js": "window.TWO = window.ONE + 1;",
        "static/js/later.js": "window.LATER = 3;",
        "static/js/boot.js": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_the_page_loads_one_stylesheet_and_one_render_blocking_script_in_their_order(
    tmp_path: Path,
) -> None:
    site = fake_site(tmp_path)
    build_site.bundle_page(site)
    html = (site / "index.html").read_text()
    links = re.findall(r'<link rel="stylesheet" href="\./([^"]+)">', html)
    assert links == ["static/vendor/pyscript/core.css", build_site.PAGE_CSS]
    blocking = re.findall(r'<script src="\./([^"]+)" defer blocking="render"></script>', html)
    assert blocking == [build_site.PAGE_SCRIPT]
    assert '<script src="./static/js/later.js" defer></script>' in html
    assert html.index(build_site.PAGE_CSS) < html.index(build_site.PAGE_SCRIPT)
    css = (site / build_site.PAGE_CSS).read_text()
    assert css.index("a { color: red; }") < css.index("b { color: blue; }") < css.index("last {")
    script = (site / build_site.PAGE_SCRIPT).read_text()
    assert script.index("window.ONE = 1") < script.index("window.TWO")
    # A file that ends without a semicolon still ends its statement before the next one.
    assert re.search(r"window\.ONE = 1\s*;", script)
    for gone in ("a.css", "b.css", "last.css"):
        assert not (site / "static" / "css" / gone).exists()
    assert not (site / "static/js/one.js").exists()
    assert (site / "static/js/later.js").exists()
    assert (site / "static/vendor/pyscript/core.css").exists()


def test_a_stylesheet_with_a_url_is_not_joined(tmp_path: Path) -> None:
    site = fake_site(tmp_path, css_b="b { background: url(x.svg); }")
    with pytest.raises(SystemExit, match="b.css"):
        build_site.bundle_page(site)


def test_the_game_page_joins_all_its_own_stylesheets_and_render_blocking_scripts(
    tmp_path: Path,
) -> None:
    shutil.copy(ROOT / "index.html", tmp_path / "index.html")
    shutil.copytree(ROOT / "static" / "css", tmp_path / "static" / "css")
    shutil.copytree(ROOT / "static" / "js", tmp_path / "static" / "js")
    build_site.bundle_page(tmp_path)
    html = (tmp_path / "index.html").read_text()
    assert re.findall(r'href="\./(static/css/[^"]+)"', html) == [build_site.PAGE_CSS]
    assert re.findall(r'<script src="\./([^"]+)"[^>]*blocking="render"', html) == [
        build_site.PAGE_SCRIPT
    ]
    assert sorted(p.name for p in (tmp_path / "static" / "css").iterdir()) == ["page.css"]
    script = (tmp_path / build_site.PAGE_SCRIPT).read_text()
    for name in ("texts.js", "first-visit.js", "wake.js"):
        assert f"/* static/js/{name} */" in script

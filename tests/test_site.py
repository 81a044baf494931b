"""The static site's own files: the PyScript config ships the engine, nothing is remote."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def pyscript_config() -> dict[str, Any]:
    """pyscript.toml as tomllib reads it."""
    with (ROOT / "pyscript.toml").open("rb") as f:
        return tomllib.load(f)


def test_pyscript_toml_is_what_the_generator_writes() -> None:
    # Fresh (run scripts/pyscript_config.py after adding a module), and read by tomllib as the
    # generator's data: the generator writes only what PyScript's small TOML parser knows.
    script = ROOT / "scripts" / "pyscript_config.py"
    spec = importlib.util.spec_from_file_location("pyscript_config", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "pyscript.toml").read_text() == module.config()
    assert pyscript_config() == module.data()
    assert not (ROOT / "pyscript.json").exists()


def test_pyscript_config_ships_every_module_of_both_packages() -> None:
    config = pyscript_config()
    shipped = {dest.removeprefix("./") for dest in config["files"].values()}
    sources = {src.removeprefix("./") for src in config["files"]}
    on_disk = {
        str(p.relative_to(ROOT))
        for pkg in ("nestor", "nestor_web")
        for p in (ROOT / pkg).rglob("*.py")
    }
    catalogs = {"locale/de/LC_MESSAGES/nestor.mo"}
    assert shipped == on_disk | catalogs
    assert sources == on_disk | catalogs  # served from the same paths pytest imports
    assert config["interpreter"] == "./static/vendor/pyodide/pyodide.mjs"


def test_plugins_off_are_pyscripts_and_the_same_for_both_script_types() -> None:
    # The names are PyScript's own default plugins (its table in the vendored core chunk), and
    # static/js/pwa.js turns the same ones off for the mpy pass (see its PLUGINS_OFF).
    config = pyscript_config()
    off = [p.removeprefix("!") for p in config["plugins"]]
    assert off and all(p.startswith("!") for p in config["plugins"])
    core = next((ROOT / "static/vendor/pyscript").glob("core-*.js")).read_text()
    table = re.search(r"\{codemirror:\(\)=>.*?\}(?=;)", core)
    assert table, "PyScript's plugin table moved: read core-*.js again"
    defaults = set(re.findall(r'"?([a-z-]+)"?:\(\)=>', table.group()))
    assert set(off) < defaults and "error" not in off
    pwa = (ROOT / "static/js/pwa.js").read_text()
    listed = re.search(r"const PLUGINS_OFF = \[([^\]]*)\]", pwa)
    assert listed and re.findall(r'"([^"]+)"', listed.group(1)) == off


def test_page_loads_nothing_from_another_host() -> None:
    html = (ROOT / "index.html").read_text()
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert urls, "the page references its scripts and styles"
    for url in urls:
        assert not re.match(r"^[a-z]+:", url) and not url.startswith("//"), url
    assert 'src="./main.py"' in html and 'config="./pyscript.toml"' in html


def test_rules_package_imports_no_browser_module() -> None:
    for path in (ROOT / "nestor").glob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(from|import)\s+(js|pyscript|pyodide)\b", text, re.M), path

"""The static site's own files: the PyScript config ships the engine, nothing is remote."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import re
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pyscript_config() -> dict[str, Any]:
    """pyscript.toml as tomllib reads it."""
    with (ROOT / "pyscript.toml").open("rb") as f:
        return tomllib.load(f)


def generator() -> ModuleType:
    """scripts/pyscript_config.py, imported."""
    script = ROOT / "scripts" / "pyscript_config.py"
    spec = importlib.util.spec_from_file_location("pyscript_config", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pyscript_toml_is_what_the_generator_writes() -> None:
    # Fresh (run scripts/pyscript_config.py after adding a module), and read by tomllib as the
    # generator's data: the generator writes only what PyScript's small TOML parser knows.
    module = generator()
    assert (ROOT / "pyscript.toml").read_text() == module.config()
    assert pyscript_config() == module.data()
    assert not (ROOT / "pyscript.json").exists()


def test_pyscript_config_ships_every_module_of_both_packages_in_one_archive(
    tmp_path: Path,
) -> None:
    # One zip, unpacked into Python's working folder, holding each module at the path pytest
    # imports it from, and the compiled catalogs.
    config = pyscript_config()
    assert config["files"] == {"./static/nestor.zip": "./*"}
    # The interpreter is our wrapper of the vendored Pyodide (start-up snapshots), which
    # imports that Pyodide by a path relative to itself.
    assert config["interpreter"] == "./static/js/snapshot.js"
    wrapper = (ROOT / "static/js/snapshot.js").read_text()
    assert 'from "../vendor/pyodide/pyodide.mjs"' in wrapper
    on_disk = {
        str(p.relative_to(ROOT))
        for pkg in ("nestor", "nestor_web")
        for p in (ROOT / pkg).rglob("*.py")
    }
    catalogs = {"locale/de/LC_MESSAGES/nestor.mo"}
    if not (ROOT / "locale/de/LC_MESSAGES/nestor.mo").is_file():
        pytest.skip("the catalogs are not compiled (make vendor)")
    module = generator()
    data = module.archive()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        assert set(names) == on_disk | catalogs and len(names) == len(set(names))
        assert all(zf.read(n) == (ROOT / n).read_bytes() for n in names)
    assert module.archive() == data  # the same bytes again: an unchanged tree, unchanged sw.js
    dest = tmp_path / "static" / "nestor.zip"
    assert module.write_archive(dest) and dest.read_bytes() == data
    assert not module.write_archive(dest)  # already current: not written again
    # Beside it, the ids a start-up snapshot is kept under: this code, this Pyodide build.
    info = json.loads((dest.parent / "nestor-build.json").read_text())
    assert info == {
        "code": hashlib.sha256(data).hexdigest(),
        "pyodide": module.pyodide_build_id(ROOT / module.PYODIDE_MJS),
    }


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


def test_build_info_names_the_code_and_the_pyodide_build(tmp_path: Path) -> None:
    # The code id follows every byte of the archive; the Pyodide id is the BUILD_ID in
    # pyodide.mjs (the one Pyodide writes into a snapshot and checks on restore).
    module = generator()
    mjs = tmp_path / "pyodide.mjs"
    build = "ab" * 32
    mjs.write_text(f'let n={{checkAPIVersion:!0,BUILD_ID:"{build}"}},i=1;')
    one = module.build_info(b"PK one", mjs)
    assert one == {"pyodide": build, "code": hashlib.sha256(b"PK one").hexdigest()}
    assert module.build_info(b"PK two", mjs)["code"] != one["code"]
    assert json.loads(module.build_info_text(one)) == one
    vendored = ROOT / module.PYODIDE_MJS
    if vendored.is_file():
        assert re.fullmatch(r"[0-9a-f]{64}", module.pyodide_build_id(vendored))
    mjs.write_text("no id here")
    with pytest.raises(ValueError, match="expected one BUILD_ID, found 0"):
        module.pyodide_build_id(mjs)
    mjs.write_text(f'BUILD_ID:"{build}" BUILD_ID:"{"cd" * 32}"')
    with pytest.raises(ValueError, match="found 2"):
        module.pyodide_build_id(mjs)
    with pytest.raises(FileNotFoundError):
        module.pyodide_build_id(tmp_path / "missing.mjs")


def test_the_built_ids_are_current() -> None:
    # static/nestor-build.json matches the archive and the vendored Pyodide of this tree.
    module = generator()
    built = ROOT / module.BUILD_INFO
    if not built.is_file() or not (ROOT / module.PYODIDE_MJS).is_file():
        pytest.skip("not built yet (make vendor)")
    zipped = (ROOT / module.ARCHIVE).read_bytes()
    assert json.loads(built.read_text()) == module.build_info(zipped, ROOT / module.PYODIDE_MJS)

"""The static site's own files: the PyScript config ships the engine, nothing is remote."""

from __future__ import annotations

import _imp
import gettext
import importlib.util
import io
import re
import subprocess
import sys
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


def runtime_magic() -> bytes:
    """The magic number of the vendored Pyodide's Python: the first bytes of its compiled
    standard library's modules (scripts/compile_stdlib.mjs wrote them with that Python)."""
    with zipfile.ZipFile(ROOT / "static/vendor/pyodide/python_stdlib.zip") as zf:
        return zf.read("__future__.pyc")[:4]


def pyc_path(source: str) -> str:
    """Where zipimport looks for ``source``'s bytecode in an archive on ``sys.path``, before
    the source itself: ``D/NAME.pyc``, beside it."""
    return source + "c"


def shipped_archive(module: ModuleType) -> bytes:
    """The archive make vendor wrote, when it is current (its stamp: the sources as they are),
    else one made now (a Node run of some seconds)."""
    built = ROOT / module.ARCHIVE
    return built.read_bytes() if module.current(built) else bytes(module.archive())


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
    # One zip, written as it is into Python's working folder (main.py puts it on sys.path),
    # holding each module at the path pytest imports it from, and the compiled catalogs.
    config = pyscript_config()
    assert "files" not in config  # static/js/interpreter.js writes the archive
    assert config["interpreter"] == "./static/js/interpreter.js"
    on_disk = {
        str(p.relative_to(ROOT))
        for pkg in ("nestor", "nestor_web")
        for p in (ROOT / pkg).rglob("*.py")
    }
    catalogs = {"locale/de/LC_MESSAGES/nestor.mo"}
    if not (ROOT / "locale/de/LC_MESSAGES/nestor.mo").is_file():
        pytest.skip("the catalogs are not compiled (make vendor)")
    module = generator()
    data = shipped_archive(module)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        cached = {n for n in names if n.endswith(".pyc")}
        assert set(names) - cached == on_disk | catalogs and len(names) == len(set(names))
        assert all(zf.read(n) == (ROOT / n).read_bytes() for n in set(names) - cached)
        assert len(cached) == len(on_disk)
        for name in on_disk:  # each module's bytecode right after it, made from its source
            pyc = zf.read(names[names.index(name) + 1])
            assert names[names.index(name) + 1] == pyc_path(name)
            assert pyc[:4] == runtime_magic()
            # flags: hash-based (1) and not checked against the source (no 2); the hash is
            # the runtime's keyed hash of the source, the key its magic number (as
            # importlib.util.source_hash computes it there).
            assert int.from_bytes(pyc[4:8], "little") == 1
            key = int.from_bytes(pyc[:4], "little")
            assert pyc[8:16] == _imp.source_hash(key, (ROOT / name).read_bytes()), name
    assert module.archive() == data  # the same bytes again: an unchanged tree, unchanged sw.js
    dest = tmp_path / "static" / "nestor.zip"
    assert module.write_archive(dest, data) and dest.read_bytes() == data
    assert not module.write_archive(dest, data)  # already current: not written again
    # Its comment stamps the sources it was made from: current without compiling again.
    assert module.current(dest) and not module.write_archive(dest)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.comment == module.stamp(module.sources())
    other = tmp_path / "other" / "nestor.zip"
    other.parent.mkdir()
    other.write_bytes(module.stamped(data, b"nestor sources of another tree"))
    assert not module.current(other)
    assert module.write_archive(other) and other.read_bytes() == data  # stale: made again


def test_the_page_imports_the_modules_and_reads_the_catalogs_from_the_archive(
    tmp_path: Path,
) -> None:
    # As the page does: the archive itself on sys.path (main.py puts PyScript's copy there),
    # nothing unpacked. This CPython is not the runtime's, so zipimport passes over the pycs
    # (another magic number) and imports the sources beside them; the German catalog comes
    # through the module's loader, out of the archive.
    module = generator()
    page_path = f"{module.WORKING_FOLDER}/{module.SHIPPED_AS}"
    assert f'sys.path.insert(0, "{page_path}")' in (ROOT / "main.py").read_text()
    if not (ROOT / "locale/de/LC_MESSAGES/nestor.mo").is_file():
        pytest.skip("the catalogs are not compiled (make vendor)")
    archive = tmp_path / module.SHIPPED_AS
    archive.write_bytes(shipped_archive(module))
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(archive)!r})\n"
        "from nestor_web.view import i18n\n"
        "import nestor.game\n"
        "i18n.set_language('de')\n"
        "print(i18n.__file__, nestor.game.__file__, i18n._('Undo'), sep='\\n')\n"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True, text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    i18n_file, game_file, undo = result.stdout.splitlines()
    # The source, or (a CPython of the runtime's version) its bytecode beside it.
    assert i18n_file.removesuffix("c") == str(archive / "nestor_web" / "view" / "i18n.py")
    assert game_file.removesuffix("c") == str(archive / "nestor" / "game.py")
    catalog = gettext.translation("nestor", localedir=ROOT / "locale", languages=["de"])
    assert undo == catalog.gettext("Undo") != "Undo"


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

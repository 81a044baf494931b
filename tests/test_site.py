"""The static site's own files: the PyScript config ships the engine, nothing is remote."""

from __future__ import annotations

import _imp
import ast
import gettext
import inspect
import io
import json
import marshal
import os
import re
import subprocess
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import script_module
from source_imports import every_import, package_of, targets

import nestor.game as nestor_game
import nestor.graded_deals as nestor_graded_deals

ROOT = Path(__file__).resolve().parent.parent


def pyscript_config() -> dict[str, Any]:
    """pyscript.toml as tomllib reads it."""
    with (ROOT / "pyscript.toml").open("rb") as f:
        return tomllib.load(f)


def generator() -> ModuleType:
    """scripts/pyscript_config.py, imported."""
    return script_module("pyscript_config")


def runtime_magic() -> bytes:
    """The magic number of the vendored Pyodide's Python: the first bytes of its compiled
    standard library's modules (scripts/compile_stdlib.mjs wrote them with that Python)."""
    with zipfile.ZipFile(ROOT / "static/vendor/pyodide/python_stdlib.zip") as zf:
        return zf.read("__future__.pyc")[:4]


def pyc_path(source: str) -> str:
    """Where zipimport finds ``source``'s bytecode in an archive on ``sys.path`` with no source
    beside it: ``D/NAME.pyc`` (the same name whatever the interpreter's -O level)."""
    return source + "c"


def run_in_pyodide(archive: Path, code: str) -> str:
    """What the Python ``code`` returns (an expression last, as runPython), run in the vendored
    Pyodide in Node with the zip ``archive`` written where static/js/interpreter.js writes
    the zip of static/nestor.zip.gz."""
    pyodide = ROOT / "node_modules" / "pyodide" / "pyodide.mjs"
    if not pyodide.is_file():
        pytest.skip("node_modules/pyodide is not installed (make vendor)")
    script = (
        f"import {{ loadPyodide }} from {json.dumps(pyodide.as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        "const py = await loadPyodide({ stdout: () => {}, stderr: () => {} });\n"
        "py.FS.mkdirTree('/home/pyodide');\n"
        "py.FS.writeFile('/home/pyodide/nestor.zip', readFileSync(process.env.ARCHIVE));\n"
        "process.stdout.write(String(py.runPython(process.env.CODE)));\n"
    )
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True,
        env={**os.environ, "CODE": code, "ARCHIVE": str(archive)}, check=False, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def shipped_archive(module: ModuleType) -> bytes:
    """The archive (the zip) make vendor wrote, when it is current (its stamp: the sources as
    they are), else one made now (a Node run of some seconds)."""
    built = ROOT / module.ARCHIVE
    return module.unshipped(built.read_bytes()) if module.current(built) else bytes(
        module.archive())


def test_pyscript_toml_is_what_the_generator_writes() -> None:
    # Fresh (run scripts/pyscript_config.py after adding a module), and read by tomllib as the
    # generator's data: the generator writes only what PyScript's small TOML parser knows.
    module = generator()
    assert (ROOT / "pyscript.toml").read_text() == module.config()
    assert pyscript_config() == module.data()
    assert not (ROOT / "pyscript.json").exists()


def page_imports() -> set[str]:
    """Our modules (of nestor and nestor_web) the page can import: those main.py imports, and
    those they import, at start-up or later (inside functions too; ``if TYPE_CHECKING:`` left
    out), as paths relative to the repo."""
    seen: set[str] = set()

    def visit(module: str) -> None:
        base = ROOT.joinpath(*module.split("."))
        path = next((p for p in (base / "__init__.py", base.with_suffix(".py")) if p.is_file()),
                    None)
        if path is None or str(path.relative_to(ROOT)) in seen:
            return
        seen.add(str(path.relative_to(ROOT)))
        parts = module.split(".")
        for i in range(1, len(parts)):  # a submodule's packages are imported first
            visit(".".join(parts[:i]))
        follow(path, package_of(module, path))

    def follow(path: Path, package: str) -> None:
        tree = ast.parse(path.read_text(), str(path))
        typing_only = {
            id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
            and "TYPE_CHECKING" in ast.unparse(block.test)
            for statement in block.body for node in ast.walk(statement)
        }
        for node in every_import(tree):
            if id(node) in typing_only:
                continue
            found = targets(node, package)
            for name in found:
                visit(name)
            if isinstance(node, ast.ImportFrom):  # from a package import a submodule
                for alias in node.names:
                    visit(f"{found[0]}.{alias.name}")

    follow(ROOT / "main.py", "")
    # and those static/js/interpreter.js imports before PyScript runs (its PREPARE)
    script = (ROOT / "static/js/interpreter.js").read_text()
    for module in re.findall(r"^from (nestor\S*) import", script, re.MULTILINE):
        visit(module)
    return seen


def test_the_archive_ships_the_modules_the_page_can_import_and_no_other() -> None:
    # The command lines (LEFT_OUT) are the modules no import of the page reaches; a module
    # added that only they or the tests use belongs there too.
    module = generator()
    assert page_imports() == set(module.modules())
    assert not page_imports() & set(module.LEFT_OUT)
    assert all((ROOT / path).is_file() for path in module.LEFT_OUT)


def test_pyscript_config_ships_the_modules_and_catalogs_in_one_archive(
    tmp_path: Path,
) -> None:
    # One zip, written into Python's working folder (main.py puts it on sys.path), holding
    # each module at the path pytest imports it from, and the compiled catalogs; its members
    # stored, the site's file the whole zip gzipped (one stream compresses across modules).
    config = pyscript_config()
    assert "files" not in config  # static/js/interpreter.js writes the archive
    assert config["interpreter"] == "./static/js/interpreter.js"
    module = generator()
    on_disk = {
        str(p.relative_to(ROOT))
        for pkg in ("nestor", "nestor_web")
        for p in (ROOT / pkg).rglob("*.py")
    } - set(module.LEFT_OUT)
    catalogs = {"locale/de/LC_MESSAGES/nestor.mo"}
    if not (ROOT / "locale/de/LC_MESSAGES/nestor.mo").is_file():
        pytest.skip("the catalogs are not compiled (make vendor)")
    data = shipped_archive(module)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        assert len(names) == len(set(names))
        files = set(module.DATA)
        assert files == {  # every data file of the packages
            str(p.relative_to(ROOT)) for pkg in ("nestor", "nestor_web")
            for p in (ROOT / pkg).rglob("*")
            if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts
        } - set(module.LEFT_OUT)
        # no source; the methods its dataclasses compile (nestor_web/browser/precompiled.py),
        # a marshalled dict of the runtime's Python ({ or, flagged, 0xfb)
        # and PyScript's own modules' pycs (its cache)
        assert set(names) == {pyc_path(n) for n in on_disk} | files | catalogs | {
            module.DATACLASS_CODE, module.PYSCRIPT_CACHE}
        assert zf.read(module.DATACLASS_CODE)[:1] in (b"{", b"\xfb")
        assert zf.read(module.PYSCRIPT_CACHE)[:1] in (b"{", b"\xfb")
        assert {info.compress_type for info in zf.infolist()} == {zipfile.ZIP_STORED}
        for name in files | catalogs:
            assert zf.read(name) == (ROOT / name).read_bytes()
        for name in on_disk:  # each module's bytecode, of the runtime's Python
            pyc = zf.read(pyc_path(name))
            assert pyc[:4] == runtime_magic()
            # flags 0: a timestamp pyc, whose stamp zipimport leaves unchecked without a source
            assert int.from_bytes(pyc[4:8], "little") == 0
    dest = tmp_path / "static" / "nestor.zip.gz"
    assert module.write_archive(dest, data) and dest.read_bytes()[:2] == b"\x1f\x8b"  # gzip
    assert module.unshipped(dest.read_bytes()) == data
    # Smaller than the same zip with each member deflated on its own.
    deflated = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zf, zipfile.ZipFile(
            deflated, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in zf.infolist():
            out.writestr(info.filename, zf.read(info))
    assert dest.stat().st_size < 0.95 * len(deflated.getvalue())
    assert not module.write_archive(dest, data)  # already current: not written again
    # Its comment stamps the sources it was made from: current without compiling again.
    assert module.current(dest) and not module.write_archive(dest)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.comment == module.stamp(module.sources())
    other = tmp_path / "other" / "nestor.zip.gz"
    other.parent.mkdir()
    other.write_bytes(module.shipped(module.stamped(data, b"nestor sources of another tree")))
    assert not module.current(other)
    # Made again from the sources (a Node run): the same bytes, so an unchanged tree leaves
    # sw.js unchanged.
    assert module.write_archive(other) and module.unshipped(other.read_bytes()) == data
    other.write_bytes(data)  # a zip, not gzipped: stale too
    assert not module.current(other)


def test_the_page_imports_the_modules_and_reads_the_catalogs_from_the_archive(
    tmp_path: Path,
) -> None:
    # As the page does, in the vendored Pyodide: the archive itself on sys.path
    # (static/js/interpreter.js puts PyScript's copy there), nothing unpacked. The modules
    # come from their bytecode (there is no source), compiled as -OO would but for a
    # dataclass's docstring; the German catalog comes through the module's loader, out of the
    # archive; a traceback names the module's file in the archive and its line.
    module = generator()
    page_path = f"{module.WORKING_FOLDER}/{module.SHIPPED_AS}"
    script = (ROOT / "static/js/interpreter.js").read_text()
    assert f'const ARCHIVE_PATH = "{page_path}";' in script and "sys.path.insert(0, PATH)" in script
    if not (ROOT / "locale/de/LC_MESSAGES/nestor.mo").is_file():
        pytest.skip("the catalogs are not compiled (make vendor)")
    code = f"""
import dataclasses, json, os, sys, traceback
sys.path.insert(0, {page_path!r})
from nestor_web.browser import precompiled
texts = precompiled.install_from_archive()  # as static/js/interpreter.js does
folder = precompiled.__file__.rpartition("/")[0]
table = precompiled.read_table(precompiled.__loader__.get_data(f"{{folder}}/{{precompiled.TABLE}}"))
found = []
inner = dataclasses.exec
def watch(source, globals=None, locals=None, /):
    found.append(source in table)
    return inner(source, globals, locals)
dataclasses.exec = watch
from nestor_web.view import i18n
import nestor.game, nestor.graded_deals, nestor.variants
i18n.set_language("de")
try:
    nestor.variants.get_variant("klondike")
except nestor.variants.VariantError:
    trace = traceback.format_exc()
json.dumps({{
    "files": [i18n.__file__, nestor.game.__file__],
    "source": nestor.game.__loader__.get_source("nestor.game"),
    "docs": [nestor.game.__doc__, nestor.game.Record.from_json.__doc__],
    "dataclass": nestor.game.Record.__doc__,
    "undo": i18n._("Undo"),
    "trace": trace,
    "grades": nestor.graded_deals.TABLE,
    "texts": texts,
    "found": found,
    "pycache": sorted(os.listdir("pyscript/__pycache__")),
}})
"""
    archive = tmp_path / module.SHIPPED_AS
    archive.write_bytes(shipped_archive(module))
    found = json.loads(run_in_pyodide(archive, code))
    assert found["files"] == [f"{page_path}/nestor_web/view/i18n.pyc",
                              f"{page_path}/nestor/game.pyc"]
    assert found["source"] is None and found["docs"] == [None, None]
    # (Python 3.13 and later take a docstring's indent out when they compile it)
    kept = inspect.cleandoc(nestor_game.Record.__doc__ or "")
    assert inspect.cleandoc(found["dataclass"]) == kept
    catalog = gettext.translation("nestor", localedir=ROOT / "locale", languages=["de"])
    assert found["undo"] == catalog.gettext("Undo") != "Undo"
    assert found["grades"] == nestor_graded_deals.TABLE  # its data file, through the loader
    # The dataclasses' methods came from the build's table, PyScript's modules' pycs are in
    # place (nestor_web/browser/precompiled.py).
    assert found["texts"] > 20 and found["found"] and all(found["found"])
    assert "__init__.cpython-3" in " ".join(found["pycache"])
    lines = (ROOT / "nestor" / "variants.py").read_text().splitlines()
    unknown = next(i for i, text in enumerate(lines) if 'code="variant.unknown"' in text)
    raised = max(i for i in range(unknown) if "raise VariantError(" in lines[i]) + 1
    where = f'File "{page_path}/nestor/variants.py", line {raised}, in get_variant'
    assert where in found["trace"], found["trace"]
    assert "VariantError: unknown variant 'klondike'" in found["trace"]


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


def test_pyscripts_cached_modules_are_those_the_vendored_pyscript_writes() -> None:
    # Python uses a cached pyc of PyScript's (nestor_web/browser/precompiled.py) only while the
    # source PyScript writes beside it has the hash the pyc was compiled from: each one the
    # archive ships is of the very text the vendored PyScript core writes, so the page uses it.
    module = generator()
    with zipfile.ZipFile(io.BytesIO(shipped_archive(module))) as zf:
        cache = marshal.loads(zf.read(module.PYSCRIPT_CACHE))
    core = next((ROOT / "static/vendor/pyscript").glob("core-*.js")).read_text()
    assert "pyscript/__pycache__/__init__.cpython-3" in " ".join(cache)
    for name, pyc in cache.items():
        source = re.sub(r"__pycache__/(\w+)\.cpython-\d+\.pyc$", r"\1.py", name)
        assert source.startswith("pyscript/") and source.endswith(".py"), name
        key = re.escape(source.split("/")[-1])
        text = re.search(rf'"{key}":("(?:[^"\\]|\\.)*")', core)
        assert text is not None, source
        data = json.loads(text.group(1)).encode()
        assert pyc[:4] == runtime_magic()
        assert int.from_bytes(pyc[4:8], "little") == 0b11  # hash-based, checked
        assert pyc[8:16] == _imp.source_hash(int.from_bytes(pyc[:4], "little"), data), source

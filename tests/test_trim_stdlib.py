"""scripts/trim_stdlib.py: the import scanner, the closure, and the trimmed zip it writes."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers import script_module

ROOT = Path(__file__).resolve().parent.parent




trim_stdlib = script_module("trim_stdlib")


def test_scanner_reads_every_import_form() -> None:
    source = (
        "import a.b as c, d\n"
        "from e import f, g as h\n"
        "from . import sibling\n"
        "from ..up import (x,\n    y as z)\n"
        "from .here import *\n"
        "    import indented  # inside a try or an if\n"
        'text = "import not_at_line_start"\n'
    )
    names = set(trim_stdlib.imported_names(source, "pkg.sub"))
    assert names == {
        "a.b", "d", "e", "e.f", "e.g", "pkg.sub", "pkg.sub.sibling",
        "pkg.up", "pkg.up.x", "pkg.up.y", "pkg.sub.here", "indented",
    }  # fmt: skip


def test_module_level_drops_function_bodies_and_the_main_block() -> None:
    source = (
        "import top\n"
        "try:\n    import guarded\nexcept ImportError:\n    guarded = None\n"
        "def f():\n    import lazy\n    return lazy\n"
        "class C:\n    def m(self):\n        import in_method\n"
        "import after\n"
        'if __name__ == "__main__":\n    import only_as_script\n'
    )
    names = set(trim_stdlib.imported_names(trim_stdlib.module_level(source), ""))
    assert names == {"top", "guarded", "after"}


def _write_zip(path: Path, members: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, text in members.items():
            out.writestr(name, text)


def test_trim_keeps_the_closure_with_its_packages_and_it_imports(tmp_path: Path) -> None:
    source, output = tmp_path / "full.zip", tmp_path / "trimmed.zip"
    _write_zip(
        source,
        {
            "app/": "",
            "app/__init__.py": "from .core import run\n",
            "app/core.py": "import helper\nfrom . import util\ndef run():\n    import lazy\n",
            "app/util.py": "VALUE = 7\n",
            "app/unused.py": "import unrelated\n",
            "helper.py": "import os\n",
            "lazy.py": "",
            "unrelated.py": "",
            "other/": "",
            "other/__init__.py": "",
        },
    )
    kept, before, after = trim_stdlib.trim(source, output, ["app"])
    with zipfile.ZipFile(output) as archive:
        names = set(archive.namelist())
    assert names == {"app/", "app/__init__.py", "app/core.py", "app/util.py", "helper.py"}
    assert kept == 4 and after < before
    # The copy is a working import source: the kept package imports from it alone.
    check = "import app, app.util; print(app.util.VALUE, app.run.__module__)"
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(output)!r}); {check}"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["7", "app.core"]


def test_our_imports_include_function_level_ones(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("import json\ndef f():\n    import gettext\n")
    (tmp_path / "main.py").write_text("from html import escape\n")
    assert trim_stdlib.our_imports(tmp_path, ("pkg", "main.py")) == {
        "json", "gettext", "html", "html.escape",
    }  # fmt: skip


NOT_BUILT = "node_modules/ or static/vendor/ not built (make vendor)"
BUILT = ROOT / "static" / "vendor" / "pyodide" / "python_stdlib.zip"


@pytest.mark.skipif(not trim_stdlib.SOURCE.is_file(), reason=NOT_BUILT)
def test_trimmed_vendored_zip_holds_what_the_game_imports(tmp_path: Path) -> None:
    output = tmp_path / "python_stdlib.trimmed.zip"
    trim_stdlib.trim(trim_stdlib.SOURCE, output, [*trim_stdlib.IN_USE, *trim_stdlib.CODECS])
    with zipfile.ZipFile(trim_stdlib.SOURCE) as full:
        stdlib = trim_stdlib.Stdlib(full)
        for name in (*trim_stdlib.IN_USE, *trim_stdlib.CODECS):
            assert stdlib.path(name), f"{name} is not in the vendored zip: measure IN_USE again"
    with zipfile.ZipFile(output) as archive:
        names = set(archive.namelist())
    for name in ("gettext.py", "json/__init__.py", "asyncio/tasks.py", "pyodide/ffi/__init__.py"):
        assert name in names
    for name in ("unittest/__init__.py", "multiprocessing/__init__.py", "pydoc.py"):
        assert name not in names
    assert output.stat().st_size < trim_stdlib.SOURCE.stat().st_size * 0.6


@pytest.mark.skipif(not BUILT.is_file(), reason=NOT_BUILT)
def test_the_page_loads_a_compiled_stdlib_with_every_module_it_imports() -> None:
    """The setup step's zip: bytecode only, and every measured or imported module in it."""
    with zipfile.ZipFile(BUILT) as archive:
        names = set(archive.namelist())
    assert not [n for n in names if n.endswith(".py")], "a module left as source"
    with zipfile.ZipFile(trim_stdlib.SOURCE) as full:
        stdlib = trim_stdlib.Stdlib(full)
        wanted = {*trim_stdlib.IN_USE, *trim_stdlib.CODECS, *trim_stdlib.our_imports()}
        for name in sorted(wanted):
            path = stdlib.path(name)
            if path is not None:
                assert path + "c" in names, f"{name} missing from {BUILT.name}: make vendor"
    never = ("xml/sax/saxutils.pyc", "email/message.pyc", "http/client.pyc", "unittest/main.pyc")
    assert not names & set(never)  # nothing the game never imports

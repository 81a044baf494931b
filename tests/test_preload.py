"""nestor_web/browser/preload.py: what a start-up snapshot imports ahead of the page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from nestor_web.browser.preload import EXTRA, imported_by, modules_to_preload

ROOT = Path(__file__).resolve().parent.parent
BROWSER = ROOT / "nestor_web" / "browser"


def test_relative_and_absolute_imports_are_resolved(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text(
        "from __future__ import annotations\n"
        "import asyncio, time\n"
        "from nestor import VARIANTS\n"
        "from ..app.events import Event\n"
        "from ..view import board\n"
        "from .actuator import Actuator\n"
        "from . import tasks\n"
        "def later():\n    import json\n"
    )
    assert imported_by(source, "nestor_web.browser") == [
        "__future__", "asyncio", "time", "nestor", "nestor_web.app.events", "nestor_web.view",
        "nestor_web.browser.actuator", "nestor_web.browser", "json",
    ]


def test_what_the_browser_room_imports_below_it_and_nothing_of_pyscript() -> None:
    names = modules_to_preload(BROWSER)
    # What root.py, the composition root, imports from the rooms below it is all there.
    for name in ("nestor", "nestor.analysis", "nestor.solver", "nestor_web.app.session",
                 "nestor_web.storage.manager", "nestor_web.view.board", "nestor_web.view.i18n",
                 "nestor_web.view.words", "nestor_web.app.keymap", "asyncio", "time"):
        assert name in names, name
    assert set(EXTRA) <= set(names)
    assert names == sorted(set(names))
    for name in names:
        assert name.split(".")[0] not in ("js", "pyscript", "pyodide", "_pyodide", "__future__")
        assert not name.startswith("nestor_web.browser"), name


def test_a_new_import_of_the_browser_room_is_preloaded_too(tmp_path: Path) -> None:
    # The list follows the browser room's own files: nothing to keep in step by hand.
    (tmp_path / "root.py").write_text("from ..app.url import parse_query\nimport pyscript\n")
    (tmp_path / "more.py").write_text("import statistics\nfrom pyodide.ffi import to_js\n")
    assert modules_to_preload(tmp_path) == sorted({"nestor_web.app.url", "statistics", *EXTRA})


def test_preload_imports_them_all_without_pyscript() -> None:
    # In a fresh interpreter with no pyscript, js or pyodide (as in the Worker): every module
    # imports, and none of the browser room's own modules but the preloader is imported.
    code = (
        "import sys\n"
        "from nestor_web.browser.preload import preload, modules_to_preload\n"
        "done = preload()\n"
        "assert done == modules_to_preload(), done\n"
        "assert all(n in sys.modules for n in done)\n"
        "loaded = {n for n in sys.modules if n.startswith('nestor_web.browser.')}\n"
        "assert loaded == {'nestor_web.browser.preload'}, loaded\n"
        "assert not {'js', 'pyscript', 'pyodide'} & set(sys.modules)\n"
        "print(len(done))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) >= 15

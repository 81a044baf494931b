"""What a start-up snapshot holds already imported: what the browser layer imports, but PyScript.

static/js/snapshot-worker.js runs :func:`preload` in a Worker's Pyodide (no PyScript, no page)
right before it takes the memory snapshot that later boots restore (static/js/snapshot.js). So
every module the browser room imports from the rooms below it and from the standard library is
imported once, ahead, and ``main.py``'s own import finds them in ``sys.modules``. The modules of
the browser room itself import ``pyscript`` (there is none in a Worker): they are left out, and
so is ``js`` / ``pyodide`` / ``pyscript``, whose objects a snapshot may not hold.

This module imports nothing from ``js``, ``pyscript`` or ``pyodide``, so it can run there.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

BROWSER = "nestor_web.browser"
LEFT_OUT = ("js", "pyscript", "pyodide", "_pyodide", BROWSER)
"""Module names (and their submodules) never imported ahead."""

EXTRA = ("asyncio", "json", "gettext", "html")
"""Standard library modules PyScript's own ``pyscript`` package or the game import at start-up
anyway, imported ahead too (each only if it is there)."""


def _left_out(name: str) -> bool:
    return any(name == out or name.startswith(out + ".") for out in LEFT_OUT)


def imported_by(path: Path, package: str) -> list[str]:
    """Every module the file at ``path`` imports (in package ``package``, relative imports
    resolved against it), in the order they appear; ``from x import y`` names ``x``.

    Raises:
        SyntaxError: the file is not valid Python.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                found.append(".".join([*base, *([node.module] if node.module else [])]))
            elif node.module is not None:
                found.append(node.module)
    return found


def modules_to_preload(browser_dir: Path | None = None) -> list[str]:
    """The modules a snapshot imports ahead: what the browser room's files import, but the room
    itself and :data:`LEFT_OUT`, then :data:`EXTRA`; sorted, each once.

    ``browser_dir``: the folder of ``nestor_web/browser`` (default: this module's own).
    """
    folder = browser_dir or Path(__file__).resolve().parent
    names: set[str] = set()
    for path in sorted(folder.glob("*.py")):
        for name in imported_by(path, BROWSER):
            if name != "__future__" and not _left_out(name):
                names.add(name)
    return sorted(names | set(EXTRA))


def preload(browser_dir: Path | None = None) -> list[str]:
    """Import every module of :func:`modules_to_preload`; returns their names.

    Raises:
        ImportError: one of our own modules (``nestor``, ``nestor_web``) could not be imported.
            A module of :data:`EXTRA` that is missing is skipped.
    """
    done = []
    for name in modules_to_preload(browser_dir):
        try:
            importlib.import_module(name)
        except ImportError:
            if name in EXTRA:
                continue
            raise
        done.append(name)
    return done

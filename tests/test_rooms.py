"""The rooms of the browser layer import one way, and only the browser room touches js.

Rooms, bottom up: ``nestor`` (the engine), ``nestor_web.app`` (state and commands),
``nestor_web.storage`` and ``nestor_web.view`` (beside each other, both above app),
``nestor_web.browser`` (the adapter, above all). A module may import its own room and the
rooms below it; only ``nestor_web.browser`` may import ``js``, ``pyscript`` or ``pyodide``,
in any form (``import pyodide.ffi``, ``from pyodide.ffi import x``, or an import inside a
function).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from source_imports import every_import, package_of, targets

ROOT = Path(__file__).resolve().parent.parent
BROWSER_ONLY = ("js", "pyscript", "pyodide")
ALLOWED = {
    "nestor": {"nestor"},
    "nestor_web.app": {"nestor", "nestor_web.app"},
    "nestor_web.storage": {"nestor", "nestor_web.app", "nestor_web.storage"},
    "nestor_web.view": {"nestor", "nestor_web.app", "nestor_web.view"},
    "nestor_web.browser": {
        "nestor", "nestor_web.app", "nestor_web.storage", "nestor_web.view",
        "nestor_web.browser",
    },
}
"""For each room, the rooms its modules may import."""


def modules() -> list[tuple[str, Path]]:
    out = []
    for package in ("nestor", "nestor_web"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out.append((name.removesuffix(".__init__"), path))
    return out


def room_of(module: str) -> str | None:
    """The room a module belongs to (the longest matching prefix), or ``None``."""
    best = None
    for room in ALLOWED:
        if (module == room or module.startswith(room + ".")) and (
            best is None or len(room) > len(best)
        ):
            best = room
    return best


def imports(module: str, path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports (relative imports resolved), with its line."""
    tree = ast.parse(path.read_text(), str(path))
    package = package_of(module, path)
    return [(n.lineno, t) for n in every_import(tree) for t in targets(n, package)]


def test_every_module_belongs_to_a_room() -> None:
    stray = [m for m, _path in modules() if room_of(m) is None and m != "nestor_web"]
    assert stray == []


@pytest.mark.parametrize("module,path", modules(), ids=[m for m, _p in modules()])
def test_imports_run_downward(module: str, path: Path) -> None:
    room = room_of(module)
    if room is None:
        return  # the nestor_web package's own __init__ (a docstring)
    problems = []
    for line, target in imports(module, path):
        top = target.split(".")[0]
        if top in BROWSER_ONLY and room != "nestor_web.browser":
            problems.append(f"{path.name}:{line} imports {target} outside the browser room")
        target_room = room_of(target)
        if target_room is not None and target_room not in ALLOWED[room]:
            problems.append(f"{path.name}:{line} ({room}) imports {target} ({target_room})")
    assert problems == []


def test_the_check_sees_every_form_of_import(tmp_path: Path) -> None:
    """The scan finds a js import in each form, relative imports included."""
    source = (
        "import pyodide.ffi\nfrom pyscript import window\n"
        "def f():\n    import js\n    from ..view import words\n"
    )
    path = tmp_path / "x.py"
    path.write_text(source)
    found = [t for _line, t in imports("nestor_web.app.x", path)]
    assert found == ["pyodide.ffi", "pyscript", "js", "nestor_web.view"]
    assert room_of("nestor_web.view.words") == "nestor_web.view"
    assert "nestor_web.view" not in ALLOWED["nestor_web.app"]

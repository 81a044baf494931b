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
import re
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
    # python -m nestor_web: the command line reads the storage's formats (issue 23), never
    # the view's words or the browser.
    "nestor_web.__main__": {"nestor", "nestor_web.app", "nestor_web.storage"},
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


def _graph(top: str) -> dict[str, set[str]]:
    """Which of ``top``'s modules each of its modules imports, in any form (under
    ``TYPE_CHECKING`` and inside functions too: a dependency all the same). An import of one
    of a module's own packages is left out: it runs the package's ``__init__``, which may
    gather its submodules' names without making a circle of them."""
    known = {m: p for m, p in modules() if m == top or m.startswith(top + ".")}
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        edges = graph.setdefault(module, set())
        for _line, target in imports(module, path):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module and not module.startswith(target + "."):
                edges.add(target)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each strongly connected set of two or more modules
    (Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_circle_in_the_browser_layer() -> None:
    # Issue 21: the panels imported the composition root (under TYPE_CHECKING) and reached
    # through it; they get narrow ports instead, and no module imports its room's root.
    graph = _graph("nestor_web")
    assert _circles(graph) == []
    importers = [m for m, edges in graph.items() if "nestor_web.browser.root" in edges]
    assert importers == [], "the composition root is imported by no module of nestor_web"


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(graph) == [["a", "b", "c"]]


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string constant of ``tree`` with its line (the parts of f-strings too), leaving
    out docstrings."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


WORD_FUNCTIONS = {"_", "N_", "NP_", "ngettext", "pgettext"}
"""gettext's functions: whoever calls them writes words, which is the view room's job."""


def _words_and_markup(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in WORD_FUNCTIONS:
                    problems.append(f"{path.name}:{node.lineno} imports {alias.name}")
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in WORD_FUNCTIONS
        ):
            problems.append(f"{path.name}:{node.lineno} calls {node.func.id}")
    for line, text in _strings(tree):
        if re.search(r"<[a-zA-Z!/]", text):
            problems.append(f"{path.name}:{line} holds markup {text[:40]!r}")
    return problems


@pytest.mark.parametrize(
    "path", sorted((ROOT / "nestor_web" / "browser").glob("*.py")), ids=lambda p: p.name
)
def test_the_browser_room_writes_no_words_and_no_markup(path: Path) -> None:
    # Every word the player reads and every piece of markup comes from the view room; the
    # browser room only puts them on the page.
    assert _words_and_markup(path) == []


def test_the_words_and_markup_check_finds_them(tmp_path: Path) -> None:
    path = tmp_path / "x.py"
    path.write_text(
        '"""A <b>docstring</b> may show markup."""\n'
        "from ..view.i18n import _, language\n"
        "def f(x):\n    '''<p>here too</p>'''\n"
        "    return f'<option value=\"{x}\">' + _('Stop') + '#a [data-x=\"1\"]'\n"
    )
    assert _words_and_markup(path) == [
        "x.py:2 imports _", "x.py:5 calls _", "x.py:5 holds markup '<option value=\"'",
    ]

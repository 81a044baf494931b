"""What the page imports before the board takes input, read from the sources.

``main.py`` imports ``nestor_web.browser.root``; every import a module runs when it is first
imported (its top-level statements, and the ``if`` and ``try`` blocks among them, leaving out
``if TYPE_CHECKING:``) is followed through our packages, as Python would. An import inside a
function runs only when the function does, so it is not start-up. Each module imported costs
the page's boot its unpacking and running (a dataclass: about 1.5 ms in the vendored Pyodide,
see docs/startup.md); what the first tap does not need waits for ``root.LATER_MODULES``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_imports import package_of, run_at_import, targets

ROOT = Path(__file__).resolve().parent.parent

STARTUP = {
    "nestor", "nestor.cards", "nestor.checks", "nestor.daily", "nestor.deal", "nestor.errors",
    "nestor.game", "nestor.jsontext", "nestor.link", "nestor.measured", "nestor.position",
    "nestor.variants",
    "nestor_web", "nestor_web.app", "nestor_web.app.deals", "nestor_web.app.ending",
    "nestor_web.app.grades", "nestor_web.app.tutorial",
    "nestor_web.app.events", "nestor_web.app.keymap",
    "nestor_web.app.lines", "nestor_web.app.ranges", "nestor_web.app.replay",
    "nestor_web.app.saved",
    "nestor_web.app.session", "nestor_web.app.settings", "nestor_web.app.slices",
    "nestor_web.app.play", "nestor_web.app.statistics", "nestor_web.app.statistics.daily",
    "nestor_web.app.statistics.data", "nestor_web.app.statistics.record",
    "nestor_web.app.timer", "nestor_web.app.url",
    "nestor_web.browser", "nestor_web.browser.actuator", "nestor_web.browser.animation",
    "nestor_web.browser.clipboard", "nestor_web.browser.controller", "nestor_web.browser.dom",
    "nestor_web.browser.daily",
    "nestor_web.browser.drag", "nestor_web.browser.durable", "nestor_web.browser.end",
    "nestor_web.browser.input", "nestor_web.browser.local_storage", "nestor_web.browser.menu",
    "nestor_web.browser.picker", "nestor_web.browser.replay", "nestor_web.browser.review",
    "nestor_web.browser.root", "nestor_web.browser.solver_work", "nestor_web.browser.sound",
    "nestor_web.browser.tasks", "nestor_web.browser.tooltip",
    "nestor_web.storage", "nestor_web.storage.archive", "nestor_web.storage.codecs",
    "nestor_web.storage.durable", "nestor_web.storage.keys", "nestor_web.storage.manager",
    "nestor_web.storage.stats_codec", "nestor_web.storage.tabs",
    "nestor_web.view", "nestor_web.view.board", "nestor_web.view.daily", "nestor_web.view.end",
    "nestor_web.view.faces", "nestor_web.view.i18n", "nestor_web.view.install",
    "nestor_web.view.markup", "nestor_web.view.replay", "nestor_web.view.texts",
    "nestor_web.view.words",
}
"""Our modules imported at start-up. A change here is a change of the boot's cost: measure it
(``make bench-boot``) and say so in the commit."""

NOT_AT_STARTUP = {
    "nestor.review", "nestor.solver", "nestor.solver.chance", "nestor.solver.exact",
    "nestor.solver.model", "nestor.solver.oracle", "nestor.analysis", "nestor.strategies",
    "nestor_web.app.review", "nestor_web.app.statistics.merge", "nestor_web.view.review",
    "nestor_web.view.timeline",
    "nestor_web.view.dialogs", "nestor_web.view.chart",
    "nestor_web.app.backup", "nestor_web.browser.backup", "nestor_web.storage.progress",
    "nestor_web.view.backup",
}
"""What the first tap does not need: the solver (hints, Solve, the end screen's verdict), the
review and the statistics dialog."""


def _file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def imported_from(entry: Path) -> set[str]:
    """Our modules (of ``nestor`` and ``nestor_web``) that running ``entry`` imports."""
    seen: set[str] = set()

    def visit(module: str) -> None:
        path = _file(module)
        if module in seen or path is None:
            return
        seen.add(module)
        parts = module.split(".")
        for i in range(1, len(parts)):  # a submodule's packages are imported first
            visit(".".join(parts[:i]))
        follow(path, package_of(module, path))

    def follow(path: Path, package: str) -> None:
        for node in run_at_import(ast.parse(path.read_text(), str(path)).body):
            found = targets(node, package)
            for name in found:
                visit(name)
            if isinstance(node, ast.ImportFrom):  # from a package import a submodule
                for alias in node.names:
                    visit(f"{found[0]}.{alias.name}")

    follow(entry, "")
    return seen


def later_modules() -> tuple[str, ...]:
    """``LATER_MODULES`` of ``nestor_web/browser/root.py`` (not importable outside a page)."""
    tree = ast.parse((ROOT / "nestor_web" / "browser" / "root.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "LATER_MODULES" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return value
    raise AssertionError("root.py has no LATER_MODULES")


def test_startup_imports_exactly_the_listed_modules() -> None:
    found = imported_from(ROOT / "main.py")
    assert sorted(found - STARTUP) == [], "imported at start-up, not listed"
    assert sorted(STARTUP - found) == [], "listed, no longer imported at start-up"


def test_the_solver_review_and_statistics_dialog_wait_until_the_board_takes_input() -> None:
    found = imported_from(ROOT / "main.py")
    assert sorted(found & NOT_AT_STARTUP) == []
    later = later_modules()
    assert set(later) <= NOT_AT_STARTUP
    for name in later:
        assert _file(name) is not None, f"LATER_MODULES names {name}, which does not exist"


def test_the_walk_follows_relative_imports_and_leaves_out_type_checking(tmp_path: Path) -> None:
    entry = tmp_path / "entry.py"
    entry.write_text(
        "from typing import TYPE_CHECKING\n"
        "from nestor_web.browser.review import ReviewPanel\n"
        "if TYPE_CHECKING:\n    import nestor.solver\n"
        "def later():\n    import nestor.analysis\n"
    )
    found = imported_from(entry)
    assert {"nestor_web.browser.review", "nestor_web.browser.dom",
            "nestor_web.app.replay", "nestor"} <= found
    assert "nestor.solver" not in found and "nestor.analysis" not in found

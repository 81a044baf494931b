"""What the page imports before the board takes input, read from the sources.

``main.py`` imports ``nestor_web.browser.root``; every import a module runs when it is first
imported (its top-level statements, and the ``if`` and ``try`` blocks among them, leaving out
``if TYPE_CHECKING:``) is followed through our packages, as Python would. An import inside a
function runs only when the function does, so it is not start-up. What the first tap does not
need waits (``root.LATER_MODULES``, or its panel's first use): the tests name what must not load
at start-up and bound how much code does, so splitting a module keeps them green.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_imports import package_of, run_at_import, targets

ROOT = Path(__file__).resolve().parent.parent

NOT_AT_STARTUP = {
    "nestor.solver": "the solver's search (hints, Solve, the end screen's verdict)",
    "nestor.finish": "the Finish check's search",
    "nestor.review": "the review of a game",
    "nestor.analysis": "the analysis of a position",
    "nestor.strategies": "the strategies the review compares",
    "nestor.grade": "grading a deal",
    "nestor.graded_deals": "the graded deals' table",
    "nestor.puzzles": "the puzzles engine",
    "nestor.cli": "the command line",
    "nestor.__main__": "the command line",
    "nestor_web.app.review": "the review's work",
    "nestor_web.view.review": "the review's view",
    "nestor_web.view.timeline": "the review's timeline",
    "nestor_web.view.dialogs": "the statistics dialog",
    "nestor_web.app.statistics.merge": "the merge of another tab's statistics",
    "nestor_web.app.backup": "backup and restore",
    "nestor_web.browser.backup": "backup and restore",
    "nestor_web.view.backup": "backup and restore",
    "nestor_web.storage.progress": "backup and restore",
    "nestor_web.app.puzzle": "the puzzle mode",
    "nestor_web.browser.puzzle": "the puzzle mode",
    "nestor_web.view.puzzle": "the puzzle mode",
}
"""What start-up must not import (nor any module inside it, if it becomes a package): the first
tap needs none of it."""

MAX_STARTUP_MODULES = 90
MAX_STARTUP_STATEMENTS = 6_000
"""Bounds on what start-up imports, with room for splitting modules but not for the solver and
the review (which add about a seventh to the statements): each module costs the boot its
unpacking, each statement its running (docs/startup.md). Raising a bound is a change of the
boot's cost: measure it (``make bench-boot``) and say so in the commit."""


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


def names_in(path: Path, name: str) -> tuple[str, ...]:
    """The tuple of texts assigned to ``name`` at the top of ``path``."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return value
    raise AssertionError(f"{path.name} has no {name}")


def later_modules() -> tuple[str, ...]:
    """``LATER_MODULES`` of ``nestor_web/browser/root.py`` (not importable outside a page)."""
    return names_in(ROOT / "nestor_web" / "browser" / "root.py", "LATER_MODULES")


def statements(module: str) -> int:
    """How many statements ``module``'s source holds, docstrings left out."""
    path = _file(module)
    assert path is not None, module
    return sum(
        isinstance(node, ast.stmt)
        and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
    )


def waiting(found: set[str]) -> list[str]:
    """The modules of ``found`` that are, or are inside, one of :data:`NOT_AT_STARTUP`."""
    return sorted(
        m for m in found if any(m == name or m.startswith(name + ".") for name in NOT_AT_STARTUP)
    )


def test_what_the_first_tap_does_not_need_waits_until_the_board_takes_input() -> None:
    found = imported_from(ROOT / "main.py")
    assert {"nestor.game", "nestor_web.browser.root", "nestor_web.app.session"} <= found
    assert waiting(found) == [], "imported at start-up"
    later = later_modules()
    assert waiting(set(later)) == sorted(later), "LATER_MODULES names a module start-up needs"
    for name in later:
        assert _file(name) is not None, f"LATER_MODULES names {name}, which does not exist"


def test_main_py_imports_in_steps_what_root_py_would_import(tmp_path: Path) -> None:
    def imports(module: str) -> set[str]:
        entry = tmp_path / "entry.py"
        entry.write_text(f"import {module}\n")
        return imported_from(entry)

    steps = names_in(ROOT / "main.py", "STEPS")
    found = imports("nestor_web.browser.root")
    assert steps and all(step in found for step in steps), "a step root.py does not import"
    seen: set[str] = set()
    for step in steps:  # none already imported by a step before it (a task of no work)
        assert step not in seen, f"{step} is imported by a step before it"
        seen |= imports(step)


def test_start_up_imports_a_bounded_amount_of_code() -> None:
    found = imported_from(ROOT / "main.py")
    assert len(found) <= MAX_STARTUP_MODULES, sorted(found)
    assert sum(statements(m) for m in found) <= MAX_STARTUP_STATEMENTS


def test_the_bound_leaves_out_the_review_and_the_solver(tmp_path: Path) -> None:
    entry = tmp_path / "entry.py"
    entry.write_text("import nestor_web.browser.root\nimport nestor.review\n")
    with_review = imported_from(entry)
    assert "nestor.solver.exact" in with_review
    assert sum(statements(m) for m in with_review) > MAX_STARTUP_STATEMENTS


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

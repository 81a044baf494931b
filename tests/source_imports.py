"""What a module's source imports, read with :mod:`ast` (shared by test_rooms.py, which checks
the rooms' import order, and test_startup_imports.py, which lists what start-up imports)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ImportNode = ast.Import | ast.ImportFrom


def package_of(module: str, path: Path) -> str:
    """The package relative imports in ``module`` (the file ``path``) start from."""
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def targets(node: ImportNode, package: str) -> list[str]:
    """The modules an import statement names, relative ones resolved against ``package``:
    ``from x import a`` names ``x``; ``from . import a`` names the package and ``package.a``
    (``a`` may be a submodule; a name that is no module then names nothing)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    target = node.module or ""
    if node.level:
        base = package.split(".")
        base = base[: len(base) - node.level + 1]
        target = ".".join([*base, *([node.module] if node.module else [])])
    if node.module:
        return [target]
    return [target, *(f"{target}.{alias.name}" for alias in node.names)]


def every_import(tree: ast.AST) -> Iterable[ImportNode]:
    """Every import statement of ``tree``, inside functions too."""
    return (n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom))


def run_at_import(body: list[ast.stmt]) -> list[ImportNode]:
    """The import statements of a module body that run when the module is imported: its
    top-level ones and those of its top-level ``if`` and ``try`` blocks, leaving out
    ``if TYPE_CHECKING:`` (an import inside a function runs only when the function does)."""
    found: list[ImportNode] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                found += run_at_import(node.body) + run_at_import(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse,
                          node.finalbody):
                found += run_at_import(block)
    return found

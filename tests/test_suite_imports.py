"""No test module imports another: what tests share lives in helper modules (tests/helpers.py,
tests/webpage.py, e2e/helpers.py, e2e/conftest.py, ...), so a test file can change or go alone."""

from __future__ import annotations

import ast
from pathlib import Path

from source_imports import every_import, targets

ROOT = Path(__file__).resolve().parent.parent


def imported_test_modules(path: Path) -> list[str]:
    """The test modules (``test_*``) that the source of ``path`` imports, anywhere in it."""
    tree = ast.parse(path.read_text(), str(path))
    named = (t for node in every_import(tree) for t in targets(node, ""))
    return [t for t in named if any(part.startswith("test_") for part in t.split("."))]


def test_no_module_of_the_suites_imports_a_test_module() -> None:
    files = sorted(p for folder in ("tests", "e2e", "bench") for p in (ROOT / folder).rglob("*.py"))
    assert len(files) > 100
    found = {str(p.relative_to(ROOT)): imported_test_modules(p) for p in files}
    assert {path: names for path, names in found.items() if names} == {}


def test_a_test_module_importing_another_is_found(tmp_path: Path) -> None:
    source = tmp_path / "test_x.py"
    source.write_text("import os\nfrom test_play import play\n\ndef f():\n    import e2e.test_a\n")
    assert imported_test_modules(source) == ["test_play", "e2e.test_a"]

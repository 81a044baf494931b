"""Every file of the repository that the shipped code and the README name exists: a module
folded into another leaves no comment pointing at the old one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

NAMED = re.compile(
    r"\b((?:nestor_web|nestor|scripts|bench|tests|e2e|static)/[\w./-]+\.(?:py|js|mjs|css|md|bin))\b"
)
"""A path from the repository's root to one of its files, as comments and docstrings name it."""


def _readers() -> list[Path]:
    return [
        ROOT / "README.md", ROOT / "index.html", ROOT / "main.py",
        *(ROOT / "static" / "js").glob("*.js"), *(ROOT / "static" / "css").glob("*.css"),
        *(ROOT / "nestor").rglob("*.py"), *(ROOT / "nestor_web").rglob("*.py"),
    ]


def test_the_files_named_in_shipped_code_and_the_readme_exist() -> None:
    missing = {
        f"{path.relative_to(ROOT)}: {named}"
        for path in _readers()
        for named in NAMED.findall(path.read_text(encoding="utf-8"))
        if not (ROOT / named).exists()
    }
    assert not missing, "named but not there:\n" + "\n".join(sorted(missing))


def test_a_name_is_found_where_it_is_written() -> None:
    text = "/* The menu (nestor_web/browser/menu.py opens it) and static/js/wake.js. */"
    assert NAMED.findall(text) == ["nestor_web/browser/menu.py", "static/js/wake.js"]

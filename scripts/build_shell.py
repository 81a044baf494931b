#!/usr/bin/env python3
"""Write the page shell's words from the message catalogs: index.html and static/js/texts.js.

Usage: python scripts/build_shell.py [--check]

The catalogs (locale/, read through nestor_web/view/) stay the one source of words. This
step, run by ``make vendor``, puts the English text of every ``data-text`` element and every
``data-label`` attribute of index.html in the page itself, with the rules, the keys and the
variant and language options, so the first paint is never blank. It also writes
``static/js/texts.js``, every language's shell texts, where static/js/wake.js reads them to
show a return visit in the player's language before Python starts. ``--check`` changes
nothing and exits 1 when either file is not what the catalogs make (tests/test_shell.py).
"""

from __future__ import annotations

import json
import re
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nestor import VARIANTS  # noqa: E402
from nestor_web.view import i18n  # noqa: E402
from nestor_web.view.texts import TEXTS, keys_html, rules_html  # noqa: E402

PAGE = ROOT / "index.html"
SCRIPT = ROOT / "static" / "js" / "texts.js"

_TEXT = re.compile(r'(<(\w+)\b[^>]*\bdata-text="([\w-]+)"[^>]*>)(.*?)(</\2>)', re.DOTALL)
_LABEL = re.compile(r'(<\w+\b[^>]*\bdata-label="([\w-]+)")((?: aria-label="[^"]*")?)')
_INNER = re.compile(r'(<(\w+) id="(rules-text|keys-text|variant|opt-language)"[^>]*>)(.*?)(</\2>)',
                    re.DOTALL)
INNER = {"rules-text": "#rules", "keys-text": "#keys", "variant": "#variants",
         "opt-language": "#languages"}
"""The elements whose HTML the build fills, by id -> their key among the shell texts (keys
with "#" never clash with a ``data-text`` id)."""


def shell(language: str) -> dict[str, str]:
    """Every text of the page shell in ``language``: ids of TEXTS, plus the rules, the keys
    and the options of the two pickers (HTML)."""
    i18n.set_language(language)
    texts = {key: i18n._(message) for key, message in TEXTS.items()}
    texts["#rules"] = rules_html()
    texts["#keys"] = keys_html()
    texts["#variants"] = "".join(
        f'<option value="{name}">{escape(i18n.variant_title(name))}</option>' for name in VARIANTS
    )
    texts["#languages"] = "".join(
        f'<option value="{code}" lang="{code}">{escape(title)}</option>'
        for code, title in i18n.LANGUAGES.items()
    )
    return texts


def page(html: str, texts: dict[str, str]) -> str:
    """``html`` with the texts of one language filled in."""
    html = _TEXT.sub(lambda m: f"{m[1]}{escape(texts[m[3]], quote=False)}{m[5]}", html)
    html = _LABEL.sub(lambda m: f'{m[1]} aria-label="{escape(texts[m[2]])}"', html)
    return _INNER.sub(lambda m: f"{m[1]}{texts[INNER[m[3]]]}{m[5]}", html)


def script() -> str:
    """static/js/texts.js: every language's shell texts for static/js/wake.js."""
    data = {code: shell(code) for code in i18n.LANGUAGES}
    i18n.set_language(i18n.DEFAULT_LANGUAGE)
    body = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)
    return (
        "// Written by scripts/build_shell.py from the message catalogs: do not edit.\n"
        "// The page shell's texts in every language, for static/js/wake.js.\n"
        f"window.NESTOR_TEXTS = {body};\n"
    )


def main() -> int:
    """Write (or with --check, compare) index.html and static/js/texts.js."""
    built = {PAGE: page(PAGE.read_text(), shell(i18n.DEFAULT_LANGUAGE)), SCRIPT: script()}
    stale = [p for p, text in built.items() if not p.exists() or p.read_text() != text]
    if "--check" in sys.argv[1:]:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is stale: run python3 scripts/build_shell.py")
        return 1 if stale else 0
    for path in stale:
        path.write_text(built[path])
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

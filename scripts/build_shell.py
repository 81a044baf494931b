#!/usr/bin/env python3
"""Write the page shell's words from the message catalogs: index.html and static/js/texts.js;
a first visit's board, static/js/first-visit.js; the settings' root attributes in wake.js.

Usage: python scripts/build_shell.py [--check]

The catalogs (locale/, read through nestor_web/view/) stay the one source of words. This
step, run by ``make vendor``, puts the English text of every ``data-text`` element and every
``data-label`` attribute of index.html in the page itself, with the rules, the keys and the
variant and language options, so the first paint is never blank. It also writes
``static/js/texts.js``, every language's shell texts, where static/js/wake.js reads them to
show a return visit in the player's language before Python starts. And it writes
``static/js/first-visit.js``: the board of a first visit's guided game (its fixed deal, the
guide's rings on it), its counters and the guide's first step, in every language, drawn by the
page's own view code (nestor_web/view/first_visit.py), which wake.js paints before Python is
ready. In static/js/wake.js it writes the block that maps the stored settings to the root's
attributes, from the map the actuator uses (nestor_web/view/markup.py). ``--check`` changes
nothing and exits 1 when any of them is not what the catalogs and the code make
(tests/test_shell.py).
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
from nestor_web.app.session import Session  # noqa: E402
from nestor_web.app.settings import ANIMATION_SPEEDS, THEMES, Settings  # noqa: E402
from nestor_web.storage.keys import MemoryStore  # noqa: E402
from nestor_web.storage.manager import StorageManager  # noqa: E402
from nestor_web.view import i18n  # noqa: E402
from nestor_web.view.first_visit import first_visit_paint  # noqa: E402
from nestor_web.view.markup import ROOT_FLAGS  # noqa: E402
from nestor_web.view.texts import TEXTS, keys_html, rules_html  # noqa: E402

PAGE = ROOT / "index.html"
SCRIPT = ROOT / "static" / "js" / "texts.js"
FIRST_VISIT = ROOT / "static" / "js" / "first-visit.js"
WAKE = ROOT / "static" / "js" / "wake.js"
_ROOT_BLOCK = re.compile(r"(  // BEGIN root attributes:[^\n]*\n).*?(  // END root attributes\n)",
                         re.DOTALL)

_TEXT = re.compile(r'(<(\w+)\b[^>]*\bdata-text="([\w-]+)"[^>]*>)(.*?)(</\2>)', re.DOTALL)
_LABEL = re.compile(r'(<\w+\b[^>]*\bdata-label="([\w-]+)")((?: aria-label="[^"]*")?)')
_INNER = re.compile(r'(<(\w+) id="(rules-text|keys-text|variant|opt-language)"[^>]*>)(.*?)(</\2>)',
                    re.DOTALL)
INNER = {"rules-text": "#rules", "keys-text": "#keys", "variant": "#variants",
         "opt-language": "#languages"}
"""The elements whose HTML the build fills, by id -> their key among the shell texts (keys
with "#" never clash with a ``data-text`` id)."""


def shell(language: str) -> dict[str, str]:
    """Every text of the page shell in ``language``: ids of TEXTS, the decimal sign, plus the
    rules, the keys and the options of the two pickers (HTML)."""
    i18n.set_language(language)
    texts = {key: i18n._(message) for key, message in TEXTS.items()}
    texts["decimal-sign"] = i18n.decimal(".")  # static/js/pwa.js writes the download's count
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


def first_visit_session(language: str) -> Session:
    """The session of a first visit at ``/`` in ``language``, opened as the page's root opens
    it (nestor_web/browser/root.py): nothing stored, the guide started by itself."""
    manager = StorageManager(MemoryStore())
    stored = manager.stored(language)
    session = Session.start(
        None, stored.game, settings=stored.settings, stats=stored.stats, shelf=manager.archive
    )
    session.open_tutorial(stored.first_visit, None, stored.game)
    return session


def js_text(text: str) -> str:
    """``text`` as a JavaScript string literal in single quotes (JSON text has few of them)."""
    for plain, escaped in (("\\", "\\\\"), ("'", "\\'"), ("\n", "\\n"), ("\r", "\\r"),
                           ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(plain, escaped)
    return f"'{text}'"


def first_visit() -> str:
    """static/js/first-visit.js: a first visit's board, counters and guide in every
    language (:func:`~nestor_web.view.first_visit.first_visit_paint`), each as JSON text
    (wake.js parses the page's language only, and only on a first visit), and its deal."""
    deals = set()
    lines = []
    for code in i18n.LANGUAGES:
        i18n.set_language(code)
        session = first_visit_session(code)
        deals.add("{}/{}".format(*session.key))
        paint = json.dumps(first_visit_paint(session), ensure_ascii=False, separators=(",", ":"))
        lines.append(f"{json.dumps(code)}:{js_text(paint)}")
    i18n.set_language(i18n.DEFAULT_LANGUAGE)
    (deal,) = deals
    lines.insert(0, f'"deal":{json.dumps(deal)}')
    body = ",\n".join(lines)
    return (
        "// Written by scripts/build_shell.py from the view code and the catalogs: do not edit.\n"
        "// A first visit's board and guide in every language, for static/js/wake.js.\n"
        f"window.NESTOR_FIRST_VISIT = {{\n{body}\n}};\n"
    )


def wake(script: str) -> str:
    """static/js/wake.js with its root attributes block written from the settings: the themes,
    the animation speeds, :data:`~nestor_web.view.markup.ROOT_FLAGS` and the defaults of the
    theme and of those flags."""
    speeds = [s for s in ANIMATION_SPEEDS if s != "off"]
    flags = "".join(f"    {json.dumps(n)}: {json.dumps(a)},\n" for n, a in ROOT_FLAGS.items())
    defaults = Settings()
    shown = {"theme": defaults.theme, **{n: getattr(defaults, n) for n in ROOT_FLAGS}}
    default = "".join(f"    {json.dumps(n)}: {json.dumps(v)},\n" for n, v in shown.items())
    block = (f"  const THEMES = {json.dumps(list(THEMES))};\n"
             f"  const SPEEDS = {json.dumps(speeds)};\n"
             f"  const FLAGS = {{\n{flags}  }};\n"
             f"  const DEFAULTS = {{\n{default}  }};\n")
    script, found = _ROOT_BLOCK.subn(lambda m: m[1] + block + m[2], script)
    if found != 1:
        raise SystemExit(f"{WAKE.relative_to(ROOT)}: no root attributes block")
    return script


def main() -> int:
    """Write (or with --check, compare) index.html, static/js/texts.js,
    static/js/first-visit.js and the root attributes block of static/js/wake.js."""
    built = {PAGE: page(PAGE.read_text(), shell(i18n.DEFAULT_LANGUAGE)), SCRIPT: script(),
             FIRST_VISIT: first_visit(), WAKE: wake(WAKE.read_text())}
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

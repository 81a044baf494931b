#!/usr/bin/env python3
"""Message catalogs with Babel: extract, update, compile and check.

Usage: python scripts/locales.py extract|update|compile|check

- extract: write locale/nestor.pot from the marked messages in nestor_web/
  (_, ngettext, pgettext, and the markers N_ and NP_).
- update:  extract, then merge the template into every language's nestor.po.
- compile: write each locale/<lang>/LC_MESSAGES/nestor.mo (the build step).
- check:   fail if the template is stale or a language misses a translation.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
DOMAIN = "nestor"
KEYWORDS = {
    "_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
    "N_": None, "NP_": ((1, "c"), 2),
}
LANGUAGES = ("de",)


def extract() -> Catalog:
    """The template catalog of every message marked in nestor_web/."""
    catalog = Catalog(project="Nestor", domain=DOMAIN)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT / "nestor_web"),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
    ):
        catalog.add(message, None, [(f"nestor_web/{filename}", lineno)],
                    auto_comments=comments, context=context)
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def write_template(catalog: Catalog) -> None:
    LOCALE.mkdir(exist_ok=True)
    with open(LOCALE / f"{DOMAIN}.pot", "wb") as out:
        write_po(out, catalog, omit_header=True, sort_output=True, width=100, include_lineno=False)


def template_text(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, omit_header=True, sort_output=True, width=100, include_lineno=False)
    return buffer.getvalue()


def update() -> None:
    template = extract()
    write_template(template)
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            with open(path, "rb") as f:
                catalog = read_po(f, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Nestor")
        catalog.update(template, no_fuzzy_matching=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as out:
            write_po(out, catalog, sort_output=True, width=100, ignore_obsolete=True,
                     include_lineno=False)
        print(f"updated {path.relative_to(ROOT)}")


def compile_all() -> None:
    for lang in LANGUAGES:
        with open(po_path(lang), "rb") as f:
            catalog = read_po(f, locale=lang, domain=DOMAIN)
        target = po_path(lang).with_suffix(".mo")
        # Written aside, then moved into place at once: a test worker compiling it for its
        # German tests while another reads it (pytest -n) never sees half a catalog.
        aside = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        with open(aside, "wb") as out:
            write_mo(out, catalog)
        os.replace(aside, target)
        print(f"compiled {target.relative_to(ROOT)} ({len(catalog)} messages)")


def problems() -> list[str]:
    """What is wrong with the catalogs: stale template, missing or fuzzy translations."""
    found = []
    template = extract()
    pot = LOCALE / f"{DOMAIN}.pot"
    if not pot.exists() or pot.read_bytes() != template_text(template):
        found.append("locale/nestor.pot is stale: run `python scripts/locales.py update`")
    for lang in LANGUAGES:
        with open(po_path(lang), "rb") as f:
            catalog = read_po(f, locale=lang, domain=DOMAIN)
        for message in template:
            if not message.id:
                continue
            key = (message.id, message.context) if message.context else message.id
            entry = catalog.get(message.id if isinstance(message.id, str) else message.id[0],
                                context=message.context)
            if entry is None:
                found.append(f"{lang}: no entry for {key!r}")
            elif entry.fuzzy:
                found.append(f"{lang}: fuzzy translation of {key!r}")
            elif isinstance(entry.string, tuple | list):
                if not all(entry.string):
                    found.append(f"{lang}: missing plural translation of {key!r}")
            elif not entry.string:
                found.append(f"{lang}: no translation of {key!r}")
    return found


def main() -> int:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "extract":
        write_template(extract())
    elif command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = problems()
        print("\n".join(found) or "catalogs complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

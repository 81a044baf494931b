"""The dataclasses' methods, compiled when the site was built.

A dataclass writes its methods (``__init__``, ``__eq__``, ``__repr__``...) as Python source
when its class statement runs and compiles that text: in the browser's Python the compiling is
most of what a dataclass costs, and the dataclasses are most of what the game's imports cost.
The site build runs the same Python over the archive's modules and keeps each text it compiled
with its code (scripts/compile_stdlib.mjs ``--dataclass-code``): :data:`TABLE`, beside this
module in the archive, a marshalled dict of text to code object. :func:`install` has the
dataclasses module look each text up there before compiling it; a text not found (a table of
another build, or none) is compiled as before, so the table only ever saves time.
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
from collections.abc import Mapping
from types import CodeType
from typing import Any

TABLE = "dataclass_code.bin"
"""The table's file name, beside this module (in the archive: ``nestor_web/browser/``)."""


def read_table(data: bytes) -> dict[str, CodeType]:
    """The table marshalled in ``data``: source text to code. Anything else (damaged data, or
    not a dict of texts to code objects) gives an empty table: nothing is found in it."""
    try:
        table = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, CodeType)}


def install(table: Mapping[str, CodeType]) -> None:
    """Have the dataclasses module take each text's code from ``table`` rather than compile it
    (the module calls ``exec`` on the text; it now finds this one before the builtin)."""
    run = builtins.exec

    def exec_found(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        code = table.get(source) if isinstance(source, str) else None
        run(source if code is None else code, globals, locals)

    setattr(dataclasses, "exec", exec_found)  # noqa: B010 (mypy knows no such attribute)


def install_from_archive() -> int:
    """:func:`install` the table beside this module, read through its loader (the archive's
    zipimport); the number of texts it holds (0: no table, as when running from the sources)."""
    get_data = getattr(__spec__.loader if __spec__ else None, "get_data", None)
    if get_data is None or __spec__ is None or __spec__.origin is None:
        return 0
    try:
        data: bytes = get_data(__spec__.origin.rpartition("/")[0] + "/" + TABLE)
    except OSError:
        return 0
    table = read_table(data)
    if table:
        install(table)
    return len(table)

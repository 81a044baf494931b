"""The dataclasses' methods and PyScript's own modules, compiled when the site was built.

A dataclass writes its methods (``__init__``, ``__eq__``, ``__repr__``...) as Python source
when its class statement runs and compiles that text: in the browser's Python the compiling is
most of what a dataclass costs, and the dataclasses are most of what the game's imports cost.
The site build runs the same Python over the archive's modules and keeps each text it compiled
with its code (scripts/compile_stdlib.mjs ``--dataclass-code``): :data:`TABLE`, beside this
module in the archive, a marshalled dict of text to code object. :func:`install` has the
dataclasses module look each text up there before compiling it; a text not found (a table of
another build, or none) is compiled as before, so the table only ever saves time.

PyScript writes its own Python package into the working folder as sources at each start and
imports it, compiling each module. The build compiles them too (:data:`PYSCRIPT_CACHE`, each
module's checked hash-based pyc at its cache path): :func:`write_pyscript_cache` puts them
there first, and Python uses one only if the source beside it has the hash it was made from.

static/js/interpreter.js calls :func:`install_from_archive` before PyScript runs any Python.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import os
from collections.abc import Mapping
from types import CodeType
from typing import Any

TABLE = "dataclass_code.bin"
"""The table's file name, beside this module (in the archive: ``nestor_web/browser/``)."""
PYSCRIPT_CACHE = "pyscript_cache.bin"
"""PyScript's modules' pycs, beside this module: a marshalled dict of cache path (relative to
the working folder) to the pyc's bytes."""


def _marshalled_dict(data: bytes) -> dict[Any, Any]:
    """The dict marshalled in ``data``; empty for damaged data or anything but a dict."""
    try:
        loaded = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def read_table(data: bytes) -> dict[str, CodeType]:
    """The table marshalled in ``data``: source text to code. Anything else (damaged data, or
    not a dict of texts to code objects) gives an empty table: nothing is found in it."""
    table = _marshalled_dict(data)
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, CodeType)}


def install(table: Mapping[str, CodeType]) -> None:
    """Have the dataclasses module take each text's code from ``table`` rather than compile it
    (the module calls ``exec`` on the text; it now finds this one before the builtin)."""
    run = builtins.exec

    def exec_found(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        code = table.get(source) if isinstance(source, str) else None
        run(source if code is None else code, globals, locals)

    setattr(dataclasses, "exec", exec_found)  # noqa: B010 (mypy knows no such attribute)


def write_pyscript_cache(data: bytes, folder: str) -> int:
    """Write each pyc marshalled in ``data`` at its cache path under ``folder``; the number
    written. Damaged data, or a path that leaves ``folder``, writes nothing."""
    root = os.path.realpath(folder)
    files = {}
    for name, pyc in _marshalled_dict(data).items():
        if not isinstance(name, str) or not isinstance(pyc, bytes):
            return 0
        path = os.path.realpath(os.path.join(root, name))
        if not path.startswith(root + os.sep) or "__pycache__" not in name:
            return 0
        files[path] = pyc
    for path, pyc in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(pyc)
    return len(files)


def install_from_archive() -> int:
    """:func:`install` the table beside this module and :func:`write_pyscript_cache` into the
    working folder, both read through the module's loader (the archive's zipimport); the
    number of texts in the table (0: none, as when running from the sources)."""
    get_data = getattr(__spec__.loader if __spec__ else None, "get_data", None)
    if get_data is None or __spec__ is None or __spec__.origin is None:
        return 0
    folder = __spec__.origin.rpartition("/")[0]
    try:
        table = read_table(get_data(f"{folder}/{TABLE}"))
    except OSError:
        table = {}
    if table:
        install(table)
    with contextlib.suppress(OSError):  # else PyScript compiles its modules, as before
        write_pyscript_cache(get_data(f"{folder}/{PYSCRIPT_CACHE}"), os.getcwd())
    return len(table)

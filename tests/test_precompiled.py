"""What the build compiled ahead (nestor_web/browser/precompiled.py): a dataclass takes its
methods' code from the table, a text not in it compiles as before, damaged data finds nothing;
PyScript's modules come from the pycs written beside their sources, each only while its source
is the one it was compiled from."""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import importlib.util
import marshal
import sys
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
from pathlib import Path
from types import CodeType

import pytest

from nestor_web.browser import precompiled

SOURCE = '''
from dataclasses import dataclass

@dataclass(frozen=True)
class Pair:
    """Two cards."""

    first: str
    second: str = "K"
'''


def texts_compiled(monkeypatch: pytest.MonkeyPatch) -> dict[str, CodeType]:
    """The texts :data:`SOURCE`'s dataclass compiles, each with its code, as the build keeps
    them (scripts/compile_stdlib.mjs) but for the file name, ``<table>``: what the table gave
    is told from what was compiled in the page."""
    table: dict[str, CodeType] = {}

    def record(source: str, globals: object = None, locals: object = None, /) -> None:
        table[source] = compile(source, "<table>", "exec", dont_inherit=True)
        builtins.exec(source, globals, locals)  # type: ignore[arg-type]

    monkeypatch.setattr(dataclasses, "exec", record, raising=False)
    define()
    return table


def define() -> type:
    """:data:`SOURCE`'s class, made now (its annotations evaluated: no future import)."""
    namespace: dict[str, object] = {"__name__": "cards"}
    exec(compile(SOURCE, "cards.py", "exec", dont_inherit=True), namespace)
    return namespace["Pair"]  # type: ignore[return-value]


def test_a_dataclass_takes_its_methods_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    table = texts_compiled(monkeypatch)
    assert table  # one text per class, or one per method (before Python 3.13)
    looked_up: list[str] = []

    class Watched(dict[str, CodeType]):
        def get(self, key: str, default: object = None) -> CodeType | None:  # type: ignore[override]
            looked_up.append(key)
            return super().get(key)

    precompiled.install(Watched(table))
    pair = define()
    assert looked_up == list(table)
    assert pair.__init__.__code__.co_filename == "<table>"  # type: ignore[misc]
    assert pair("A") == pair("A", "K") != pair("A", "Q")
    assert repr(pair("A")) == "Pair(first='A', second='K')"
    assert hash(pair("A")) == hash(pair("A", "K"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair("A").first = "Q"  # type: ignore[misc]
    assert dataclasses.replace(pair("A"), second="Q") == pair("A", "Q")


def test_a_text_not_in_the_table_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataclasses, "exec", builtins.exec, raising=False)
    precompiled.install({"def other():\n pass\n": compile("pass", "<string>", "exec")})
    pair = define()
    assert pair.__init__.__code__.co_filename == "<string>"  # type: ignore[misc]
    assert pair("A") == pair("A", "K")
    assert dataclasses.fields(pair)[1].default == "K"


@pytest.mark.parametrize(
    "data",
    [b"", b"\x00garbage", marshal.dumps([1, 2]), marshal.dumps({"text": "not code", 1: 2})],
    ids=["empty", "garbage", "a list", "no code"],
)
def test_damaged_data_gives_an_empty_table(data: bytes) -> None:
    assert precompiled.read_table(data) == {}


def test_a_table_reads_back(monkeypatch: pytest.MonkeyPatch) -> None:
    table = texts_compiled(monkeypatch)
    assert precompiled.read_table(marshal.dumps(table)) == table


def test_run_from_the_sources_there_is_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataclasses, "exec", builtins.exec, raising=False)
    assert precompiled.install_from_archive() == 0
    assert dataclasses.exec is builtins.exec  # type: ignore[attr-defined]


def pyscript_cache(tmp_path: Path, source: str = "VALUE = 1\n") -> tuple[Path, bytes]:
    """A package ``pkg`` of one module's source under ``tmp_path``, and a cache of its checked
    hash-based pyc compiled from ``source`` (as the build compiles PyScript's modules)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text("VALUE = 1\n")
    data = source.encode()
    code = compile(data, "pkg/mod.py", "exec", dont_inherit=True)
    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=True)
    return tmp_path, marshal.dumps({importlib.util.cache_from_source("pkg/mod.py"): bytes(pyc)})


def import_fresh(folder: Path) -> object:
    sys.path.insert(0, str(folder))
    try:
        importlib.invalidate_caches()
        return importlib.import_module("pkg.mod")
    finally:
        sys.path.remove(str(folder))
        for name in ("pkg.mod", "pkg"):
            sys.modules.pop(name, None)


@pytest.fixture(autouse=True)
def beside_their_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """Caches beside the sources (``__pycache__``), as in the page: the test run may keep its
    own elsewhere (``PYTHONPYCACHEPREFIX``)."""
    monkeypatch.setattr(sys, "pycache_prefix", None)


def test_pyscripts_modules_come_from_the_cache(tmp_path: Path) -> None:
    folder, data = pyscript_cache(tmp_path)
    assert precompiled.write_pyscript_cache(data, str(folder)) == 1
    module = import_fresh(folder)
    assert module.VALUE == 1  # type: ignore[attr-defined]
    assert module.__cached__ is not None
    assert Path(module.__cached__).read_bytes() == marshal.loads(data)[
        importlib.util.cache_from_source("pkg/mod.py")]  # used as it was, not written again


def test_a_cached_module_whose_source_changed_is_compiled_again(tmp_path: Path) -> None:
    folder, data = pyscript_cache(tmp_path, source="VALUE = 2\n")  # another version's
    assert precompiled.write_pyscript_cache(data, str(folder)) == 1
    assert import_fresh(folder).VALUE == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "cache",
    [{"../outside/__pycache__/x.pyc": b"x"}, {"pkg/mod.py": b"x"}, {"pkg/__pycache__/m.pyc": 1}],
    ids=["outside", "not a cache path", "not bytes"],
)
def test_a_strange_cache_writes_nothing(tmp_path: Path, cache: dict[str, object]) -> None:
    assert precompiled.write_pyscript_cache(marshal.dumps(cache), str(tmp_path)) == 0
    assert precompiled.write_pyscript_cache(b"\x00", str(tmp_path)) == 0
    assert list(tmp_path.rglob("*")) == []

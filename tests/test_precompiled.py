"""The dataclasses' methods compiled ahead (nestor_web/browser/precompiled.py): a class takes
its code from the table, a text not in it compiles as before, and damaged data finds nothing."""

from __future__ import annotations

import builtins
import dataclasses
import marshal
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

"""The page shell's words come from the catalogs: index.html and static/js/texts.js are what
scripts/build_shell.py makes of them, no element that shows words is left empty, and the
waking script reads the stored board in the format the storage manager writes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from nestor_web.storage.codecs import BOARD_VERSION, board_to_text
from nestor_web.view import i18n, markup

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import build_shell  # noqa: E402


def test_the_built_page_and_texts_match_the_catalogs() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_shell.py"), "--check"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout


def test_the_check_fails_when_a_word_differs(tmp_path, monkeypatch) -> None:
    page = tmp_path / "index.html"
    page.write_text((ROOT / "index.html").read_text().replace(">Undo<", ">Undone<"))
    monkeypatch.setattr(build_shell, "PAGE", page)
    monkeypatch.setattr(build_shell, "ROOT", tmp_path)
    monkeypatch.setattr(build_shell, "SCRIPT", ROOT / "static" / "js" / "texts.js")
    monkeypatch.setattr(sys, "argv", ["build_shell.py", "--check"])
    assert build_shell.main() == 1
    monkeypatch.setattr(sys, "argv", ["build_shell.py"])
    assert build_shell.main() == 0
    assert ">Undo<" in page.read_text()


def test_no_element_with_words_is_blank() -> None:
    html = (ROOT / "index.html").read_text()
    blank = re.findall(r'<(\w+)[^>]*data-text="([\w-]+)"[^>]*></\1>', html)
    assert blank == []
    assert '<span lang="de">' not in html  # one language at a time
    assert re.search(r'data-action="solve"[^>]*>Solve<', html)


def test_every_language_has_every_shell_text() -> None:
    text = (ROOT / "static" / "js" / "texts.js").read_text()
    data = json.loads(text[text.index("{"): text.rindex("}") + 1])
    assert set(data) == set(i18n.LANGUAGES)
    assert data["en"].keys() == data["de"].keys()
    assert data["de"]["undo"] == "Rückgängig" and data["en"]["undo"] == "Undo"
    assert "Auslage" in data["de"]["#rules"] or "Spalte" in data["de"]["#rules"]


def test_the_stored_board_is_bound_to_the_saved_game() -> None:
    nodes: list[object] = [["div", {"class": "play"}, "text"]]
    stored = json.loads(board_to_text('{"version":1}', "de", nodes, {"cards-left": "50"}))
    assert stored == {
        "version": BOARD_VERSION, "game": '{"version":1}', "language": "de",
        "board": nodes, "counters": {"cards-left": "50"},
    }
    wake = (ROOT / "static" / "js" / "wake.js").read_text()
    # The fields the waking script reads are the ones written.
    for field in (f"b.version !== {BOARD_VERSION}", "b.game !== game.text",
                  "b.language !== language", "build(b.board)", "b.counters"):
        assert field in wake
    assert "innerHTML = b." not in wake


def test_the_waking_script_allows_the_elements_and_attributes_the_board_is_drawn_with() -> None:
    # static/js/wake.js builds the stored board from the same lists as the view's markup.
    wake = (ROOT / "static" / "js" / "wake.js").read_text()
    tags = re.search(r"const TAGS = \{([^}]*)\}", wake)
    assert tags and sorted(re.findall(r"(\w+):", tags.group(1))) == sorted(markup.ELEMENTS)
    attribute = re.search(r"const ATTRIBUTE = /\^(.*)\$/;", wake)
    assert attribute and attribute.group(1) == markup.ATTRIBUTE.pattern

"""The page shell's words come from the catalogs: index.html and static/js/texts.js are what
scripts/build_shell.py makes of them, no element that shows words is left empty, and the
waking script reads the stored board in the format the storage manager writes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nestor_web.app.settings import THEMES, Settings
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
                  "b.language !== language", "paint(b.board", "b.counters"):
        assert field in wake
    assert "innerHTML = b." not in wake


def test_the_waking_script_allows_the_elements_and_attributes_the_board_is_drawn_with() -> None:
    # static/js/wake.js builds the stored board from the same lists as the view's markup.
    wake = (ROOT / "static" / "js" / "wake.js").read_text()
    tags = re.search(r"const TAGS = \{([^}]*)\}", wake)
    assert tags and sorted(re.findall(r"(\w+):", tags.group(1))) == sorted(markup.ELEMENTS)
    attribute = re.search(r"const ATTRIBUTE = /\^(.*)\$/;", wake)
    assert attribute and attribute.group(1) == markup.ATTRIBUTE.pattern


def built_in(wake: str) -> None:
    """Fail with what to do, not the whole script, when static/js/wake.js is stale."""
    if build_shell.wake(wake) != wake:
        pytest.fail("static/js/wake.js is stale: run python scripts/build_shell.py")


def test_the_waking_script_sets_the_roots_attributes_from_the_actuators_map() -> None:
    wake = (ROOT / "static" / "js" / "wake.js").read_text()
    built_in(wake)
    drifted = wake.replace('"data-large-index"', '"data-large-indices"')
    assert drifted != wake and build_shell.wake(drifted) == wake
    shown = markup.root_attributes(Settings(large_index=True), "slow")
    assert shown["data-large-index"] == "true" and shown["data-four-colours"] == "false"
    assert (shown["data-animations"], shown["data-animation-speed"]) == ("true", "slow")
    for name, attribute in markup.ROOT_FLAGS.items():
        assert f"    {json.dumps(name)}: {json.dumps(attribute)},\n" in wake
    assert f"const THEMES = {json.dumps(list(THEMES))};" in wake


def first_visit_data() -> dict:
    """static/js/first-visit.js's data: each language's JSON text parsed, as wake.js does."""
    script = (ROOT / "static" / "js" / "first-visit.js").read_text()
    found = re.search(r'^"deal":"([^"]+)",$', script, re.MULTILINE)
    assert found is not None
    data: dict = {"deal": found[1]}
    escapes = {"n": "\n", "r": "\r", "u2028": "\u2028", "u2029": "\u2029"}
    for code, quoted in re.findall(r"^\"(\w+)\":'(.*)',?$", script, re.MULTILINE):
        text = re.sub(r"\\(u[0-9a-f]{4}|.)", lambda m: escapes.get(m[1], m[1]), quoted)
        data[code] = json.loads(text)
    return data


def cards_of(nodes: list) -> list[tuple[str, str, dict]]:
    """The cards of a board's nodes, in drawing order: (region, code, attributes)."""
    found: list[tuple[str, str, dict]] = []

    def walk(node: object, region: str) -> None:
        if isinstance(node, str):
            return
        assert isinstance(node, list)
        tag, attributes, *children = node
        region = attributes.get("data-column", attributes.get("data-region", region))
        if "data-card" in attributes:
            found.append((region, attributes["data-card"], attributes))
        for child in children:
            walk(child, region)

    for node in nodes:
        walk(node, "")
    return found


def test_the_first_visit_script_is_stale_when_the_board_differs(tmp_path, monkeypatch) -> None:
    built = (ROOT / "static" / "js" / "first-visit.js").read_text()
    js = ROOT / "static" / "js"
    for name, path in (("PAGE", ROOT / "index.html"), ("SCRIPT", js / "texts.js"),
                       ("FIRST_VISIT", js / "first-visit.js")):
        copy = tmp_path / path.name
        copy.write_text(path.read_text())
        monkeypatch.setattr(build_shell, name, copy)
    monkeypatch.setattr(build_shell, "ROOT", tmp_path)
    script = tmp_path / "first-visit.js"
    script.write_text(built.replace('"data-card":"QC"', '"data-card":"QD"', 1))
    monkeypatch.setattr(sys, "argv", ["build_shell.py", "--check"])
    assert build_shell.main() == 1
    monkeypatch.setattr(sys, "argv", ["build_shell.py"])
    assert build_shell.main() == 0
    assert script.read_text() == built


def test_the_first_visit_board_is_the_guides_deal_as_the_page_draws_it() -> None:
    from nestor import deal_position
    from nestor_web.app.tutorial import FIRST_VISIT_DEAL, TUTORIAL_VARIANT
    from nestor_web.view.board import board_view, first_paint

    data = first_visit_data()
    assert data["deal"] == f"{TUTORIAL_VARIANT}/{FIRST_VISIT_DEAL}"
    assert set(data) == {"deal", *i18n.LANGUAGES}
    position = deal_position(TUTORIAL_VARIANT, FIRST_VISIT_DEAL)
    layout = [(str(i), c) for i, column in enumerate(position.columns, 1) for c in column]
    layout += [("spare", c) for c in position.reserve]
    try:
        for code in i18n.LANGUAGES:
            paint = data[code]
            cards = cards_of(paint["board"])
            assert [(region, card) for region, card, _ in cards] == layout
            session = build_shell.first_visit_session(code)
            step = session.tutorial
            assert step is not None and step.step == "pair"
            ringed = [card for _, card, a in cards if "data-tutorial-target" in a]
            assert sorted(ringed) == sorted(step.cards)
            assert all("data-available" in a for _, c, a in cards if c in ringed)
            # What the page stores for its next first paint, but for the rings.
            i18n.set_language(code)
            board, counters = first_paint(board_view(session))
            unringed = json.loads(json.dumps(paint["board"], separators=(",", ":")).replace(
                ',"data-tutorial-target":""', ""))
            assert unringed == board and paint["counters"] == counters
            assert counters["deal-number"] == str(FIRST_VISIT_DEAL)
            assert counters["deal-grade"] == i18n._("Easy") and counters["cards-left"] == "52"
            guide = paint["guide"]
            assert guide["step"] == "pair" and guide["next"] == ""
            assert guide["title"] == i18n._("Your first game, step {number} of {count}").format(
                number=1, count=5)
            assert set(guide["text"]) == {"touch", "mouse"} and guide["skip"]
    finally:
        i18n.set_language(i18n.DEFAULT_LANGUAGE)
    assert "Tap one" in data["en"]["guide"]["text"]["touch"]
    assert "Klicke" in data["de"]["guide"]["text"]["mouse"]
    assert "queen of clubs" in data["en"]["guide"]["text"]["touch"]


def test_the_first_visit_board_holds_only_what_the_waking_script_builds() -> None:
    def check(node: object) -> None:
        if isinstance(node, str):
            return
        assert isinstance(node, list)
        tag, attributes, *children = node
        assert tag in markup.ELEMENTS
        assert all(markup.ATTRIBUTE.fullmatch(name) for name in attributes)
        assert all(isinstance(value, str) for value in attributes.values())
        for child in children:
            check(child)

    for code in i18n.LANGUAGES:
        for node in first_visit_data()[code]["board"]:
            check(node)


def test_the_first_visit_script_is_read_by_javascript_as_the_generator_wrote_it() -> None:
    # Node (the build's, make vendor needs it) runs the file as the page does and parses each
    # language's JSON text as wake.js does: the quoting holds.
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    script = ROOT / "static" / "js" / "first-visit.js"
    read = (f"globalThis.window = {{}}; require({json.dumps(str(script))});"
            "const d = window.NESTOR_FIRST_VISIT; const out = {deal: d.deal};"
            "for (const k of Object.keys(d)) if (k !== 'deal') out[k] = JSON.parse(d[k]);"
            "process.stdout.write(JSON.stringify(out));")
    result = subprocess.run([node, "-e", read], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == first_visit_data()

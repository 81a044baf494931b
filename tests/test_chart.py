"""The statistics chart (nestor_web.view.dialogs): an accessible inline SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from nestor import NestorError
from nestor_web.app.statistics.data import RESULTS, Settlement
from nestor_web.app.statistics.record import Stats
from nestor_web.view.dialogs import CHART_COLOURS, CHART_LABELS, chart_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def bars(root: ET.Element) -> list[ET.Element]:
    """The result bars: rects with a tooltip."""
    return [r for r in root.iter(SVG + "rect") if r.find(SVG + "title") is not None]


def games(*kinds: str) -> list[Settlement]:
    return [Settlement(i * 1000, "standard", i, kind) for i, kind in enumerate(kinds)]


def test_chart_is_an_accessible_svg():
    svg = chart_svg(games("won", "lost", "assisted", "won"), 300, 100)
    root = parse(svg)
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert (root.get("width"), root.get("height")) == ("300", "100")
    label = root.get("aria-label")
    assert label == (
        "Recent games: 4 games: 2 won, 1 won with help, 1 lost; win rate 75%."
    )
    assert root[0].tag == SVG + "title"
    assert root[0].text == label
    assert not re.search(r"href|url\(|<image|<script|<foreignObject", svg)


def test_chart_bars_differ_in_colour_and_height():
    root = parse(chart_svg(games("won", "assisted", "lost")))
    drawn = bars(root)
    assert [b.findtext(SVG + "title") for b in drawn] == [
        "standard 0: won", "standard 1: won with help", "standard 2: lost",
    ]
    assert [b.get("fill") for b in drawn] == [
        CHART_COLOURS["won"], CHART_COLOURS["assisted"], CHART_COLOURS["lost"],
    ]
    heights = [float(b.get("height", "0")) for b in drawn]
    assert heights[0] > heights[1] > heights[2] > 0
    # Left to right, oldest first, bars standing on the same baseline.
    xs = [float(b.get("x", "0")) for b in drawn]
    assert xs == sorted(xs)
    bottoms = {round(float(b.get("y", "0")) + float(b.get("height", "0")), 1) for b in drawn}
    assert len(bottoms) == 1


def test_chart_rate_line_runs_through_the_running_win_rate():
    root = parse(chart_svg(games("won", "lost", "lost", "won"), 300, 100))
    line = root.find(SVG + "polyline")
    assert line is not None
    ys = [float(p.split(",")[1]) for p in line.get("points", "").split()]
    assert len(ys) == 4
    # rates 1, 1/2, 1/3, 1/2: higher rate means smaller y
    assert ys[0] < ys[1] < ys[2]
    assert ys[1] == pytest.approx(ys[3])
    full, half = ys[0], ys[1]
    zero = full + 2 * (half - full)
    assert ys[2] == pytest.approx(zero - (zero - full) / 3, abs=0.1)


def test_chart_rate_line_counts_wins_with_help():
    def rate_ys(*kinds: str) -> list[str]:
        line = parse(chart_svg(games(*kinds), 300, 100)).find(SVG + "polyline")
        assert line is not None
        return [p.split(",")[1] for p in line.get("points", "").split()]

    assert rate_ys("assisted", "lost", "assisted") == rate_ys("won", "lost", "won")
    assert rate_ys("assisted", "lost", "assisted") != rate_ys("lost", "lost", "lost")


def test_chart_escapes_text():
    nasty = "<b>&\"'\x00\x1b]"
    svg = chart_svg(
        [Settlement(0, "standard", 1, "won")],
        title=nasty,
        labels={"won": "gagné <&>", "rate": "taux \"x\""},
    )
    root = parse(svg)
    assert root.get("aria-label", "").startswith("<b>&\"']: 1 games: 1 gagné <&>")
    assert "taux \"x\" 100%" in root.get("aria-label", "")
    assert "<b>" not in svg
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "gagné <&>" in texts


def test_chart_without_games():
    root = parse(chart_svg([], title="Standard"))
    assert root.get("aria-label") == "Standard: no games yet."
    assert bars(root) == []
    assert root.find(SVG + "polyline") is None
    assert "no games yet" in [t.text for t in root.iter(SVG + "text")]


def test_chart_with_many_games_stays_in_bounds():
    kinds = ["won", "lost", "assisted"] * 200
    root = parse(chart_svg(games(*kinds), 320, 120))
    drawn = bars(root)
    assert len(drawn) == 600
    for b in drawn:
        x, w = float(b.get("x", "0")), float(b.get("width", "0"))
        assert x >= 0 and x + w <= 320 + 1e-6


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"width": 50}, "width"),
        ({"height": 10}, "height"),
        ({"width": 300.5}, "width"),
        ({"labels": {"win": "x"}}, "unknown chart label 'win'"),
    ],
)
def test_chart_refuses_bad_arguments(kwargs: dict[str, Any], message: str):
    with pytest.raises(NestorError, match=re.escape(message)):
        chart_svg(games("won"), **kwargs)


def test_chart_refuses_an_unknown_result():
    with pytest.raises(
        NestorError, match="a chart result must be one of 'won', 'assisted', 'lost', not 'draw'"
    ):
        chart_svg(games("won", "draw"))


def test_chart_of_real_history():
    stats = Stats()
    stats.record_move("standard", 1, 1_000, won=False, helped=False, first=True)
    stats.record_move("standard", 1, 6_000, won=True, helped=False, first=False)
    stats.record_move("standard", 2, 10_000, won=False, helped=True, first=True)
    stats.record_move("standard", 2, 11_000, won=True, helped=True, first=False)
    stats.record_move("strict", 3, 20_000, won=False, helped=False, first=True)
    stats.leave("strict", 3, 21_000)
    root = parse(chart_svg(stats.history("standard"), title="Standard"))
    assert root.get("aria-label") == (
        "Standard: 2 games: 1 won, 1 won with help, 0 lost; win rate 100%."
    )


def test_chart_legend_shrinks_to_fit_a_narrow_chart():
    def legend_sizes(width: int) -> set[str]:
        root = parse(chart_svg(games("won"), width, 80))
        return {t.get("font-size", "") for t in root.iter(SVG + "text") if t.get("font-size")}

    assert legend_sizes(400) == {"10"}
    (narrow,) = legend_sizes(120)
    assert 5 <= float(narrow) < 10


def test_default_words_name_every_result_and_part():
    assert set(CHART_LABELS) == {*RESULTS, "rate", "games", "empty"}
    assert set(CHART_COLOURS) == set(RESULTS)


step = st.tuples(
    st.sampled_from(("standard", "strict")), st.integers(0, 3), st.booleans(), st.booleans(),
    st.booleans(), st.booleans(),
)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(step, max_size=60))
def test_chart_of_random_play_draws_each_settled_game(steps: list[tuple[Any, ...]]):
    stats = Stats()
    for t, (variant, deal, leave, won, assisted, first) in enumerate(steps):
        if leave:
            stats.leave(variant, deal, t)
        else:
            stats.record_move(variant, deal, t, won=won, helped=assisted, first=first)
    history = stats.history(last=100)
    drawn = bars(parse(chart_svg(history)))
    assert len(drawn) == len(history)
    assert [b.get("fill") for b in drawn] == [CHART_COLOURS[s.result] for s in history]

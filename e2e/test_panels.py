"""Issue 22: every panel opens at its top, its heading in view, in both languages and themes."""

from __future__ import annotations

import pytest
from conftest import axe_violations, control
from playwright.sync_api import Page, expect

PANELS = ("rules", "settings", "keys", "stats")

LUMINANCE = """d => {
    const [r, g, b] = getComputedStyle(d).backgroundColor.match(/[0-9.]+/g).map(Number);
    const lin = (c) => {
        c /= 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}"""
"""The relative luminance of a panel's background (WCAG's formula), 0 (black) to 1 (white)."""


@pytest.mark.own_page  # adds an init script to its page
@pytest.mark.parametrize(
    "width,height,language,theme", [(390, 844, "de", "dark"), (1280, 800, "en", "light")]
)
def test_every_panel_opens_at_its_top(
    page: Page, wait_ready, width: int, height: int, language: str, theme: str
) -> None:
    # Issue 22 (1): How to play opened on its last table (scroll 2124 of 2139 px on a phone),
    # Statistics with its title and first row hidden: showModal() focused the last control.
    page.set_viewport_size({"width": width, "height": height})
    page.add_init_script(
        "localStorage.setItem('nestor.settings', JSON.stringify("
        f"{{language: '{language}', theme: '{theme}'}}))"
    )
    page.goto("/?variant=standard&deal=7")
    wait_ready(page)
    for name in PANELS:
        if not control(page, name).is_visible():
            page.locator("[data-menu]").click()
        control(page, name).click()
        dialog = page.locator(f"#{name}-dialog")
        expect(dialog).to_have_attribute("open", "")
        top, heading = dialog.evaluate(
            """d => [d.scrollTop, d.querySelector('h2').getBoundingClientRect().top]"""
        )
        assert top == 0, (name, top)
        assert 0 <= heading < height, (name, heading)
        # Issue 22 (2): the panels stayed cream-white in the dark theme.
        light = dialog.evaluate(LUMINANCE)
        assert (light < 0.1) if theme == "dark" else (light > 0.8), (name, theme, light)
        if theme == "dark" and name in ("rules", "stats"):  # the richest: tables, a chart
            assert axe_violations(page, f"#{name}-dialog") == []
        page.keyboard.press("Escape")
        expect(dialog).not_to_have_attribute("open", "")

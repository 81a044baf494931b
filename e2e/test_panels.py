"""Issue 22: every panel opens at its top, its heading in view, in both languages and themes."""

from __future__ import annotations

import pytest
from conftest import control
from playwright.sync_api import Page, expect

PANELS = ("rules", "settings", "keys", "stats")


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
        page.keyboard.press("Escape")
        expect(dialog).not_to_have_attribute("open", "")

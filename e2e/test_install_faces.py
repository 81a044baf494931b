"""The Install control and its how-to, the court cards' faces, contrast in both themes, nothing
sideways at 360 px in either language, and a short game without a console error (issue 11)."""

from __future__ import annotations

import pytest
from conftest import axe_run, control, saves_done
from helpers import open_game, play
from lines import find_winnable
from playwright.sync_api import BrowserContext, Page, expect

from nestor import Game

INSTALL = "#controls [data-install]"
IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
IPHONE_CHROME = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) CriOS/126.0.6478.153 Mobile/15E148 Safari/604.1"
)

# What Chromium hands the page when it offers installation: an event with prompt() and
# userChoice. Headless Chromium never offers it, so the test makes the same event, whose
# prompt() counts its calls.
OFFER = """() => {
  window.prompted = window.prompted || 0;
  const offer = new Event("beforeinstallprompt", { cancelable: true });
  offer.prompt = () => { window.prompted += 1; return Promise.resolve(); };
  offer.userChoice = Promise.resolve({ outcome: "accepted", platform: "web" });
  window.dispatchEvent(offer);
  return offer.defaultPrevented;
}"""


def with_settings(context: BrowserContext | Page, **settings: str) -> None:
    """Store ``settings`` (language, theme) before the page's scripts read them."""
    pairs = ", ".join(f"{key}: '{value}'" for key, value in settings.items())
    # Only in the page's own documents (a context's script runs in opaque frames too).
    context.add_init_script(
        "if (location.protocol.startsWith('http')) "
        f"localStorage.setItem('nestor.settings', JSON.stringify({{{pairs}}}))"
    )


def one_row(page: Page, selector: str) -> bool:
    """Whether the visible elements of ``selector`` all sit in one row."""
    return page.evaluate("""sel => new Set([...document.querySelectorAll(sel)]
        .filter(b => b.offsetParent !== null)
        .map(b => Math.round(b.getBoundingClientRect().top))).size === 1""", selector)


def sideways(page: Page) -> int:
    """By how many pixels the page scrolls sideways (0 or less: not at all)."""
    return page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")


def test_install_is_offered_where_the_browser_offers_it(page: Page, wait_ready) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    open_game(page, wait_ready, "?variant=strict&deal=4")
    button = page.locator(INSTALL)
    expect(button).to_have_js_property("hidden", True)  # no offer, no control
    assert page.evaluate(OFFER), "the browser's own install banner must be held back"
    expect(button).to_have_js_property("hidden", False)
    expect(page.locator("html")).to_have_attribute("data-install", "prompt")
    # Among the less-used controls (on a phone in the More menu); the row stays one row and
    # nothing goes sideways.
    assert button.evaluate("b => b.parentElement.classList.contains('more')")
    assert one_row(page, "#controls button")
    assert sideways(page) <= 0
    expect(control(page, "install")).to_have_accessible_name("Install")
    button.click()
    assert page.evaluate("window.prompted") == 1
    expect(button).to_be_hidden()  # one prompt per offer
    expect(page.locator("#install-dialog")).not_to_have_attribute("open", "")
    page.evaluate(OFFER)  # offered again (the player said not now): back it comes
    expect(control(page, "install")).to_be_visible()
    page.evaluate("window.dispatchEvent(new Event('appinstalled'))")
    expect(button).to_be_hidden()
    expect(page.locator("html")).not_to_have_attribute("data-install", "prompt")
    assert page.evaluate("window.prompted") == 1


def test_ios_safari_gets_the_how_to_in_its_language(site_context, base_url, wait_ready) -> None:
    context = site_context(base_url, user_agent=IPHONE_SAFARI, has_touch=True, is_mobile=True,
                           viewport={"width": 390, "height": 844}, device_scale_factor=2)
    with_settings(context, language="de")
    page = context.new_page()
    open_game(page, wait_ready, "?variant=standard&deal=7")
    button = control(page, "install")
    expect(button).to_be_visible()
    expect(button).to_have_accessible_name("Installieren")
    button.click()
    dialog = page.locator("#install-dialog")
    expect(dialog).to_have_attribute("open", "")
    expect(dialog.locator("h2")).to_have_text("Nestor installieren")
    expect(dialog).to_contain_text("Teilen")
    expect(dialog).to_contain_text("Zum Home-Bildschirm")
    assert sideways(page) <= 0
    page.keyboard.press("n")  # the game under the dialog takes no keys
    expect(page.locator("#deal-number")).to_have_text("7")
    page.keyboard.press("Escape")
    expect(dialog).not_to_have_attribute("open", "")


@pytest.mark.parametrize("agent,standalone", [(IPHONE_SAFARI, True), (IPHONE_CHROME, False)],
                         ids=["installed", "chrome-on-ios"])
def test_no_install_control_once_installed_or_without_a_way(
    site_context, base_url, wait_ready, agent: str, standalone: bool
) -> None:
    context = site_context(base_url, user_agent=agent, has_touch=True, is_mobile=True,
                           viewport={"width": 390, "height": 844})
    if standalone:  # Safari's flag of a page opened from the home screen
        context.add_init_script(
            "Object.defineProperty(navigator, 'standalone', {get: () => true})"
        )
    page = context.new_page()
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator(INSTALL)).to_be_hidden()
    if standalone:
        page.evaluate(OFFER)  # an offer while running installed changes nothing
        expect(page.locator(INSTALL)).to_be_hidden()
    assert page.evaluate("document.documentElement.dataset.install") is None


def test_court_cards_are_told_apart_at_a_glance(page: Page, wait_ready) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_game(page, wait_ready, "?variant=standard&deal=7")
    faces = page.locator("#board [data-card]").evaluate_all("""els => els.map(e => {
      const panel = e.querySelector('.court-panel');
      const frame = e.querySelector('.frame');
      return {
        code: e.dataset.card,
        pip: !!e.querySelector('.pip'),
        frame: frame && frame.checkVisibility()
          ? parseFloat(getComputedStyle(frame).borderTopWidth) : 0,
        motif: panel ? panel.querySelector('svg.motif').innerHTML : null,
        letter: panel ? panel.querySelector('.court-rank').textContent : null,
        panel: panel ? [panel.getBoundingClientRect().width,
                        getComputedStyle(panel).backgroundColor] : null,
      };
    })""")
    courts = [f for f in faces if f["code"][0] in "JQK"]
    numbers = [f for f in faces if f["code"][0] not in "JQK"]
    assert courts and numbers
    for face in numbers:  # a number card or an ace: one big pip, no frame, no panel
        assert face["pip"] and face["frame"] == 0 and face["motif"] is None, face
    for face in courts:  # a court card: the frame (seen even when covered), a panel, no pip
        assert not face["pip"] and face["frame"] >= 1 and face["motif"], face
        assert face["letter"] == face["code"][0], face
    motifs = {f["code"][0]: f["motif"] for f in courts}
    assert set(motifs) == {"J", "Q", "K"} and len(set(motifs.values())) == 3, motifs
    # An uncovered court card's panel is drawn (a width and a colour of its own).
    shown = page.locator("#board [data-available].court").evaluate_all(
        "els => els.map(e => [e.dataset.card, e.querySelector('.court-panel').offsetWidth])")
    assert shown and all(width >= 20 for _, width in shown), shown


def contrast_problems(page: Page) -> list[str]:
    """The nodes axe-core's color-contrast rule finds wanting (WCAG AA), with its summary."""
    results = axe_run(page, options={"runOnly": ["color-contrast"]})
    return [
        f"{n['target']}: {n['failureSummary']}"
        for v in results.response["violations"] for n in v["nodes"]
    ]


# WCAG 2's contrast ratio of each court panel's letter against the panel: the lowest found.
COURT_CONTRAST = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratios = [...document.querySelectorAll("#board .court-panel")].map((panel) => {
    const a = lum(getComputedStyle(panel.querySelector(".court-rank")).color);
    const b = lum(getComputedStyle(panel).backgroundColor);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
  return ratios.length ? Math.min(...ratios) : 0;
}"""


def court_letter_contrast(page: Page) -> float:
    """The lowest contrast ratio of a court panel's rank letter on the board (0: none)."""
    return float(page.evaluate(COURT_CONTRAST))


@pytest.mark.slow  # make test-slow: the audit's axe checks the board's contrast in both themes
@pytest.mark.own_page  # adds an init script, a route or a clock to its page
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_board_has_enough_contrast(page: Page, wait_ready, theme: str) -> None:
    with_settings(page, theme=theme)
    page.set_viewport_size({"width": 390, "height": 844})
    # Deal 7: a king, queens and a jack uncovered at the start, in the tableau and the reserve.
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    for code in ("KC", "QC", "QD"):
        expect(page.locator(f'#board [data-card="{code}"][data-available]')).to_have_count(1)
    for move in game.legal_moves()[:1]:
        play(page, move)
    page.locator("#board [data-available]").first.click()  # a selection, partners marked
    page.evaluate(OFFER)  # the Install control shown too
    assert contrast_problems(page) == [], theme
    # The rule looked at the board's words...
    checked = axe_run(page, context="#board",
                      options={"runOnly": ["color-contrast"], "resultTypes": ["passes"]})
    assert checked.response["passes"], "axe checked nothing on the board"
    # ...but passes over a one-letter text (K, Q, J) as too short to judge: the court panels'
    # letters are measured here with the same WCAG formula.
    assert court_letter_contrast(page) >= 4.5, theme
    # The overlapping reserve's greyed cards beneath its top one.
    deal, _ = find_winnable("overlapping")
    page.goto(f"/?variant=overlapping&deal={deal}")
    wait_ready(page)
    assert contrast_problems(page) == [], f"{theme}, overlapping reserve"
    if page.locator("#board .court").count():
        assert court_letter_contrast(page) >= 4.5, f"{theme}, overlapping reserve"


@pytest.mark.own_page  # adds an init script, a route or a clock to its page
@pytest.mark.slow  # make test-slow: the layout audit's fast corner checks a phone's width
@pytest.mark.parametrize("language", ["en", "de"])
def test_nothing_sideways_at_360_and_a_short_game_is_clean(
    page: Page, wait_ready, page_log, language: str
) -> None:
    with_settings(page, language=language)
    page.set_viewport_size({"width": 360, "height": 640})
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert sideways(page) <= 0, "the board"
    page.evaluate(OFFER)  # with the Install control in the row
    assert sideways(page) <= 0, "the board with Install"
    for name in ("settings", "rules", "keys", "stats"):
        control(page, name).click()
        expect(page.locator(f"#{name}-dialog")).to_have_attribute("open", "")
        assert sideways(page) <= 0, f"the {name} dialog"
        page.keyboard.press("Escape")
        expect(page.locator(f"#{name}-dialog")).not_to_have_attribute("open", "")
    page.evaluate("document.getElementById('install-dialog').showModal()")
    assert sideways(page) <= 0, "the install how-to"
    page.keyboard.press("Escape")
    # A short game: pairs, an undo, a hint, a loss or a win never logs an error.
    for _ in range(6):
        moves = game.legal_moves()
        if not moves:
            break
        play(page, moves[0])
        game.push(moves[0])
    page.click('#controls [data-action="undo"]')
    page.click('#controls [data-action="hint"]')
    expect(page.locator("#moves-made")).to_have_text(str(len(game.moves) - 1))
    assert sideways(page) <= 0, "mid-game"
    for variant in ("strict", "vertical", "doublets", "overlapping", "standard"):
        page.select_option("#variant", variant)
        expect(page.locator("body")).to_have_attribute("data-variant", variant)
        assert sideways(page) <= 0, variant
    saves_done(page)
    assert page_log.console_errors == [] and page_log.page_errors == [], page_log

"""Play feel (issue 11): every tap counts, dragging a card onto its partner (mouse and touch),
the partners and the cards a move uncovered marked, the overlapping reserve's top card, and
"?" opening and closing the keys list."""

from __future__ import annotations

from typing import Any

from conftest import control
from helpers import centre, mouse_drag, open_game, play
from playwright.sync_api import Page, expect

from nestor import Game, Pair, Position

DOUBLE_CLICK_PX = 4.0
"""Chromium counts a click as the next of a series (``detail`` + 1) when it lands this close
to the last one, soon enough (about 500 ms): the taps below send the count it would."""


def box_of(page: Page, card: str) -> dict[str, float]:
    box = page.locator(f'#board [data-card="{card}"]').bounding_box()
    assert box is not None, card
    return box


def column_of(position: Position, card: str) -> int | None:
    for i, column in enumerate(position.columns):
        if card in column:
            return i
    return None


def tap_line(deals: range, pairs: int) -> tuple[int, list[tuple[str, str]]]:
    """A deal and ``pairs`` pairs to play in it, each as the two taps in order, where the
    first tap of a pair is, as often as can be, on the card that the last tap's pair uncovered
    in the last tapped card's column: a fast player taps it on the same spot (the card above
    slides into view there)."""
    best: tuple[int, int, list[tuple[str, str]]] | None = None
    for deal in deals:
        game = Game("standard", deal)
        taps: list[tuple[str, str]] = []
        follow = 0
        spot: int | None = None  # the column of the last tap
        while len(taps) < pairs and game.outcome() is None:
            pos = game.position
            options = [
                (a, b) for m in pos.legal_moves() if isinstance(m, Pair)
                for a, b in (m.cards, m.cards[::-1])
            ]
            if not options:
                break

            def score(order: tuple[str, str], pos: Position = pos,
                      spot: int | None = spot) -> int:
                a, b = order
                col_b = column_of(pos, b)
                on_spot = spot is not None and pos.columns[spot][-1:] == (a,)
                return 2 * on_spot + (col_b is not None and len(pos.columns[col_b]) > 1)

            order = max(options, key=score)
            if spot is not None and pos.columns[spot][-1:] == (order[0],):
                follow += 1
            spot = column_of(pos, order[1])
            game.push(Pair(*order))
            taps.append(order)
        if len(taps) == pairs and (best is None or follow > best[0]):
            best = (follow, deal, taps)
    assert best is not None and best[0] >= 3, best
    return best[1], best[2]


def test_every_tap_counts(page: Page, wait_ready) -> None:
    """Issue 11: a second click soon after the first (``detail`` 2, as a browser counts a
    fast double tap) was dropped, so the card just uncovered under the finger did not react."""
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    move = next(m for m in game.legal_moves()
                if isinstance(m, Pair) and column_of(game.position, m.second) is not None)
    assert isinstance(move, Pair)
    column = game.position.columns[column_of(game.position, move.second) or 0]
    above = column[-2]
    page.click(f'[data-card="{move.first}"]')
    x, y = centre(page, move.second)
    page.mouse.move(x, y)
    page.mouse.down(click_count=1)
    page.mouse.up(click_count=1)
    page.mouse.down(click_count=2)  # the same spot at once: the card above is there now
    page.mouse.up(click_count=2)
    expect(page.locator("#cards-left")).to_have_text("50")
    expect(page.locator(f'[data-card="{above}"]')).to_have_attribute("data-selected", "")

    # 20 taps, 50 ms apart, on successive available cards: every one counts.
    deal, line = tap_line(range(0, 40), 10)
    open_game(page, wait_ready, f"?variant=standard&deal={deal}")
    last: tuple[float, float] | None = None
    count = 0
    repeated = 0
    for taps in line:
        for card in taps:
            box = box_of(page, card)
            inside = last is not None and (
                box["x"] <= last[0] <= box["x"] + box["width"]
                and box["y"] <= last[1] <= box["y"] + box["height"]
            )
            if inside and last is not None:
                x, y = last
                count += 1
                repeated += 1
            else:
                x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                count = 1
            page.mouse.move(x, y)
            page.mouse.down(click_count=count)
            page.mouse.up(click_count=count)
            last = (x, y)
    assert repeated >= 3, "the line should tap on the same spot again several times"
    expect(page.locator("#moves-made")).to_have_text("10")
    expect(page.locator("#cards-left")).to_have_text("32")
    # The board does not zoom on a double tap, and an available card keeps the finger for a
    # drag: both are CSS, not dropped clicks.
    assert page.evaluate("getComputedStyle(document.getElementById('board')).touchAction") \
        == "manipulation"
    assert page.locator("#board [data-available]").first.evaluate(
        "e => getComputedStyle(e).touchAction") == "none"


def test_question_mark_opens_and_closes_the_keys_list(page: Page, wait_ready) -> None:
    open_game(page, wait_ready, "?variant=standard&deal=7")
    page.keyboard.press("?")
    expect(page.locator("#keys-dialog")).to_be_visible()
    expect(page.locator("#keys-text")).to_contain_text("show or hide this list")
    page.keyboard.press("?")
    expect(page.locator("#keys-dialog")).to_be_hidden()
    page.keyboard.press("?")
    expect(page.locator("#keys-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#keys-dialog")).to_be_hidden()
    # The statistics dialog does not answer "?": it stays open, no keys list over it.
    control(page, "stats").click()
    page.keyboard.press("?")
    expect(page.locator("#stats-dialog")).to_be_visible()
    expect(page.locator("#keys-dialog")).to_be_hidden()


def two_pairs(game: Game) -> tuple[Pair, Pair, str]:
    """Two pairs of different ranks that share no card, and an available card of a third
    rank."""
    pairs = [m for m in game.legal_moves() if isinstance(m, Pair)]
    first = pairs[0]
    second = next(p for p in pairs if p.first[0] != first.first[0])
    other = next(c for c in game.position.available()
                 if c[0] not in (first.first[0], second.first[0]))
    return first, second, other


RECORD_ANIMATIONS = """() => {
  window.__animated = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.__animated.push(this.dataset.card);
    return animate.call(this, frames, options);
  };
}"""
"""Keep the card of each element animated from now on in ``window.__animated`` (a slide of
180 ms may be over before the test can look at it)."""


def settled(page: Page, card: str) -> None:
    """Wait until ``card`` has slid back (no animation left on it)."""
    page.wait_for_function(
        "c => document.querySelector(`[data-card='${c}']`).getAnimations().length === 0",
        arg=card)


def transform(page: Page, card: str) -> str:
    return str(page.locator(f'#board [data-card="{card}"]').evaluate("e => e.style.transform"))


def test_drag_with_the_mouse(page: Page, wait_ready) -> None:
    page.emulate_media(reduced_motion="no-preference")  # the card slides back
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    pair, other_pair, stranger = two_pairs(game)
    partners = game.position.partners(pair.first)
    assert page.locator(f'[data-card="{pair.first}"]').get_attribute("data-partners") \
        == " ".join(partners)

    # Dragged: its own element follows the pointer and is marked; its partners and the one
    # under the pointer are marked too.
    mouse_drag(page, pair.first, centre(page, pair.second))
    dragged = page.locator(f'[data-card="{pair.first}"]')
    expect(dragged).to_have_attribute("data-dragging", "")
    assert transform(page, pair.first).startswith("translate(")
    expect(page.locator("[data-drop]")).to_have_attribute("data-card", pair.second)
    assert sorted(page.locator("[data-drop-target]").evaluate_all(
        "els => els.map(e => e.dataset.card)")) == sorted(partners)
    page.mouse.up()
    game.push(pair)
    expect(page.locator("#cards-left")).to_have_text("50")
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator(f'#board [data-card="{pair.first}"]')).to_have_count(0)
    expect(page.locator("[data-dragging], [data-drop], [data-drop-target]")).to_have_count(0)
    expect(page.locator("[data-selected]")).to_have_count(0)  # the click it ended is no tap

    # Dropped on a card of another rank: it slides back, nothing is played.
    page.evaluate(RECORD_ANIMATIONS)
    mouse_drag(page, other_pair.first, centre(page, stranger))
    expect(page.locator("[data-drop]")).to_have_count(0)
    page.mouse.up()
    back = page.locator(f'[data-card="{other_pair.first}"]')
    expect(back).not_to_have_attribute("data-dragging", "")
    assert page.evaluate("window.__animated") == [other_pair.first]  # it slid back
    settled(page, other_pair.first)
    assert transform(page, other_pair.first) == ""
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator("[data-selected]")).to_have_count(0)

    # Dropped on empty felt: the same.
    mouse_drag(page, other_pair.first, (5, 5))
    page.mouse.up()
    expect(page.locator("#moves-made")).to_have_text("1")
    settled(page, other_pair.first)  # measure it where it rests, not on its way back

    # A press that moves a little is still a tap: it selects.
    x, y = centre(page, other_pair.first)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 2, y + 1)
    page.mouse.up()
    expect(back).to_have_attribute("data-selected", "")
    # Tap-tap still pairs, and the partners of the selection are marked.
    expect(page.locator("[data-partner]")).to_have_count(
        len(game.position.partners(other_pair.first)))
    page.click(f'[data-card="{other_pair.second}"]')
    expect(page.locator("#moves-made")).to_have_text("2")

    # A drag that lands mostly over its partner, the pointer outside it, pairs too.
    game.push(other_pair)
    third = next(m for m in game.legal_moves() if isinstance(m, Pair))
    box = box_of(page, third.second)
    grab = box_of(page, third.first)
    gx, gy = grab["x"] + grab["width"] * 0.9, grab["y"] + grab["height"] * 0.9
    page.mouse.move(gx, gy)
    page.mouse.down()
    # the card's box 80% over the partner's, the pointer below and to the right of it
    tx = box["x"] + box["width"] * 0.2 + grab["width"] * 0.9
    ty = box["y"] + grab["height"] * 0.9
    page.mouse.move(tx, ty, steps=6)
    page.mouse.up()
    expect(page.locator("#moves-made")).to_have_text("3")


def test_drag_under_reduced_motion_snaps_back_at_once(page: Page, wait_ready) -> None:
    page.emulate_media(reduced_motion="reduce")
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    pair, _other, stranger = two_pairs(game)
    page.evaluate(RECORD_ANIMATIONS)
    mouse_drag(page, pair.first, centre(page, stranger))
    page.mouse.up()
    card = page.locator(f'[data-card="{pair.first}"]')
    assert card.evaluate("e => [e.style.transform, e.getAnimations().length]") == ["", 0]
    assert page.evaluate("window.__animated") == []
    expect(page.locator("#moves-made")).to_have_text("0")
    mouse_drag(page, pair.first, centre(page, pair.second))
    page.mouse.up()
    expect(page.locator("#moves-made")).to_have_text("1")


def touch_drag(page: Page, cdp: Any, start: tuple[float, float], end: tuple[float, float],
               steps: int = 8) -> None:
    """A finger put down at ``start``, moved to ``end`` and lifted, through Chromium's own
    touch input (touch-action, the browser's panning and pointer events all apply)."""
    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    touch("touchStart", *start)
    for i in range(1, steps + 1):
        touch("touchMove", start[0] + (end[0] - start[0]) * i / steps,
              start[1] + (end[1] - start[1]) * i / steps)
    touch("touchEnd", *end)


POINTER_DRAG = """([card, to]) => {
  const el = document.querySelector(`#board [data-card="${card}"]`);
  const box = el.getBoundingClientRect();
  const x0 = box.left + box.width / 2, y0 = box.top + box.height / 2;
  const send = (target, type, x, y) => target.dispatchEvent(new PointerEvent(type, {
    bubbles: true, cancelable: true, composed: true, pointerId: 7, pointerType: "touch",
    isPrimary: true, button: type === "pointermove" ? -1 : 0,
    buttons: type === "pointerup" ? 0 : 1, clientX: x, clientY: y }));
  send(el, "pointerdown", x0, y0);
  for (let i = 1; i <= 6; i++) {
    send(el, "pointermove", x0 + (to[0] - x0) * i / 6, y0 + (to[1] - y0) * i / 6);
  }
  const dragging = el.hasAttribute("data-dragging");
  send(el, "pointerup", to[0], to[1]);
  return dragging;
}"""


def test_drag_with_a_finger(site_context, base_url, wait_ready) -> None:
    context = site_context(base_url, has_touch=True, is_mobile=True,
                           viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    cdp = context.new_cdp_session(page)
    pair, other_pair, stranger = two_pairs(game)

    # Chromium's touch input: the finger drags the card (no scroll, no cancel) onto its partner.
    touch_drag(page, cdp, centre(page, pair.first), centre(page, pair.second))
    expect(page.locator("#moves-made")).to_have_text("1")
    expect(page.locator(f'#board [data-card="{pair.first}"]')).to_have_count(0)
    # Onto a card of another rank: back it goes.
    touch_drag(page, cdp, centre(page, other_pair.first), centre(page, stranger))
    settled(page, other_pair.first)
    assert transform(page, other_pair.first) == ""
    expect(page.locator("#moves-made")).to_have_text("1")
    # A tap with the finger still selects, and a second one pairs.
    page.tap(f'[data-card="{other_pair.first}"]')
    expect(page.locator(f'[data-card="{other_pair.first}"]')).to_have_attribute(
        "data-selected", "")
    # A finger's player is told to tap (a mouse player to click: test_play.py).
    expect(page.locator("#status")).to_contain_text(": now tap another card of the same rank.")
    page.tap(f'[data-card="{other_pair.second}"]')
    expect(page.locator("#moves-made")).to_have_text("2")
    game.push(pair)
    game.push(other_pair)

    # Pointer events of type touch, dispatched on the card: the same drag.
    third = next(m for m in game.legal_moves() if isinstance(m, Pair))
    assert page.evaluate(POINTER_DRAG, [third.first, list(centre(page, third.second))])
    expect(page.locator("#moves-made")).to_have_text("3")
    game.push(third)

    # A finger held still on a card, longer than a long press (which a touch browser turns
    # into a context menu, not a click), is a tap too; so is a quick tap on a slow phone.
    held = next(m for m in game.legal_moves() if isinstance(m, Pair)).first
    x, y = centre(page, held)
    cdp.send("Input.dispatchTouchEvent",
             {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
    page.wait_for_timeout(900)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator(f'[data-card="{held}"]')).to_have_attribute("data-selected", "")
    page.tap(f'[data-card="{held}"]')  # and the tap after it counts: one tap, one change
    expect(page.locator("[data-selected]")).to_have_count(0)


def test_partners_and_the_last_move_are_marked(page: Page, wait_ready) -> None:
    game = Game("standard", 7)
    open_game(page, wait_ready, "?variant=standard&deal=7")
    for card, where in game.position.available().items():
        expect(page.locator(f'[data-card="{card}"]')).to_have_attribute(
            "data-partners", " ".join(game.position.partners(card)))
        assert where  # every available card carries its partners
    pair = next(m for m in game.legal_moves() if isinstance(m, Pair))
    page.click(f'[data-card="{pair.first}"]')
    marked = page.locator("[data-partner]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(marked) == sorted(game.position.partners(pair.first))
    # The setting off: nothing marked.
    control(page, "settings").click()  # a panel over the game
    page.uncheck("#opt-highlight-partners")
    expect(page.locator("[data-partner]")).to_have_count(0)
    page.check("#opt-highlight-partners")
    expect(page.locator("[data-partner]")).to_have_count(len(marked))
    page.keyboard.press("Escape")
    expect(page.locator("#settings-dialog")).not_to_have_attribute("open", "")
    # The pair removed: the cards it uncovered are marked, until the next move or undo.
    page.click(f'[data-card="{pair.second}"]')
    before = game.position
    game.push(pair)
    uncovered = game.position.newly_available(before)
    assert uncovered
    last = page.locator("[data-last-move]")
    expect(last).to_have_count(len(uncovered))
    assert sorted(last.evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(uncovered)
    # A glow around the card, nothing over its face (issue 22 (8): a yellow fill read as the
    # selection and turned the ten of spades olive).
    mark = last.first.evaluate(
        "e => [getComputedStyle(e, '::after').backgroundColor, "
        "getComputedStyle(e, '::after').boxShadow]")
    assert mark[0] == "rgba(0, 0, 0, 0)" and mark[1] != "none", mark
    page.locator("[data-available]").first.click()  # a selection is no move: still marked
    expect(last).to_have_count(len(uncovered))
    page.click('[data-action="undo"]')
    expect(last).to_have_count(0)
    page.click('[data-action="redo"]')
    expect(last).to_have_count(len(uncovered))
    play(page, game.legal_moves()[0])
    before2 = game.position
    game.push(game.legal_moves()[0])
    expect(last).to_have_count(len(game.position.newly_available(before2)))


def test_the_overlapping_reserve_shows_its_top_card(page: Page, wait_ready) -> None:
    game = Game("overlapping", 3)
    open_game(page, wait_ready, "?variant=overlapping&deal=3")
    reserve = page.locator(".reserve [data-card]")
    expect(reserve).to_have_count(4)
    looks = reserve.evaluate_all("""els => els.map(e => {
      const s = getComputedStyle(e);
      return [e.hasAttribute("data-available"), s.backgroundColor, s.boxShadow,
              e.getBoundingClientRect().top];
    })""")
    top = [look for look in looks if look[0]]
    covered = [look for look in looks if not look[0]]
    assert len(top) == 1 and len(covered) == 3
    assert all(c[1] != top[0][1] for c in covered), looks  # the covered ones are greyed
    assert all(c[2] != top[0][2] for c in covered), looks  # the top one casts a shadow
    assert all(top[0][3] < c[3] for c in covered), looks   # and sits higher
    # Its partner removed with it, the card beneath becomes the top one and is marked.
    code = str(reserve.last.get_attribute("data-card"))
    partner = game.position.partners(code)
    assert partner, "pick a deal whose top reserve card has a partner"
    page.click(f'[data-card="{code}"]')
    page.click(f'[data-card="{partner[0]}"]')
    expect(page.locator(".reserve [data-available]")).to_have_count(1)
    expect(page.locator(".reserve [data-available]")).to_have_attribute("data-last-move", "")

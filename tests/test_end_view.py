"""The end screen: its state (nestor_web.app.ending) and its words and HTML (view/end.py),
in English and German, over real sessions played to their end."""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import played

from nestor import Game, Outcome
from nestor.solver import Status, solve
from nestor_web.app.ending import Ending
from nestor_web.app.saved import Help
from nestor_web.app.session import Session
from nestor_web.view import i18n
from nestor_web.view.end import chance_words, end_view, help_words, render_end
from nestor_web.view.words import status_text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))


# Deals whose verdicts the solver gives (checked again in each test, so a change of the
# deal or of the solver fails loudly): standard 1 is winnable but lost by always taking the
# first legal move, standard 2 cannot be won; strict 1 (chance 1/2) is lost by a stock card,
# strict 3 (chance 1/6) is won by the first legal moves.
WINNABLE, UNWINNABLE = ("standard", 1), ("standard", 2)
STRICT_LOST, STRICT_WON = ("strict", 1), ("strict", 3)


def finish_verdict(ending: Ending, session: Session) -> None:
    steps = ending.verdict_steps(session)
    while True:
        try:
            next(steps)
        except StopIteration:
            return


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


# ---- the state ---------------------------------------------------------------------------


def test_no_end_screen_while_the_game_goes_on() -> None:
    session = Session(Game(*WINNABLE))
    ending = Ending()
    assert end_view(session, ending) is None
    assert not ending.shown(session)
    assert not ending.needs_verdict(session)


def test_dismissed_until_the_game_is_no_longer_over() -> None:
    session = played(*UNWINNABLE)
    ending = Ending()
    assert ending.shown(session)
    ending.dismissed = True
    ending.sync(session)
    assert not ending.shown(session)  # closed: stays closed while the game is over
    assert not ending.needs_verdict(session)
    ending.dismissed = False
    assert ending.shown(session)
    ending.dismissed = True
    session.undo()
    ending.sync(session)
    assert not ending.shown(session) and not ending.dismissed
    session.redo()  # the game ends again: its end screen comes back
    ending.sync(session)
    assert ending.shown(session)


def test_the_verdict_is_worked_out_once_per_deal_from_its_first_position() -> None:
    session = played(*WINNABLE)
    ending = Ending()
    assert ending.needs_verdict(session) and ending.verdict(session) is None
    finish_verdict(ending, session)
    found = ending.verdict(session)
    assert found is not None and found.status is Status.WINNABLE
    assert found.status is solve(Game(*WINNABLE).start, known_order=False).status
    assert not ending.needs_verdict(session)
    assert list(ending.verdict_steps(session)) == []  # kept: no search again


def test_an_open_game_won_needs_no_search() -> None:
    game = Game("standard", WINNABLE[1])
    line = list(solve(game.start).line)
    session = played(*WINNABLE, moves=line)
    ending = Ending()
    assert session.game.outcome() is Outcome.WON
    assert ending.won_by_play(session)
    assert not ending.needs_verdict(session)


# ---- the words, in English ---------------------------------------------------------------


def test_won_game_in_english() -> None:
    line = list(solve(Game(*WINNABLE).start).line)
    session = played(*WINNABLE, moves=line, ms_per_move=2500)
    view = end_view(session, Ending())
    assert view is not None
    assert (view.outcome, view.title, view.reason) == (
        "won", "You won!", "Every card is paired off.")
    # The timer runs from the first move to the win: 25 gaps of 2.5 s.
    assert view.time == "1:02"
    assert view.pairs == "26 of 26"
    assert (view.help, view.helped) == ("None", False)
    assert view.verdict_label == "Could the deal be won from the start?"
    assert (view.verdict, view.verdict_kind) == ("Yes: you won it", "won")
    assert view.streak == "Streak: 1 (best 1)."
    assert view.buttons == (("review", "Review"), ("restart", "Play again"),
                            ("new", "New deal"), ("undo", "Undo"), ("copy-link", "Copy link"))
    assert view.can_undo


def test_lost_game_in_english_working_then_each_verdict() -> None:
    session = played(*WINNABLE)
    pairs = (52 - session.position.cards_left()) // 2
    ending = Ending()
    view = end_view(session, ending)
    assert view is not None
    assert (view.outcome, view.title, view.reason) == (
        "lost", "Game lost", "No pair is left to remove.")
    assert view.pairs == f"{pairs} of 26"
    assert view.time == f"0:{session.game.cursor - 1:02d}"  # first move to the last
    assert (view.verdict, view.verdict_kind) == ("Working it out…", "working")
    assert view.streak == "Streak: 0 (best 0)."
    finish_verdict(ending, session)
    view = end_view(session, ending)
    assert view is not None
    assert (view.verdict, view.verdict_kind) == (
        "Yes: the solver found a winning line", "winnable")

    lost = played(*UNWINNABLE)
    ending = Ending()
    finish_verdict(ending, lost)
    view = end_view(lost, ending)
    assert view is not None
    assert (view.verdict, view.verdict_kind) == (
        "No: the solver tried every way of playing it", "lost")


def test_a_search_over_budget_is_unknown_never_a_guess() -> None:
    session = played(*WINNABLE)
    ending = Ending(max_nodes=3)
    finish_verdict(ending, session)
    view = end_view(session, ending)
    assert view is not None
    assert (view.verdict, view.verdict_kind) == (
        "Unknown: the solver gave up before it could tell", "unknown")


def test_strict_says_the_chance_with_best_play() -> None:
    session = played(*STRICT_LOST)
    assert session.position.outcome() is Outcome.STOCK_UNPAIRED
    ending = Ending()
    finish_verdict(ending, session)
    view = end_view(session, ending)
    assert view is not None
    card = i18n.card_name(session.position.unpaired or "")
    assert view.reason == f"The stock card, the {card}, can't pair with any available card."
    assert view.verdict_label == (
        "Chance to win from the start, with best play (stock order unknown)")
    assert (view.verdict, view.verdict_kind) == ("50%", "chance")

    won = played(*STRICT_WON)
    assert won.position.outcome() is Outcome.WON
    ending = Ending()
    assert ending.needs_verdict(won)  # a win does not tell Strict's chance: searched
    finish_verdict(ending, won)
    view = end_view(won, ending)
    assert view is not None
    assert (view.verdict, view.verdict_kind) == ("17%", "chance")


@pytest.mark.parametrize(("chance", "words"), [
    (0.0, "0%"), (0.003, "under 1%"), (0.006, "1%"), (0.234, "23%"), (0.994, "99%"),
    (0.997, "over 99%"), (1.0, "100%"),
])
def test_a_chance_is_never_rounded_to_nothing_or_certainty(chance: float, words: str) -> None:
    assert chance_words(chance) == words


def test_help_names_each_kind_used() -> None:
    session = Session(Game(*WINNABLE))
    assert help_words(session) == "None"
    session.help = Help(hints=1)
    assert help_words(session) == "Used: 1 hint"
    session.help = Help(hints=2, solver_moves=5, replayed=1)
    assert help_words(session) == (
        "Used: 2 hints, 5 moves by Solve, started from a replay after 1 move")
    session.help = Help(solver_moves=1, replayed=3)
    assert help_words(session) == "Used: 1 move by Solve, started from a replay after 3 moves"


def test_help_from_the_solver_in_play() -> None:
    session = Session(Game(*WINNABLE))
    solution = solve(session.position, known_order=False)
    session.show_hint(solution)
    session.play_solver_move(solve(session.position, known_order=False))
    while session.game.outcome() is None:
        session.play_solver_move(solve(session.position, known_order=False))
    view = end_view(session, Ending())
    assert view is not None
    assert view.title == "You won!"
    assert view.helped
    assert view.help == "Used: 1 hint, 26 moves by Solve"


# ---- the words, in German ----------------------------------------------------------------


def test_won_and_lost_in_german(german) -> None:
    line = list(solve(Game(*WINNABLE).start).line)
    session = played(*WINNABLE, moves=line)
    view = end_view(session, Ending())
    assert view is not None
    assert (view.title, view.reason, view.pairs, view.help) == (
        "Gewonnen!", "Alle Karten sind abgeräumt.", "26 von 26", "Keine")
    assert view.verdict_label == "War das Spiel von Anfang an zu gewinnen?"
    assert view.verdict == "Ja: Du hast es gewonnen"
    assert view.streak == "Serie: 1 (beste 1)."
    assert view.buttons == (("review", "Auswertung"), ("restart", "Noch einmal spielen"),
                            ("new", "Neues Spiel"),
                            ("undo", "Rückgängig"), ("copy-link", "Link kopieren"))
    assert (view.close, view.label) == ("Ergebnis schließen", "Wie weiter")

    lost = played(*UNWINNABLE)
    ending = Ending()
    view = end_view(lost, ending)
    assert view is not None
    assert (view.title, view.reason, view.verdict) == (
        "Verloren", "Es gibt kein Paar mehr zum Abräumen.", "Wird berechnet …")
    finish_verdict(ending, lost)
    view = end_view(lost, ending)
    assert view is not None
    assert view.verdict == "Nein: Der Löser hat jeden Spielweg geprüft"
    lost.help = Help(hints=2, solver_moves=1, replayed=4)
    assert help_words(lost) == (
        "Genutzt: 2 Tipps, 1 Zug von „Lösen“, aus einer Wiedergabe nach 4 Zügen begonnen")

    strict = played(*STRICT_LOST)
    ending = Ending(max_nodes=3)
    finish_verdict(ending, strict)
    view = end_view(strict, ending)
    assert view is not None
    assert view.verdict_label == (
        "Gewinnchance von Anfang an, bei bestem Spiel (Reihenfolge des Vorrats unbekannt)")
    assert view.verdict == "Unbekannt: Der Löser gab auf, bevor er es wusste"
    assert view.reason.startswith("Die Vorratskarte ")
    assert chance_words(0.001) == "unter 1 %"
    assert chance_words(0.999) == "über 99 %"


# ---- the HTML ----------------------------------------------------------------------------


def test_render_end_names_and_hooks() -> None:
    session = played(*UNWINNABLE)
    ending = Ending()
    finish_verdict(ending, session)
    view = end_view(session, ending)
    assert view is not None
    html = render_end(view)
    page = parse(html)
    attrs = {(tag, a.get("id")): a for tag, a in page.tags}
    assert attrs[("h2", "end-title")]["data-end-outcome"] == "lost"
    assert ("p", "end-reason") in attrs
    verdict = attrs[("dd", "end-verdict")]
    assert (verdict["data-verdict"], verdict["aria-live"]) == ("lost", "polite")
    facts = [a["data-end-fact"] for tag, a in page.tags if "data-end-fact" in a]
    assert facts == ["time", "pairs", "help", "verdict"]
    actions = [a["data-action"] for tag, a in page.tags if tag == "button" and "data-action" in a]
    assert actions == ["review", "restart", "new", "undo", "copy-link"]
    close = next(a for tag, a in page.tags if a.get("data-end-command") == "close")
    assert close["aria-label"] == "Close the result"
    group = next(a for tag, a in page.tags if a.get("role") == "group")
    assert group["aria-label"] == "What next"
    text = " ".join(t.strip() for t in page.text if t.strip())
    assert text == (
        "Game lost No pair is left to remove. Time "
        f"{view.time} Pairs made {view.pairs} Help None Could the deal be won from the start? "
        "No: the solver tried every way of playing it Streak: 0 (best 0). "
        "Review Play again New deal Undo Copy link"
    )
    undo = next(a for tag, a in page.tags if a.get("data-action") == "undo")
    assert "disabled" not in undo


def test_only_the_verdict_changes_in_place() -> None:
    session = played(*UNWINNABLE)
    ending = Ending()
    working = end_view(session, ending)
    finish_verdict(ending, session)
    done = end_view(session, ending)
    assert working is not None and done is not None
    assert working != done
    assert working.without_verdict() == done.without_verdict()
    session.help = Help(hints=1)
    helped = end_view(session, ending)
    assert helped is not None and helped.without_verdict() != done.without_verdict()


def test_the_status_line_keeps_the_one_line_result() -> None:
    """Closed, the end screen leaves the result in the status line (the end screen hides
    that line while it is shown, so nothing is said twice)."""
    session = played(*UNWINNABLE)
    assert status_text(session) == "Game lost: no pair is left to remove. Streak: 0 (best 0)."

"""The page's own texts: the shell's (``data-text="id"`` shows ``TEXTS[id]``, written into
index.html and static/js/texts.js by the build), the rules and the keys. Messages may hold
inline markup (``<strong>``, ``<a>``) written by us only."""

from __future__ import annotations

from html import escape
from itertools import groupby

from nestor.measured import ODDS, SKILL, SKILL_DEALS
from nestor.variants import VARIANTS

from ..app.keymap import KEYMAP
from ..app.settings import Settings
from .i18n import LANGUAGES, N_, _, decimal, decimal_percent, thousands, variant_title

TEXTS: dict[str, str] = {
    "page-title": N_("Nestor – patience"),
    "deal-word": N_("deal"),
    "variant-label": N_("Variant"),
    "dismiss": N_("Dismiss"),
    "controls-label": N_("game controls"),
    "more": N_("More"),
    "new": N_("New deal"),
    "daily": N_("Daily deal"),
    "share": N_("Share result"),
    "share-label": N_("Your result, to copy and share"),
    "restart": N_("Restart"),
    "undo": N_("Undo"),
    "redo": N_("Redo"),
    "turn": N_("Turn stock card"),
    "hint": N_("Hint"),
    "stats": N_("Statistics"),
    "keys": N_("Keys"),
    "cards-left-label": N_("Cards left:"),
    "moves-label": N_("Moves:"),
    "pairs-label": N_("Pairs:"),
    "time-label": N_("Time:"),
    "finish": N_("Finish"),
    "opt-solve-speed": N_("Speed of Solve"),
    "speed-slow": N_("Slow"),
    "speed-normal": N_("Normal"),
    "speed-fast": N_("Fast"),
    "board-label": N_("tableau and reserve"),
    "settings-title": N_("Settings"),
    "opt-language": N_("Language"),
    "opt-theme": N_("Colours"),
    "theme-system": N_("As the system (light or dark)"),
    "theme-light": N_("Light"),
    "theme-dark": N_("Dark"),
    "opt-four-colours": N_("Four-colour suits (clubs green, diamonds blue)"),
    # The Animations setting: a menu of Off and the three speeds (Slow, Normal, Fast) at which
    # removed pairs fly away, a win is celebrated and a dropped card slides back.
    "opt-animations": N_("Animations"),
    "animations-off": N_("Off"),
    "opt-auto-pair": N_("Remove the pair at once when the card chosen has only one possible "
                        "partner"),
    "opt-indicator": N_("After each move, show whether the game can still be won (in Strict: the "
                        "chance)"),
    "opt-difficulty": N_("Difficulty of new deals"),
    "difficulty-any": N_("Any deal"),
    "difficulty-winnable": N_("A deal that can be won"),
    "difficulty-easy": N_("Easy"),
    "difficulty-medium": N_("Medium"),
    "difficulty-hard": N_("Hard"),
    "opt-highlight-partners": N_("Mark the cards the selected card can pair with"),
    "opt-sounds": N_("Sounds for pairs, a win and a loss (made in the page)"),
    "opt-show-timer": N_("Show the time"),
    "opt-left-handed": N_("Left-handed layout (reserve and stock on the right)"),
    "opt-large-index": N_("Large card indices (rank and suit in the corner)"),
    "progress-title": N_("Your progress"),
    "backup": N_("Back up my progress"),
    "backup-code-label": N_("The code of your backup"),
    "restore": N_("Restore from a backup"),
    "restore-file": N_("A backup file:"),
    "restore-code": N_("Or paste the code of a backup:"),
    "restore-merge": N_("Merge with what is here"),
    "restore-replace": N_("Replace what is here"),
    "restore-replaced": N_("Bring back what was replaced"),
    "rules-title": N_("How to play"),
    "keys-title": N_("Playing with the keyboard"),
    "close": N_("Close"),
    "reserve-label": N_("Reserve"),
    "loading": N_("Loading the game…"),
    "waking": N_("Starting the game…"),
    # A first visit, while the service worker downloads the game (static/js/pwa.js): {loaded}
    # and {total} are megabytes with one decimal, written in the page's language.
    "download": N_("Downloading the game: {loaded} of {total} MB"),
    "download-label": N_("Download of the game for offline play"),
    "solve": N_("Solve"),
    "replay-controls-label": N_("replay controls"),
    "replay-first": N_("First"),
    "replay-previous": N_("Previous"),
    "replay-next": N_("Next"),
    "replay-last": N_("Last"),
    "replay-play": N_("Play"),
    "replay-from-here": N_("Play from here"),
    "replay-close": N_("Back to my game"),
    "replay-moves-label": N_("Moves of the record"),
    "replay-keys": N_("Keys: ← and → step through the moves, Home and End go to the first "
                      "and the last, Space plays or pauses."),
    "copy-link": N_("Copy link"),
    "link-field-label": N_("Link to the replay of this game"),
    # The puzzle mode: a moment of a real deal where only one pair keeps the game winnable.
    "puzzles": N_("Puzzles"),
    "puzzle-controls-label": N_("puzzle controls"),
    "puzzle-hint": N_("Show the answer"),
    "puzzle-skip": N_("Skip to the answer"),
    "puzzle-next": N_("Next puzzle"),
    "puzzle-daily": N_("Daily puzzle"),
    "puzzle-board-label": N_("the puzzle's position"),
    "puzzle-choices": N_("The pairs you can make"),
    "puzzle-keys": N_("Keys: Tab goes to the cards and the pairs, Enter plays; H shows the "
                      "answer, N the next puzzle, D the daily puzzle."),
    # How to play's way into the guided first game.
    "tutorial-start": N_("Show me on the board"),
    "review": N_("Review"),
    "review-title": N_("Review of your game"),
    "update-ready": N_("A new version of Nestor is ready. Your game is kept."),
    "update-reload": N_("Reload now"),
    "update-later": N_("Later"),
    # Installing Nestor as an app: the control and its how-to (static/js/install.js shows them).
    "install": N_("Install"),
    "install-title": N_("Install Nestor"),
    # Safari's own names of its button and menu item, as an iPhone shows them in the language.
    "install-how": N_("In Safari, tap the Share button (the square with an arrow pointing up), "
                      "then “Add to Home Screen”."),
    "install-then": N_("Nestor then opens from your home screen like an app, full screen, and "
                       "plays offline."),
}
"""Text of each ``data-text`` element, by id."""

SETTING_TEXTS: dict[str, str] = {
    name: "opt-indicator" if name == "winnable_indicator" else "opt-" + name.replace("_", "-")
    for name in Settings.names()
}
"""For each setting (``Settings`` field), the id in :data:`TEXTS` of its control's label."""


def page_text(text_id: str) -> str:
    """The page's own text ``text_id`` (a key of :data:`TEXTS`) in the current language."""
    return _(TEXTS[text_id])


def variant_options_html() -> str:
    """The variant picker's ``<option>`` elements."""
    return "".join(
        f'<option value="{name}">{escape(variant_title(name))}</option>' for name in VARIANTS
    )


def language_options_html() -> str:
    """The language setting's ``<option>`` elements, each named in its own language."""
    return "".join(
        f'<option value="{code}" lang="{code}">{escape(title)}</option>'
        for code, title in LANGUAGES.items()
    )


def setting_label(name: str) -> str:
    """The label of setting ``name``'s control (an unknown name as it is)."""
    key = SETTING_TEXTS.get(name)
    return name if key is None else _(TEXTS[key])


RULES: list[tuple[str, str]] = [
    ("h2", N_("Goal")),
    ("p", N_("Clear the whole deck away two cards at a time. Two cards make a pair when they share "
             "a rank (two queens, two fives); their suits do not matter.")),
    ("h2", N_("The layout")),
    ("p", N_("The cards are dealt face up into columns that overlap downwards, so every card can "
             "be read. While dealing, a column never receives a second card of a rank it already "
             "holds: such a card is slipped under the deck and the next one is dealt instead (this "
             "is the rectification of the deal). The cards left over after the tableau form the "
             "reserve.")),
    ("h2", N_("Playing")),
    ("p", N_("A card is available when nothing covers it: the lowest card of each column, and the "
             "reserve cards. Choose one available card (tap or click it), then another available "
             "card of the same rank, and both leave the game. Removing a column's lowest card "
             "frees the one above it. You win once all 52 cards are gone, and you lose when no two "
             "available cards share a rank.")),
    ("h2", N_("Variants")),
    ("li", N_("<strong>Standard</strong>: eight columns of six and four reserve cards, all of them "
              "available at any time; two reserve cards may be paired with each other.")),
    ("li", N_("<strong>Strict</strong>: the four spare cards lie face down as a stock. Only when "
              "no pair is left may you turn the next stock card. If it matches an available card, "
              "both go; if not, the game is lost. Once the tableau is empty, the cards still in "
              "the stock are turned up and paired with each other (they always form pairs, so this "
              "wins).")),
    ("li", N_("<strong>Vertical</strong>: seven columns of six and a reserve of ten.")),
    ("li", N_("<strong>Doublets</strong>: twelve columns of four and a reserve of four.")),
    ("li", N_("<strong>Overlapping reserve</strong>: as Standard, but the four reserve cards "
              "overlap in one row and only the top one is available, so two reserve cards can "
              "never be paired with each other; the card beneath becomes available when the top "
              "one is gone.")),
    ("h2", N_("The daily deal")),
    ("p", N_("<strong>Daily deal</strong> gives everyone the same deal on a date, one that can be "
             "won. Each date whose deal you win adds to your daily streak, the dates in a row you "
             "won. A daily deal counts for its own date whenever you finish it, as long as you "
             "started it on that date, and a game starts with its first move, not when you open "
             "it: a game begun at 23:58 and won after midnight still counts, and so does one you "
             "leave and come back to days later. A past date's deal started later counts as an "
             "ordinary game.")),
    ("h2", N_("Puzzles")),
    ("p", N_("<strong>Puzzles</strong> (in the More menu) are moments of real deals where several "
             "pairs can be made and only one keeps the game winnable; after any other, the game is "
             "lost within a few pairs. Find that pair. A wrong pair is played out on the board "
             "until no pair is left, so you see why it loses, and then the answer is shown. Show "
             "the answer counts as not solved, and there is no Undo: only a puzzle's first try "
             "counts. Your puzzle rating starts at 1,500 and moves with each first try, against "
             "the puzzle's own rating; Next puzzle picks one near your rating, and the daily "
             "puzzle is the same for everyone on a date. Your game in play waits until you go back "
             "to it.")),
    ("h2", N_("Help from the solver")),
    ("p", N_("<strong>Hint</strong> works in two steps. First it says how many pairs can be made "
             "and how many of them lose the game, without showing one; pressed again, it shows a "
             "pair that keeps the game winnable, or says plainly that no winning line is left. In "
             "Strict it shows the move with the best chance, since nobody knows the order of the "
             "face-down stock. <strong>Solve</strong> plays the winning line from where you are, "
             "one pair at a time; press Stop, or any card, to take over. Games where Hint showed a "
             "pair or Solve played one count as assisted. The solver is exact: when it says a game "
             "cannot be won, it has checked every way of playing it.")),
    ("h2", N_("How often can it be won?")),
    ("p", N_("With perfect play, over the first 100,000 deals of each variant: Standard 53.3%, "
             "Vertical 96.0%, Doublets 99.999%, Overlapping reserve 25.1%. In Strict, the chance "
             "with the best play, not knowing the stock's order, is 13.5% (15.5% if you could see "
             "the stock). The table gives each figure with its 95% interval; the exact solver "
             "decided every deal, so these are counts, not estimates from playing.")),
    ("odds", ""),
    ("h2", N_("How much does skill matter?")),
    # Translators: {deals} is the number of deals played per variant, written with its
    # thousands sign (10,000).
    ("p", N_("The old rule books give beginners three tips. To see what each is worth, the first "
             "{deals} deals of each variant were played by fixed rules, a tie between equally good "
             "pairs drawn at random: random legal moves; each tip on its own (take the pair that "
             "frees the most cards which then have a partner; use reserve cards last; take from "
             "the longest columns); the three tips together, in that order; and a greedy player "
             "who takes the pair after which the most pairs are open. Perfect play is the solver's "
             "verdict (in Strict, the chance with the best play). Each figure is the share of "
             "deals won, with its 95% interval below it.")),
    ("skill", ""),
    ("h2", N_("Where we had to decide")),
    ("p", N_("The old rule books never say what to do when every card left in the deck would "
             "repeat a rank in the column being dealt. We treat it as a misdeal: the deck is "
             "shuffled again and the deal starts over. Each deal has a number; the same number "
             "always gives the same cards, so a deal can be shared with its link.")),
]
"""The rules section: (tag, message) in order; consecutive ``li`` form one list."""

COMMAND_WORDS: dict[str, str] = {
    "undo": N_("undo"),
    "redo": N_("redo"),
    "new": N_("new deal"),
    "restart": N_("restart the deal"),
    "hint": N_("hint"),
    "turn": N_("turn the stock card (Strict)"),
    "keys": N_("show or hide this list"),
}
"""What each command of the keymap does, for the keyboard help."""

KEYS: list[tuple[str, str]] = [
    ("← → ↑ ↓", N_("move between the available cards")),
    (N_("Enter or Space"), N_("select a card; on a second card of the same rank, remove the pair")),
    *((key.upper(), COMMAND_WORDS[command]) for key, command in KEYMAP.items()),
    ("Esc", N_("clear the selection, or close this list")),
]
"""Keyboard help: (key, what it does)."""


def _scroll_table(kind: str, caption: str, head: list[str], rows: list[str]) -> str:
    """A table of the rules (``caption`` and ``head`` text, ``rows`` HTML) in a region that
    scrolls sideways on a narrow screen, focusable so the keyboard can scroll it too (a
    ``section``: the shell build finds the end of the rules by the first ``</div>``)."""
    caption = escape(caption)
    return (
        f'<section class="table-scroll" tabindex="0" aria-label="{caption}">'
        f'<table class="{kind}"><caption class="visually-hidden">{caption}</caption><thead><tr>'
        + "".join(f'<th scope="col">{escape(h)}</th>' for h in head)
        + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></section>"
    )


def odds_html() -> str:
    """The table of how often each variant can be won (:data:`nestor.measured.ODDS`)."""
    head = [_("Variant"), _("Deals"), _("Can be won"), _("95% interval")]
    rows = []
    for share in ODDS:
        title = escape(variant_title(share.variant))
        if share.variant == "strict":
            what = (_("chance with best play, stock order unknown") if share.kind == "chance"
                    else _("winnable if the stock order were known"))
            title = f"{title}: {escape(what)}"
        interval = _("{low} to {high}").format(
            low=decimal_percent(share.low), high=decimal_percent(share.high))
        cells = (thousands(share.deals), decimal_percent(share.percent), interval)
        rows.append(f'<tr><th scope="row">{title}</th>'
                    + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    return _scroll_table(
        "odds", _("How often each variant can be won with perfect play"), head, rows)


STRATEGY_NAMES: dict[str, str] = {
    "random": N_("Random legal moves"),
    "uncover": N_("Tip 1: free useful cards"),
    "reserve-last": N_("Tip 2: reserve last"),
    "longest": N_("Tip 3: longest columns"),
    "tips": N_("All three tips"),
    "greedy": N_("Greedy: most pairs next"),
    "perfect": N_("Perfect play"),
}
"""The row name of each strategy (:data:`nestor.strategies.STRATEGIES`) in the skill table."""


def skill_html() -> str:
    """The table of how often each strategy (a row) wins each variant (a column), each cell the
    share won over its 95% interval (:data:`nestor.measured.SKILL`)."""
    cells = {(s.strategy, s.variant): s for s in SKILL}
    variants = [v for v in VARIANTS if any(k[1] == v for k in cells)]
    rows = []
    for strategy in dict.fromkeys(s.strategy for s in SKILL):  # SKILL's order, once each
        row = [f'<th scope="row">{escape(_(STRATEGY_NAMES[strategy]))}</th>']
        for variant in variants:
            share = cells.get((strategy, variant))
            if share is None:
                row.append("<td></td>")
                continue
            # Translators: a short 95% interval under a percentage in the skill table, such
            # as 11.81–13.10 (the numbers are percentages, written with the decimal sign).
            interval = _("{low}–{high}").format(low=decimal(share.low), high=decimal(share.high))
            row.append(f"<td>{escape(decimal_percent(share.percent))}"
                       f'<span class="interval">{escape(interval)}</span></td>')
        rows.append("<tr>" + "".join(row) + "</tr>")
    caption = _("How often each way of playing wins, over {deals} deals per variant").format(
        deals=thousands(SKILL_DEALS))
    head = [_("Way of playing")] + [variant_title(v) for v in variants]
    return _scroll_table("skill", caption, head, rows)


def rules_html() -> str:
    """The rules section's HTML, with its tables."""
    tables = {"odds": odds_html, "skill": skill_html}

    def part(tag: str, message: str) -> str:
        if tag in tables:
            return tables[tag]()
        text = _(message).replace("{deals}", thousands(SKILL_DEALS))  # the skill table's
        return f"<{tag}>{text}</{tag}>"

    parts = []
    for listed, group in groupby(RULES, key=lambda rule: rule[0] == "li"):
        items = "".join(part(*rule) for rule in group)
        parts.append(f"<ul>{items}</ul>" if listed else items)
    return "".join(parts)


def keys_html() -> str:
    """The keyboard help as a definition list."""
    rows = "".join(
        f"<dt><kbd>{escape(_(key))}</kbd></dt>"
        f"<dd>{escape(_(what))}</dd>"
        for key, what in KEYS
    )
    return f"<dl class=\"keys\">{rows}</dl>"

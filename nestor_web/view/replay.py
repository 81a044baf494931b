"""What the replay shows: its board, the move list, and its words (:func:`replay_view`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape

from nestor import Move, Outcome, Pair, TurnStock
from nestor.cards import SUIT_SYMBOLS

from ..app.replay import PlayChanged, ReplayEvent, Stepped
from ..app.replay import Replay as ReplayState
from ..app.session import Session
from ..app.settings import Settings
from .board import board_view, mark_cards, render_board, still
from .i18n import _, card_name, ngettext, rank_label, variant_title
from .words import move_words


@dataclass(frozen=True)
class MoveItem:
    """One entry of the move list: the ``cursor`` it goes to (0: the deal), its ``label``
    (``"5. 7♥ 7♠"``), accessible ``name``, and whether it is the ``current`` one."""

    cursor: int
    label: str
    name: str
    current: bool


@dataclass(frozen=True)
class ReplayView:
    """Everything the replay shows: ``step`` (where it stands), ``result`` (how the record
    ends, at its end, else ``None``), ``board`` (HTML), ``can_play_from`` (the game goes on)."""

    title: str
    step: str
    result: str | None
    board: str
    moves: tuple[MoveItem, ...]
    cursor: int
    length: int
    playing: bool
    can_play_from: bool
    play_label: str


def move_label(number: int, move: Move) -> str:
    """A move as the list shows it: ``"5. 7♥ 7♠"``, or ``"6. stock"`` in words."""
    if isinstance(move, TurnStock):
        return _("{number}. stock").format(number=number)
    return f"{number}. {card_symbols(move.first)} {card_symbols(move.second)}"


def card_symbols(card: str) -> str:
    """A card as its face shows it: ``"7♥"``, ``"10♠"``, ``"Q♦"`` (the rank translated)."""
    return rank_label(card) + SUIT_SYMBOLS[card[1]]


def replay_board_html(replay: ReplayState, settings: Settings) -> str:
    """The board of the position shown as the game draws it, as a picture: the next move's
    cards marked ``data-next``, or the stock when the next move turns it."""
    following = replay.next_move
    view = board_view(Session(replay.game(), settings=settings))
    view = replace(still(view), can_turn_stock=False, hint_stock=isinstance(following, TurnStock))
    cards = following.cards if isinstance(following, Pair) else ()
    return mark_cards(render_board(view), cards, "data-next")


def result_text(outcome: Outcome | None, unpaired: str | None) -> str:
    """How a record ends, in words."""
    if outcome is Outcome.WON:
        return _("The game was won: every card is paired off.")
    if outcome is Outcome.NO_PAIR:
        return _("The game was lost: no pair was left to remove.")
    if outcome is Outcome.STOCK_UNPAIRED:
        return _("The game was lost: the stock card, the {card}, could not pair.").format(
            card=card_name(unpaired or ""))
    return _("The record ends here; the game was not over.")


def step_text(replay: ReplayState) -> str:
    """Where the replay stands, in words."""
    total = replay.length
    if replay.cursor == 0:
        return ngettext(
            "The deal, before the first move ({count} move in the record).",
            "The deal, before the first move ({count} moves in the record).", total,
        ).format(count=total)
    move = replay.record.moves[replay.cursor - 1]
    return _("Move {number} of {total}: {move}.").format(
        number=replay.cursor, total=total, move=move_words(move))


def replay_view(replay: ReplayState, settings: Settings) -> ReplayView:
    """Return what to draw for ``replay`` (see :class:`ReplayView`)."""
    record = replay.record
    items = [MoveItem(0, _("Deal"), _("The deal, before the first move"), replay.cursor == 0)]
    for number, move in enumerate(record.moves, 1):
        items.append(MoveItem(
            number, move_label(number, move),
            _("Move {number}: {move}").format(number=number, move=move_words(move)),
            replay.cursor == number,
        ))
    position = replay.position
    at_end = replay.cursor == replay.length
    return ReplayView(
        title=_("Replay: {variant}, deal {deal}").format(
            variant=variant_title(record.variant.name), deal=record.deal),
        step=step_text(replay),
        result=result_text(position.outcome(), position.unpaired) if at_end else None,
        board=replay_board_html(replay, settings),
        moves=tuple(items),
        cursor=replay.cursor,
        length=replay.length,
        playing=replay.playing,
        can_play_from=position.outcome() is None,
        play_label=_("Pause") if replay.playing else _("Play"),
    )


def render_moves(items: tuple[MoveItem, ...]) -> str:
    """The ``<li>`` entries of ``#replay-moves``: a button per entry (``data-replay-go``), the
    position shown ``aria-current="step"``."""
    return "".join(
        f'<li><button type="button" data-replay-go="{item.cursor}" '
        f'aria-label="{escape(item.name)}"' + (' aria-current="step"' if item.current else "")
        + f">{escape(item.label)}</button></li>"
        for item in items
    )


def replay_announcement(events: tuple[ReplayEvent, ...], replay: ReplayState) -> str | None:
    """What a screen reader hears after a replay command beyond the step line, or ``None``."""
    for event in events:
        if isinstance(event, PlayChanged) and not event.playing and replay.cursor == replay.length:
            return _("The replay reached the end.")
        if isinstance(event, Stepped):
            return None
    return None


def link_words(copied: bool) -> str:
    """The words beside a game's replay link: copied, or to be copied by hand."""
    if copied:
        return _("Link copied. It opens a replay of this game's moves:")
    return _("The browser did not let the game copy the link. Select it and copy it yourself:")

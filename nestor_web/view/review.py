"""What the review shows: its words, its timeline and the board at the move chosen
(:func:`review_html`). Each move's entry has ``data-review-go="i"`` (from 0) and
``data-state`` (``winnable``, ``lost``, ``unknown``, ``pending``)."""

from __future__ import annotations

from html import escape

from nestor import Move, Outcome, Pair, Record, TurnStock
from nestor.review import MoveReview, Review
from nestor.solver import Status

from ..app.replay import Replay
from ..app.review import ReviewState
from ..app.settings import Settings
from .i18n import _, ngettext, percent, variant_title
from .replay import card_symbols, replay_board_html
from .timeline import Point, timeline_svg
from .words import move_words


def move_short(move: Move) -> str:
    """A move in short: ``"7♥ with 7♠"``, or the stock turn in words."""
    if isinstance(move, TurnStock):
        return _("the stock card turned")
    return _("{first} with {second}").format(
        first=card_symbols(move.first), second=card_symbols(move.second))


def point_state(item: MoveReview, strict: bool) -> str:
    """How the game stood after the move: ``"winnable"``, ``"lost"`` or ``"unknown"``."""
    if strict:
        if item.chance_after is None:
            return "unknown"
        return "winnable" if item.chance_after > 0 else "lost"
    return {Status.WINNABLE: "winnable", Status.LOST: "lost"}.get(item.after, "unknown")


def verdict_short(item: MoveReview, strict: bool) -> str:
    """How the game stood after the move, in a word or two (the move list's note)."""
    if strict:
        if item.chance_after is None:
            return _("unknown")
        return percent(item.chance_after)
    if item.after is Status.WINNABLE:
        return _("still winnable")
    if item.after is Status.LOST:
        return _("lost the game") if item.before is Status.WINNABLE else _("already lost")
    return _("unknown")


def verdict_text(item: MoveReview, strict: bool) -> str:
    """How the game stood before and after the move, in a sentence."""
    if strict:
        if item.chance_before is None or item.chance_after is None:
            return _("The solver gave up on this position: its chance is unknown.")
        return _("Chance to win with best play: {before} before this move, {after} after "
                 "it.").format(before=percent(item.chance_before), after=percent(item.chance_after))
    if item.after is Status.UNKNOWN or item.before is Status.UNKNOWN and (
        item.after is not Status.WINNABLE
    ):
        return _("The solver gave up on this position: whether it could be won is unknown.")
    if item.after is Status.WINNABLE:
        return _("After this move the game could still be won.")
    if item.before is Status.WINNABLE:
        return _("This move lost the game: before it the game could be won, after it not.")
    return _("The game was already lost before this move.")


def alternatives_text(item: MoveReview, strict: bool) -> str | None:
    """The moves that would have done better than the one played, or ``None``."""
    if not item.alternatives:
        return None
    if strict:
        chance = {c.move: c.chance for c in item.choices}
        listed = _(", ").join(
            _("{move} ({percent})").format(move=move_short(m), percent=percent(chance[m] or 0.0))
            for m in item.alternatives
        )
        return _("Moves with a higher chance: {moves}.").format(moves=listed)
    return _("Moves that would have kept it winnable: {moves}.").format(
        moves=_(", ").join(move_short(m) for m in item.alternatives))


def turning_point_text(review: Review) -> str:
    """The verdict over the whole game: the turning point, or why there is none."""
    strict = review.position.variant.has_stock
    turning = review.turning_point
    if turning is not None:
        item = review.moves[turning]
        if strict:
            return _("Move {number}, {move}, cut the chance to win most: from {before} to "
                     "{after}.").format(
                number=turning + 1, move=move_short(item.move),
                before=percent(item.chance_before or 0.0),
                after=percent(item.chance_after or 0.0),
            )
        return _("Move {number}, {move}, lost the game.").format(
            number=turning + 1, move=move_short(item.move))
    if review.undecided:
        return _("The solver gave up on a position, so the review cannot say which move lost the "
                 "game.")
    if review.start is Status.LOST:
        return _("This deal could not be won from the start: no move lost it.")
    if not review.moves:
        return _("No move has been made yet.")
    if strict:
        return _("No move cut the chance to win: every move kept the best chance.")
    if review.outcome is Outcome.WON:
        return _("You won: the game stayed winnable all the way.")
    if review.start is Status.UNKNOWN:
        return _("The solver gave up on the deal, so the review cannot judge the game.")
    return _("No move so far has lost the game: it can still be won.")


def progress_text(state: ReviewState) -> str:
    """How far the review has got, in a sentence."""
    total = state.total
    if not state.done:
        return _("Working out the review with the solver: {done} of {total} moves…").format(
            done=len(state.moves), total=total)
    if total == 0:
        return _("No move to review yet.")
    return ngettext("Reviewed {count} move.", "Reviewed all {count} moves.", total).format(
        count=total)


def title_text(record: Record, outcome: Outcome | None) -> str:
    """The line under the panel's heading: the deal, and how the game stands."""
    deal = _("{variant}, deal {deal}").format(
        variant=variant_title(record.variant.name), deal=record.deal)
    how = _("game in progress") if outcome is None else _("won") if outcome.won else _("lost")
    return _("{deal}: {how}").format(deal=deal, how=how)


def moment_text(item: MoveReview, strict: bool = False) -> str:
    """A critical moment: the move, and how few of its pairs kept the game winnable
    (Strict: kept the best chance)."""
    pairs = sum(isinstance(c.move, Pair) for c in item.choices)
    keepers = sum(isinstance(m, Pair) for m in item.keepers)
    if strict:
        words = ngettext(
            "Move {number}, {move}: only {keep} of {count} pair kept the best chance.",
            "Move {number}, {move}: only {keep} of {count} pairs kept the best chance.", pairs)
    else:
        words = ngettext(
            "Move {number}, {move}: only {keep} of {count} pair kept the game winnable.",
            "Move {number}, {move}: only {keep} of {count} pairs kept the game winnable.", pairs)
    return words.format(number=item.index + 1, move=move_short(item.move), keep=keepers,
                        count=pairs)


def cut_text(item: MoveReview) -> str:
    """Strict: a move that cut the chance, by how much (in percentage points)."""
    points = round((item.cut or 0.0) * 100)
    if points < 1:
        by = _("less than 1 point")
    else:
        by = ngettext("{count} point", "{count} points", points).format(count=points)
    return _("Move {number}, {move}: {by} less (from {before} to {after}).").format(
        number=item.index + 1, move=move_short(item.move), by=by,
        before=percent(item.chance_before or 0.0), after=percent(item.chance_after or 0.0),
    )


def item_name(item: MoveReview, strict: bool) -> str:
    """The accessible name of a move's entry: ``"Move 14: the seven of hearts and …"``."""
    return _("Move {number}: {move}, {verdict}").format(
        number=item.index + 1, move=move_words(item.move), verdict=verdict_short(item, strict))


def timeline_points(state: ReviewState) -> tuple[Point, list[Point]]:
    """The timeline's points: the deal's, and one per move reviewed so far."""
    strict = state.record.variant.has_stock
    sure = {Status.WINNABLE: 1.0, Status.LOST: 0.0}
    points = [
        Point(point_state(item, strict), item.chance_after if strict else sure.get(item.after))
        for item in state.moves
    ]
    result = state.result
    if state.moves:
        first = state.moves[0]
        value = first.chance_before if strict else sure.get(first.before)
    elif result is not None:
        value = result.start_chance if strict else sure.get(result.start)
    else:
        value = None
    start = Point("pending" if value is None else "winnable" if value > 0 else "lost", value)
    return start, points


def board_before(record: Record, index: int, settings: Settings) -> str:
    """The board before move ``index`` of ``record``, as a picture, that move marked."""
    replay = Replay(record)
    replay.go(index)
    return replay_board_html(replay, settings)


def _attr(name: str, value: str) -> str:
    return f' {name}="{escape(value)}"'


def chosen_html(state: ReviewState, settings: Settings, can_try: bool) -> str:
    """The section of the move chosen: what it did, what would have been better, the board
    before it, and "Try from here"."""
    index = state.chosen
    if index is None or index >= state.total:
        return ""
    strict = state.record.variant.has_stock
    move = state.record.moves[index]
    heading = _("Before move {number}: {move}").format(number=index + 1, move=move_short(move))
    parts = [
        '<section class="review-chosen" aria-labelledby="review-chosen-title">',
        f'<h3 id="review-chosen-title">{escape(heading)}</h3>',
    ]
    if index < len(state.moves):
        item = state.moves[index]
        parts.append(f'<p class="review-verdict">{escape(verdict_text(item, strict))}</p>')
        better = alternatives_text(item, strict)
        if better is not None:
            parts.append(f'<p class="review-better">{escape(better)}</p>')
    else:
        pending = _("This move is not reviewed yet.")
        parts.append(f"<p>{escape(pending)}</p>")
    legend = _("The board before this move; the two cards it paired are marked.")
    if isinstance(move, TurnStock):
        legend = _("The board before this move: the stock card was turned.")
    parts.append(f'<p class="review-legend">{escape(legend)}</p>')
    label = escape(_("The board before move {number}").format(number=index + 1))
    parts.append(
        f'<div class="review-board" role="group" tabindex="0" aria-label="{label}">'
        f"{board_before(state.record, index, settings)}</div>"
    )
    if can_try:
        note = _("Your game goes back to this position; the moves after it can be redone. A game "
                 "won from here counts as won with help.")
        word = _("Try from here")
        parts.append(
            '<p class="review-try"><button type="button" data-review-command="try">'
            f"{escape(word)}</button> <span>{escape(note)}</span></p>"
        )
    parts.append("</section>")
    return "".join(parts)


def _moment_list(kind: str, title: str, entries: list[tuple[int, str]]) -> str:
    if not entries:
        return ""
    items = "".join(
        f'<li><button type="button" data-review-go="{index}">{escape(text)}</button></li>'
        for index, text in entries
    )
    return f'<section class="review-{kind}"><h3>{escape(title)}</h3><ul>{items}</ul></section>'


def timeline_html(state: ReviewState) -> str:
    """The timeline: a slider over the moves, drawn as SVG (:func:`.timeline.timeline_svg`)."""
    total = state.total
    if not total:
        return ""
    strict = state.record.variant.has_stock
    start, points = timeline_points(state)
    turning = state.result.turning_point if state.result is not None else None
    labels = (percent(1.0), percent(0.0)) if strict else (_("winnable"), _("lost"))
    chosen = state.chosen
    now = (chosen if chosen is not None else 0) + 1
    if chosen is not None and chosen < len(state.moves):
        value = item_name(state.moves[chosen], strict)
    elif chosen is not None:
        value = _("Move {number}: {move}").format(
            number=chosen + 1, move=move_words(state.record.moves[chosen]))
    else:
        value = _("No move chosen")
    keys = _("Choose a point to see that position; the arrow keys move along the timeline.")
    name = _("Timeline of the game")
    return (
        f'<p class="review-keys" id="review-timeline-help">{escape(keys)}</p>'
        '<div class="timeline" role="slider" tabindex="0" data-review-timeline'
        f'{_attr("aria-label", name)}'
        ' aria-describedby="review-timeline-help"'
        f' aria-valuemin="1" aria-valuemax="{total}" aria-valuenow="{now}"'
        f'{_attr("aria-valuetext", value)}>'
        f"{timeline_svg(start, points, total, turning, chosen, labels)}</div>"
    )


def moves_html(state: ReviewState) -> str:
    """The list of every move with how the game stood after it."""
    strict = state.record.variant.has_stock
    turning = state.result.turning_point if state.result is not None else None
    critical = set(state.result.critical) if state.result is not None else set()
    entries = []
    for index, move in enumerate(state.record.moves):
        label = f"{index + 1}. {move_short(move)}"
        if index < len(state.moves):
            item = state.moves[index]
            kind = point_state(item, strict)
            note = verdict_short(item, strict)
            name = item_name(item, strict)
        else:
            kind, note = "pending", "…"
            name = _("Move {number}: {move}, not reviewed yet").format(
                number=index + 1, move=move_words(move))
        marks = ""
        if index == turning:
            marks += f' data-turning-point="{index}"'
        if index in critical:
            marks += " data-critical"
        if index == state.chosen:
            marks += ' aria-current="step"'
        entries.append(
            f'<li><button type="button" data-review-go="{index}" data-state="{kind}"{marks}'
            f'{_attr("aria-label", name)}><span class="review-move">{escape(label)}</span> '
            f'<span class="review-note">{escape(note)}</span></button></li>'
        )
    if not entries:
        return ""
    title = escape(_("Every move"))
    return f'<h3>{title}</h3><ol class="review-moves">{"".join(entries)}</ol>'


def summary_html(state: ReviewState) -> str:
    """The verdict over the game once reviewed, and the alternatives at the turning point."""
    review = state.result
    if review is None:
        return ""
    strict = state.record.variant.has_stock
    parts = [f'<p class="review-summary">{escape(turning_point_text(review))}</p>']
    turning = review.turning_point
    if turning is not None:
        item = review.moves[turning]
        if item.alternatives:
            chance = {c.move: c.chance for c in item.choices}
            offered = escape(_(", ")).join(
                f'<strong data-alternative="{escape(str(m))}">{escape(move_short(m))}'
                + (f" ({escape(percent(chance[m] or 0.0))})" if strict else "")
                + "</strong>"
                for m in item.alternatives
            )
            title = _("Moves with a higher chance there:") if strict else _("Moves that would have "
                                                                            "kept it winnable:")
            parts.append(f'<p class="review-alternatives">{escape(title)} {offered}</p>')
        if state.practice is not None:
            parts.append(practice_html(turning))
    return "".join(parts)


def practice_html(turning: int) -> str:
    """"Practise this": the moment before the turning point (move ``turning``, from 0) is
    a puzzle, offered to try again."""
    note = _("Before move {number} only one pair kept the game winnable, and every other pair "
             "loses soon: a puzzle.").format(number=turning + 1)
    word = _("Practise this")
    return (
        '<p class="review-practice"><button type="button" data-action="practise"'
        ' aria-describedby="review-practice-note">'
        f'{escape(word)}</button> <span id="review-practice-note">{escape(note)}</span></p>'
    )


def moments_html(state: ReviewState) -> str:
    """Once reviewed: Strict's other moves that cut the chance, and the critical moments."""
    review = state.result
    if review is None:
        return ""
    strict = state.record.variant.has_stock
    turning = review.turning_point
    parts: list[str] = []
    if strict:
        others = [
            (index, cut_text(review.moves[index]))
            for index, _cut in review.cuts if index != turning
        ]
        parts.append(_moment_list("cuts", _("Other moves that cut the chance"), others))
    moments = [(index, moment_text(review.moves[index], strict)) for index in review.critical]
    title = _("Critical moments: only one or two pairs kept the best chance") if strict else _(
        "Critical moments: only one or two pairs kept the game winnable"
    )
    parts.append(_moment_list("critical", title, moments))
    return "".join(parts)


def review_html(state: ReviewState, settings: Settings, can_try: bool) -> str:
    """The review panel's body for ``state``; ``can_try``: "Try from here" is offered (the
    game in play still has the reviewed moves in effect)."""
    outcome = state.result.outcome if state.result is not None else state.record.replay().outcome()
    return "".join([
        f'<p class="review-deal">{escape(title_text(state.record, outcome))}</p>',
        f'<p class="review-progress" data-done="{"true" if state.done else "false"}">'
        f"{escape(progress_text(state))}</p>",
        summary_html(state),
        timeline_html(state),
        chosen_html(state, settings, can_try),
        moments_html(state),
        moves_html(state),
    ])


def review_status(state: ReviewState) -> str:
    """What the panel's live region says: the review is worked out, or its verdict."""
    if state.result is None:
        return _("Working out the review with the solver…")
    return turning_point_text(state.result)

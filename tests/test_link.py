"""Replay links (nestor/link.py): the moves code round-trips, and every malformed link is
refused with its own code."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from nestor import DECK, RANKS, VARIANTS, Game, Move, Pair, Record, RecordError, TurnStock
from nestor.link import (
    ALPHABET,
    MAX_MOVES_TEXT,
    MOVES_VERSION,
    decode_moves,
    encode_moves,
    is_replay_query,
    record_from_query,
    record_query,
)

ALL_PAIRS = [
    Pair(a, b) for rank in RANKS
    for a, b in combinations([c for c in DECK if c[0] == rank], 2)
]
ALL_MOVES: list[Move] = [*ALL_PAIRS, TurnStock()]
moves = st.lists(st.sampled_from(ALL_MOVES), max_size=60)


def played(variant: str, deal: int, seed: int) -> Game:
    """A game of random legal moves until it ends."""
    rng = random.Random(seed)
    game = Game(variant, deal)
    while game.outcome() is None:
        game.push(rng.choice(game.legal_moves()))
    return game


def test_the_documented_example():
    record = Record.from_text("standard 7 3C-3D QC-QD 5H-5S")
    assert record_query(record) == "variant=standard&deal=7&moves=1CPLYer"
    assert encode_moves([Pair("QD", "QC"), TurnStock()]) == "1LY0"
    assert encode_moves([]) == "1"
    assert decode_moves("1") == ()


def test_every_pair_has_its_own_two_characters_and_the_stock_one():
    codes = [encode_moves([m])[1:] for m in ALL_MOVES]
    assert len(ALL_PAIRS) == 78
    assert len(set(codes)) == 79
    assert all(len(c) == 2 for c in codes[:-1]) and codes[-1] == "0"
    assert set("".join(codes)) <= set(ALPHABET)


@given(moves)
def test_moves_round_trip(ms):
    text = encode_moves(ms)
    assert text[0] == MOVES_VERSION
    assert decode_moves(text) == tuple(ms)
    assert len(text) == 1 + sum(1 if isinstance(m, TurnStock) else 2 for m in ms)


@given(st.text(alphabet=ALPHABET + "!=&% é", max_size=80))
def test_any_text_decodes_to_its_one_code_or_is_refused_with_a_code(text):
    try:
        decoded = decode_moves(text)
    except RecordError as exc:
        assert exc.code.startswith("moves.") or exc.code == "record.move"
    else:
        assert encode_moves(decoded) == text


@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 2**32 - 1), st.integers(0, 99))
@settings(max_examples=examples(60), deadline=None)
def test_a_played_game_round_trips_through_its_link(variant, deal, seed):
    game = played(variant, deal, seed)
    record = game.record()
    query = record_query(record)
    assert is_replay_query(query) and is_replay_query("?" + query)
    back = record_from_query(query)
    assert back == record
    assert record_from_query("?" + query) == record
    assert back.replay().position == game.position
    assert len(query.split("moves=")[1]) <= 60


def test_strict_stock_turns_are_written_and_read():
    for deal in range(200):
        game = played("strict", deal, deal)
        if any(isinstance(m, TurnStock) for m in game.moves):
            break
    else:
        pytest.fail("no Strict game with a stock turn")
    query = record_query(game.record())
    assert "0" in query.split("moves=")[1]
    assert record_from_query(query).replay().position == game.position


@pytest.mark.parametrize(("query", "code", "details"), [
    ("variant=standard&deal=7", "record.missing_key", {"key": "moves"}),
    ("deal=7&moves=1", "record.missing_key", {"key": "variant"}),
    ("variant=standard&moves=1", "record.missing_key", {"key": "deal"}),
    ("variant=nestor&deal=7&moves=1", "variant.unknown", None),
    ("variant=standard&deal=-1&moves=1", "deal.not_whole", None),
    ("variant=standard&deal=4294967296&moves=1", "deal.range", None),
    ("variant=standard&deal=7&moves=", "moves.version", {"value": "", "expected": "1"}),
    ("variant=standard&deal=7&moves=9AN", "moves.version", {"value": "9", "expected": "1"}),
    ("variant=standard&deal=7&moves=1AN%21", "moves.character", {"index": 4, "value": "!"}),
    ("variant=standard&deal=7&moves=1AN_", "moves.character", {"index": 4, "value": "_"}),
    ("variant=standard&deal=7&moves=1A", "moves.incomplete", {"index": 1}),
    ("variant=standard&deal=7&moves=1A0", "moves.incomplete", {"index": 1}),
    ("variant=standard&deal=7&moves=1AB", "record.move",
     {"index": 1, "reason": "move.ranks_differ"}),
    ("variant=standard&deal=7&moves=1CPAA", "record.move",
     {"index": 2, "reason": "move.same_card"}),
    ("variant=standard&deal=7&moves=1PC", "moves.order", {"index": 1}),
    ("variant=standard&deal=7&moves=1" + "AN" * 100, "moves.too_long",
     {"limit": MAX_MOVES_TEXT}),
])
def test_malformed_links_are_refused_with_their_code(query, code, details):
    with pytest.raises(RecordError) as info:
        record_from_query(query)
    assert info.value.code == code
    if details is not None:
        assert info.value.details == details


def test_an_illegal_record_is_refused_when_replayed_naming_the_move():
    # Deal 7 of Standard starts with 3C-3D legal; the ace of clubs is covered.
    record = record_from_query("variant=standard&deal=7&moves=1CPAa")
    with pytest.raises(RecordError) as info:
        record.replay()
    assert info.value.code == "record.illegal_move"
    assert info.value.details["index"] == 2 and info.value.details["move"] == "AC-AH"
    with pytest.raises(RecordError) as info:
        record_from_query("variant=standard&deal=7&moves=10").replay()
    assert info.value.details["reason"] == "illegal.no_stock"


def test_a_query_without_moves_is_not_a_replay_link():
    assert not is_replay_query("?variant=standard&deal=7")
    assert not is_replay_query("")
    assert is_replay_query("?moves=")


# ---- python -m nestor link -----------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from nestor.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_link_prints_the_query_and_reads_it_back(capsys):
    game = played("strict", 7, 3)
    status, out, err = run(capsys, "link", game.record().to_text())
    assert (status, err) == (0, "")
    assert out == record_query(game.record()) + "\n"
    status, out, err = run(capsys, "link", "--read", "?" + out.strip())
    assert (status, err) == (0, "")
    assert out == game.record().to_text() + "\n"


def test_cli_link_reads_stdin(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("standard 7 3C-3D\n"))
    status, out, _ = run(capsys, "link")
    assert (status, out) == (0, "variant=standard&deal=7&moves=1CP\n")


@pytest.mark.parametrize(("argv", "fragment"), [
    (("link", "standard 7 3C-3D 3C-3D"), "move 2 (3C-3D) is illegal"),
    (("link", "nope 7"), "unknown variant 'nope'"),
    (("link", "--read", "variant=standard&deal=7&moves=1CPx"), "move 2 has only one card"),
    (("link", "--read", "variant=standard&deal=7&moves=1CPCP"), "move 2 (3C-3D) is illegal"),
    (("link", "--read", "variant=standard&deal=7"), "needs 'moves'"),
])
def test_cli_link_errors_exit_2(capsys, argv, fragment):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("error: ") and fragment in err

"""Cards and variants: the fixed data the rules are built on."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from nestor import (
    DECK,
    DEFAULT_VARIANT,
    RANKS,
    SUITS,
    VARIANTS,
    CardError,
    NestorError,
    VariantError,
    card_name,
    get_variant,
    parse_card,
    rank_of,
)
from nestor.cards import deck_index, rank_label

# ---- cards -------------------------------------------------------------------------------


def test_deck_is_52_distinct_cards_in_new_deck_order():
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert DECK[:13] == tuple(r + "C" for r in "A23456789TJQK")
    assert DECK[13] == "AD"
    assert DECK[-1] == "KS"
    assert RANKS == "A23456789TJQK"
    assert SUITS == "CDHS"
    assert [deck_index(c) for c in DECK] == list(range(52))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("TH", "TH"),
        ("th", "TH"),
        ("10H", "TH"),
        ("10h", "TH"),
        (" 7s ", "7S"),
        ("aC", "AC"),
        ("kd", "KD"),
        ("\t2h\n", "2H"),
    ],
)
def test_parse_card_accepts(text, code):
    assert parse_card(text) == code


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "bad card ''"),
        ("   ", "bad card '   '"),
        ("1H", "unknown rank '1'"),
        ("TX", "unknown suit 'X'"),
        ("11H", "bad card '11H'"),
        ("T", "bad card 'T'"),
        ("7HS", "bad card '7HS'"),
        ("10", "bad card '10'"),
        ("ZS", "unknown rank 'Z'"),
    ],
)
def test_parse_card_rejects_text(text, fragment):
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize(("value", "kind"), [(7, "int"), (None, "NoneType"), (b"TH", "bytes")])
def test_parse_card_rejects_non_text(value, kind):
    with pytest.raises(CardError, match=f"must be text, not {kind}"):
        parse_card(value)


def test_card_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_card("1H")
    assert issubclass(CardError, NestorError)


@pytest.mark.parametrize("card", DECK)
def test_every_card_reads_back_in_every_spelling(card):
    assert parse_card(card) == card
    assert parse_card(card.lower()) == card
    assert parse_card(f"  {card} ") == card
    if card[0] == "T":
        assert parse_card("10" + card[1]) == card
        assert parse_card("10" + card[1].lower()) == card


@given(st.one_of(st.text(max_size=5), st.text(alphabet="0123456789AJQKTCDHSXaqhs \t", max_size=4)))
@settings(max_examples=examples(400), deadline=None)
def test_parse_card_returns_a_deck_card_or_raises_card_error(text):
    try:
        code = parse_card(text)
    except CardError as exc:
        assert str(exc).startswith("bad card") or "unknown" in str(exc)
    else:
        assert code in DECK
        spelled = text.strip().upper().replace("10", "T")
        assert spelled == code


def test_card_helpers():
    assert rank_of("TH") == "T"
    assert card_name("TH") == "ten of hearts"
    assert card_name("AS") == "ace of spades"
    assert card_name("QC") == "queen of clubs"
    assert rank_label("TH") == "10"
    assert rank_label("7D") == "7"


# ---- variants ----------------------------------------------------------------------------

# name: (columns, depth, has_stock, overlapping, spare)
SHAPES = {
    "standard": (8, 6, False, False, 4),
    "strict": (8, 6, True, False, 4),
    "vertical": (7, 6, False, False, 10),
    "doublets": (12, 4, False, False, 4),
    "overlapping": (8, 6, False, True, 4),
}


TITLES = {
    "standard": "Standard", "strict": "Strict", "vertical": "Vertical",
    "doublets": "Doublets", "overlapping": "Overlapping reserve",
}
NUMBER_WORDS = {4: "four", 6: "six", 7: "seven", 8: "eight", 10: "ten", 12: "twelve"}


def test_the_five_variants_in_order():
    assert list(VARIANTS) == ["standard", "strict", "vertical", "doublets", "overlapping"]
    assert DEFAULT_VARIANT == "standard"


@pytest.mark.parametrize("name", list(SHAPES))
def test_variant_shape(name):
    v = get_variant(name)
    assert v.name == name
    assert (v.columns, v.depth, v.has_stock, v.overlapping, v.spare) == SHAPES[name]
    assert v.columns * v.depth + v.spare == 52
    assert v.title == TITLES[name]
    # The summary is one sentence that states this variant's own shape.
    summary = v.summary.lower()
    assert v.summary[0].isupper() and v.summary.endswith(".") and summary.count(".") == 1
    assert f"{NUMBER_WORDS[v.spare]} " in summary
    if v.has_stock:
        assert "stock" in summary and "reserve" not in summary
    else:
        assert f"{NUMBER_WORDS[v.columns]} columns of {NUMBER_WORDS[v.depth]}" in summary
        assert "reserve" in summary and "stock" not in summary
    assert ("only the top one" in summary) == v.overlapping
    assert ("all available" in summary) == (not v.has_stock and not v.overlapping)


@pytest.mark.parametrize("text", ["Standard", " STRICT ", "Vertical\n", "dOUBLETS"])
def test_get_variant_ignores_case_and_blanks(text):
    assert get_variant(text) is VARIANTS[text.strip().lower()]


@pytest.mark.parametrize("text", ["", "nestor", "standard strict", "std"])
def test_get_variant_unknown_lists_the_valid_names(text):
    with pytest.raises(VariantError) as info:
        get_variant(text)
    message = str(info.value)
    assert f"unknown variant {text!r}" in message
    assert "standard, strict, vertical, doublets, overlapping" in message


@pytest.mark.parametrize(("value", "kind"), [(None, "NoneType"), (8, "int")])
def test_get_variant_rejects_non_text(value, kind):
    with pytest.raises(VariantError, match=f"must be text, not {kind}"):
        get_variant(value)


def test_variants_are_frozen():
    v = get_variant("standard")
    with pytest.raises(AttributeError):
        v.columns = 7  # type: ignore[misc]
    assert get_variant("standard").columns == 8

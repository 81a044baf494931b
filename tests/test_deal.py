"""Deal numbers, SplitMix64, the version-1 shuffle and the rectified deal.

The golden values below were generated once with shuffle version 1
(``python -m nestor deal --variant V --deal N --json``) and pasted here: any
change to the generator, the shuffle or the deal must fail these tests and
come with a new ``SHUFFLE_VERSION`` instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from nestor import (
    DECK,
    MAX_DEAL,
    SHUFFLE_VERSION,
    VARIANTS,
    DealNumberError,
    Position,
    VariantError,
    check_deal_number,
    deal_layout,
    deal_position,
    get_variant,
)
from nestor.deal import SplitMix64, rectify, shuffle, shuffled_deck

MASK64 = (1 << 64) - 1
GOLDEN_RATIO_64 = 0x9E3779B97F4A7C15

# ---- golden values -----------------------------------------------------------------------

# SplitMix64 (Steele, Lea, Flood 2014; Vigna's splitmix64.c) seeded with 0 and 1.
SPLITMIX64_SEED0 = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC]
SPLITMIX64_SEED1 = [0x910A2DEC89025CC1, 0xBEEB8DA1658EEC67, 0xF893A2EEFB32555E, 0x71C18690EE42C90B]

FIRST_SHUFFLE_DEAL_0 = [
    "8S", "JH", "9C", "2S", "2D", "QD", "6S", "TC", "3D", "AC", "JC", "7C", "9H",
    "8C", "QS", "KH", "5H", "2C", "3H", "5C", "AH", "6C", "4S", "TD", "5D", "8H",
    "8D", "AD", "QH", "TS", "QC", "JD", "3S", "4D", "2H", "9D", "3C", "KD", "AS",
    "7S", "9S", "7D", "JS", "6H", "KS", "4C", "7H", "5S", "6D", "4H", "KC", "TH",
]

GOLDEN_DEALS: dict[tuple[str, int], dict[str, list]] = {
    ('standard', 0): {
        "columns": [
            ["8S", "3D", "5H", "AD", "KD", "4H"],
            ["JH", "AC", "2C", "QH", "7S", "KC"],
            ["9C", "JC", "3H", "TS", "7D", "8H"],
            ["2S", "7C", "5C", "QC", "JS", "8D"],
            ["2D", "9H", "AH", "JD", "6H", "4D"],
            ["QD", "8C", "6C", "3S", "KS", "AS"],
            ["6S", "QS", "4S", "2H", "7H", "9S"],
            ["TC", "KH", "5D", "9D", "6D", "4C"],
        ],
        "reserve": ["5S", "TH", "TD", "3C"],
        "stock": [],
    },
    ('standard', 7): {
        "columns": [
            ["4D", "7H", "2S", "9C", "5H", "QD"],
            ["5C", "9D", "TS", "JD", "QS", "4S"],
            ["JH", "2C", "9S", "6H", "AD", "TC"],
            ["3S", "KD", "QH", "8H", "TD", "7S"],
            ["4H", "JS", "2D", "AH", "8C", "3C"],
            ["TH", "2H", "8D", "KH", "JC", "3D"],
            ["KS", "7C", "6S", "AS", "5D", "3H"],
            ["6D", "4C", "AC", "7D", "8S", "9H"],
        ],
        "reserve": ["5S", "KC", "QC", "6C"],
        "stock": [],
    },
    ('standard', 49): {
        "columns": [
            ["6H", "4S", "AH", "5S", "JH", "8S"],
            ["3H", "QC", "8C", "KH", "6D", "TC"],
            ["9S", "8D", "AC", "3D", "5D", "2D"],
            ["JS", "4D", "2H", "7H", "3S", "TH"],
            ["TS", "QH", "KS", "7C", "5C", "9D"],
            ["TD", "9C", "QS", "KC", "6C", "8H"],
            ["AD", "5H", "7D", "2S", "JC", "QD"],
            ["4H", "7S", "KD", "3C", "9H", "6S"],
        ],
        "reserve": ["2C", "JD", "AS", "4C"],
        "stock": [],
    },
    ('standard', 56): {
        "columns": [
            ["QH", "8C", "2H", "AD", "3S", "KS"],
            ["3D", "4C", "7S", "8S", "AC", "5S"],
            ["KD", "4H", "5H", "8H", "9H", "7D"],
            ["6S", "TD", "7C", "QC", "8D", "KC"],
            ["JD", "2S", "5D", "6H", "9S", "AH"],
            ["KH", "QS", "4D", "TC", "3H", "JH"],
            ["6D", "3C", "AS", "2C", "JC", "TH"],
            ["TS", "4S", "9C", "JS", "7H", "2D"],
        ],
        "reserve": ["5C", "9D", "6C", "QD"],
        "stock": [],
    },
    ('standard', 123456): {
        "columns": [
            ["JS", "5D", "8S", "QD", "9H", "6C"],
            ["7C", "AD", "TH", "KC", "3C", "JH"],
            ["4D", "QH", "8H", "JD", "TD", "7H"],
            ["5C", "4H", "AC", "JC", "2C", "3S"],
            ["TS", "5H", "4S", "KH", "8D", "QS"],
            ["6H", "9C", "TC", "AH", "7D", "QC"],
            ["9S", "6S", "3D", "2H", "7S", "KD"],
            ["2D", "8C", "3H", "6D", "KS", "9D"],
        ],
        "reserve": ["AS", "2S", "4C", "5S"],
        "stock": [],
    },
    ('standard', 4294967295): {
        "columns": [
            ["6H", "3C", "5D", "9C", "KH", "TH"],
            ["2D", "JC", "3D", "9D", "AS", "7D"],
            ["8H", "5H", "AD", "2H", "4C", "TD"],
            ["3S", "JS", "KS", "2S", "6S", "QH"],
            ["TC", "KD", "AC", "JH", "7H", "3H"],
            ["5S", "7S", "4S", "QS", "8S", "JD"],
            ["4H", "9H", "7C", "6C", "5C", "2C"],
            ["QC", "4D", "8D", "6D", "TS", "9S"],
        ],
        "reserve": ["QD", "AH", "KC", "8C"],
        "stock": [],
    },
    ('strict', 7): {
        "columns": [
            ["4D", "7H", "2S", "9C", "5H", "QD"],
            ["5C", "9D", "TS", "JD", "QS", "4S"],
            ["JH", "2C", "9S", "6H", "AD", "TC"],
            ["3S", "KD", "QH", "8H", "TD", "7S"],
            ["4H", "JS", "2D", "AH", "8C", "3C"],
            ["TH", "2H", "8D", "KH", "JC", "3D"],
            ["KS", "7C", "6S", "AS", "5D", "3H"],
            ["6D", "4C", "AC", "7D", "8S", "9H"],
        ],
        "reserve": [],
        "stock": ["5S", "KC", "QC", "6C"],
    },
    ('vertical', 7): {
        "columns": [
            ["4D", "6D", "TC", "QH", "3D", "5H"],
            ["5C", "4S", "2H", "8D", "3H", "9H"],
            ["JH", "7H", "4C", "6S", "8H", "5S"],
            ["3S", "9D", "7S", "AC", "KH", "QS"],
            ["4H", "2C", "TS", "9C", "6C", "AD"],
            ["TH", "KD", "9S", "JD", "AS", "8C"],
            ["KS", "JS", "3C", "6H", "7D", "5D"],
        ],
        "reserve": ["8S", "QD", "QC", "7C", "2S", "2D", "AH", "KC", "TD", "JC"],
        "stock": [],
    },
    ('doublets', 7): {
        "columns": [
            ["4D", "KD", "2D", "6C"],
            ["5C", "JS", "8D", "AS"],
            ["JH", "TC", "6S", "7D"],
            ["3S", "2H", "AC", "5H"],
            ["4H", "7C", "9C", "5S"],
            ["TH", "4C", "JD", "QS"],
            ["KS", "7S", "6H", "AD"],
            ["6D", "2S", "3D", "KC"],
            ["4S", "TS", "3H", "8C"],
            ["7H", "9S", "8H", "JC"],
            ["9D", "3C", "AH", "5D"],
            ["2C", "QH", "KH", "8S"],
        ],
        "reserve": ["QD", "QC", "9H", "TD"],
        "stock": [],
    },
    ('doublets', 2716): {
        "columns": [
            ["QH", "9H", "4C", "TS"],
            ["2C", "6H", "KC", "QC"],
            ["8D", "TD", "3H", "JD"],
            ["7S", "4H", "KS", "8C"],
            ["7H", "6D", "KD", "9D"],
            ["2H", "JC", "5D", "AD"],
            ["JH", "3C", "QS", "5H"],
            ["4D", "QD", "AH", "8H"],
            ["9C", "3D", "6S", "TC"],
            ["7D", "TH", "6C", "3S"],
            ["KH", "AC", "2S", "JS"],
            ["5S", "AS", "8S", "9S"],
        ],
        "reserve": ["5C", "2D", "4S", "7C"],
        "stock": [],
    },
    ('overlapping', 7): {
        "columns": [
            ["4D", "7H", "2S", "9C", "5H", "QD"],
            ["5C", "9D", "TS", "JD", "QS", "4S"],
            ["JH", "2C", "9S", "6H", "AD", "TC"],
            ["3S", "KD", "QH", "8H", "TD", "7S"],
            ["4H", "JS", "2D", "AH", "8C", "3C"],
            ["TH", "2H", "8D", "KH", "JC", "3D"],
            ["KS", "7C", "6S", "AS", "5D", "3H"],
            ["6D", "4C", "AC", "7D", "8S", "9H"],
        ],
        "reserve": ["5S", "KC", "QC", "6C"],
        "stock": [],
    },
}

MISDEALS = [("standard", 49), ("standard", 56), ("strict", 49), ("strict", 56),
            ("overlapping", 49), ("overlapping", 56), ("doublets", 2716)]


# ---- independent reference implementations ---------------------------------------------


def reference_splitmix64(seed: int, count: int) -> list[int]:
    """SplitMix64 written from the paper's counter form: output k mixes seed + k*gamma."""
    out = []
    for k in range(1, count + 1):
        z = (seed + k * GOLDEN_RATIO_64) % 2**64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        out.append(z ^ (z >> 31))
    return out


def reference_rectify(
    deck: Sequence[str], columns: int, depth: int
) -> tuple[list[list[str]], list[str]] | None:
    """The deal rule as the sources state it, with a plain list as the deck."""
    pile = list(deck)
    tableau: list[list[str]] = [[] for _ in range(columns)]
    for _row in range(depth):
        for col in tableau:
            used = {card[0] for card in col}
            for tries in range(len(pile) + 1):
                if tries == len(pile):
                    return None  # every card left repeats a rank of this column
                card = pile.pop(0)
                if card[0] not in used:
                    col.append(card)
                    break
                pile.append(card)  # a duplicate goes to the bottom of the deck
    return tableau, pile


def assert_valid_layout(position: Position) -> None:
    v = position.variant
    assert len(position.columns) == v.columns
    for col in position.columns:
        assert len(col) == v.depth
        assert len({card[0] for card in col}) == v.depth, col
    spare = position.stock if v.has_stock else position.reserve
    assert len(spare) == v.spare
    assert (position.reserve if v.has_stock else position.stock) == ()
    everything = [c for col in position.columns for c in col] + list(spare)
    assert len(everything) == 52
    assert set(everything) == set(DECK)
    assert position.unpaired is None


# ---- SplitMix64 --------------------------------------------------------------------------


def test_shuffle_version_is_1():
    assert SHUFFLE_VERSION == 1
    assert MAX_DEAL == 2**32


@pytest.mark.parametrize(("seed", "expected"), [(0, SPLITMIX64_SEED0), (1, SPLITMIX64_SEED1)])
def test_splitmix64_published_outputs(seed, expected):
    rng = SplitMix64(seed)
    assert [rng.next() for _ in range(4)] == expected
    assert reference_splitmix64(seed, 4) == expected


@pytest.mark.parametrize("seed", [0, 1, 49, 2716, 123456, 2**32 - 1, 2**63 + 5])
def test_splitmix64_matches_counter_form(seed):
    rng = SplitMix64(seed)
    assert [rng.next() for _ in range(200)] == reference_splitmix64(seed, 200)


def test_splitmix64_below_stays_in_range_and_reaches_every_value():
    rng = SplitMix64(3)
    for m in (1, 2, 3, 7, 52):
        draws = [rng.below(m) for _ in range(40 * m)]
        assert set(draws) == set(range(m))


def test_splitmix64_below_rejects_the_biased_top():
    class Scripted(SplitMix64):
        def __init__(self, outputs: list[int]) -> None:
            super().__init__(0)
            self.outputs = outputs

        def next(self) -> int:
            return self.outputs.pop(0)

    # 2**64 % 3 == 1, so 2**64 - 1 is the one value that must be redrawn.
    rng = Scripted([MASK64, MASK64, 5])
    assert rng.below(3) == 2
    assert rng.outputs == []
    rng = Scripted([MASK64 - 1])
    assert rng.below(3) == (MASK64 - 1) % 3


# ---- shuffle -----------------------------------------------------------------------------


def test_first_shuffle_of_deal_0_is_golden():
    assert shuffled_deck(0) == FIRST_SHUFFLE_DEAL_0


def test_shuffle_is_fisher_yates_from_51_down():
    # Written out step by step from the documented procedure.
    rng = SplitMix64(0)
    cards = list(DECK)
    for i in range(51, 0, -1):
        m = i + 1
        limit = 2**64 - 2**64 % m
        x = rng.next()
        while x >= limit:
            x = rng.next()
        j = x % m
        cards[i], cards[j] = cards[j], cards[i]
    assert cards == FIRST_SHUFFLE_DEAL_0


def test_shuffle_returns_a_new_permutation():
    deck = list(DECK)
    out = shuffle(deck, SplitMix64(11))
    assert deck == list(DECK)
    assert sorted(out) == sorted(DECK)
    assert out != deck


def test_shuffled_deck_differs_by_deal_number():
    decks = {tuple(shuffled_deck(n)) for n in range(200)}
    assert len(decks) == 200


def test_shuffled_deck_checks_the_deal_number():
    with pytest.raises(DealNumberError):
        shuffled_deck(-1)


# ---- the rectified deal ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "number"), list(GOLDEN_DEALS))
def test_golden_layout(name, number):
    expected = GOLDEN_DEALS[(name, number)]
    position = deal_position(name, number)
    assert position.to_json() == {"variant": name, **expected}
    assert_valid_layout(position)


@pytest.mark.parametrize(("name", "number"), list(GOLDEN_DEALS))
def test_golden_layout_matches_the_reference_deal(name, number):
    v = get_variant(name)
    rng = SplitMix64(number)
    deck = shuffle(DECK, rng)
    dealt = reference_rectify(deck, v.columns, v.depth)
    while dealt is None:
        deck = shuffle(deck, rng)
        dealt = reference_rectify(deck, v.columns, v.depth)
    tableau, rest = dealt
    expected = GOLDEN_DEALS[(name, number)]
    assert tableau == expected["columns"]
    assert rest == expected["reserve"] + expected["stock"]


def test_deal_0_first_row_is_the_top_eight_cards():
    # No column holds a card yet, so the first row is dealt straight off the deck.
    position = deal_position("standard", 0)
    assert [col[0] for col in position.columns] == FIRST_SHUFFLE_DEAL_0[:8]


def test_deal_layout_returns_lists():
    tableau, spare = deal_layout(get_variant("standard"), 7)
    assert tableau == GOLDEN_DEALS[("standard", 7)]["columns"]
    assert spare == GOLDEN_DEALS[("standard", 7)]["reserve"]


@pytest.mark.parametrize("number", [0, 7, 49, 1013, 99999])
def test_variants_with_the_same_shape_share_the_layout(number):
    standard = deal_position("standard", number)
    strict = deal_position("strict", number)
    overlapping = deal_position("overlapping", number)
    assert strict.columns == standard.columns == overlapping.columns
    assert strict.stock == standard.reserve == overlapping.reserve
    assert strict.reserve == () and standard.stock == () and overlapping.stock == ()


@pytest.mark.parametrize(
    ("shape", "count", "expected"), [((8, 6), 1100, [49, 56, 1013]), ((12, 4), 3000, [2716])]
)
def test_the_misdeals_among_the_first_deals(shape, count, expected):
    columns, depth = shape
    found = [n for n in range(count) if rectify(shuffled_deck(n), columns, depth) is None]
    assert found == expected


def test_rectify_matches_the_reference_deal():
    shapes = sorted({(v.columns, v.depth) for v in VARIANTS.values()})
    assert shapes == [(7, 6), (8, 6), (12, 4)]
    misdeals = 0
    for number in range(3000):
        deck = shuffled_deck(number)
        for columns, depth in shapes:
            dealt = rectify(deck, columns, depth)
            assert dealt == reference_rectify(deck, columns, depth), (number, columns)
            misdeals += dealt is None
    assert misdeals == 4  # 49, 56, 1013 (8x6) and 2716 (12x4)


@pytest.mark.parametrize(("name", "number"), MISDEALS)
def test_misdeal_is_redealt_from_a_fresh_shuffle(name, number):
    v = get_variant(name)
    first = shuffled_deck(number)
    assert rectify(first, v.columns, v.depth) is None
    assert reference_rectify(first, v.columns, v.depth) is None

    # The documented procedure: shuffle the last shuffle's order again with the
    # same generator carrying on, until a deal succeeds.
    rng = SplitMix64(number)
    deck = shuffle(DECK, rng)
    assert deck == first
    reshuffles = 0
    dealt = None
    while dealt is None:
        deck = shuffle(deck, rng)
        reshuffles += 1
        dealt = rectify(deck, v.columns, v.depth)
    assert reshuffles == 1
    tableau, rest = dealt

    position = deal_position(name, number)
    assert [list(col) for col in position.columns] == tableau
    assert list(position.stock if v.has_stock else position.reserve) == rest
    assert_valid_layout(position)


def test_rectify_puts_a_duplicate_under_the_deck():
    # Column 1 gets 7H; next row, 7S would repeat the rank, so it goes under and
    # the 8C is dealt instead. The 7S is then the last card of the deck.
    deck = ["7H", "2C", "7S", "8C", "9D", "2D"]
    tableau, rest = rectify(deck, 2, 2)
    assert tableau == [["7H", "8C"], ["2C", "9D"]]
    assert rest == ["2D", "7S"]


def test_rectify_reports_a_misdeal():
    # The second card for column 1 can only be a 7: no card can go there.
    assert rectify(["7H", "2C", "7S", "7D"], 2, 2) is None


@given(st.sampled_from(list(VARIANTS)), st.integers(0, MAX_DEAL - 1))
@settings(max_examples=examples(150), deadline=None)
def test_any_deal_is_a_valid_layout(name, number):
    position = deal_position(name, number)
    assert_valid_layout(position)
    assert deal_position(name, number) == position


# ---- deal numbers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0, 0), (42, 42), ("42", 42), (" 42 ", 42), ("0", 0), (2**32 - 1, 2**32 - 1),
     ("4294967295", 4294967295), ("007", 7)],
)
def test_check_deal_number_accepts(value, expected):
    assert check_deal_number(value) == expected


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (-1, "out of range"),
        (2**32, "out of range"),
        ("4294967296", "out of range"),
        ("abc", "bad deal number 'abc'"),
        ("", "bad deal number ''"),
        ("-1", "bad deal number '-1'"),
        ("+4", "bad deal number '+4'"),
        ("4 2", "bad deal number '4 2'"),
        ("\u0664\u0662", "bad deal number"),  # Arabic-Indic digits
        (3.5, "not float"),
        (3.0, "not float"),
        (True, "not a boolean"),
        (False, "not a boolean"),
        (None, "not NoneType"),
    ],
)
def test_check_deal_number_rejects(value, fragment):
    with pytest.raises(DealNumberError) as info:
        check_deal_number(value)
    assert fragment in str(info.value)


@given(st.integers(-(2**40), 2**40))
@settings(max_examples=examples(200), deadline=None)
def test_check_deal_number_range(number):
    if 0 <= number < 2**32:
        assert check_deal_number(number) == number
        assert check_deal_number(str(number)) == number
    else:
        with pytest.raises(DealNumberError):
            check_deal_number(number)


def test_deal_position_accepts_a_variant_or_its_name_and_a_numeric_string():
    by_name = deal_position("standard", 42)
    assert deal_position(VARIANTS["standard"], 42) == by_name
    assert deal_position("standard", "42") == by_name
    assert deal_position(" Standard ", " 42 ") == by_name


def test_deal_position_errors():
    with pytest.raises(VariantError):
        deal_position("nope", 1)
    with pytest.raises(DealNumberError):
        deal_position("standard", 2**32)
    with pytest.raises(DealNumberError):
        deal_position("standard", True)

"""The one whole-number validator, ``nestor.checks.whole_number``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from nestor import DealNumberError, NestorError, RecordError, check_deal_number, whole_number
from nestor.checks import number_text


@pytest.mark.parametrize(
    ("value", "kwargs"),
    [(0, {}), (7, {}), (10**40, {}), (5, {"low": 5}), (9, {"high": 9}), (-2, {"low": -3}),
     (3, {"low": 3, "high": 3})],
)
def test_whole_numbers_in_range_come_back(value, kwargs):
    result = whole_number(value, "x", **kwargs)
    assert result == value and type(result) is int


@pytest.mark.parametrize(
    ("value", "kind", "shown"),
    [(True, "a boolean", "True"), (False, "a boolean", "False"), (1.0, "float", "1.0"),
     ("3", "str", "'3'"), (None, "NoneType", "None"), ([1], "list", "[1]")],
)
def test_anything_but_an_int_is_not_a_whole_number(value, kind, shown):
    with pytest.raises(NestorError) as info:
        whole_number(value, "deals[3][1]")
    assert str(info.value) == f"deals[3][1] must be a whole number, not {kind}"
    assert info.value.code == "number.not_whole"
    assert info.value.details == {
        "where": "deals[3][1]", "value": shown, "kind": type(value).__name__}


def test_out_of_range_with_and_without_an_upper_end():
    with pytest.raises(NestorError) as info:
        whole_number(11, "cursor", high=10)
    assert str(info.value) == "cursor 11 is out of range: use 0 to 10"
    assert info.value.code == "number.range"
    assert info.value.details == {"where": "cursor", "value": "11", "low": 0, "high": 10}
    with pytest.raises(NestorError) as info:
        whole_number(0, "--deals", low=1, high=5)
    assert info.value.details == {"where": "--deals", "value": "0", "low": 1, "high": 5}
    with pytest.raises(NestorError) as info:
        whole_number(-1, "hints")
    assert str(info.value) == "hints -1 is out of range: use 0 or more"
    assert info.value.code == "number.too_small"
    assert info.value.details == {"where": "hints", "value": "-1", "low": 0}


def test_the_code_prefix_and_the_error_class_are_the_callers():
    with pytest.raises(RecordError) as info:
        whole_number("x", "cursor", error=RecordError)
    assert info.value.code == "number.not_whole"
    with pytest.raises(DealNumberError) as info:
        whole_number(-1, "deal", high=9, code="deal", error=DealNumberError)
    assert info.value.code == "deal.range"


def test_huge_numbers_make_short_messages_and_details():
    huge = 10**4000
    with pytest.raises(NestorError) as info:
        whole_number(huge, "time", high=10)
    assert str(info.value) == "time with more than 30 digits is out of range: use 0 to 10"
    assert len(info.value.details["value"]) == 60  # clipped
    assert str(info.value.details["value"]).startswith("1000")
    assert number_text(-(10**5000)) == "-…"  # past the digits int() may print
    assert number_text(10**5000) == "…"


@given(st.integers(-(2**70), 2**70), st.integers(-50, 50), st.integers(-50, 50))
@settings(max_examples=examples(300), deadline=None)
def test_whole_number_accepts_exactly_the_range(value, low, span):
    high = low + abs(span)
    if low <= value <= high:
        assert whole_number(value, "v", low=low, high=high) == value
    else:
        with pytest.raises(NestorError) as info:
            whole_number(value, "v", low=low, high=high)
        assert info.value.code == "number.range"
        assert info.value.details["value"] == str(value)


def test_deal_numbers_go_through_it():
    with pytest.raises(DealNumberError) as info:
        check_deal_number(2**32)
    assert str(info.value) == "deal 4294967296 is out of range: use 0 to 4294967295"
    with pytest.raises(DealNumberError) as info:
        check_deal_number(True)
    assert str(info.value) == "deal must be a whole number, not a boolean"
    assert info.value.details == {"where": "deal", "value": "True", "kind": "bool"}
    with pytest.raises(DealNumberError) as info:
        check_deal_number("9" * 50)
    assert info.value.code == "deal.range"
    assert info.value.details["value"] == "9" * 50

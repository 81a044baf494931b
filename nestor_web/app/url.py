"""The page's address: which deal a URL asks for, and the URL of a deal."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from urllib.parse import parse_qs, urlencode

from nestor import DEFAULT_VARIANT, NestorError, Variant, check_deal_number, get_variant
from nestor.daily import check_daily_date, daily_deal

from .events import Problem


@dataclass(frozen=True)
class DealRequest:
    """A deal asked for by the URL (``deal`` ``None``: any), with its date if a daily deal."""

    variant: Variant
    deal: int | None
    daily: date | None = None


def parse_query(query: str, today: date | None = None) -> tuple[DealRequest | None, Problem | None]:
    """Read ``?variant=V&deal=N`` or ``?daily=YYYY-MM-DD`` from a URL query string."""
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    if "daily" in params:
        try:
            day = check_daily_date(params["daily"][0], today or date.today())
        except NestorError as exc:
            return None, Problem("link.daily", exc)
        name, number = daily_deal(day)
        return DealRequest(get_variant(name), number, day), None
    if "variant" not in params and "deal" not in params:
        return None, None
    variant = get_variant(DEFAULT_VARIANT)
    if "variant" in params:
        try:
            variant = get_variant(params["variant"][0])
        except NestorError as exc:
            return None, Problem("link.variant", exc)
    if "deal" not in params:
        return DealRequest(variant, None), None
    try:
        return DealRequest(variant, check_deal_number(params["deal"][0])), None
    except NestorError as exc:
        return None, Problem("link.deal", exc)


def puzzle_asked(query: str) -> str | None:
    """What the URL query's ``?puzzle=`` asks for (a number or ``daily``), else ``None``."""
    return parse_qs(query.lstrip("?"), keep_blank_values=True).get("puzzle", [None])[0]


def deal_query(variant: str, deal: int) -> str:
    """``"?variant=V&deal=N"``."""
    return "?" + urlencode({"variant": variant, "deal": deal})


def daily_query(day: date) -> str:
    """``"?daily=YYYY-MM-DD"``."""
    return "?daily=" + day.isoformat()

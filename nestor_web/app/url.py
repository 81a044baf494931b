"""The page's address: which deal a URL asks for, and the URL of a deal.

The query is ``?variant=V&deal=N``; it opens that deal (resumed if it is in progress).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode

from nestor import DEFAULT_VARIANT, NestorError, Variant, check_deal_number, get_variant

from .events import Problem


@dataclass(frozen=True)
class DealRequest:
    """A deal asked for by the URL: ``variant`` and ``deal`` (``None``: any deal)."""

    variant: Variant
    deal: int | None


def parse_query(query: str) -> tuple[DealRequest | None, Problem | None]:
    """Read ``?variant=V&deal=N`` from a URL query string.

    Returns ``(request, problem)``: ``request`` is ``None`` when the URL names no deal;
    ``problem`` (code ``"link.variant"`` or ``"link.deal"``, with the engine error) when
    a value is bad; then ``request`` keeps what was good: a valid variant with
    ``deal=None``, or the default variant.
    """
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    if "variant" not in params and "deal" not in params:
        return None, None
    variant = get_variant(DEFAULT_VARIANT)
    if "variant" in params:
        try:
            variant = get_variant(params["variant"][0])
        except NestorError as exc:
            return DealRequest(variant, None), Problem("link.variant", exc)
    if "deal" not in params:
        return DealRequest(variant, None), None
    try:
        return DealRequest(variant, check_deal_number(params["deal"][0])), None
    except NestorError as exc:
        return DealRequest(variant, None), Problem("link.deal", exc)


def deal_query(variant: str, deal: int) -> str:
    """The URL query that opens a deal: ``"?variant=V&deal=N"``."""
    return "?" + urlencode({"variant": variant, "deal": deal})

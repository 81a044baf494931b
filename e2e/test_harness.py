"""The browser tests' own harness (e2e/conftest.py): what the shared context resets between
two tests, so that no test passes or fails on what the one before it left."""

from __future__ import annotations

import pytest

PERMISSION = "() => navigator.permissions.query({name: 'clipboard-read'}).then((s) => s.state)"


def test_a_permission_granted_in_one_test_is_gone_in_the_next(
    shared_context, request: pytest.FixtureRequest
) -> None:
    # The clipboard tests grant their permission to the shared context: the next test's page
    # (page_for, what the page fixture calls) must ask for it again.
    page = shared_context.page_for(request.node, own=False)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    assert page.evaluate(PERMISSION) == "granted"
    page = shared_context.page_for(request.node, own=False)
    assert page.evaluate(PERMISSION) == "prompt"

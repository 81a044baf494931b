"""How hard the property tests try: the Hypothesis profiles and the size of the seeded loops.

Two profiles, chosen by the environment variable ``HYPOTHESIS_PROFILE``:

* ``quick`` (the default, ``make test``): a quarter of each test's base count of examples
  (at least 20); a sample whose assertions need it whole (random play must win some deals,
  every kind of damaged text must come up) keeps its size: every property is tried on every
  run, in seconds;
* ``thorough`` (``make test-slow``): twice the base counts, the counts the tests ran with
  before the profiles were introduced (issue 18), and twice every whole sample.

A test states the count it wants in the thorough sense, ``@settings(max_examples=examples(400))``,
so both profiles scale from one number. Seeds and the example database work as Hypothesis's
defaults: a failure found once is tried first next time.
"""

from __future__ import annotations

import os

from hypothesis import settings

QUICK = "quick"
THOROUGH = "thorough"

settings.register_profile(QUICK, deadline=None)
settings.register_profile(THOROUGH, deadline=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", QUICK)
if PROFILE not in (QUICK, THOROUGH):
    raise SystemExit(f"HYPOTHESIS_PROFILE={PROFILE!r}: use {QUICK!r} or {THOROUGH!r}")
settings.load_profile(PROFILE)


def examples(count: int) -> int:
    """Hypothesis examples for a test whose base count is ``count``: twice that in the thorough
    profile, a quarter of it (at least 20) in the quick one."""
    return 2 * count if PROFILE == THOROUGH else max(20, count // 4)


def whole(count: int) -> int:
    """The size of a sample that a test's assertions need whole (a rare outcome must occur in
    it, every kind of text must come up): ``count`` in the quick profile, twice that in the
    thorough one."""
    return 2 * count if PROFILE == THOROUGH else count

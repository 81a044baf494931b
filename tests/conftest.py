"""The unit tests' shared set-up: the Hypothesis profile (:mod:`profiles`), loaded before any
test module is imported, so ``@settings(max_examples=examples(n))`` sees it."""

import profiles  # noqa: F401 (registers and loads the profile)

"""The unit tests' shared set-up: the Hypothesis profile (:mod:`profiles`), loaded before any
test module is imported, so ``@settings(max_examples=examples(n))`` sees it."""

from collections.abc import Iterator  # noqa: E402

import profiles  # noqa: F401 (registers and loads the profile)
import pytest  # noqa: E402


@pytest.fixture
def german() -> Iterator[None]:
    """The page's words in German for one test (the catalogs compiled first), English after."""
    import sys
    from pathlib import Path

    scripts = str(Path(__file__).resolve().parent.parent / "scripts")
    if scripts not in sys.path:  # scripts/locales.py (a test module may have put it there)
        sys.path.insert(0, scripts)
    import locales

    from nestor_web.view import i18n

    locales.compile_all()
    i18n.set_language("de")
    yield
    i18n.set_language("en")

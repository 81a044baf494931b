"""Moved to :mod:`nestor_web.view.i18n`; this name goes once every import has moved
(only the old ``nestor_web/stats.py`` still imports it, for ``tests/test_stats.py``)."""

from .view.i18n import *  # noqa: F403
from .view.i18n import N_ as N_
from .view.i18n import NP_ as NP_
from .view.i18n import _ as _
from .view.i18n import ngettext as ngettext
from .view.i18n import pgettext as pgettext

"""Moved to :mod:`nestor_web.view.i18n`; this name goes once every import has moved."""

from .view.i18n import *  # noqa: F403
from .view.i18n import N_, NP_, _, ngettext, pgettext  # noqa: F401

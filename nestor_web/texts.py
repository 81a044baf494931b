"""Moved to :mod:`nestor_web.view.texts`; this name goes once every import has moved."""

from .view.texts import *  # noqa: F403

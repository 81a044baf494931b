"""Everything the player reads: the board's view model and HTML, dialogs, the chart,
every sentence, and the translations.

Imports :mod:`nestor` and :mod:`nestor_web.app` only; never the browser, never storage.
"""

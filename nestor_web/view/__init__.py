"""Everything the player reads: the board's view and markup, dialogs, charts, every
sentence, and the translations. Imports :mod:`nestor` and :mod:`nestor_web.app` only."""

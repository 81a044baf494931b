"""State and commands: the game manager, settings, statistics rules and the URL.

No words, no DOM, no storage format: this room imports only :mod:`nestor`.
"""

"""The storage manager: every key, every codec and version, the archive of games in
progress, setting aside unreadable data, and the memory fallback.

Imports :mod:`nestor` and :mod:`nestor_web.app` only; the browser hands it a key-value store.
"""

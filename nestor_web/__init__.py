"""The browser layer of Nestor, in four rooms that import one way (see tests/test_rooms.py).

``app`` (state and commands), ``storage`` (every key the game keeps) and ``view``
(everything the player reads) are pure Python and tested by pytest under CPython;
``browser`` is the only room that imports ``js``/``pyscript`` and runs in the page.
"""

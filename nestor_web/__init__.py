"""The browser layer of Nestor.

``session`` (the game manager: selection, saving, the URL) and ``view`` (what
to draw) are pure Python and tested by pytest under CPython; ``dom`` is the
small adapter that runs only in the browser, applies the view to the page and
turns events into calls on the session.
"""

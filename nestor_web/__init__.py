"""The browser layer of Nestor: ``app`` (state and commands), ``storage`` (every key kept),
``view`` (every word) and ``browser`` (the only room touching ``js``), importing one way."""

"""Browser entry point, run by PyScript (see ``index.html`` and ``pyscript.toml``)."""

from nestor_web.browser.root import start

app = start()

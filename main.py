"""Browser entry point, run by PyScript (see ``index.html`` and ``pyscript.toml``)."""

from nestor_web.browser.root import start

app = await start()  # noqa: F704 (PyScript runs this file with top-level await)

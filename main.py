"""Browser entry point, run by PyScript (see ``index.html`` and ``pyscript.toml``)."""

from pyscript import window  # PyScript's own module: its import is not ours to time

window.performance.mark("nestor:py-main")  # the boot bench's phases: our imports from here

from nestor_web.browser.root import start  # noqa: E402 (after the mark)

app = await start()  # noqa: F704 (PyScript runs this file with top-level await)

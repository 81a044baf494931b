"""Browser entry point, run by PyScript (see ``index.html`` and ``pyscript.toml``)."""

from pyscript import window  # PyScript's own module: its import is not ours to time

window.performance.mark("nestor:py-main")  # the boot bench's phases: our imports from here

# static/js/interpreter.js wrote static/nestor.zip.gz's zip into the working folder and put it
# on sys.path: Python imports nestor/ and nestor_web/ from it (zipimport, each module's
# bytecode, no source), as it does the standard library, with nothing unpacked
# (scripts/pyscript_config.py); the dataclasses take their methods as the build compiled them
# (nestor_web/browser/precompiled.py).
from nestor_web.browser.root import start  # noqa: E402 (after the mark)

app = await start()  # noqa: F704 (PyScript runs this file with top-level await)

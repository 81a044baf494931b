"""Browser entry point, run by PyScript (see ``index.html`` and ``pyscript.toml``)."""

import sys

from pyscript import window  # PyScript's own module: its import is not ours to time

window.performance.mark("nestor:py-main")  # the boot bench's phases: our imports from here

# static/js/interpreter.js wrote static/nestor.zip.gz's zip into the working folder: Python
# imports nestor/ and nestor_web/ from it (zipimport, each module's bytecode, no source), as it
# does the standard library, with nothing unpacked (scripts/pyscript_config.py).
sys.path.insert(0, "/home/pyodide/nestor.zip")

from nestor_web.browser.precompiled import install_from_archive  # noqa: E402

install_from_archive()  # the dataclasses' methods as the build compiled them

from nestor_web.browser.root import start  # noqa: E402 (after the mark and the path)

app = await start()  # noqa: F704 (PyScript runs this file with top-level await)

"""Browser entry point, run by PyScript (see ``index.html`` and ``pyscript.toml``)."""

import asyncio
from importlib import import_module

from pyscript import window  # PyScript's own module: its import is not ours to time

window.performance.mark("nestor:py-main")  # the boot bench's phases: our imports from here

# static/js/interpreter.js wrote static/nestor.zip.gz's zip into the working folder and put it
# on sys.path: Python imports nestor/ and nestor_web/ from it (zipimport, each module's
# bytecode, no source), as it does the standard library, with nothing unpacked
# (scripts/pyscript_config.py); the dataclasses take their methods as the build compiled them
# (nestor_web/browser/precompiled.py).

STEPS = (
    "nestor",
    "nestor_web.app.events",
    "nestor.link",
    "nestor_web.app.session",
    "nestor_web.view.words",
    "nestor_web.browser.actuator",
    "nestor_web.storage.manager",
    "nestor_web.browser.end",
)
"""Modules root.py imports, each with its own imports, imported a task each before root.py:
the page draws and answers between them, where one import would hold it for all of them."""

for step in STEPS:
    import_module(step)
    await asyncio.sleep(0)  # noqa: F704 (PyScript runs this file with top-level await)

from nestor_web.browser.root import start  # noqa: E402 (after the steps)

app = await start()  # noqa: F704

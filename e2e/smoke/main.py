"""Runs in the browser (Pyodide on the main thread)."""

import sys

import js
from pyscript import document

version = sys.version.split()[0]
document.querySelector("#out").textContent = f"Hello from Python {version} on {sys.platform}"
document.body.dataset.bootMs = str(round(js.performance.now()))
document.body.dataset.ready = "1"

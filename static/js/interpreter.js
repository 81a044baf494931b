// The interpreter module PyScript loads (pyscript.toml's "interpreter", written by
// scripts/pyscript_config.py): the vendored Pyodide, started as early as the page can.
//
// PyScript calls `loadPyodide` only once its own core is imported, its config fetched and
// parsed and its package store opened. Pyodide needs no part of that, so pwa.js calls `start()`
// at its first line: the wasm is fetched and compiled as it arrives, and the interpreter and
// the standard library start while PyScript does.
//
// polyscript imports this module, reads `version` and calls `loadPyodide(options)` with its
// stdout and stderr and an indexURL of this file's folder. It gets the one Pyodide `start()`
// began (or begins it now), with its streams set; indexURL is static/vendor/pyodide/. A start
// that failed is begun again by the next call, so PyScript's own call reports the error.

import { loadPyodide as loadVendored, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

export const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;

let started = null; // the Promise of the one Pyodide of this page

// Begins loading Pyodide if nothing has yet; a Promise of the interpreter.
export function start() {
  if (started === null) {
    performance.mark("nestor:interpreter-start"); // the boot bench's phases (bench/boot.py)
    started = loadVendored({ indexURL: INDEX_URL }).catch((error) => {
      started = null;
      throw error;
    });
  }
  return started;
}

// What polyscript calls: the started Pyodide, its output to `options.stdout` and
// `options.stderr` (line by line, as loadPyodide's own options would send it).
export async function loadPyodide(options = {}) {
  const pyodide = await start();
  if (typeof options.stdout === "function") pyodide.setStdout({ batched: options.stdout });
  if (typeof options.stderr === "function") pyodide.setStderr({ batched: options.stderr });
  return pyodide;
}

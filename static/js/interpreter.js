// The interpreter module PyScript loads (pyscript.toml's "interpreter", written by
// scripts/pyscript_config.py): the vendored Pyodide, started as early as the page can, with our
// archive (static/nestor.zip.gz: a zip of nestor/, nestor_web/ and the catalogs, gzipped) in
// its working folder.
//
// PyScript calls `loadPyodide` only once its own core is imported, its config fetched and
// parsed and its package store opened. Pyodide needs no part of that, so static/js/boot.js
// imports this module and calls `start()` as soon as it can (on a first visit, once the page's
// first content is painted): the wasm is fetched and compiled as it arrives, and the
// interpreter and the standard library start while PyScript does. On a first visit boot.js has
// the archive asked for once the wasm has arrived (over a slow link it would only have slowed
// the wasm down); Python's zlib decompresses it to /home/pyodide/nestor.zip, on sys.path before
// PyScript gets the interpreter. A host that sends the file with "Content-Encoding: gzip" (some
// do for a .gz) has the browser decompress it already: a zip as it arrives is taken as it is.
//
// polyscript imports this module, reads `version` and calls `loadPyodide(options)` with its
// stdout and stderr and an indexURL of this file's folder. It gets the one Pyodide `start()`
// began (or begins it now), with its streams set; indexURL is static/vendor/pyodide/. A start
// that failed is begun again by the next call, so PyScript's own call reports the error.

import { loadPyodide as loadVendored, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

export const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
const ARCHIVE_URL = new URL("../nestor.zip.gz", import.meta.url).href;
const ARCHIVE_PATH = "/home/pyodide/nestor.zip"; // on sys.path (PREPARE)

let started = null; // the Promise of the one Pyodide of this page
let archive = null; // the Promise of the archive's bytes (the zip)

async function fetchArchive() {
  const response = await fetch(ARCHIVE_URL);
  if (!response.ok) throw new Error(`${ARCHIVE_URL}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  performance.mark("nestor:archive-in"); // the boot benches' phases
  return bytes;
}

// Python's zlib in one call, where the page's DecompressionStream would take a task per chunk
// once Pyodide's start lets the page run again.
const GUNZIP = `
import zlib
with open(PATH + ".gz", "rb") as packed, open(PATH, "wb") as zipped:
    zipped.write(zlib.decompress(packed.read(), wbits=31))
`;

// Writes the archive `bytes` into Pyodide's working folder as the zip Python imports from:
// gzip's (its first bytes 1f 8b) decompressed, anything else (a host that decompressed it) as
// it is.
function writeArchive(pyodide, bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    pyodide.FS.writeFile(ARCHIVE_PATH, bytes);
    return;
  }
  pyodide.FS.writeFile(`${ARCHIVE_PATH}.gz`, bytes);
  runIn(pyodide, GUNZIP);
  pyodide.FS.unlink(`${ARCHIVE_PATH}.gz`);
}

// The archive on Python's path, and what the build compiled ahead (the dataclasses' methods,
// PyScript's own modules) in place before PyScript runs any Python
// (nestor_web/browser/precompiled.py).
const PREPARE = `
import sys
sys.path.insert(0, PATH)
from nestor_web.browser.precompiled import install_from_archive
install_from_archive()
`;

const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });

function runIn(pyodide, code) {
  const scope = pyodide.toPy({ PATH: ARCHIVE_PATH });
  try {
    pyodide.runPython(code, { globals: scope });
  } finally {
    scope.destroy();
  }
}

// Begins loading Pyodide if nothing has yet, and the archive once `wasmArrived` resolves (at
// once without it), or once Pyodide has settled; a Promise of the interpreter.
export function start(wasmArrived = null) {
  if (started === null) {
    performance.mark("nestor:interpreter-start"); // the boot bench's phases (bench/boot.py)
    // Pyodide's JavaScript half asked for before its wasm: the wasm is compiled as it arrives
    // only once this module runs, and behind the wasm it can come last (Pyodide's own import
    // of it gets this one; a failure is reported by that import).
    import(`${INDEX_URL}pyodide.asm.mjs`).catch(() => {});
    started = loadVendored({ indexURL: INDEX_URL }).then((pyodide) => {
      performance.mark("nestor:pyodide-ready");
      return pyodide;
    }, (error) => {
      started = null;
      throw error;
    });
    const after = wasmArrived ? Promise.race([wasmArrived, started.catch(() => {})]) : null;
    archive = (after ? after.then(fetchArchive) : fetchArchive()).catch((error) => {
      archive = null;
      throw error;
    });
    archive.catch(() => {}); // reported by loadPyodide, which awaits it
  }
  return started;
}

// What polyscript calls: the started Pyodide, with the archive written into its working
// folder, its output to `options.stdout` and `options.stderr` (line by line, as loadPyodide's
// own options would send it).
export async function loadPyodide(options = {}) {
  const pyodide = await start();
  const bytes = await (archive ?? fetchArchive());
  // A task each (the page draws and answers between them), where all in one would hold it
  // for as long as the three take.
  await nextTask();
  writeArchive(pyodide, bytes);
  await nextTask();
  runIn(pyodide, PREPARE);
  performance.mark("nestor:archive-written");
  await nextTask();
  if (typeof options.stdout === "function") pyodide.setStdout({ batched: options.stdout });
  if (typeof options.stderr === "function") pyodide.setStderr({ batched: options.stderr });
  return pyodide;
}

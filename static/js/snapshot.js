// The interpreter module PyScript loads (pyscript.toml's "interpreter", written by
// scripts/pyscript_config.py): the vendored Pyodide, restored from a memory snapshot when one
// made for this very Pyodide build and this very code is in Cache Storage, else booted normally.
//
// polyscript imports this module, reads `version` and calls `loadPyodide(options)` with only
// stdout/stderr and an indexURL of this file's folder; we pass on its streams, point indexURL at
// static/vendor/pyodide/ and add Pyodide's private `_loadSnapshot` option (Pyodide 0.26+).
//
// A snapshot is the wasm heap after Python started and imported our modules (the engine, app,
// storage and view rooms; not nestor_web.browser, which needs PyScript). It is made on this
// device, after a normal boot, once the game is ready and the player has paused for 5 s (no tap,
// key or wheel) and the page is idle, by a module Worker
// (static/js/snapshot-worker.js) that loads the same Pyodide with `_makeSnapshot: true`, and is
// kept in the Cache Storage cache "nestor-snapshot" under a key naming both parts of
// static/nestor-build.json (written by the build with static/nestor.zip):
//   pyodide  Pyodide's BUILD_ID (a hash of pyodide.asm.mjs and the wasm), the id a snapshot
//            carries in its header and Pyodide checks ("Snapshot build id mismatch");
//   code     the SHA-256 of static/nestor.zip, our modules and catalogs: the heap holds those
//            modules already imported, so a snapshot of other code must never be restored.
// Older entries are deleted when a new one is stored. The entry carries the SHA-256 of its bytes
// (header x-nestor-sha256), checked before a restore.
//
// Any problem means a normal boot, never a broken one: no Cache Storage (an insecure origin),
// storage refused (some private windows), no entry (first visit, evicted, new Pyodide or new
// code), bytes that fail the digest or the header checks, or a restore that throws. A refused
// entry is deleted, and so is one whose last restore never got the game ready (a marker
// <key>/pending is kept from a restore until <body data-ready>; a later visit that finds it
// boots normally). Refused restores and failed makes are counted per build (the entry
// <key>/failures): after two, the page makes no more for that build, so a device where they
// fail does not pay for a Worker, or a refused restore, on every visit.
// Snapshots are made only under the service worker (every file the Worker fetches is then
// local): without it nothing is made and every boot is a normal one.
//
// Hooks (tests, bench/boot.py): window.nestorBoot and <body data-boot> are "snapshot" or
// "normal" once Python is up; window.nestorSnapshot says what became of making one: "making",
// "stored", "failed", or "skipped" (a valid one is stored already, or no service worker).
//
// A restored heap has the seeds of the moment it was made: `random` is reseeded at once (new
// deal numbers come from it; the game's own Random() instances seed from os.urandom, which asks
// the browser each time). Hash randomisation is off in snapshots; the game does not rely on it.

import { loadPyodide as loadVendored, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

export const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
export const BUILD_URL = new URL("../nestor-build.json", import.meta.url).href;
export const ARCHIVE_URL = new URL("../nestor.zip", import.meta.url).href;
export const CACHE = "nestor-snapshot";
const WORKER_URL = new URL("./snapshot-worker.js", import.meta.url).href;
const FAILURES_ALLOWED = 2; // refused restores or failed makes of one build, then no more
const INPUT_QUIET_MS = 5000; // no tap, key or wheel this long after data-ready: the Worker starts
const HEADER_BYTES = 48; // magic, offset, length, 0, then the build id as 8 little-endian u32

// The Cache Storage key of the snapshot for `build` ({pyodide, code}); its failure counter.
export function snapshotKey(build) {
  return new URL(`../../nestor-snapshot/${build.pyodide}/${build.code}`, import.meta.url).href;
}
function failuresKey(build) {
  return snapshotKey(build) + "/failures";
}
// Set from a restore until the game is ready: found on a later visit, the restore hung.
function pendingKey(build) {
  return snapshotKey(build) + "/pending";
}

export function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256(bytes) {
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}

// The build id in a snapshot's header, as Pyodide writes it (hex, 64 characters).
export function headerBuildId(bytes) {
  if (bytes.byteLength < HEADER_BYTES) return null;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + 16, 8);
  return Array.from(words, (w) => w.toString(16).padStart(8, "0")).join("");
}

// static/nestor-build.json, checked: {pyodide: hex64, code: hex64}.
export async function readBuild() {
  const response = await fetch(BUILD_URL);
  if (!response.ok) throw new Error(`${BUILD_URL}: HTTP ${response.status}`);
  const build = await response.json();
  for (const part of ["pyodide", "code"]) {
    if (!/^[0-9a-f]{64}$/.test(build?.[part] ?? "")) throw new Error(`no ${part} id in ${BUILD_URL}`);
  }
  return { pyodide: build.pyodide, code: build.code };
}

// What this page may restore: {build, cache, response} (response undefined when none is stored),
// or null when Cache Storage or the build file is not there. Started as soon as this module is
// imported, beside the rest of PyScript's start-up.
async function lookUp() {
  if (typeof caches === "undefined" || !globalThis.crypto?.subtle) return null;
  const [build, cache] = await Promise.all([readBuild(), caches.open(CACHE)]);
  const found = { build, cache, response: await cache.match(snapshotKey(build)) };
  if (found.response && (await cache.match(pendingKey(build)))) {
    // The last boot restored it and never became ready: refuse it as a damaged one.
    console.warn("Nestor: the last start from the snapshot did not finish; starting normally");
    await failed(found, true);
    found.response = undefined;
  }
  await cache.delete(pendingKey(build));
  return found;
}

// The stored snapshot's bytes, once they pass the checks; rejects otherwise.
async function checked(found) {
  const bytes = new Uint8Array(await found.response.arrayBuffer());
  const digest = found.response.headers.get("x-nestor-sha256");
  if (!digest || digest !== (await sha256(bytes))) throw new Error("snapshot: damaged (digest)");
  if (headerBuildId(bytes) !== found.build.pyodide) throw new Error("snapshot: another build id");
  return bytes;
}

async function failures(found) {
  const response = await found.cache.match(failuresKey(found.build));
  return response ? Number(await response.text()) || 0 : 0;
}

// Count one more failure for this build; `drop`: delete its snapshot too (it was refused).
async function failed(found, drop) {
  const count = (await failures(found)) + 1;
  if (drop) await found.cache.delete(snapshotKey(found.build));
  await found.cache.put(failuresKey(found.build), new Response(String(count)));
}

function booted(how) {
  globalThis.nestorBoot = how;
  document.body?.setAttribute("data-boot", how);
}

function status(value) {
  globalThis.nestorSnapshot = value;
}

// Resolves once <body data-ready> is set (the game takes input).
function ready() {
  return new Promise((resolve) => {
    if (document.body.hasAttribute("data-ready")) return resolve();
    const observer = new MutationObserver(() => {
      if (!document.body.hasAttribute("data-ready")) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-ready"] });
  });
}

// Resolves once the player has given no input for `ms` (a pause between moves).
function inputQuiet(ms) {
  const kinds = ["pointerdown", "keydown", "wheel", "touchstart"];
  return new Promise((resolve) => {
    let timer;
    const done = () => {
      for (const kind of kinds) removeEventListener(kind, again, true);
      resolve();
    };
    const again = () => {
      clearTimeout(timer);
      timer = setTimeout(done, ms);
    };
    for (const kind of kinds) addEventListener(kind, again, { capture: true, passive: true });
    again();
  });
}

// Resolves once the game is ready, the player paused, and the page is idle. The Worker shares
// the device's cores with the page (measured: bench/snapshot_taps.py), so it starts in a pause.
async function readyAndIdle() {
  await ready();
  await inputQuiet(INPUT_QUIET_MS);
  if ("requestIdleCallback" in globalThis) {
    await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 10000 }));
  }
}

// After a normal boot: have the Worker make and store a snapshot for next time.
async function makeLater(found) {
  if (!found || !navigator.serviceWorker?.controller) return status("skipped");
  if ((await failures(found)) >= FAILURES_ALLOWED) return status("skipped");
  await readyAndIdle();
  status("making");
  const worker = new Worker(WORKER_URL, { type: "module" });
  const result = await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve({ ok: false, error: event.message || "worker error" });
    worker.postMessage({ build: found.build });
  });
  worker.terminate();
  if (!result.ok) {
    console.warn("Nestor: no start-up snapshot was made:", result.error);
    await failed(found, false);
  }
  status(result.ok ? "stored" : "failed");
}

const found = typeof document === "undefined" ? Promise.resolve(null) : lookUp().catch((error) => {
  console.warn("Nestor: start-up snapshots unavailable:", error.message ?? error);
  return null;
});

export async function loadPyodide(options = {}) {
  const settings = { ...options, indexURL: INDEX_URL };
  const stored = await found;
  if (stored?.response && !settings.packages?.length) {
    try {
      const bytes = checked(stored);
      bytes.catch(() => {}); // refused below, through loadPyodide: not an unhandled rejection
      const pyodide = await loadVendored({ ...settings, _loadSnapshot: bytes });
      pyodide.runPython("import random; random.seed()");
      await stored.cache.put(pendingKey(stored.build), new Response("1"));
      ready().then(() => stored.cache.delete(pendingKey(stored.build))).catch(() => {});
      booted("snapshot");
      status("skipped");
      return pyodide;
    } catch (error) {
      console.warn("Nestor: the start-up snapshot was refused, starting normally:", String(error));
      await failed(stored, true).catch(() => {});
    }
  }
  const pyodide = await loadVendored(settings);
  booted("normal");
  makeLater(stored).catch((error) => {
    console.warn("Nestor: no start-up snapshot was made:", error.message ?? error);
    status("failed");
  });
  return pyodide;
}

// The boot's first step, loaded by index.html as an async module at the top of <head>: it runs
// as soon as it arrives, before the page's stylesheets and deferred scripts, and starts Pyodide
// (static/js/interpreter.js, imported with it): at once on a return visit, and on a first visit
// once the page's first content is on screen. static/js/pwa.js takes it from there (PyScript,
// the service worker).
//
// On a first visit (no service worker controls the page yet), the page's own fetches (Pyodide's
// wasm, standard library and lock file, PyScript's config, main.py, our archive) are watched
// as they arrive: each same-origin answer is counted (decoded bytes, for pwa.js's download bar)
// and a copy is kept for the service worker's install (static/js/sw-install.js), so that no
// file crosses the network twice: held in memory until the game is ready, then written into
// the cache HANDOFF (writing them as they arrived competed with Pyodide's start). The wasm and
// the standard library were asked for before the first paint (static/js/wake.js): Pyodide's
// fetch of each gets that answer. The wrapper is in place before Pyodide is imported (it looks
// fetch up at each call); pwa.js takes it away once the game is ready, which writes the
// copies. Our archive is asked for at the wasm's last byte (over a slow link it would only have
// slowed the wasm down); elsewhere it comes from the worker's cache at once.

import { start } from "./interpreter.js";

export const HANDOFF = "nestor-first-visit";
const container = "serviceWorker" in navigator ? navigator.serviceWorker : null;
export const firstVisit = container !== null && !container.controller;

/** The page's own fetch, which the first visit's wrapper leaves alone. */
export const pageFetch = window.fetch.bind(window);
/** Events "bytes" (more arrived: once a frame at most, in the frame) and "file" (detail: the
 * URL of a file complete). */
export const arrived = new EventTarget();
let bytes = 0;
/** Decoded bytes of the first visit's fetches so far. */
export const arrivedBytes = () => bytes;
/** The copies being written into HANDOFF. */
export const keeping = [];

// "bytes" in the next frame, once for every piece that arrived before it: pieces read in a
// burst (a file that arrived while nobody read it) cost a read each, not a report each.
let reporting = false;
function report() {
  if (reporting) return;
  reporting = true;
  requestAnimationFrame(() => {
    reporting = false;
    arrived.dispatchEvent(new Event("bytes"));
  });
}

// Reads `body` to its end at the pace it arrives, counting it; "file" at its end.
async function count(body, url) {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    report();
  }
  arrived.dispatchEvent(new CustomEvent("file", { detail: url }));
}

// Counts what wake.js read of an answer it asked for (`file`, window.nestorEarly.take's), and
// each piece it reads from now on; "file" at its last byte.
function watch(file, url) {
  bytes += file.bytes;
  report();
  file.onBytes = (size) => {
    bytes += size;
    report();
  };
  file.pieces.then(() => arrived.dispatchEvent(new CustomEvent("file", { detail: url })),
    () => {});
}

// A Promise of `file`'s answer made again from the pieces wake.js read of it, for the cache
// (its status and headers, a stream of the pieces as its body); rejected if reading failed.
function rebuilt(file) {
  const { response } = file;
  return file.pieces.then((pieces) => new Response(new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  }), { status: response.status, statusText: response.statusText, headers: response.headers }));
}

function keepFetched() {
  const caching = typeof caches !== "undefined";
  const original = window.fetch;
  // The wasm wake.js compiled as it arrived, for Pyodide's instantiateStreaming of the answer
  // handed to it (Pyodide's fetch of the wasm): instantiated from the module compiled already,
  // where streaming it again would compile it a second time. Anything else, or a compile that
  // failed, goes to the browser's own.
  const compiledFor = new WeakMap(); // the Promise of an answer handed out -> of its module
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  if (typeof instantiateStreaming === "function") {
    WebAssembly.instantiateStreaming = function (source, imports) {
      const module = compiledFor.get(source);
      if (!module) return instantiateStreaming.call(this, source, imports);
      return module.then((compiled) => {
        // Its bytes are not needed: let go of them (the copies of this answer stay whole).
        source.then((response) => response.body.cancel()).catch(() => {});
        return WebAssembly.instantiate(compiled, imports)
          .then((instance) => ({ module: compiled, instance }));
      }, () => instantiateStreaming.call(this, source, imports));
    };
  }
  let release;
  const handoff = new Promise((resolve) => { release = resolve; })
    .then(() => (caching ? caches.open(HANDOFF) : null)).catch(() => null);
  window.fetch = function (input, init) {
    // A file static/js/wake.js asked for already (Pyodide passes URL objects).
    const plain = !init || !init.method || init.method === "GET";
    const early = window.nestorEarly; // wake.js may run after this module
    const href = plain && early && !(input instanceof Request)
      ? new URL(String(input), location.href).href : null;
    const file = href ? early.take(href) : null;
    const answer = file ? file.answer.catch(() => original.call(this, input, init))
      : original.call(this, input, init);
    const handed = answer.then((response) => {
      const url = new URL(response.url || location.href);
      if (response.status !== 200 || !response.body || url.origin !== location.origin ||
          !plain) return response;
      // wake.js's answer: counted and kept as wake.js reads it (a copy made now would copy
      // all that had arrived); any other (one asked for again after wake.js's failed) here.
      const read = file && file.response === response ? file : null;
      if (read) watch(read, url.href);
      else count(response.clone().body, url.href).catch(() => {});
      if (caching) {
        const copy = read ? null : response.clone(); // wake.js's pieces: made at the hand-off
        keeping.push(handoff.then(async (cache) => {
          if (cache) await cache.put(url.href, copy ?? await rebuilt(read));
        }).catch(() => {}));
      }
      return response;
    });
    if (file && early.compiled && href === early.wasm) compiledFor.set(handed, early.compiled);
    return handed;
  };
  return () => {
    window.fetch = original;
    if (typeof instantiateStreaming === "function") {
      WebAssembly.instantiateStreaming = instantiateStreaming;
    }
    release();
  };
}

/** Puts the page's own fetch (and instantiateStreaming) back and writes the copies kept
 * (pwa.js, once the game is ready; `keeping` holds the writes). */
export const stopKeeping = firstVisit ? keepFetched() : () => {};

const WASM = new URL("../vendor/pyodide/pyodide.asm.wasm", import.meta.url).href;
const wasmArrived = firstVisit ? new Promise((resolve) => {
  const onFile = (event) => {
    if (event.detail !== WASM) return;
    arrived.removeEventListener("file", onFile);
    resolve();
  };
  arrived.addEventListener("file", onFile);
}) : null;

performance.mark("nestor:boot-runs"); // the boot benches' phases
// A first visit starts Pyodide (its scripts, and what it fetches besides the two files wake.js
// asked for) once the first contentful paint is on screen (at `/` the board wake.js paints, at
// a link the deal's name): a script that ended before that paint would count towards it in
// Lighthouse's simulation (docs/startup.md). A page that paints nothing (a tab opened behind,
// which draws no frame until shown) starts after PAINT_WAIT_MS all the same, and PyScript's own
// call starts Pyodide in any case (interpreter.js). A return visit, whose files come from the
// worker's cache, starts at once.
const PAINT_WAIT_MS = 1000;

// Resolves once the page's first contentful paint was shown (the paint timing entry), or, where
// the browser has no such entry, once the frame after the first one drawn begins.
function firstPaint() {
  return new Promise((resolve) => {
    const types = typeof PerformanceObserver === "function"
      ? PerformanceObserver.supportedEntryTypes || [] : [];
    if (!types.includes("paint")) {
      requestAnimationFrame(() => requestAnimationFrame(resolve));
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: "paint", buffered: true });
  });
}

const painted = !firstVisit ? Promise.resolve() : Promise.race([
  firstPaint(), new Promise((resolve) => setTimeout(resolve, PAINT_WAIT_MS)),
]);
painted.then(() => start(wasmArrived))
  .catch((error) => console.warn("Nestor: Pyodide did not start early:", error));

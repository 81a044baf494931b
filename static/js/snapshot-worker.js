// Makes the start-up snapshot, off the page's thread (a module Worker that static/js/snapshot.js
// starts once the game is ready and idle; see the comment at the top of that file).
//
// It receives {build: {pyodide, code}} (static/nestor-build.json as the page read it), then:
// loads the same vendored Pyodide with `_makeSnapshot: true`; fetches static/nestor.zip and
// checks that its SHA-256 is build.code (else the snapshot would be of other code) and that the
// Pyodide it loaded has build.pyodide as its BUILD_ID; unpacks the archive into Python's
// working folder, where PyScript unpacks it too; imports what the game imports
// (nestor_web/browser/preload.py); takes the snapshot; stores it in the Cache Storage cache
// "nestor-snapshot" under snapshotKey(build), with its SHA-256 in the header x-nestor-sha256,
// and deletes the entries of other builds. The files come from the service worker's cache.
// Replies {ok: true, bytes, ms} or {ok: false, error}. The instance is dropped afterwards (a
// Pyodide that made a snapshot is not meant to run on).

import { ARCHIVE_URL, CACHE, INDEX_URL, sha256, snapshotKey } from "./snapshot.js";
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

async function make(build) {
  const started = performance.now();
  const archive = fetch(ARCHIVE_URL).then((response) => {
    if (!response.ok) throw new Error(`${ARCHIVE_URL}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  const quiet = () => {};
  const pyodide = await loadPyodide({ indexURL: INDEX_URL, _makeSnapshot: true,
    stdout: quiet, stderr: quiet });
  const ownBuild = pyodide._api?.config?.BUILD_ID;
  if (ownBuild !== build.pyodide) throw new Error(`Pyodide build ${ownBuild}, not ${build.pyodide}`);
  const zip = await archive;
  const code = await sha256(zip);
  if (code !== build.code) throw new Error(`static/nestor.zip is ${code}, not ${build.code}`);
  pyodide.unpackArchive(zip, "zip");
  pyodide.runPython("from nestor_web.browser.preload import preload\npreload()");
  const snapshot = pyodide.makeMemorySnapshot();
  const cache = await caches.open(CACHE);
  const key = snapshotKey(build);
  await cache.put(key, new Response(snapshot, {
    headers: { "content-type": "application/octet-stream", "x-nestor-sha256": await sha256(snapshot) },
  }));
  for (const old of await cache.keys()) { // older snapshots; this build's failure count stays
    if (!old.url.startsWith(key)) await cache.delete(old);
  }
  return { ok: true, bytes: snapshot.byteLength, ms: performance.now() - started };
}

addEventListener("message", (event) => {
  make(event.data.build).then(postMessage, (error) =>
    postMessage({ ok: false, error: String(error?.stack ?? error) }));
}, { once: true });

// Imported by sw.js (scripts/build_sw.mjs): the install's fetches, so that each file of a first
// visit crosses the network once.
//
// A first visit boots before the worker is registered (static/js/pwa.js) and keeps a copy of
// every file it fetched (Pyodide's wasm, the standard library, our archive, ...) in the cache
// "nestor-first-visit". While the worker installs, a file found there is taken from it; any other
// file is asked of the network with the browser's HTTP cache revalidated ("no-cache": a 304
// when the page already has it, such as the modules it imported), where Workbox would bypass the
// HTTP cache ("reload") and download it again. Once the worker is active the copies go.
//
// Workbox (workbox-*.js) fetches with the global fetch, looked up at each call: wrapping
// self.fetch here is the one hook a generated sw.js offers (generateSW takes no precache
// plugins). Anything missing (Cache Storage) leaves Workbox's own fetch in place.
(function () {
  "use strict";
  const HANDOFF = "nestor-first-visit";
  if (typeof self.fetch !== "function" || typeof caches === "undefined") return;
  const fetchOnce = self.fetch.bind(self);
  let installing = false;

  self.addEventListener("install", () => {
    installing = true;
  });
  self.addEventListener("activate", (event) => {
    installing = false;
    event.waitUntil(caches.delete(HANDOFF).catch(() => false));
  });

  async function kept(request) {
    if (!(await caches.has(HANDOFF))) return null;
    const cache = await caches.open(HANDOFF);
    const response = await cache.match(request.url);
    return response && response.status === 200 ? response : null;
  }

  self.fetch = async function (input, init) {
    if (!installing) return fetchOnce(input, init);
    const request = new Request(input, init);
    if (request.method !== "GET") return fetchOnce(request);
    const copy = await kept(request).catch(() => null);
    if (copy) return copy;
    return fetchOnce(request.cache === "reload" ? new Request(request, { cache: "no-cache" })
      : request);
  };
})();

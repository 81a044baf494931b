// Imported by sw.js (scripts/build_sw.mjs): the install's fetches, so that each file of a first
// visit crosses the network once.
//
// A first visit boots before the worker is registered (static/js/pwa.js) and keeps a copy of
// every file it fetched (Pyodide's wasm, the standard library, our archive, ...) in the cache
// "nestor-first-visit". While the worker installs after such a visit, a file found there is
// taken from it, and any other file the page loaded (the page itself, its stylesheets and
// modules) is taken from the browser's HTTP cache as it is ("only-if-cached": no request at
// all); only a file the page never loaded is asked of the network. The page itself is in the
// HTTP cache under the address it was opened at (./ or ./?deal=...), not under index.html.
// Any other install (an update) asks the network, with the HTTP cache revalidated
// ("no-cache": a 304 when it holds the file already), where Workbox would bypass the HTTP
// cache ("reload") and download it again. Once the worker is active the copies go.
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
  let afterFirstVisit = Promise.resolve(false); // the copies of a first visit are there

  self.addEventListener("install", () => {
    installing = true;
    afterFirstVisit = caches.has(HANDOFF).catch(() => false);
  });
  self.addEventListener("activate", (event) => {
    installing = false;
    event.waitUntil(caches.delete(HANDOFF).catch(() => false));
  });

  async function kept(request) {
    if (!(await afterFirstVisit)) return null;
    const cache = await caches.open(HANDOFF);
    const response = await cache.match(request.url);
    return response && response.status === 200 ? response : null;
  }

  // The addresses the page may have been opened at for `url` (index.html): its folder, and
  // the open windows of this site showing that folder or index.html, their queries included.
  async function pageAddresses(url) {
    const folder = new URL("./", url).href;
    const shown = await self.clients.matchAll({ type: "window", includeUncontrolled: true })
      .catch(() => []);
    const same = shown.map((client) => new URL(client.url))
      .filter((at) => at.origin + at.pathname === folder || at.origin + at.pathname === url)
      .map((at) => { at.hash = ""; return at.href; });
    return [...new Set([url, folder, ...same])];
  }

  // The browser's HTTP cache's copy of `request`, without a request to the network, or null.
  async function cached(request) {
    if (!(await afterFirstVisit)) return null;
    const url = new URL(request.url);
    url.hash = "";
    const addresses = url.pathname.endsWith("/index.html") && !url.search
      ? await pageAddresses(url.href) : [url.href];
    for (const address of addresses) {
      try {
        const response = await fetchOnce(new Request(address,
          { cache: "only-if-cached", mode: "same-origin", credentials: "same-origin" }));
        if (response.status === 200) return response;
      } catch {
        // not in the HTTP cache: try the next address, then the network
      }
    }
    return null;
  }

  self.fetch = async function (input, init) {
    if (!installing) return fetchOnce(input, init);
    const request = new Request(input, init);
    if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
      return fetchOnce(request);
    }
    const copy = (await kept(request).catch(() => null)) ?? (await cached(request).catch(() => null));
    if (copy) return copy;
    return fetchOnce(request.cache === "reload" ? new Request(request, { cache: "no-cache" })
      : request);
  };
})();

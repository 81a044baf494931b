// Imported by sw.js (scripts/build_sw.mjs): reports how much of the game the service worker has
// downloaded while it precaches it, so a first visit shows a real progress bar (static/js/pwa.js).
//
// sw.js's first line, which the build writes, sets self.NESTOR_PRECACHE = { bytes, files }: the
// size of everything sw.js precaches, on disk.
// While the worker installs, every response it fetches passes through a stream that counts its
// bytes (as decoded, so they add up to the sizes on disk), and every window of the origin, the
// ones it does not control yet included, is sent { type: "nestor:precache", loaded, total }
// about ten times a second and at the end of each file.
//
// Workbox (workbox-*.js) fetches with the global fetch, looked up at each call: wrapping
// self.fetch here is the one hook a generated sw.js offers (generateSW takes no precache
// plugins). Only a 200 response with a body fetched during install is counted; the Response
// handed on has the same status and headers. Anything missing (streams, the size) turns it off.
(function () {
  "use strict";
  const total = self.NESTOR_PRECACHE && Number(self.NESTOR_PRECACHE.bytes);
  if (!total || typeof TransformStream !== "function" || typeof self.fetch !== "function") return;
  const INTERVAL_MS = 100;
  const fetchOnce = self.fetch.bind(self);
  let installing = false;
  let loaded = 0;
  let last = 0;

  function report(final) {
    const now = Date.now();
    if (!final && now - last < INTERVAL_MS) return;
    last = now;
    const message = { type: "nestor:precache", loaded: Math.min(loaded, total), total };
    self.clients.matchAll({ type: "window", includeUncontrolled: true })
      .then((clients) => clients.forEach((client) => client.postMessage(message)))
      .catch(() => {});
  }

  self.addEventListener("install", (event) => {
    installing = true;
    loaded = 0;
    report(false);
  });
  self.addEventListener("activate", () => {
    installing = false;
  });

  self.fetch = async function (input, init) {
    const response = await fetchOnce(input, init);
    if (!installing || response.status !== 200 || !response.body) return response;
    const counter = new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        report(false);
        controller.enqueue(chunk);
      },
      flush() {
        report(true); // each file's end at once: the last one's is the 100 %
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
})();

// Offline play and updates. index.html loads this module instead of PyScript itself:
//
// 1. It registers sw.js, the Workbox service worker (scripts/build_sw.mjs) that precaches the
//    whole game, Pyodide's 9.6 MB wasm included.
// 2. It starts PyScript (and Pyodide, static/js/interpreter.js) once the page loads through that
//    worker. On a first visit it waits for the worker to finish precaching, so each file
//    crosses the network once (a page that booted at the same time would download the wasm a
//    second time: it does not fit the browser's memory cache), and shows that download's
//    progress: bytes of the total, as the worker reports them (static/js/sw-progress.js), in a
//    bar and in the loading line, in the page's language (static/js/texts.js). Later visits
//    come from the cache and need no network.
// 3. It looks for a new version, never in the way of the game: on a return visit the game starts
//    at once and the check runs beside the boot (a slow or hanging network delays nothing). A new
//    version found then, or while a game runs (checked when the page comes back into view, and
//    every half hour), is offered by a small notice (reload now, or later); one left waiting is
//    offered again on the next load. The game, saved games and settings live in localStorage,
//    which an update does not touch, and the game saves after every move.
//
// Without service workers (an old browser, a private window that forbids them, plain http on a
// LAN address) it only starts PyScript: the game plays online as before.

const PYSCRIPT = new URL("../vendor/pyscript/core.js", import.meta.url).href;
const SW_URL = new URL("../../sw.js", import.meta.url).href;
const RECHECK_MS = 30 * 60 * 1000; // while playing, look for a new version this often at most

// Each step of the start-up leaves a performance mark ("nestor:..."), which the boot bench
// (bench/boot.py) puts in its phase table: where a slow start spends its time.
const mark = (name) => performance.mark(`nestor:${name}`);
mark("pwa-runs");

const container = "serviceWorker" in navigator ? navigator.serviceWorker : null;
let switching = false;

// Pyodide starts now, beside PyScript's own start, where its files are at hand: on a return
// visit (the worker controls the page, its cache holds them) and where there is no service
// worker (nothing to wait for). A first visit under a worker waits for the precache, as
// startGame does. PyScript's "interpreter" is that module (static/js/interpreter.js says how).
const INTERPRETER = new URL("./interpreter.js", import.meta.url).href;
if (!container || container.controller) {
  import(INTERPRETER).then((module) => module.start())
    .catch((error) => console.warn("Nestor: Pyodide did not start early:", error));
}

// PyScript's default plugins the game does not use: the same list as the "plugins" entry of the
// config (scripts/pyscript_config.py, PLUGINS_OFF; tests/test_site.py checks they agree).
// PyScript 0.7.31 imports the plugins once per script type it knows, py and mpy, each with its
// own config: the game's config covers py, and without an <mpy-config> the mpy pass imports
// every plugin all the same. This inline one (no request; core.css hides it) turns them off there.
const PLUGINS_OFF = ["codemirror", "deprecations-manager", "donkey", "py-editor", "py-game",
  "py-terminal"];

// PyScript's core opens an IndexedDB store of its own while it boots (its packages cache) and
// stops with an InvalidStateError where the browser refuses IndexedDB ("block site data", a
// missing or failing indexedDB): the page would never play. There (static/js/durable.js found
// IndexedDB unusable) PyScript gets an IndexedDB in memory, the fake-indexeddb package
// (static/vendor/fake-indexeddb/, loaded only then); the game's own saves know IndexedDB is
// refused, keep what the browser allows, and say so.
const MEMORY_IDB = new URL("../vendor/fake-indexeddb/fakeIndexedDB.js", import.meta.url).href;

async function indexedDBForPyScript() {
  const durable = window.nestorDurable;
  const usable = await (durable && durable.usable ? durable.usable : Promise.resolve(false))
    .catch(() => false);
  if (usable) return;
  const memory = (await import(MEMORY_IDB)).default;
  Object.defineProperty(window, "indexedDB", { value: memory, configurable: true });
}

// Found out beside the service worker's registration, not after it.
const pyscriptIndexedDB = indexedDBForPyScript()
  .catch((error) => console.warn("Nestor: no IndexedDB, and none in memory:", error));

async function startGame() {
  await pyscriptIndexedDB;
  mark("idb-checked");
  const config = document.createElement("mpy-config");
  config.textContent = JSON.stringify({ plugins: PLUGINS_OFF.map((name) => `!${name}`) });
  document.body.append(config);
  mark("pyscript-import");
  const module = await import(PYSCRIPT);
  mark("pyscript-imported");
  return module;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Resolves once `worker` controls this page (true), or has failed (false).
function controlling(worker) {
  return new Promise((resolve) => {
    container.addEventListener("controllerchange", () => resolve(true), { once: true });
    worker.addEventListener("statechange", () => {
      if (worker.state === "redundant") resolve(false);
    });
  });
}

// Resolves with `worker` once it is installed and waiting, or null if it failed.
function installed(worker) {
  return new Promise((resolve) => {
    const check = () => {
      if (worker.state === "installed") resolve(worker);
      else if (worker.state !== "installing") resolve(null);
    };
    worker.addEventListener("statechange", check);
    check();
  });
}

// Let the waiting `worker` take over, then reload under it. Resolves only if that failed.
async function takeOver(worker) {
  switching = true;
  const switched = new Promise((resolve) =>
    container.addEventListener("controllerchange", resolve, { once: true }));
  worker.postMessage({ type: "SKIP_WAITING" });
  if (await Promise.race([switched.then(() => true), sleep(10000).then(() => false)])) {
    location.reload();
    await sleep(60000); // the reload replaces this page
  }
  switching = false;
}

// The notice's words, which Python puts in #pwa-texts from the message catalogs in the page's
// language (see nestor_web/view/texts.py); null until it has.
function text() {
  const word = (id) => document.querySelector(`#pwa-texts [data-text="${id}"]`)?.textContent;
  const t = { ready: word("update-ready"), reload: word("update-reload"), later: word("update-later") };
  return t.ready && t.reload && t.later ? t : null;
}

// The first visit's download, as the installing worker reports it: a bar at the top of the page
// (.download-bar, role progressbar, aria-valuenow 0-100) and the loading line in words.
// Returns the function that takes both away once the worker has finished: it waits for the
// worker's last report (its messages may come after the worker took the page), at most
// FINAL_REPORT_MS, so the bar shows the whole download before it goes.
const FINAL_REPORT_MS = 500;
function showDownload() {
  const texts = window.NESTOR_TEXTS || {};
  const language = document.documentElement.lang || "en";
  const words = texts[language] || texts.en || {};
  const line = document.querySelector('#loading [data-text="loading"]');
  if (!words.download || !line) return async () => {};
  const bar = document.createElement("div");
  bar.className = "download-bar";
  bar.setAttribute("role", "progressbar");
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", "100");
  bar.setAttribute("aria-valuenow", "0");
  bar.setAttribute("aria-label", words["download-label"] || words.download);
  const fill = document.createElement("div");
  bar.append(fill);
  document.body.prepend(bar);
  let complete = false;
  let whenComplete = () => {};
  const mb = (bytes) => (bytes / 1e6).toLocaleString(language,
    { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const onMessage = (event) => {
    const data = event.data;
    if (!data || data.type !== "nestor:precache" || !(data.total > 0)) return;
    const share = Math.max(0, Math.min(1, data.loaded / data.total));
    const text = words.download.replace("{loaded}", mb(share * data.total))
      .replace("{total}", mb(data.total));
    fill.style.transform = `scaleX(${share})`;
    bar.setAttribute("aria-valuenow", String(Math.round(share * 100)));
    bar.setAttribute("aria-valuetext", text);
    line.textContent = text;
    if (data.loaded >= data.total) {
      complete = true;
      whenComplete();
    }
  };
  container.addEventListener("message", onMessage);
  return async (finished = true) => {
    if (finished && !complete) {
      await new Promise((resolve) => {
        whenComplete = resolve;
        setTimeout(resolve, FINAL_REPORT_MS);
      });
    }
    container.removeEventListener("message", onMessage);
    bar.remove();
    if (words.loading) line.textContent = words.loading;
  };
}

function offer(worker) {
  if (switching || !container.controller) return;
  const t = text();
  if (!t) { // Python has not filled the words yet: offer once it has
    document.addEventListener("nestor:texts", () => offer(worker), { once: true });
    return;
  }
  document.getElementById("pwa-update")?.remove();
  const bar = document.createElement("div");
  bar.id = "pwa-update";
  bar.className = "pwa-update";
  bar.setAttribute("role", "status");
  const message = document.createElement("span");
  message.textContent = t.ready;
  const reload = document.createElement("button");
  reload.type = "button";
  reload.dataset.pwa = "reload";
  reload.textContent = t.reload;
  const later = document.createElement("button");
  later.type = "button";
  later.dataset.pwa = "later";
  later.textContent = t.later;
  reload.addEventListener("click", () => {
    bar.remove();
    takeOver(worker);
  });
  later.addEventListener("click", () => bar.remove());
  bar.append(message, reload, later);
  document.body.append(bar);
}

// While the game runs: offer each new version once it is installed.
function watch(registration) {
  const track = (worker) => installed(worker).then((w) => w && offer(w));
  registration.addEventListener("updatefound", () => {
    if (registration.installing) track(registration.installing);
  });
  if (registration.installing) track(registration.installing);
  else if (registration.waiting) offer(registration.waiting);

  let last = 0;
  const check = () => {
    if (document.visibilityState !== "visible" || !navigator.onLine) return;
    if (Date.now() - last < 60000) return;
    last = Date.now();
    // Offline, or the server is down: play the version we have.
    if (!registration.installing && !registration.waiting) registration.update().catch(() => {});
  };
  check(); // the start-up check: beside the boot, never awaited
  document.addEventListener("visibilitychange", check);
  setInterval(check, RECHECK_MS);
}

// Everything before PyScript starts: registers the worker, and resolves when the game may start
// (at once on a return visit) with what to do once it has (watch for new versions).
async function prepare() {
  if (!container) return null;
  if (container.controller) {
    // A return visit, under the worker: the game starts at once. register() is not waited
    // for: it queues behind the browser's own update check of sw.js (made on navigation),
    // which a network that never answers holds for as long as it likes.
    const registering = container.register(SW_URL).catch((error) => {
      console.warn("Nestor: the service worker could not be registered again:", error.message);
      return null;
    });
    return () => registering.then((registration) => registration && watch(registration));
  }
  // Listening before the worker is registered: its first reports may come at once.
  const done = showDownload();
  let registration;
  let downloaded = false;
  try {
    registration = await container.register(SW_URL);
  } catch (error) {
    await done(false); // nothing was downloaded: no report to wait for
    console.warn("Nestor: no offline play here (the service worker was refused):", error.message);
    return null;
  }
  try {
    if (!registration) return null; // a stand-in that registers nothing (test browsers do that)
    // A first visit: let the worker fill its cache and take the page, then boot from it, so
    // each file crosses the network once. (After a reload that bypassed the worker, such as
    // Shift+Reload, there is nothing to wait for.)
    const worker = registration.installing || registration.waiting;
    if (worker && !registration.active) {
      await controlling(worker);
      downloaded = true;
    }
  } finally {
    await done(downloaded);
  }
  // A version found on an earlier visit and left waiting is offered by the notice (watch), not
  // taken here: Chromium does not activate it while this page is still loading under the old
  // worker (SKIP_WAITING then waited out takeOver's 10 s), so the boot would only be delayed.
  return () => watch(registration);
}

// The page must play even if something above breaks. The update check starts once the game has.
prepare()
  .catch((error) => console.warn("Nestor: offline support failed:", error))
  .then((then) => {
    mark("sw-prepared");
    const started = startGame();
    if (then) then();
    return started;
  });

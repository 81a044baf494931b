// Offline play and updates. index.html loads this module instead of PyScript itself:
//
// 1. Pyodide has started already (static/js/boot.js); PyScript starts at once, on every visit:
//    on a first visit the runtime is fetched and compiled as it arrives, as a bare Pyodide page
//    does.
// 2. It registers sw.js, the Workbox service worker (scripts/build_sw.mjs) that precaches the
//    whole game, Pyodide's 9.6 MB wasm included. On a first visit only once the game is ready,
//    so its download does not compete with the boot's; and so that each file crosses the
//    network once, the page keeps a copy of every file it fetched while booting (the wasm, the
//    standard library, our archive) in a cache the worker's install takes them from
//    (static/js/sw-install.js), and the rest of the install revalidates what the browser's HTTP
//    cache holds. Meanwhile a bar shows the boot's download, bytes of the total (sw.js's
//    NESTOR_BOOT), in the page's language (static/js/texts.js). Later visits come from the
//    worker's cache and need no network.
// 3. It looks for a new version, never in the way of the game: on a return visit the game starts
//    at once and the check runs beside the boot (a slow or hanging network delays nothing). A new
//    version found then, or while a game runs (checked when the page comes back into view, and
//    every half hour), is offered by a small notice (reload now, or later); one left waiting is
//    offered again on the next load. The game, saved games and settings live in localStorage,
//    which an update does not touch, and the game saves after every move.
//
// Without service workers (an old browser, a private window that forbids them, plain http on a
// LAN address) it only starts PyScript: the game plays online as before.

import {
  HANDOFF, arrived, arrivedBytes, firstVisit, keeping, pageFetch, stopKeeping,
} from "./boot.js";

const PYSCRIPT = new URL("../vendor/pyscript/core.js", import.meta.url).href;
const SW_URL = new URL("../../sw.js", import.meta.url).href;
const RECHECK_MS = 30 * 60 * 1000; // while playing, look for a new version this often at most

// Each step of the start-up leaves a performance mark ("nestor:..."), which the boot bench
// (bench/boot.py) puts in its phase table: where a slow start spends its time.
const mark = (name) => performance.mark(`nestor:${name}`);
mark("pwa-runs");

const container = "serviceWorker" in navigator ? navigator.serviceWorker : null;
let switching = false;

// Resolves once Python marks the page ready for input (body[data-ready]).
function gameReady() {
  return new Promise((resolve) => {
    const check = () => document.body && document.body.hasAttribute("data-ready");
    if (check()) { resolve(); return; }
    const observer = new MutationObserver(() => {
      if (check()) { observer.disconnect(); resolve(); }
    });
    observer.observe(document.documentElement, { subtree: true, attributes: true,
      attributeFilter: ["data-ready"] });
  });
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

// The first visit's download, as the page's own fetches arrive: a bar at the top of the page
// (.download-bar, role progressbar, aria-valuenow 0-100) and the loading line in words. The
// total is what boot.js fetches (sw.js's first line, NESTOR_BOOT: decoded bytes, as counted).
// Both go a moment after the last byte (the loading line's words again while Python starts),
// or once the game is ready; returns the function that takes them away.
const FINAL_MS = 300;
async function bootBytes() {
  const response = await pageFetch(SW_URL, { cache: "no-cache" });
  const match = /NESTOR_BOOT=\{bytes:(\d+)/.exec(await response.text());
  return match ? Number(match[1]) : 0;
}

function showDownload() {
  const texts = window.NESTOR_TEXTS || {};
  const language = document.documentElement.lang || "en";
  const words = texts[language] || texts.en || {};
  const line = document.querySelector('#loading [data-text="loading"]');
  if (!words.download || !line) return () => {};
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
  // Megabytes with one decimal and the language's decimal sign (from the catalogs), not with
  // Intl.NumberFormat: the page's first one sets up the browser's number formatting on the main
  // thread while Pyodide downloads (docs/startup.md).
  const mb = (bytes) => (bytes / 1e6).toFixed(1).replace(".", words["decimal-sign"] || ".");
  let total = 0;
  let shown = -1;
  let gone = false;
  const finish = () => {
    if (gone) return;
    gone = true;
    arrived.removeEventListener("bytes", update);
    bar.remove();
    if (words.loading) line.textContent = words.loading;
  };
  // The line's words are written once; then only the count of bytes in changes, in a box as
  // wide as the total (.download-count) whose change lays out that box alone, where a change
  // of the whole line would lay the page out again at each percent (docs/startup.md).
  const count = document.createElement("span");
  count.className = "download-count";
  const around = words.download.split("{loaded}"); // the words before and after the count
  const update = () => {
    if (!(total > 0) || gone) return;
    const share = Math.max(0, Math.min(1, arrivedBytes() / total));
    if (share >= 1) setTimeout(finish, FINAL_MS); // all in: Python starts
    const percent = Math.round(share * 100);
    if (percent === shown) return; // (99.5% already reads 100%)
    shown = percent;
    const loaded = mb(share * total);
    const whole = mb(total);
    const text = words.download.replace("{loaded}", loaded).replace("{total}", whole);
    fill.style.transform = `scaleX(${share})`;
    bar.setAttribute("aria-valuenow", String(percent));
    bar.setAttribute("aria-valuetext", text);
    if (around.length !== 2) { // a translation without the count in it
      line.textContent = text;
      return;
    }
    if (!count.isConnected) { // its box as wide as the total's characters, each a digit's
      count.style.width = `${whole.length}ch`;
      line.replaceChildren(around[0].replace("{total}", whole), count,
        around[1].replace("{total}", whole));
    }
    count.textContent = loaded;
  };
  bootBytes().then((bytes) => { total = bytes; update(); }).catch(() => {});
  arrived.addEventListener("bytes", update);
  return finish;
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

// The service worker's registration: on a return visit at once (the update check runs beside
// the boot), on a first visit once the game is ready (its install then finds what the boot
// fetched in HANDOFF). Resolves with what to do once the game has started (watch for new
// versions), or null.
async function prepare() {
  if (!container) return null;
  if (!firstVisit) {
    // A return visit, under the worker: the game starts at once. register() is not waited
    // for: it queues behind the browser's own update check of sw.js (made on navigation),
    // which a network that never answers holds for as long as it likes.
    const registering = container.register(SW_URL).catch((error) => {
      console.warn("Nestor: the service worker could not be registered again:", error.message);
      return null;
    });
    return () => registering.then((registration) => registration && watch(registration));
  }
  const done = showDownload();
  return async () => {
    await gameReady();
    stopKeeping();
    done();
    await Promise.all(keeping); // every copy written before the install looks for it
    let registration = null;
    try {
      registration = await container.register(SW_URL);
    } catch (error) {
      console.warn("Nestor: no offline play here (the service worker was refused):", error.message);
    }
    // Nothing to install (a stand-in that registers nothing, or a worker already active after a
    // reload that bypassed it): the copies are not needed.
    if (!registration || !(registration.installing || registration.waiting)) {
      caches.delete(HANDOFF).catch(() => {});
    }
    if (registration) watch(registration);
  };
}

// The page must play even if something above breaks. The update check starts once the game has.
prepare()
  .catch((error) => console.warn("Nestor: offline support failed:", error))
  .then((then) => {
    mark("sw-prepared");
    const started = startGame();
    if (then) then().catch((error) => console.warn("Nestor: offline support failed:", error));
    return started;
  });

// The durable copy of the game's saves, in IndexedDB (DurableCopy in nestor_web/storage/keys.py; why:
// Chromium writes localStorage to disk lazily, and a killed browser loses its last seconds).
//
// index.html loads this before Python, so the copy is read while Pyodide boots:
//
//   window.nestorDurable.snapshot   a Promise of { seq, entries } (entries: key -> text, seq the
//                                   number of the save that wrote them, 0 if none), or of null
//                                   when this browser has no usable IndexedDB (then the game
//                                   keeps localStorage only)
//   window.nestorDurable.write(seq, entries)
//                                   stores entries and seq in one transaction with durability
//                                   "strict" (flushed to disk before it completes); a Promise
//                                   of null once complete, or of the error's name (nothing of
//                                   it stored)
//   window.nestorDurable.writing    how many writes have begun and not completed (a hook for
//                                   tests: 0 once every save so far is in the copy)
//   window.nestorDurable.usable     a Promise of whether this browser's IndexedDB opened (false
//                                   where site data is blocked, IndexedDB is missing, or its
//                                   open() throws or fails): static/js/pwa.js then gives
//                                   PyScript, which opens a store of its own at boot, one in
//                                   memory
//
//   window.nestorDurable.alone      a Promise of true when this page is the only page of the
//                                   game open, false when another is, null when the browser
//                                   has no Web Locks: each page holds the shared lock
//                                   "nestor.open" while it is open (the browser releases it
//                                   when the page closes or crashes), then counts its holders
//
// A page left for another keeps no lock: the browser may keep it in its back/forward cache,
// and Back shows it again at once, without starting Python again. Firefox keeps no page that
// holds a lock, and Chromium throws a kept page away as soon as another page counts the
// holders (a game opened in another tab meanwhile), so the page lets go of the lock when it
// is left ("beforeunload", which Firefox needs, and "pagehide") and takes it again when it
// is shown again ("pageshow" from that cache), or at the next tap or key if it was never
// left (a navigation that was stopped). A kept page counts as closed, as it would have been.
//
// Database "nestor", object store "kv": one record per key (the texts the storage manager
// writes, nestor.game, nestor.stats, ...), and "nestor.seq". Only Python's storage manager
// decides what goes in; nothing here knows the formats.
//
// The database is opened at whatever version it has (1 when this creates it). One without
// the store (an upgrade interrupted, or another script of the origin made a "nestor" of its
// own, at any version) is opened again one version up, which creates the store: nothing was
// in it, so nothing is said. A "kv" that another script made with a key path or a key
// generator is left as it is, and the store "nestor-kv" is used instead. A page of the game
// closes its connection when another asks for a newer version, so its upgrade is not
// blocked; its next write opens the database again (made anew if it was deleted).
(function () {
  "use strict";
  const NAME = "nestor";
  const STORES = ["kv", "nestor-kv"]; // the first that is ours or missing; see ours()
  const SEQ = "nestor.seq";
  let STORE = STORES[0];

  // A store of ours keeps its keys out of line (no key path, no key generator): one made
  // otherwise by another script under the same name cannot take our records, so the next
  // name is used instead, and nothing of that script's is touched.
  function ours(db, name) {
    try {
      const transaction = db.transaction(name, "readonly");
      const store = transaction.objectStore(name);
      const mine = store.keyPath === null && !store.autoIncrement;
      transaction.abort(); // over at once: a close() after it is not held up by it
      return mine;
    } catch (error) {
      return false;
    }
  }

  function openAt(version, name) {
    return new Promise((resolve, reject) => {
      const request = version ? indexedDB.open(NAME, version) : indexedDB.open(NAME);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(name)) db.createObjectStore(name);
      };
      request.onsuccess = () => {
        const db = request.result;
        db.onversionchange = () => db.close();
        resolve(db);
      };
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error("blocked"));
    });
  }

  // The database with a store of ours in it (STORE names it), or null.
  function open() {
    return openAt(0, STORES[0]).then((db) => {
      const name = STORES.find((n) => !db.objectStoreNames.contains(n) || ours(db, n));
      if (!name) {
        db.close();
        return null;
      }
      STORE = name;
      if (db.objectStoreNames.contains(name)) return db;
      const version = db.version + 1;
      db.close();
      return openAt(version, name).then((again) => {
        if (again.objectStoreNames.contains(name) && ours(again, name)) return again;
        again.close();
        return null;
      });
    });
  }

  let opened;
  try {
    opened = typeof indexedDB === "undefined" ? Promise.resolve(null) : open().catch(() => null);
  } catch (error) { // a browser that forbids storage may throw on the very access
    opened = Promise.resolve(null);
  }
  // A start-up step, for the boot bench's phase table (bench/boot.py reads the marks).
  opened.then(() => performance.mark("nestor:idb-open"));

  function read(db) {
    return new Promise((resolve) => {
      const entries = {};
      let transaction;
      try {
        transaction = db.transaction(STORE, "readonly");
      } catch (error) {
        resolve(null);
        return;
      }
      const cursor = transaction.objectStore(STORE).openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) return;
        if (typeof at.key === "string" && typeof at.value === "string") entries[at.key] = at.value;
        at.continue();
      };
      transaction.oncomplete = () => {
        const seq = entries[SEQ];
        delete entries[SEQ];
        resolve({ seq: /^[0-9]{1,20}$/.test(seq || "") ? Number(seq) : 0, entries: entries });
      };
      transaction.onabort = () => resolve(null);
    });
  }

  let writing = 0; // writes begun and not complete: window.nestorDurable.writing

  // One write of entries and seq in the open database; the error's name, or null once done.
  function put(db, seq, entries) {
    return new Promise((resolve) => {
      let transaction;
      try {
        transaction = db.transaction(STORE, "readwrite", { durability: "strict" });
        const store = transaction.objectStore(STORE);
        for (const key of Object.keys(entries)) store.put(String(entries[key]), key);
        store.put(String(seq), SEQ);
        // Committed now, not once the page has heard that the puts succeeded: a page left
        // for another is frozen at once (kept in the back/forward cache), and a transaction
        // left open there would hold the store until it is shown again (the browser throws
        // the page away as soon as another tab's save waits for it).
        if (typeof transaction.commit === "function") transaction.commit();
      } catch (error) {
        resolve(error && error.name ? error.name : "Error");
        return;
      }
      transaction.oncomplete = () => resolve(null);
      transaction.onabort = () => resolve(
        transaction.error && transaction.error.name ? transaction.error.name : "AbortError");
    });
  }

  function write(seq, entries) {
    writing += 1;
    const done = (result) => { writing -= 1; return result; };
    return opened.then((db) => {
      if (!db) return "NotSupportedError";
      return put(db, seq, entries).then((error) => {
        // The connection was closed under the page (another page upgraded or deleted the
        // database): open it again, which makes it anew if it is gone, and write once more.
        if (error !== "InvalidStateError") return error;
        opened = open().catch(() => null);
        return opened.then((again) => (again ? put(again, seq, entries) : error));
      });
    }).then(done, (error) => done(error && error.name ? error.name : "Error"));
  }

  const OPEN = "nestor.open";
  let letGo = null; // while the lock is asked for or held: lets it go

  // Asks for the shared lock, unless it is asked for or held already; `granted` runs once it
  // is held, `refused` if the browser refuses it. It is held until letGo() (one asked for
  // and let go before it came is let go as soon as it comes).
  function hold(locks, granted, refused) {
    if (letGo) return;
    let release;
    const until = new Promise((resolve) => { release = resolve; });
    const mine = () => {
      if (letGo === mine) letGo = null;
      release();
    };
    letGo = mine;
    locks.request(OPEN, { mode: "shared" }, () => {
      if (granted) granted();
      return until;
    }).catch(() => {
      if (letGo === mine) letGo = null;
      if (refused) refused();
    });
  }

  function presence() {
    const locks = navigator.locks;
    if (!locks || typeof locks.request !== "function") return Promise.resolve(null);
    const leave = () => { if (letGo) letGo(); };
    const again = () => hold(locks);
    window.addEventListener("beforeunload", leave);
    window.addEventListener("pagehide", leave);
    window.addEventListener("pageshow", (event) => { if (event.persisted) again(); });
    window.addEventListener("pointerdown", again, { capture: true, passive: true });
    window.addEventListener("keydown", again, { capture: true, passive: true });
    return new Promise((resolve) => {
      hold(locks, () => {
        locks.query().then((state) => {
          const holders = new Set((state.held || [])
            .filter((lock) => lock.name === OPEN).map((lock) => lock.clientId));
          resolve(holders.size <= 1);
        }, () => resolve(null));
      }, () => resolve(null));
    });
  }

  let alone;
  try {
    alone = presence();
  } catch (error) { // storage forbidden, an insecure context: not known
    alone = Promise.resolve(null);
  }

  window.nestorDurable = {
    snapshot: opened.then((db) => (db ? read(db) : null)),
    write: write,
    alone: alone,
    usable: opened.then((db) => db !== null),
    get writing() { return writing; },
  };
})();

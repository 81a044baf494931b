// The durable copy of the game's saves, in IndexedDB (see nestor_web/storage/durable.py for why:
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
//                                   "nestor.open" as long as it lives (the browser releases it
//                                   when the page closes or crashes), then counts its holders
//
// Database "nestor", object store "kv": one record per key (the texts the storage manager
// writes, nestor.game, nestor.stats, ...), and "nestor.seq". Only Python's storage manager
// decides what goes in; nothing here knows the formats.
(function () {
  "use strict";
  const NAME = "nestor";
  const STORE = "kv";
  const SEQ = "nestor.seq";

  function open() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error("blocked"));
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

  function write(seq, entries) {
    writing += 1;
    const done = (result) => { writing -= 1; return result; };
    return opened.then((db) => {
      if (!db) return "NotSupportedError";
      return new Promise((resolve) => {
        let transaction;
        try {
          transaction = db.transaction(STORE, "readwrite", { durability: "strict" });
          const store = transaction.objectStore(STORE);
          for (const key of Object.keys(entries)) store.put(String(entries[key]), key);
          store.put(String(seq), SEQ);
        } catch (error) {
          resolve(error && error.name ? error.name : "Error");
          return;
        }
        transaction.oncomplete = () => resolve(null);
        transaction.onabort = () => resolve(
          transaction.error && transaction.error.name ? transaction.error.name : "AbortError");
      });
    }).then(done, (error) => done(error && error.name ? error.name : "Error"));
  }

  function presence() {
    const locks = navigator.locks;
    if (!locks || typeof locks.request !== "function") return Promise.resolve(null);
    return new Promise((resolve) => {
      locks.request("nestor.open", { mode: "shared" }, () => {
        locks.query().then((state) => {
          const holders = new Set((state.held || [])
            .filter((lock) => lock.name === "nestor.open").map((lock) => lock.clientId));
          resolve(holders.size <= 1);
        }, () => resolve(null));
        return new Promise(() => {}); // held as long as the page lives
      }).catch(() => resolve(null));
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

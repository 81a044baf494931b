// The first paint of a return visit, before Python starts. index.html loads it deferred and
// render-blocking: it runs once the page is parsed, before the browser first paints it.
//
// 1. The stored settings' theme, colours, motion, time, layout and card indices apply at
//    once (no flash of the light theme, no board that moves when Python takes over),
//    and the page's texts switch to the stored language (from static/js/texts.js, which the
//    build writes from the message catalogs), so nothing shows in the wrong language.
// 2. The board the game last drew (localStorage "nestor.board", written by the storage
//    manager on every save) is painted if it belongs to the saved game ("nestor.game", the
//    same text), the page's language and the deal the address asks for; the body is marked
//    data-waking (and aria-busy) while it waits for Python ("guide" where a guide under way
//    will show its sheet again). Anything stale, unreadable or of
//    another version is ignored silently: the page then starts as on a first visit.
//    The board is stored as data (nestor_web/view/markup.py: [tag, {attribute: value},
//    child, ...] or a text) and built here with DOM calls, each element and attribute checked
//    against the lists the board is drawn with (TAGS, ATTRIBUTE, the same as markup.py's):
//    stored text is never parsed as markup, and one node outside the lists paints nothing.
//    A first visit (nothing stored, no deal, replay or puzzle in the address) paints the
//    guide's deal instead, as the build drew it (static/js/first-visit.js, written by
//    scripts/build_shell.py with the page's view code): the same deal for everyone, its board
//    with the guide's rings, its counters, and the guide's sheet (#tutorial) on its first step.
//    Where the address names a deal and no board is painted, the header names it.
// 3. Taps on the waking board are recorded, only which card or control was tapped (no rules
//    here), in window.nestorWake.taps (and on a first visit the guide's Skip); Python applies
//    them in order once it runs (nestor_web/browser/root.py), if the deal is still the one
//    painted.
// 4. Before any of that, a first visit's big files are asked for. This is the last script the
//    first paint waits for: every file that paint needs (the stylesheets, the render-blocking
//    scripts) is in, and on a first visit (no service worker controls the page) Pyodide's
//    standard library and wasm are asked for now, while this script paints. Asked for
//    earlier, the wasm's bulk would queue the first paint's files behind it on a slow link;
//    asked for when Pyodide starts (once the first paint is on screen), the link would stand
//    idle until then. Each answer is read through a copy as it arrives (a body nobody reads
//    stops downloading once the browser's buffer is full), its bytes counted and kept, and the
//    answer itself kept whole for Pyodide: static/js/boot.js hands it to Pyodide's own fetch of
//    that file (window.nestorEarly.take), so that each file crosses the network once, and takes
//    the count for the download bar and the bytes kept for the service worker's install, where
//    copying a whole answer that had arrived would hold the page for tens of milliseconds.
//
// Everything here may fail (storage forbidden, data damaged): the page must play anyway.
(() => {
  const container = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  if (container === null || container.controller || typeof window.fetch !== "function") return;

  const base = new URL("../vendor/pyodide/", document.currentScript.src);
  const WASM = new URL("pyodide.asm.wasm", base).href;
  const FILES = [new URL("python_stdlib.zip", base).href, WASM];
  const asked = new Map(); // URL (href) -> what was asked for (see take), until taken

  // Reads a copy of `response`'s body to its end as it arrives into `file`: its pieces, their
  // bytes, and each piece's size to `file.onBytes` once boot.js has set it.
  function read(response, file) {
    const reader = response.clone().body.getReader();
    const pieces = [];
    const next = () => reader.read().then(({ done, value }) => {
      if (done) return pieces;
      pieces.push(value);
      file.bytes += value.byteLength;
      if (file.onBytes) file.onBytes(value.byteLength);
      return next();
    });
    return next();
  }

  // The wasm is compiled as it arrives (a copy of it: compiling needs none of Pyodide's
  // JavaScript, instantiating does), as a bare Pyodide page compiles its own while it streams.
  let compiled = null;
  for (const href of FILES) {
    const answer = fetch(href);
    const file = { answer, response: null, bytes: 0, onBytes: null, pieces: null };
    file.pieces = answer.then((response) => {
      file.response = response;
      return response.body ? read(response, file) : null;
    });
    file.pieces.catch(() => {});
    asked.set(href, file);
    if (href === WASM && typeof WebAssembly.compileStreaming === "function") {
      compiled = WebAssembly.compileStreaming(answer.then((response) => response.clone()));
      compiled.catch(() => {});
    }
  }
  performance.mark("nestor:early-fetch"); // the boot benches' phases

  window.nestorEarly = {
    /** What was asked for early for `href`, once (later calls get null): {answer: a Promise of
     * the Response, response: that Response once it came, bytes: of its body read so far,
     * onBytes: null, or called with each piece's size as it is read, pieces: a Promise of the
     * body's pieces (Uint8Arrays) at its last byte, null without a body}. */
    take(href) {
      const file = asked.get(href);
      asked.delete(href);
      return file ?? null;
    },
    /** The wasm's href, and a Promise of its module compiled (null where the browser cannot
     * compile as it streams). */
    wasm: WASM,
    compiled,
  };
})();

(function () {
  "use strict";
  const root = document.documentElement;
  const body = document.body;

  function read(key) {
    try {
      const text = localStorage.getItem(key);
      return text === null ? null : { text: text, value: JSON.parse(text) };
    } catch (error) {
      return null;
    }
  }

  function preferredLanguage(texts) {
    const tags = navigator.languages && navigator.languages.length
      ? navigator.languages : [navigator.language || "en"];
    for (const tag of tags) {
      const code = String(tag).split(/[-_]/)[0].toLowerCase();
      if (texts[code]) return code;
    }
    return "en";
  }

  // BEGIN root attributes: written by scripts/build_shell.py from nestor_web/view/markup.py.
  const THEMES = ["system", "light", "dark"];
  const SPEEDS = ["slow", "normal", "fast"];
  const FLAGS = {
    "four_colours": "data-four-colours",
    "highlight_partners": "data-highlight-partners",
    "show_timer": "data-show-timer",
    "left_handed": "data-left-handed",
    "large_index": "data-large-index",
  };
  const DEFAULTS = {
    "theme": "system",
    "four_colours": false,
    "highlight_partners": true,
    "show_timer": true,
    "left_handed": false,
    "large_index": false,
  };
  // END root attributes

  // The root's attributes the CSS follows, as the actuator sets them from the same settings
  // (nestor_web/view/markup.py's root_attributes), a default for each one not stored (on a first
  // visit, all): Python's first draw then finds them as it would write them, where each change
  // of the root's attributes has the browser work out the whole page's style again. Animations
  // not chosen follow the system (off under reduced motion, else normal), as it changes until
  // Python is ready.
  function applySettings(settings) {
    root.setAttribute("data-theme",
      THEMES.includes(settings.theme) ? settings.theme : DEFAULTS.theme);
    for (const [name, attribute] of Object.entries(FLAGS)) {
      const value = typeof settings[name] === "boolean" ? settings[name] : DEFAULTS[name];
      root.setAttribute(attribute, String(value));
    }
    const showSpeed = (speed) => {
      root.setAttribute("data-animations", String(speed !== "off"));
      root.setAttribute("data-animation-speed", speed);
    };
    if (typeof settings.animations === "boolean") {
      const speed = settings.animation_speed;
      showSpeed(!settings.animations ? "off" : SPEEDS.includes(speed) ? speed : "normal");
      return;
    }
    const reduced = matchMedia("(prefers-reduced-motion: reduce)");
    const follow = () => showSpeed(reduced.matches ? "off" : "normal");
    follow();
    reduced.addEventListener("change", () => { if (!body.hasAttribute("data-ready")) follow(); });
  }

  function applyLanguage(words, code) {
    root.lang = code;
    for (const element of document.querySelectorAll("[data-text]")) {
      const text = words[element.getAttribute("data-text")];
      if (typeof text === "string") element.textContent = text;
    }
    for (const element of document.querySelectorAll("[data-label]")) {
      const text = words[element.getAttribute("data-label")];
      if (typeof text === "string") element.setAttribute("aria-label", text);
    }
    const inner = { "rules-text": "#rules", "keys-text": "#keys", "variant": "#variants",
                    "opt-language": "#languages" }; // as scripts/build_shell.py writes them
    for (const [id, key] of Object.entries(inner)) {
      const element = document.getElementById(id);
      if (element && typeof words[key] === "string") element.innerHTML = words[key];
    }
  }

  // The deal the address asks for ("" when it names none), as "variant/deal".
  function askedFor() {
    const params = new URLSearchParams(location.search);
    if (!params.has("variant") && !params.has("deal")) return "";
    return (params.get("variant") || "standard").trim().toLowerCase() + "/" +
      (params.get("deal") || "").trim();
  }

  // The elements and attributes of the board (nestor_web/view/markup.py ELEMENTS and
  // ATTRIBUTE): no script, link, form, frame or meta; no event handler, URL or style.
  const SVG = "http://www.w3.org/2000/svg";
  const TAGS = { button: null, div: null, section: null, span: null,
                 svg: SVG, path: SVG, circle: SVG };
  const ATTRIBUTE = /^(?:class|role|type|disabled|focusable|viewBox|fill|d|cx|cy|r|aria-[a-z]+|data-[a-z]+(?:-[a-z]+)*)$/;
  const MAX_NODES = 20000;
  const MAX_DEPTH = 16;

  // The DOM nodes of stored nodes, or null if any node is not one the board is drawn with.
  function build(nodes) {
    let count = 0;
    function node(item, depth) {
      if (++count > MAX_NODES || depth > MAX_DEPTH) return null;
      if (typeof item === "string") return document.createTextNode(item);
      if (!Array.isArray(item) || item.length < 2) return null;
      const [tag, attributes, ...children] = item;
      if (typeof tag !== "string" || !Object.prototype.hasOwnProperty.call(TAGS, tag)) return null;
      if (!attributes || typeof attributes !== "object" || Array.isArray(attributes)) return null;
      const element = TAGS[tag] ? document.createElementNS(TAGS[tag], tag)
        : document.createElement(tag);
      for (const [name, value] of Object.entries(attributes)) {
        if (!ATTRIBUTE.test(name) || typeof value !== "string") return null;
        element.setAttribute(name, value);
      }
      for (const child of children) {
        const built = node(child, depth + 1);
        if (built === null) return null;
        element.append(built);
      }
      return element;
    }
    if (!Array.isArray(nodes)) return null;
    const fragment = document.createDocumentFragment();
    for (const item of nodes) {
      const built = node(item, 0);
      if (built === null) return null;
      fragment.append(built);
    }
    return fragment;
  }

  const COUNTERS = ["variant-title", "deal-number", "deal-grade", "cards-left", "moves-made",
                    "pairs", "timer"];

  // Paint a board given as data (nodes, counters by element id) of a deal of ``variant``;
  // false, and nothing painted, if a node is not one the board is drawn with.
  function paint(nodes, counters, variant) {
    const built = build(nodes);
    if (built === null) return false;
    document.getElementById("board").replaceChildren(built);
    for (const id of COUNTERS) {
      const element = document.getElementById(id);
      if (element && typeof counters[id] === "string") element.textContent = counters[id];
    }
    const discard = document.getElementById("discard");
    const left = Number(counters["cards-left"]);
    if (discard && Number.isInteger(left)) discard.setAttribute("data-count", String(52 - left));
    const picker = document.getElementById("variant");
    if (picker) picker.value = variant;
    body.setAttribute("data-variant", variant);
    return true;
  }

  // The status line while the game wakes: it says the game is getting ready (the stored
  // board's own status, "Tap two available cards…", would promise what cannot happen yet).
  function paintBoard(board, game, language, words) {
    const b = board.value;
    const g = game.value;
    if (!b || b.version !== 2 || b.game !== game.text || b.language !== language) return false;
    if (!g || typeof g.variant !== "string") return false;
    // A replay link (it has moves=) shows the replay, not the game: paint nothing.
    if (new URLSearchParams(location.search).has("moves")) return false;
    const asked = askedFor();
    if (asked && asked !== g.variant + "/" + g.deal) return false;
    if (!paint(b.board, b.counters || {}, g.variant)) return false;
    const status = document.getElementById("status");
    if (status && typeof words.waking === "string") status.textContent = words.waking;
    return true;
  }

  // A first visit, as the storage manager tells one (nestor_web/storage/manager.py): none of
  // the settings, the game, the statistics and the guide's state stored; and the address asks
  // for no deal, daily deal, replay or puzzle (the guide starts by itself only then).
  const KEPT = ["nestor.settings", "nestor.game", "nestor.stats", "nestor.tutorial"];
  const ASKING = ["variant", "deal", "daily", "moves", "puzzle"];
  function firstVisit() {
    if (KEPT.some((key) => localStorage.getItem(key) !== null)) return false;
    const params = new URLSearchParams(location.search);
    return !ASKING.some((name) => params.has(name));
  }

  // The first visit's board in the page's language (static/js/first-visit.js: JSON text per
  // language), and the guide's first step on its sheet. The status line keeps its loading
  // words: a first visit's download shows there (static/js/pwa.js).
  function paintFirstVisit(first, language) {
    if (typeof first[language] !== "string" || typeof first.deal !== "string") return false;
    const data = JSON.parse(first[language]);
    if (!data || typeof data !== "object" || !data.guide) return false;
    if (!paint(data.board, data.counters || {}, first.deal.split("/")[0])) return false;
    showGuide(data.guide);
    return true;
  }

  // The guide's sheet as nestor_web/browser/tutorial.py draws it: its words for the way Python
  // will take the player to point (a fine pointer clicks, else taps), at the screen's foot or
  // top, whichever covers none of the rings and the fewest available cards (the foot on a tie).
  function showGuide(guide) {
    const section = document.getElementById("tutorial");
    const pointer = matchMedia("(any-pointer: fine)").matches ? "mouse" : "touch";
    const text = (guide.text || {})[pointer];
    if (!section || typeof guide.title !== "string" || typeof text !== "string") return;
    section.setAttribute("data-tutorial", String(guide.step));
    document.getElementById("tutorial-title").textContent = guide.title;
    document.getElementById("tutorial-text").textContent = text;
    for (const [action, words] of [["tutorial-next", guide.next], ["tutorial-skip", guide.skip]]) {
      const button = section.querySelector(`[data-action="${action}"]`);
      if (!button) continue;
      button.textContent = typeof words === "string" ? words : "";
      button.hidden = !button.textContent;
    }
    section.hidden = false;
    placeGuide(section);
    // Turned or resized while Python starts: placed again for the screen it now has (Python's
    // first draw keeps the place of a sheet it finds unchanged: nestor_web/browser/tutorial.py).
    addEventListener("resize", () => {
      if (document.body.hasAttribute("data-waking") && !section.hidden) placeGuide(section);
    });
  }

  // A ring counts as hidden under the sheet or outside the window. Where both places hide one
  // (large type on a small screen), the sheet lies at the foot, the page gets room under its
  // content (data-room, kept while the sheet shows: taking it away would move the page) and
  // is scrolled to show the rings above the sheet.
  function placeGuide(section) {
    const rings = [...document.querySelectorAll("#board [data-tutorial-target]")];
    const cards = [...document.querySelectorAll("#board [data-available]")];
    const hidden = (sheet, box) => overlaps(sheet, box) || box.top < 0 || box.bottom > innerHeight;
    const count = (sheet, elements, test) => elements.filter((e) => test(sheet,
      e.getBoundingClientRect())).length;
    let best = null;
    let chosen = "bottom";
    for (const at of ["bottom", "top"]) {
      section.setAttribute("data-at", at);
      const sheet = section.getBoundingClientRect();
      const covered = [count(sheet, rings, hidden), count(sheet, cards, overlaps)];
      if (best === null || covered[0] < best[0] || (covered[0] === best[0] && covered[1] < best[1])) {
        best = covered;
        chosen = at;
      }
    }
    const at = best[0] > 0 ? "bottom" : chosen;
    section.setAttribute("data-at", at);
    // At the top, room above the page's content down to the sheet's foot (--sheet-room: whole
    // pixels over the page's padding), the page scrolled by what that moved it: the header's
    // controls can be scrolled clear of the sheet, and nothing moves on the screen.
    // Taken away while the page was scrolled into it, the page moved: placed again as it lies.
    const pad = parseFloat(getComputedStyle(document.body).getPropertyValue("--pad")) || 0;
    const reach = section.getBoundingClientRect().bottom + MARGIN_PX;
    const room = `${Math.max(0, Math.ceil(reach - pad))}px`;
    const header = document.querySelector("header");
    const before = header.getBoundingClientRect().top;
    if (at === "top") document.body.style.setProperty("--sheet-room", room);
    else document.body.style.removeProperty("--sheet-room");
    const moved = header.getBoundingClientRect().top - before;
    if (moved) scrollBy(0, moved);
    if (at !== "top" && Math.abs(header.getBoundingClientRect().top - before) >= 1) {
      placeGuide(section);
      return;
    }
    if (best[0] > 0) showAbove(section, rings);
  }

  function showAbove(section, rings) {
    section.setAttribute("data-room", "");
    const sheet = section.getBoundingClientRect();
    const boxes = rings.map((ring) => ring.getBoundingClientRect());
    const top = Math.min(...boxes.map((box) => box.top)) - MARGIN_PX;
    const bottom = Math.max(...boxes.map((box) => box.bottom)) + MARGIN_PX;
    const by = bottom > sheet.top ? Math.min(bottom - sheet.top, top) : Math.min(top, 0);
    if (by !== 0) scrollBy(0, by);
  }

  const MARGIN_PX = 12; // kept between the sheet and what it points at (as tutorial.py's)
  function overlaps(a, b) {
    return a.left + MARGIN_PX < b.right && b.left + MARGIN_PX < a.right
      && a.top + MARGIN_PX < b.bottom && b.top + MARGIN_PX < a.bottom;
  }

  // No board painted, and the address names a deal Python will open: its name in the header
  // (the variant's title from the picker's options, in the page's language), no cards.
  function nameAsked() {
    const params = new URLSearchParams(location.search);
    if (params.has("moves") || params.has("puzzle") || params.has("daily")) return;
    const [variant, deal] = askedFor().split("/");
    if (!/^[0-9]{1,10}$/.test(deal || "") || Number(deal) >= 2 ** 32) return;
    const picker = document.getElementById("variant");
    const option = picker && [...picker.options].find((o) => o.value === variant);
    if (!option) return;
    document.getElementById("variant-title").textContent = option.textContent;
    document.getElementById("deal-number").textContent = String(Number(deal));
  }

  function recordTaps() {
    const wake = { taps: [], deal: null };
    window.nestorWake = wake;
    document.getElementById("board").addEventListener("click", (event) => {
      if (!body.hasAttribute("data-waking")) return;
      const target = event.target.closest("[data-card], [data-action]");
      if (!target) return;
      const card = target.getAttribute("data-card");
      if (card) {
        wake.taps.push({ card: card });
        target.setAttribute("data-queued", "");
      } else {
        wake.taps.push({ action: target.getAttribute("data-action") });
      }
    });
    // The guide's Skip (its sheet is shown only on a first visit's waking board): it goes at
    // once; Python ends the guide when it applies the tap.
    const sheet = document.getElementById("tutorial");
    if (sheet) sheet.addEventListener("click", (event) => {
      if (!body.hasAttribute("data-waking") || sheet.hidden) return;
      if (!event.target.closest('[data-action="tutorial-skip"]')) return;
      wake.taps.push({ action: "tutorial-skip" });
      sheet.hidden = true;
    });
    return wake;
  }

  try {
    const texts = window.NESTOR_TEXTS || {};
    const stored = (read("nestor.settings") || {}).value;
    const settings = stored && typeof stored === "object" ? stored : {};
    applySettings(settings);
    const language = texts[settings.language] ? settings.language : preferredLanguage(texts);
    if (language !== "en" && texts[language]) applyLanguage(texts[language], language);
    const board = read("nestor.board");
    const game = read("nestor.game");
    const first = window.NESTOR_FIRST_VISIT || {};
    let painted = null; // the deal painted, "variant/deal"
    let waking = ""; // body[data-waking]: "guide" while a guide under way waits for Python
    if (board && game && paintBoard(board, game, language, texts[language] || {})) {
      painted = game.value.variant + "/" + game.value.deal;
      // A guide under way (nestor.tutorial "started" or "started:STEP") on the deal painted:
      // Python shows its sheet again, and the board keeps the sheet's room until then
      // (static/css/nestor.css), where a tall phone's board would change its rows under it.
      if (/^started(?::|$)/.test(localStorage.getItem("nestor.tutorial") || "")) waking = "guide";
      const bar = document.createElement("div");
      bar.className = "waking-bar";
      bar.setAttribute("role", "progressbar");
      bar.setAttribute("aria-label", (texts[language] || {}).waking || "");
      body.prepend(bar);
    } else if (firstVisit() && paintFirstVisit(first, language)) {
      painted = first.deal; // no waking bar: the loading line, and the download's bar, say it
    } else {
      nameAsked();
    }
    if (painted !== null) {
      recordTaps().deal = painted;
      body.setAttribute("data-waking", waking);
      body.setAttribute("aria-busy", "true");
    }
  } catch (error) {
    // Damaged data or forbidden storage: start as on a first visit.
  }
})();

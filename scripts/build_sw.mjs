#!/usr/bin/env node
// Build the service worker with Workbox (workbox-build, pinned in package-lock.json).
//
//   node scripts/build_sw.mjs [SITE_DIR]      SITE_DIR: the repo root (default) or dist/
//
// Writes SITE_DIR/sw.js and Workbox's runtime SITE_DIR/workbox-<hash>.js (older runtimes are
// removed). sw.js precaches every file the game needs to boot and play offline, each with a
// revision computed from its content, so any change to any of them makes a new sw.js, which
// browsers pick up as a new version (static/js/pwa.js then switches to it):
//
//   - index.html, main.py and pyscript.toml, our archive (static/nestor.zip.gz, which
//     static/js/interpreter.js writes for Python), and any file pyscript.toml ships;
//   - the runtime in static/vendor/: Pyodide's five files, the 9.6 MB wasm included, and of
//     PyScript's dist/ only what the page imports (pyscriptChunks below): core.js, core.css,
//     the core chunk, the TOML parser chunk that reads pyscript.toml (this script reads the
//     config with that very parser), and the plugins the config leaves on (error). Its other
//     chunks are imported only for what the game does not use: the plugins turned off
//     (scripts/pyscript_config.py), the code editor's CodeMirror (and its index-* chunk), the
//     terminal's xterm.js, a TOML parser of py-editor and py-game, the zip reader (for a
//     `files` entry unpacked, "dir/*"), the packages graph (for `packages`), storage.js (an
//     entry of its own, for pages that import it). A dynamic import the core chunk gains in
//     an update fails the build until it is sorted here;
//   - the page's CSS, JS, its icon (icon.svg) and manifest.
//
// Files a game never needs are not precached, so that a first visit does not download them:
// the PNG icons (for installing the game, read by the browser from the manifest) and the odds
// table (docs/odds.md). The worker keeps each one the first time something asks for it
// (stale-while-revalidate: from its cache at once, refreshed from the network behind it), in
// the cache ON_DEMAND.
//
// A first visit boots before it registers the worker (static/js/pwa.js); the worker's install
// takes what that boot fetched from the page's copies, and revalidates the rest against the
// browser's HTTP cache (static/js/sw-install.js, an imported script, kept by the browser with
// sw.js itself, not precached). sw.js's first line (self.NESTOR_BOOT) is the size of what a boot
// fetches before PyScript runs (Pyodide's wasm, standard library and lock file, our archive):
// the total of the first visit's download bar. sw.js is written whole, under a
// temporary name renamed into place: a browser's update check compares sw.js and each imported
// script byte for byte, so a figure kept in a file of its own, written a moment before sw.js,
// made a worker of the old manifest and the new figure when a check fell between the two writes.
//
// Navigations such as ./?variant=standard&deal=7 are answered with the precached index.html.
// The worker waits when a new version is installed until the page lets it take over: it
// listens for {type: "SKIP_WAITING"} (static/js/pwa.js sends it).

import {
  existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import workboxBuild from "workbox-build";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const site = resolve(process.argv[2] ?? ROOT);

// What a boot fetches before PyScript runs (static/js/boot.js): the download bar's total.
const BOOT_FETCHED = [
  "static/nestor.zip.gz",
  "static/vendor/pyodide/pyodide.asm.wasm",
  "static/vendor/pyodide/python_stdlib.zip",
  "static/vendor/pyodide/pyodide-lock.json",
];

// Files a static host serves that the game needs, relative to the site's root.
const FIXED = [
  "index.html",
  "main.py",
  "pyscript.toml",
  "static/nestor.zip.gz",
  "static/vendor/pyodide/*",
  "static/vendor/pyscript/core.css",
  "static/css/*.css",
  "static/js/*.js",
  "static/icons/*.svg",
  "static/manifest.webmanifest",
];
// Kept at run time, when first asked for (paths under the site; a RegExp of their ends).
const ON_DEMAND = "nestor-on-demand";
const ON_DEMAND_PATHS = /\/(?:static\/icons\/[\w-]+\.png|docs\/odds\.md)$/;
// Imported by sw.js (importScripts), not precached: the install's fetches.
const IMPORTED = ["static/js/sw-install.js"];
// generateSW writes here first; the boot's size is put in front and the whole renamed to sw.js.
const NEXT = "sw.next.js";
const UNUSED = [...IMPORTED];
const PYSCRIPT = "static/vendor/pyscript";

function pyscriptSource(name) {
  return readFileSync(join(site, PYSCRIPT, name), "utf8");
}

// The chunk core.js re-exports (core-<hash>.js), which holds PyScript's runtime.
function coreChunk() {
  const chunk = /from"\.\/(core-[A-Za-z0-9_-]+\.js)"/.exec(pyscriptSource("core.js"))?.[1];
  if (!chunk) throw new Error("PyScript's core.js imports no core-*.js chunk");
  return chunk;
}

// The chunk of PyScript's runtime that parses a TOML config (the one core-*.js imports), and its
// parse function: the config is read here exactly as the browser will read it.
async function tomlParser() {
  const chunk = /import\("\.\/(toml-[A-Za-z0-9_-]+\.js)"\)/.exec(pyscriptSource(coreChunk()))?.[1];
  if (!chunk) throw new Error("no TOML parser chunk found in PyScript's core-*.js");
  // A data: URL: node would read a .js file outside a "type": "module" package as CommonJS.
  const source = pyscriptSource(chunk);
  const { parse } = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);
  return { chunk, parse };
}

// PyScript's chunks the page imports, paths under the site, read from the core chunk and the
// config: the core chunk, the TOML parser, the plugins not turned off ("!name" in the config's
// plugins; PyScript's table of plugins maps each name to its chunk), the zip reader only if
// a `files` entry is unpacked ("dir/*"), and every chunk these import in turn. Throws on a
// dynamic import of the core chunk that none of these explains, so an update of PyScript
// that imports a new chunk is sorted out here before it can be left out of the precache.
function pyscriptChunks(config, toml) {
  const core = coreChunk();
  const text = pyscriptSource(core);
  const off = new Set((config.plugins ?? []).filter((p) => p.startsWith("!")).map((p) => p.slice(1)));
  const plugins = new Map(
    [...text.matchAll(/"?([a-z-]+)"?:\(\)=>import\("\.\/([A-Za-z0-9_-]+\.js)"\)/g)]
      .map(([, name, chunk]) => [chunk, name]),
  );
  if (!plugins.size) throw new Error(`no plugin table found in PyScript's ${core}`);
  const unpacked = Object.values(config.files ?? {}).some((dest) => dest.endsWith("/*"));
  const wanted = [core];
  for (const [, chunk] of text.matchAll(/import\("\.\/([A-Za-z0-9_-]+\.js)"\)/g)) {
    let needed;
    if (chunk === toml) needed = true; // pyscript.toml
    else if (plugins.has(chunk)) needed = !off.has(plugins.get(chunk));
    else if (chunk.startsWith("codemirror")) needed = !off.has("codemirror"); // the editor's
    else if (chunk.startsWith("zip-")) needed = unpacked;
    else if (chunk.startsWith("pyodide_graph-")) needed = "packages" in config;
    else throw new Error(`PyScript's ${core} imports ${chunk}: teach scripts/build_sw.mjs whether the page needs it`);
    if (needed && !wanted.includes(chunk)) wanted.push(chunk);
  }
  // What those import in turn (static imports; a dynamic one would need the same sorting).
  for (let i = 1; i < wanted.length; i++) {
    const source = pyscriptSource(wanted[i]);
    const dynamic = /import\("\.\/([^"]+)"\)/.exec(source);
    if (dynamic) {
      throw new Error(`PyScript's ${wanted[i]} imports ${dynamic[1]}: teach scripts/build_sw.mjs whether the page needs it`);
    }
    for (const [, chunk] of source.matchAll(/from"\.\/([A-Za-z0-9_-]+\.js)"/g)) {
      if (!wanted.includes(chunk)) wanted.push(chunk);
    }
  }
  return ["core.js", ...wanted].map((chunk) => `${PYSCRIPT}/${chunk}`);
}

function pyscriptFiles(config) {
  for (const key of ["packages", "js_modules", "fetch"]) {
    if (key in config) {
      throw new Error(`pyscript.toml has "${key}": teach scripts/build_sw.mjs to precache it`);
    }
  }
  return Object.keys(config.files ?? {}).map((src) => {
    if (/^[a-z]+:|^\/|\{|\.\.|\/$/i.test(src)) {
      throw new Error(`pyscript.toml: files source ${src} is not a plain relative path`);
    }
    return src.replace(/^\.\//, "");
  });
}

async function main() {
  const toml = await tomlParser();
  const config = toml.parse(readFileSync(join(site, "pyscript.toml"), "utf8"));
  const files = pyscriptFiles(config);
  const chunks = pyscriptChunks(config, toml.chunk);
  const missing = [...FIXED.filter((p) => !p.includes("*")), ...chunks, ...files].filter(
    (p) => !existsSync(join(site, p)),
  );
  if (missing.length) {
    throw new Error(`missing in ${site}: ${missing.join(", ")} (run the setup step: make vendor)`);
  }

  const before = new Set(readdirSync(site).filter((n) => /^workbox-[0-9a-f]+\.js$/.test(n)));
  const globs = {
    globDirectory: site,
    globPatterns: [...FIXED, ...chunks, ...files],
    globIgnores: UNUSED,
    // The wasm is 9.6 MB; Workbox skips files over 2 MiB unless told otherwise.
    maximumFileSizeToCacheInBytes: 32 * 1024 * 1024,
    // Names that carry a hash of their content need no revision of their own.
    dontCacheBustURLsMatching: /-[A-Za-z0-9_-]{8}\.js$/,
  };
  const { count, size, warnings, filePaths } = await workboxBuild.generateSW({
    ...globs,
    swDest: join(site, NEXT),
    mode: "production",
    sourcemap: false,
    inlineWorkboxRuntime: false,
    importScripts: IMPORTED,
    // ./?variant=standard&deal=7 and the like are index.html: the query is the page's own.
    ignoreURLParametersMatching: [/.*/],
    directoryIndex: "index.html",
    cleanupOutdatedCaches: true,
    clientsClaim: true, // the first visit's page comes under the worker at once
    skipWaiting: false, // a new version waits for the page's word (SKIP_WAITING)
    navigationPreload: false,
    runtimeCaching: [{
      urlPattern: ON_DEMAND_PATHS,
      handler: "StaleWhileRevalidate",
      options: { cacheName: ON_DEMAND },
    }],
  });
  const hard = warnings.filter((w) => !/^The following files are not precached/.test(w));
  for (const w of warnings) console.warn(`build_sw: ${w}`);
  if (hard.length) {
    rmSync(join(site, NEXT));
    throw new Error("Workbox warned; see above");
  }
  const generated = readFileSync(join(site, NEXT), "utf8");
  const boot = BOOT_FETCHED.reduce((sum, p) => sum + statSync(join(site, p)).size, 0);
  writeFileSync(
    join(site, NEXT),
    "self.NESTOR_BOOT={bytes:" + boot + "};" +
      " // written by scripts/build_sw.mjs: what a boot fetches (static/js/pwa.js's download bar)\n" +
      generated,
  );
  renameSync(join(site, NEXT), join(site, "sw.js"));

  const runtime = filePaths.map((p) => relative(site, p)).filter((n) => n.startsWith("workbox-"));
  for (const old of before) {
    if (!runtime.includes(old)) rmSync(join(site, old));
  }
  // Every boot file must be in the manifest: Workbox drops over-size files with a warning only.
  const wasm = join(site, "static/vendor/pyodide/pyodide.asm.wasm");
  const sw = readFileSync(join(site, "sw.js"), "utf8");
  if (!sw.includes("static/vendor/pyodide/pyodide.asm.wasm")) {
    throw new Error(`${wasm} (${statSync(wasm).size} bytes) is not precached`);
  }
  for (const chunk of chunks) { // offline, PyScript would fail to import it
    if (!sw.includes(`"${chunk}"`)) throw new Error(`${chunk} (imported by PyScript) is not precached`);
  }
  if (!chunks.includes(`${PYSCRIPT}/${toml.chunk}`)) { // offline, PyScript could not read its config
    throw new Error(`${toml.chunk} (PyScript's TOML parser) is not precached`);
  }
  const where = relative(process.cwd(), site) || ".";
  console.log(
    `build_sw: ${where}/sw.js precaches ${count} files, ${(size / 1e6).toFixed(1)} MB ` +
      `(runtime ${runtime.join(", ")})`,
  );
}

main().catch((error) => {
  console.error(`build_sw: ${error.message}`);
  process.exit(1);
});

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
//   - index.html, main.py and pyscript.toml, our archive (static/nestor.zip, which
//     static/js/interpreter.js writes for Python), and any file pyscript.toml ships;
//   - the runtime in static/vendor/: Pyodide's five files, the 9.6 MB wasm included, and
//     PyScript's chunks except the code editor's and terminal's (CodeMirror, xterm.js), which
//     load only for <py-editor> and terminal scripts, and the game has neither, and the plugins
//     the config turns off (scripts/pyscript_config.py: deprecations-manager, donkey, py-editor,
//     py-game, py-terminal, and the terminal's own mpy-/py- chunks), which the page never imports;
//     PyScript's TOML parser chunk, which reads pyscript.toml, is precached like the rest (this
//     script reads the config with that very parser, and checks it is in the manifest);
//   - the page's CSS, JS, icons and manifest, and the odds table the rules link to.
//
// A first visit boots before it registers the worker (static/js/pwa.js); the worker's install
// takes what that boot fetched from the page's copies, and revalidates the rest against the
// browser's HTTP cache (static/js/sw-install.js, an imported script, kept by the browser with
// sw.js itself, not precached). sw.js's first line (self.NESTOR_BOOT) is the size of what a boot
// fetches (Pyodide's wasm, standard library and lock file, the config, main.py and the files it
// ships): the total of the first visit's download bar. sw.js is written whole, under a
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

// What a boot fetches with fetch() (beside the config's files): the download bar's total.
const BOOT_FETCHED = [
  "main.py",
  "static/nestor.zip",
  "pyscript.toml",
  "static/vendor/pyodide/pyodide.asm.wasm",
  "static/vendor/pyodide/python_stdlib.zip",
  "static/vendor/pyodide/pyodide-lock.json",
];

// Files a static host serves that the game needs, relative to the site's root.
const FIXED = [
  "index.html",
  "main.py",
  "pyscript.toml",
  "static/nestor.zip",
  "static/vendor/pyodide/*",
  "static/vendor/pyscript/*.{js,css}",
  "static/css/*.css",
  "static/js/*.js",
  "static/icons/*.{svg,png}",
  "static/manifest.webmanifest",
  "docs/odds.md",
];
// Imported by sw.js (importScripts), not precached: the install's fetches.
const IMPORTED = ["static/js/sw-install.js"];
// generateSW writes here first; the boot's size is put in front and the whole renamed to sw.js.
const NEXT = "sw.next.js";
const UNUSED = [
  ...IMPORTED,
  "static/vendor/pyscript/codemirror*",
  "static/vendor/pyscript/xterm*",
  "static/vendor/pyscript/{deprecations-manager,donkey,mpy,py}-*.js",
];

// The chunk of PyScript's runtime that parses a TOML config (the one core-*.js imports), and its
// parse function: the config is read here exactly as the browser will read it.
async function tomlParser() {
  const vendor = join(site, "static/vendor/pyscript");
  const core = readdirSync(vendor).find((n) => /^core-[A-Za-z0-9_-]+\.js$/.test(n));
  const chunk = core && /import\("\.\/(toml-[A-Za-z0-9_-]+\.js)"\)/.exec(
    readFileSync(join(vendor, core), "utf8"))?.[1];
  if (!chunk) throw new Error("no TOML parser chunk found in PyScript's core-*.js");
  // A data: URL: node would read a .js file outside a "type": "module" package as CommonJS.
  const source = readFileSync(join(vendor, chunk), "utf8");
  const { parse } = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);
  return { chunk: `static/vendor/pyscript/${chunk}`, parse };
}

function pyscriptFiles(parse) {
  const config = parse(readFileSync(join(site, "pyscript.toml"), "utf8"));
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
  const files = pyscriptFiles(toml.parse);
  const missing = [...FIXED.filter((p) => !p.includes("*")), ...files].filter(
    (p) => !existsSync(join(site, p)),
  );
  if (missing.length) {
    throw new Error(`missing in ${site}: ${missing.join(", ")} (run the setup step: make vendor)`);
  }

  const before = new Set(readdirSync(site).filter((n) => /^workbox-[0-9a-f]+\.js$/.test(n)));
  const globs = {
    globDirectory: site,
    globPatterns: [...FIXED, ...files],
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
  });
  const hard = warnings.filter((w) => !/^The following files are not precached/.test(w));
  for (const w of warnings) console.warn(`build_sw: ${w}`);
  if (hard.length) {
    rmSync(join(site, NEXT));
    throw new Error("Workbox warned; see above");
  }
  const generated = readFileSync(join(site, NEXT), "utf8");
  const boot = [...BOOT_FETCHED, ...files].reduce((sum, p) => sum + statSync(join(site, p)).size, 0);
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
  if (!sw.includes(`"${toml.chunk}"`)) { // offline, PyScript could not read its config
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

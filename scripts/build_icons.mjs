#!/usr/bin/env node
// Render the app icons from the one drawing, static/icons/icon.svg, with resvg (a pinned npm
// package that ships its own binary): the sizes the web app manifest and index.html name.
//
//   node scripts/build_icons.mjs [--check]
//
// Writes static/icons/icon-192.png, icon-512.png, icon-maskable-512.png and
// apple-touch-icon.png (180 px). The maskable one and the Apple one fill the whole square with
// the baize colour and keep the cards inside the central 80 % "safe zone" that launchers may
// cut to a circle. Files whose bytes would not change are left alone. --check only reports
// (exit 1) when a PNG is missing or stale.

import { readFileSync, writeFileSync, existsSync, renameSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const ICONS = join(ROOT, "static", "icons");
const BAIZE = "#14532d"; // the drawing's background, and the manifest's theme colour

const source = readFileSync(join(ICONS, "icon.svg"), "utf8");
const match = source.match(/^\s*<svg\b[^>]*viewBox="0 0 64 64"[^>]*>([\s\S]*)<\/svg>\s*$/);
if (!match) throw new Error("icon.svg: expected one <svg viewBox=\"0 0 64 64\"> element");
const inner = match[1];

// Full-bleed square, the drawing shrunk to 72 % around the centre.
const fullBleed = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="${BAIZE}"/>
  <g transform="translate(32 32) scale(0.72) translate(-32 -32)">${inner}</g>
</svg>`;

const OUTPUTS = [
  { name: "icon-192.png", svg: source, size: 192 },
  { name: "icon-512.png", svg: source, size: 512 },
  { name: "icon-maskable-512.png", svg: fullBleed, size: 512 },
  { name: "apple-touch-icon.png", svg: fullBleed, size: 180 },
];

const check = process.argv.includes("--check");
let stale = 0;
for (const { name, svg, size } of OUTPUTS) {
  const png = new Resvg(svg, { fitTo: { mode: "width", value: size }, font: { loadSystemFonts: false } })
    .render()
    .asPng();
  const path = join(ICONS, name);
  const same = existsSync(path) && Buffer.compare(readFileSync(path), png) === 0;
  if (same) continue;
  stale += 1;
  if (check) {
    console.log(`stale: ${relative(ROOT, path)}`);
  } else {
    writeFileSync(`${path}.tmp`, png);
    renameSync(`${path}.tmp`, path);
    console.log(`icons: wrote ${relative(ROOT, path)} (${size}x${size})`);
  }
}
process.exit(check && stale ? 1 : 0);

// One Lighthouse run (make lighthouse, driven by bench/lighthouse.py): a Chromium started by
// chrome-launcher (Lighthouse's own launcher) at $CHROME_PATH with the flags given, a fresh
// profile each time, and Lighthouse's Node API on that browser.
//
// Usage: node bench/lighthouse.mjs URL mobile|desktop REPORT.json FLAGS_JSON [SETTINGS_JSON]
//   FLAGS_JSON: a JSON array of Chromium flags (an array, so a flag with spaces stays whole);
//   SETTINGS_JSON: a JSON object of Lighthouse settings over the preset's (pauseAfterLoadMs...).
// Writes Lighthouse's full JSON report to REPORT.json (and its trace to REPORT.trace.json if
// NESTOR_LH_TRACE is 1, and Lantern's simulated graphs to REPORT.lantern.json if
// NESTOR_LH_LANTERN is 1: per simulation, e.g. pessimisticInteractive, each node's simulated
// start and end in ms, what it is (a request's address, or a main-thread task's duration in
// the trace and the scripts it ran) and what it waited for) and prints one JSON line: the category
// scores (0-100), LCP and TBT in ms, CLS, and Lighthouse's warnings and runtime error if any.
import fs from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { Simulator } from "@paulirish/trace_engine/models/trace/lantern/simulation/Simulator.js";

const SCRIPT_EVENTS = new Set(["EvaluateScript", "FunctionCall", "TimerFire", "EventDispatch"]);

// A node of a Lantern graph in words: a request's address, or a task's length in the trace
// (ms) and the scripts and events it ran.
function described(node) {
  if (node.type === "network") return node.request.url;
  const ran = new Set((node.childEvents || []).filter((e) => SCRIPT_EVENTS.has(e.name))
    .map((e) => `${e.name}:${(e.args?.data?.url || e.args?.data?.type || "").split("/").pop()}`));
  return `task ${Math.round((node.event?.dur ?? 0) / 1000)} ms ${[...ran].join(" ")}`;
}

// Every simulation Lighthouse ran: label -> [start ms, end ms, node, [what it waited for]].
function lanternGraphs() {
  const graphs = {};
  for (const [label, timings] of Simulator.allNodeTimings) {
    graphs[label] = [...timings].map(([node, t]) => [
      Math.round(t.startTime), Math.round(t.endTime), described(node),
      node.getDependencies().map(described),
    ]).sort((a, b) => a[0] - b[0]);
  }
  return graphs;
}

const [url, preset, reportPath, flagsJson, settingsJson = "{}"] = process.argv.slice(2);
if (!url || !["mobile", "desktop"].includes(preset) || !reportPath || !flagsJson) {
  console.error("usage: node bench/lighthouse.mjs URL mobile|desktop REPORT.json FLAGS_JSON");
  process.exit(2);
}
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: JSON.parse(flagsJson),
});
try {
  // Mobile is Lighthouse's default config (emulated phone, simulated slow 4G and 4x CPU).
  const config = preset === "desktop" ? desktopConfig : undefined;
  const flags = { ...JSON.parse(settingsJson), port: chrome.port, output: "json",
                  logLevel: "error" };
  const result = await lighthouse(url, flags, config);
  fs.writeFileSync(reportPath, result.report);
  if (process.env.NESTOR_LH_TRACE === "1") { // bench/lighthouse.py --traces
    fs.writeFileSync(reportPath.replace(/\.json$/, ".trace.json"),
                     JSON.stringify(result.artifacts.Trace));
  }
  if (process.env.NESTOR_LH_LANTERN === "1") { // bench/lighthouse.py --lantern
    fs.writeFileSync(reportPath.replace(/\.json$/, ".lantern.json"),
                     JSON.stringify(lanternGraphs()));
  }
  const lhr = result.lhr;
  const score = (id) => {
    const s = lhr.categories[id]?.score;
    return s === null || s === undefined ? null : Math.round(s * 100);
  };
  const value = (id) => lhr.audits[id]?.numericValue ?? null;
  const requests = lhr.audits["network-requests"]?.details?.items ?? [];
  console.log(JSON.stringify({
    preset,
    lighthouse: lhr.lighthouseVersion,
    browser: lhr.environment?.hostUserAgent ?? null,
    performance: score("performance"),
    accessibility: score("accessibility"),
    best_practices: score("best-practices"),
    seo: score("seo"),
    lcp_ms: value("largest-contentful-paint"),
    tbt_ms: value("total-blocking-time"),
    cls: value("cumulative-layout-shift"),
    fcp_ms: value("first-contentful-paint"),
    requests: requests.length,
    python_in_trace: requests.some((r) => new URL(r.url).pathname.endsWith("/main.py")),
    runtime_error: lhr.runtimeError?.message ?? null,
    warnings: lhr.runWarnings ?? [],
  }));
} finally {
  await chrome.kill();
}

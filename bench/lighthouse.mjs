// One Lighthouse run (make lighthouse, driven by bench/lighthouse.py): a Chromium started by
// chrome-launcher (Lighthouse's own launcher) at $CHROME_PATH with the flags given, a fresh
// profile each time, and Lighthouse's Node API on that browser.
//
// Usage: node bench/lighthouse.mjs URL mobile|desktop REPORT.json FLAGS_JSON [SETTINGS_JSON]
//   FLAGS_JSON: a JSON array of Chromium flags (an array, so a flag with spaces stays whole);
//   SETTINGS_JSON: a JSON object of Lighthouse settings over the preset's (pauseAfterLoadMs...).
// Writes Lighthouse's full JSON report to REPORT.json (and its trace to REPORT.trace.json if
// NESTOR_LH_TRACE is 1) and prints one JSON line: the category
// scores (0-100), LCP and TBT in ms, CLS, and Lighthouse's warnings and runtime error if any.
import fs from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

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

// The recorder of e2e/test_engines.py, loaded first by the copy of index.html that the test
// serves (Selenium's WebKitGTK has no init scripts and no console log, and WebKitGTK 2.50 no
// WebDriver BiDi): every console error, uncaught error, unhandled rejection, resource that
// failed to load and Content-Security-Policy violation of the page, and the address of every
// resource it loaded (its own requests, answered by the network or by the service worker),
// in window.__nestorProbe for the test to read before each navigation. It changes nothing
// the game does: it only listens (console.error still logs).
"use strict";
(() => {
  const probe = { problems: [], resources: [location.href] };
  window.__nestorProbe = probe;
  const text = (value) => {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (typeof value === "object" && value !== null) {
      try { return JSON.stringify(value); } catch { return String(value); }
    }
    return String(value);
  };
  const error = console.error;
  console.error = function (...args) {
    probe.problems.push(`console error: ${args.map(text).join(" ")}`);
    return error.apply(this, args);
  };
  window.addEventListener("error", (event) => {
    if (event instanceof ErrorEvent) {
      probe.problems.push(
        `page error: ${event.message} (${event.filename}:${event.lineno}:${event.colno})`);
    } else {
      const element = event.target;
      probe.problems.push(
        `failed to load: <${element.localName}> ${element.src || element.href || ""}`);
    }
  }, true);
  window.addEventListener("unhandledrejection", (event) => {
    probe.problems.push(`unhandled rejection: ${text(event.reason)}`);
  });
  document.addEventListener("securitypolicyviolation", (event) => {
    probe.problems.push(`CSP violation: ${event.effectiveDirective} blocked `
      + `${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`);
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.resources.push(entry.name);
  }).observe({ type: "resource", buffered: true });
})();

// Drives Debian's Firefox ESR for e2e/test_engines.py: puppeteer-core over WebDriver BiDi.
//
//   node e2e/engines/firefox.mjs PROFILE_DIR [FIREFOX]
//
// One JSON command a line on stdin, one JSON line on stdout for each: {"id", "value"} or
// {"id", "error"}. Between them, unasked, what the page did: {"event": "console" | "pageerror" |
// "request" | "requestfailed", "text"}. The commands:
//   {"op": "goto", "url"}       load the address, answer once its load event fired
//   {"op": "reload"}            the same, for the page shown
//   {"op": "eval", "js"}        the value of the expression js (a promise is awaited)
//   {"op": "wait", "js", "timeout"}  until the expression js is true (polled every 50 ms)
//   {"op": "click", "selectors"}  for each, a mouse click in the middle of the first element
//                               it matches, as a player's, one after the other
//   {"op": "move", "x", "y", "steps"} | {"op": "down"} | {"op": "up"}   the mouse, by parts
//   {"op": "select", "selector", "value"}  pick an option of a <select>, as a player does
//   {"op": "close"}             close the browser; the process ends after its answer
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const [profile, executablePath = "/usr/bin/firefox-esr"] = process.argv.slice(2);
if (!profile) {
  console.error("usage: node e2e/engines/firefox.mjs PROFILE_DIR [FIREFOX]");
  process.exit(2);
}

const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath,
  headless: true,
  userDataDir: profile,
  defaultViewport: { width: 1280, height: 720 },
});
const [page] = await browser.pages();
page.on("console", (msg) => {
  if (msg.type() === "error") {
    const where = msg.location();
    say({ event: "console", text: `${msg.text()}${where.url ? ` (${where.url}:${where.lineNumber})` : ""}` });
  }
});
page.on("pageerror", (error) => say({ event: "pageerror", text: String(error?.message ?? error) }));
page.on("request", (request) => say({ event: "request", text: request.url() }));
page.on("requestfailed", (request) =>
  say({ event: "requestfailed", text: `${request.url()}: ${request.failure()?.errorText}` }));

const commands = {
  goto: async ({ url }) => { await page.goto(url, { waitUntil: "load" }); },
  reload: async () => { await page.reload({ waitUntil: "load" }); },
  eval: async ({ js }) => page.evaluate(js),
  wait: async ({ js, timeout }) => {
    await page.waitForFunction(js, { polling: 50, timeout });
  },
  // page.click takes 6 round trips to Firefox; this one 2: the element scrolled into view
  // and its middle found in one evaluation, then one press and release of the mouse there.
  click: async ({ selectors }) => {
    for (const selector of selectors) {
      const [x, y] = await page.$eval(selector, (element) => {
        element.scrollIntoView({ block: "nearest", inline: "nearest" });
        const box = element.getBoundingClientRect();
        return [box.x + box.width / 2, box.y + box.height / 2];
      });
      await page.mouse.click(x, y);
    }
  },
  move: async ({ x, y, steps }) => { await page.mouse.move(x, y, { steps: steps ?? 1 }); },
  down: async () => { await page.mouse.down(); },
  up: async () => { await page.mouse.up(); },
  select: async ({ selector, value }) => { await page.select(selector, value); },
  close: async () => { await browser.close(); },
};

say({ event: "ready", text: await browser.version() });
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { id, op, ...args } = JSON.parse(line);
  try {
    const run = commands[op];
    if (!run) throw new Error(`no command ${op}`);
    const value = await run(args);
    say({ id, value: value === undefined ? null : value });
  } catch (error) {
    say({ id, error: String(error?.stack ?? error) });
  }
  if (op === "close") break;
}
process.exit(0);

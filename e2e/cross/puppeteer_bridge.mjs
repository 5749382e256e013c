// A line-per-request bridge from Python to puppeteer-core, so the smoke set is
// written once (in Python, beside the engine that makes its records) and
// driven in Firefox over WebDriver BiDi without geckodriver.
//
//   node puppeteer_bridge.mjs <firefox executable>
//   stdin : {"id": 1, "op": "newPage"}                       one JSON object a line
//   stdout: {"id": 1, "ok": true, "result": ...} | {"id": 1, "ok": false, "error": "..."}
//
// The first line written is {"ready": true, "version": "<browser version>"}.
// Ops: newPage -> page id (each page in its own browser context: no shared
// storage), goto, evaluate (an expression; promises are awaited), click (a CSS
// selector, a real pointer click on the first visible match), screenshot,
// errors (uncaught exceptions and console errors so far), closePage, close.

import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const executablePath = process.argv[2] ?? "/usr/bin/firefox-esr";
const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath,
  headless: true,
  protocol: "webDriverBiDi",
  // keep Firefox off the network: no updates, no telemetry, no captive-portal checks
  extraPrefsFirefox: {
    "app.update.enabled": false,
    "network.captive-portal-service.enabled": false,
    "network.connectivity-service.enabled": false,
    "browser.safebrowsing.malware.enabled": false,
    "browser.safebrowsing.phishing.enabled": false,
    "datareporting.policy.dataSubmissionEnabled": false,
    "toolkit.telemetry.enabled": false,
  },
});

const pages = new Map(); // id -> {page, context, errors}
let nextPage = 1;

const ops = {
  async newPage({ width = 1100, height = 900 } = {}) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width, height });
    const entry = { page, context, errors: [] };
    page.on("pageerror", (err) => entry.errors.push(`uncaught: ${err?.message ?? err}`));
    page.on("console", (msg) => msg.type() === "error" && entry.errors.push(`console: ${msg.text()}`));
    const id = nextPage++;
    pages.set(id, entry);
    return id;
  },
  async goto({ page, url }) {
    await get(page).page.goto(url, { waitUntil: "load", timeout: 60_000 });
  },
  async evaluate({ page, expr }) {
    // eslint-disable-next-line no-new-func
    return get(page).page.evaluate(`(async () => (${expr}))()`);
  },
  async click({ page, selector }) {
    const target = get(page).page.locator(`${selector}`).setVisibility("visible");
    await target.setTimeout(10_000).click();
  },
  async screenshot({ page, path }) {
    await get(page).page.screenshot({ path, fullPage: true });
  },
  async errors({ page }) {
    return get(page).errors;
  },
  async closePage({ page }) {
    const entry = get(page);
    pages.delete(page);
    await entry.context.close();
  },
  async close() {
    await browser.close();
    process.exit(0);
  },
};

function get(id) {
  const entry = pages.get(id);
  if (!entry) throw new Error(`no page ${id}`);
  return entry;
}

const send = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
send({ ready: true, version: await browser.version() });

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { id, op, ...args } = JSON.parse(line);
  try {
    if (!(op in ops)) throw new Error(`unknown op ${op}`);
    send({ id, ok: true, result: (await ops[op](args)) ?? null });
  } catch (err) {
    send({ id, ok: false, error: String(err?.message ?? err) });
  }
}
await browser.close();

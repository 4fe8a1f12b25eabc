// Measures the inspector's frame time in Debian's headless chromium: a synthetic traffic source
// (scripts/fake-service.mjs, its answers checked against the service's OpenAPI document) streams 100,000
// entries at connect and then 2,000 per second; the script records animation-frame intervals (1) while the
// list follows that live tail and (2) while it scrolls through all 100,000 entries top to bottom, and prints
// median, 95th percentile and worst frame for each.
//
//   npm run build && node scripts/frame-time.mjs   (FRAME_LIVE_RATE=0 without the live load; XS2A_CHROMIUM)
import { spawn } from "node:child_process";
import { chromium } from "@playwright/test";

const PORT = 8097;
const ENTRIES = 100_000;
const service = spawn(process.execPath, [new URL("./fake-service.mjs", import.meta.url).pathname, String(PORT)], {
  env: { ...process.env, FAKE_TRAFFIC_BURST: String(ENTRIES), FAKE_TRAFFIC_RATE: process.env.FRAME_LIVE_RATE ?? "2000" },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise((resolve) => service.stdout.once("data", resolve));

const stats = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { frames: sorted.length, medianMs: +at(0.5).toFixed(1), p95Ms: +at(0.95).toFixed(1), worstMs: +sorted[sorted.length - 1].toFixed(1), over50ms: sorted.filter((d) => d > 50).length };
};

const browser = await chromium.launch({
  executablePath: process.env.XS2A_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 960 } });
  const started = Date.now();
  await page.goto(`http://127.0.0.1:${PORT}/workbench/?token=dev#/inspector`);
  const list = page.getByRole("listbox", { name: "Exchanges" });
  await list.waitFor();
  await page.waitForFunction(
    // The count is written with thousands separators ("100,000 entries").
    (n) => /([\d,]+) entries/.test(document.body.innerText) && Number(/([\d,]+) entries/.exec(document.body.innerText)[1].replace(/,/g, "")) >= n,
    ENTRIES,
    { timeout: 120_000, polling: 250 },
  );
  const loadedMs = Date.now() - started;

  // (1) Following the live tail at 2,000 entries per second for 3 s.
  const live = await page.evaluate(
    () =>
      new Promise((done) => {
        const gaps = [];
        let last = performance.now();
        const end = last + 3000;
        const tick = (t) => {
          gaps.push(t - last);
          last = t;
          if (t < end) requestAnimationFrame(tick);
          else done(gaps);
        };
        requestAnimationFrame(tick);
      }),
  );

  // (2) Scrolling all 100,000 entries, top to bottom, in about 4 s (live entries still arriving).
  const scroll = await page.evaluate(
    () =>
      new Promise((done) => {
        const el = document.querySelector('[role="listbox"][aria-label="Exchanges"]');
        el.scrollTop = 0;
        const gaps = [];
        let last = performance.now();
        const step = el.scrollHeight / 240;
        const tick = (t) => {
          gaps.push(t - last);
          last = t;
          el.scrollTop += step;
          if (el.scrollTop + el.clientHeight < el.scrollHeight - 1) requestAnimationFrame(tick);
          else done(gaps);
        };
        requestAnimationFrame(tick);
      }),
  );
  const rows = await list.getByRole("option").count();
  console.log(JSON.stringify({ entries: ENTRIES, loadedMs, rowsInDom: rows, liveTail2000PerSecond: stats(live), scrollAll: stats(scroll) }, null, 2));
} finally {
  await browser.close();
  service.kill();
}

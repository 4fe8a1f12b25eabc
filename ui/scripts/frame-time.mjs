// Measures the inspector's frame time in Debian's headless chromium: a synthetic traffic source
// (scripts/fake-service.mjs, its answers checked against the service's OpenAPI document) streams 100,000
// entries at connect and then 2,000 per second; the script records animation-frame intervals (1) while the
// list follows that live tail and (2) while it scrolls through all 100,000 entries top to bottom, and prints
// median, 95th percentile and worst frame for each, and the main thread's busy time per second.
//
//   npm run build && node scripts/frame-time.mjs   (FRAME_LIVE_RATE=0 without the live load; XS2A_CHROMIUM;
//   UI_DIST=DIR measures another build, e.g. an older commit's, served the same way)
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
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

  // The main thread's busy time (tasks, and script within them) over each phase, from chromium's own
  // counters: finer than frame intervals, which the 60 Hz display rounds to 16.7 ms steps.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const counters = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    const get = (name) => metrics.find((m) => m.name === name)?.value ?? 0;
    return { task: get("TaskDuration"), script: get("ScriptDuration"), at: performance.now() };
  };
  const busy = (from, to) => {
    const seconds = (to.at - from.at) / 1000;
    return { taskMsPerS: +((1000 * (to.task - from.task)) / seconds).toFixed(1), scriptMsPerS: +((1000 * (to.script - from.script)) / seconds).toFixed(1) };
  };

  // (1) Following the live tail at 2,000 entries per second for 3 s.
  const liveFrom = await counters();
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

  const liveTo = await counters();

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
  const scrollTo = await counters();
  const rows = await list.getByRole("option").count();
  const report = {
    ui: process.env.UI_DIST ?? "ui/dist",
    loadAverage: loadavg().map((l) => +l.toFixed(2)),
    entries: ENTRIES,
    loadedMs,
    rowsInDom: rows,
    liveTail2000PerSecond: { ...stats(live), ...busy(liveFrom, liveTo) },
    scrollAll: { ...stats(scroll), ...busy(liveTo, scrollTo) },
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await browser.close();
  service.kill();
}

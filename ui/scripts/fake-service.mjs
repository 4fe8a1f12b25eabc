// A synthetic traffic source for the inspector's frame-time measurement (scripts/frame-time.mjs), not a
// stand-in for the service: it serves the built UI and only the operations the inspector reads — the
// session, the live events (none), the traffic log's page, stream and entries, the journeys — each checked
// against the service's OpenAPI document (src/api/generated/openapi.json) before it is served, so the
// measurement never runs against a contract the service does not serve. Anything else answers 404 in the
// service's error shape. FAKE_TRAFFIC_BURST entries go on the stream at connect, then FAKE_TRAFFIC_RATE per
// second live. (Real traffic cannot be made at 2,000 requests a second on the same 2-core machine without
// the load generator itself skewing the frames measured.)
//
//   npm run build && node scripts/fake-service.mjs [port]     → http://127.0.0.1:8099/workbench/?token=dev#/inspector
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const PORT = Number(process.argv[2] ?? process.env.PORT ?? 8099);
const TOKEN = process.env.XS2A_TOKEN ?? "dev";
const BASE = `http://127.0.0.1:${PORT}`;
const DIST = new URL("../dist/", import.meta.url).pathname;
const DOCUMENT = JSON.parse(readFileSync(new URL("../src/api/generated/openapi.json", import.meta.url), "utf8"));
const BURST = Number(process.env.FAKE_TRAFFIC_BURST ?? 0);
const RATE = Number(process.env.FAKE_TRAFFIC_RATE ?? 0);
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(DOCUMENT, "doc");

/** Throws unless `body` is what the document says `GET path` answers with 200 (or the named schema). */
function conforms(pointer, body, what) {
  const validate = ajv.getSchema(`doc#${pointer}`) ?? ajv.compile({ $ref: `doc#${pointer}` });
  if (!validate(body)) {
    throw new Error(`${what} is not what the service answers: ${ajv.errorsText(validate.errors)}`);
  }
  return body;
}

const answer200 = (template) =>
  `/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/get/responses/200/content/application~1json/schema`;

function synthEntry(id) {
  const failed = id % 17 === 0;
  return {
    id, kind: "exchange", at: new Date(Date.UTC(2026, 5, 1, 12) + id * 5).toISOString(), durationMs: id % 9,
    method: id % 3 === 0 ? "POST" : "GET", path: `/v1/accounts/${(id % 500).toString(16).padStart(8, "0")}/transactions`,
    query: null, status: failed ? 400 : 200, area: "bank", source: "external",
    tpp: { organisationId: "PSDNO-FSA-ABC123", name: "Synthetic TPP AS", subject: "CN=Synthetic TPP AS" },
    psuId: `0183901${String(id % 1000).padStart(4, "0")}`, tppSessionId: null,
    failedStep: failed ? "signature" : null, code: failed ? "BAD_REQUEST" : null, resources: [], journeys: [],
  };
}

function wholeEntry(id) {
  return {
    ...synthEntry(id),
    request: { headers: [["Date", "Mon, 01 Jun 2026 12:00:00 GMT"]], body: null, bodyBytes: 0, bodyBase64: false },
    response: { headers: [["Content-Type", "application/json"]], body: "{}", bodyBytes: 2, bodyBase64: false },
    gate: null, tppMessages: [], composerSigningString: null,
  };
}

// Checked once at start: a synthetic entry of each kind, and the fixed answers.
conforms("/components/schemas/Entry", synthEntry(1), "a synthetic entry");
conforms("/components/schemas/Entry", synthEntry(17), "a synthetic refused entry");
conforms(answer200("/workbench/api/traffic/{id}"), wholeEntry(17), "a synthetic exchange");
const FIXED = {
  "/session": conforms(answer200("/workbench/api/session"), {
    version: "synthetic", baseUrl: BASE, mode: "loopback", dataDir: null, callbackUrl: `${BASE}/workbench/callback`,
    clock: { now: "2026-06-01T12:00:00Z", mode: "frozen", offsetSeconds: 0 },
  }, "the session"),
  "/traffic": conforms(answer200("/workbench/api/traffic"), { entries: [], nextBefore: null }, "the traffic page"),
  "/journeys": conforms(answer200("/workbench/api/journeys"), [], "the journeys"),
};

let trafficId = 0;

function stream(req, res, entries) {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  res.write(": connected\n\n");
  if (!entries) return;
  let closed = false;
  let timer = null;
  req.on("close", () => { closed = true; if (timer) clearInterval(timer); });
  const write = (n) => {
    let chunk = "";
    for (let i = 0; i < n; i++) {
      const e = synthEntry(++trafficId);
      chunk += `id: ${e.id}\nevent: entry\ndata: ${JSON.stringify(e)}\n\n`;
    }
    res.write(chunk);
  };
  let left = BURST;
  const burst = () => {
    if (closed) return;
    const n = Math.min(2000, left);
    write(n);
    left -= n;
    if (left > 0) setImmediate(burst);
    else if (RATE > 0) timer = setInterval(() => write(Math.round(RATE / 20)), 50);
  };
  burst();
}

function send(res, status, body, type = "application/json") {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
  res.end(type === "application/json" ? JSON.stringify(body) : body);
}

const refuse = (code, text) => ({ tppMessages: [{ category: "ERROR", code, text }] });

createServer((req, res) => {
  const url = new URL(req.url ?? "/", BASE);
  if (url.pathname.startsWith("/workbench/api/")) {
    if (req.headers.authorization !== `Bearer ${TOKEN}` && url.searchParams.get("token") !== TOKEN) {
      return send(res, 401, { tppMessages: [{ category: "ERROR", code: "FORBIDDEN", path: "Authorization", text: "operator token" }] });
    }
    const path = url.pathname.slice("/workbench/api".length);
    if (req.method === "GET" && path === "/events") return stream(req, res, false);
    if (req.method === "GET" && path === "/traffic/stream") return stream(req, res, true);
    if (req.method === "GET" && FIXED[path]) return send(res, 200, FIXED[path]);
    const entry = req.method === "GET" && /^\/traffic\/(\d+)$/.exec(path);
    if (entry) return send(res, 200, wholeEntry(Number(entry[1])));
    return send(res, 404, refuse("NOT_FOUND", `the synthetic traffic source serves no ${req.method} ${path}`));
  }
  const rel = url.pathname.replace(/^\/workbench\/?/, "") || "index.html";
  const file = join(DIST, rel);
  if (url.pathname.startsWith("/workbench") && existsSync(file) && statSync(file).isFile()) {
    return send(res, 200, readFileSync(file), TYPES[extname(file)] ?? "application/octet-stream");
  }
  send(res, 404, refuse("NOT_FOUND", `nothing at ${url.pathname}`));
}).listen(PORT, "127.0.0.1", () => {
  console.log(`synthetic traffic source (not the sandbox): ${BASE}/workbench/?token=${TOKEN}#/inspector`);
});

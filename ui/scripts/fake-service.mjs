// A development stand-in for the workbench side of `xs2a-sandbox serve`, for working on the UI (and
// rehearsing the end-to-end test) before the real service exists. NOT the sandbox: it checks almost
// nothing, keeps everything in memory, and fakes the bank's SCA pages in a few lines. It follows
// docs/workbench-api.md closely enough for every screen to have something to show.
//
//   npm run build && node scripts/fake-service.mjs [port]     → http://127.0.0.1:8099/workbench/?token=dev
import { createServer } from "node:http";
import { readFileSync, existsSync, statSync } from "node:fs";
import { join, extname } from "node:path";
import { randomUUID } from "node:crypto";

const PORT = Number(process.argv[2] ?? process.env.PORT ?? 8099);
const TOKEN = process.env.XS2A_TOKEN ?? "dev";
const BASE = `http://127.0.0.1:${PORT}`;
const DIST = new URL("../dist/", import.meta.url).pathname;
const RUN_HOURS = [5, 8, 11, 14, 18];

// ---------------------------------------------------------------------------------------------------
// State

let clock = { now: new Date("2026-06-01T12:00:00Z"), mode: "frozen" };
let eventId = 0;
const listeners = new Set();
let customers = [];
let accounts = [];
let cards = [];
let agreements = [];
let transactions = new Map();
let payments = [];
let runs = [];
let history = [];
let callbacks = [];
const authorisations = new Map();
const personas = [
  persona("bundled-aisp-pisp", "AISP + PISP (bundled)", "bundled", ["PSP_AI", "PSP_PI"], "valid"),
  persona("bundled-aisp", "AISP (bundled)", "bundled", ["PSP_AI"], "valid"),
  persona("bundled-expired", "Expired (bundled)", "bundled", ["PSP_AI", "PSP_PI"], "expired", "The certificate expired on 2025-01-01"),
];

function persona(id, name, source, roles, status, problem = null) {
  return {
    id, name, source, roles, organisationId: "PSDNO-FSA-ABC123", subject: `CN=${name}`, issuer: "CN=xs2a-sandbox Test CA",
    serial: "1A2B", notBefore: "2025-01-01T00:00:00Z", notAfter: status === "expired" ? "2026-05-31T00:00:00Z" : "2028-01-01T00:00:00Z",
    status, problem, psuId: null, psuCorporateId: null, tppSessionId: randomUUID(),
  };
}

function seed() {
  customers = [
    { id: randomUUID(), customerNumber: "14838510036", name: "Kari Nordmann", type: "private" },
    { id: randomUUID(), customerNumber: "02917910181", name: "Ola Nordmann", type: "private" },
    { id: randomUUID(), customerNumber: "23879210003", name: "Per Hansen", type: "private" },
    { id: randomUUID(), customerNumber: "910000004", name: "Fjordkraft Testbedrift AS", type: "corporate" },
    { id: randomUUID(), customerNumber: "920000002", name: "Nordlys Handel AS", type: "corporate" },
  ];
  accounts = [];
  cards = [];
  agreements = [];
  transactions = new Map();
  const bbans = ["12051000003", "12051001018", "12051002006", "12052000007", "12052001003"];
  customers.forEach((c, i) => {
    const a = accountFrom({ customerNumber: c.customerNumber, accountName: "Brukskonto", bban: bbans[i], balances: [{ balanceType: "interimAvailable", balanceAmount: { amount: "25000.00", currency: "NOK" } }] });
    accounts.push(a);
    transactions.set(a.id, generate(a.currency, 12, "2026-03-01", "2026-06-01"));
  });
  cards.push(cardFrom({ customerNumber: "14838510036", maskedPan: "5555 55** **** 1234", name: "Mastercard", relatedAccount: "12051000003" }));
  payments = [];
  runs = [];
  return { customers: 5, privateCustomers: 3, corporateCustomers: 2, accounts: 5, cardAccounts: 1, transactions: 60, cardTransactions: 0, agreements: 0, referenceDate: clock.now.toISOString().slice(0, 10) };
}

function accountFrom(b, id = randomUUID()) {
  const owner = customers.find((c) => c.customerNumber === b.customerNumber);
  return {
    id, resourceId: id, customerNumber: b.customerNumber, ownerName: owner?.name ?? "", bban: b.bban, iban: b.iban ?? `NO00${b.bban}`,
    currency: b.currency ?? "NOK", name: b.accountName ?? b.name ?? "", product: b.product ?? "Brukskonto", cashAccountType: b.cashAccountType ?? "CACC",
    status: b.status ?? "enabled", usage: owner?.type === "corporate" ? "ORGA" : "PRIV", ...(b.creditLine ? { creditLine: b.creditLine } : {}), balances: b.balances ?? [],
  };
}

function cardFrom(b, id = randomUUID()) {
  const owner = customers.find((c) => c.customerNumber === b.customerNumber);
  return {
    id, resourceId: id, customerNumber: b.customerNumber, ownerName: owner?.name ?? "", maskedPan: b.maskedPan, currency: b.currency ?? "NOK",
    name: b.name ?? "", product: b.product ?? "Kredittkort", status: b.status ?? "enabled", usage: "PRIV", balances: b.balances ?? [],
    ...(b.relatedAccount ? { relatedAccount: b.relatedAccount } : {}),
  };
}

function generate(currency, count, from, to) {
  const start = new Date(`${from}T00:00:00Z`).getTime();
  const span = Math.max(1, new Date(`${to}T00:00:00Z`).getTime() - start);
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(start + (span * i) / count).toISOString().slice(0, 10);
    return {
      id: randomUUID(), amount: -((i * 3779) % 90000) - 1000, currency, valueDate: date, bookingDate: date,
      remittanceInformationUnstructured: `Kjøp ${i + 1}`, creditorName: "Sandbox Motpart AS", creditorAccount: { bban: "12059999991" },
      debtorName: "", debtorAccount: {}, bankTransactionCode: "PMNT-ICDT-DMCT", ultimateDebtor: "", ultimateCreditor: "", purposeCode: "OTHR",
    };
  });
}

function view(c) {
  return {
    ...c,
    accounts: accounts.filter((a) => a.customerNumber === c.customerNumber).map(({ id, bban, iban, currency, name, cashAccountType }) => ({ id, bban, iban, currency, name, cashAccountType })),
    cardAccounts: cards.filter((a) => a.customerNumber === c.customerNumber).map(({ id, maskedPan, currency, name }) => ({ id, maskedPan, currency, name })),
  };
}

function scheduled(n = 5) {
  const out = [];
  const day = new Date(clock.now);
  day.setUTCHours(0, 0, 0, 0);
  while (out.length < n) {
    for (const h of RUN_HOURS) {
      const at = new Date(day.getTime() + h * 3600_000);
      if (at > clock.now && out.length < n) out.push(at.toISOString().replace(".000", ""));
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Events

function publish(kind, data) {
  eventId += 1;
  const frame = `id: ${eventId}\nevent: ${kind}\ndata: ${JSON.stringify({ kind, at: clock.now.toISOString(), data })}\n\n`;
  for (const res of listeners) res.write(frame);
}

function setStatus(p, after, reason, runId) {
  const before = p.status;
  p.status = after;
  publish("payment.status", { paymentId: p.paymentId, before, after, ...(reason ? { reason } : {}), ...(runId ? { batchRunId: runId } : {}) });
  return { paymentId: p.paymentId, before, after, ...(reason ? { reason } : {}), fundsAvailable: after !== "ACCP" };
}

function runBatch(at, trigger) {
  const id = `run-${String(runs.length + 1).padStart(6, "0")}`;
  const due = payments.filter((p) => p.status === "ACTC" || p.status === "ACCP");
  const outcomes = due.map((p) => setStatus(p, p.forcedOutcome === "RJCT" ? "RJCT" : p.forcedOutcome === "ACCP" ? "ACCP" : "ACSC", undefined, id));
  const run = { id, at, trigger, lastOfDay: at.endsWith("18:00:00Z"), processed: due.length, outcomes };
  runs.unshift(run);
  const statuses = {};
  for (const o of outcomes) statuses[o.after] = (statuses[o.after] ?? 0) + 1;
  publish("batch.run", { id, at, trigger, lastOfDay: run.lastOfDay, processed: run.processed, statuses });
  return run;
}

function moveClock(to) {
  const passed = scheduled(400).filter((at) => new Date(at) <= to);
  clock.now = to;
  for (const at of passed) runBatch(at, "Scheduled");
  publish("clock", { now: clock.now.toISOString(), mode: clock.mode });
}

// ---------------------------------------------------------------------------------------------------
// The composer's requests to the fake bank

function refuse(path, text, code = "FORMAT_ERROR") {
  return { tppMessages: [{ category: "ERROR", code, path, text }] };
}

function bank(draft, p) {
  const headers = Object.fromEntries(draft.headers.map(([n, v]) => [n.toLowerCase(), fill(v, p)]));
  if (p.status === "expired") return [400, refuse("TPP-Signature-Certificate", `Request signature check failed at step 'certificate': the certificate is not valid at the sandbox clock's time (${p.problem ?? "expired"})`, "BAD_REQUEST")];
  const m = /^\/v1\/(payments|periodic-payments|bulk-payments)\/([a-z-]+)$/.exec(draft.path);
  if (draft.method === "POST" && m) {
    let body;
    try { body = JSON.parse(draft.body ?? ""); } catch { return [400, refuse("(body)", "the body is not JSON")]; }
    const paymentId = randomUUID();
    const authId = randomUUID();
    const payment = {
      paymentId, product: m[2], service: m[1], status: "RCVD", amount: body.instructedAmount?.amount ?? "", currency: body.instructedAmount?.currency ?? "NOK",
      debtor: body.debtorAccount?.bban ?? "", creditorName: body.creditorName ?? "", createdAt: clock.now.toISOString(), forcedOutcome: null, tppId: p.organisationId,
    };
    payments.unshift(payment);
    authorisations.set(authId, { paymentId, redirect: headers["tpp-redirect-uri"] ?? `${BASE}/workbench/callback`, session: headers["tpp-session-id"] ?? "" });
    return [201, { paymentId, transactionStatus: "RCVD", transactionFeeIndicator: false, _links: { self: { href: `${draft.path}/${paymentId}` }, scaRedirect: { href: `${BASE}/sca/${authId}` } } }];
  }
  if (draft.path.startsWith("/v1/accounts")) {
    if (!headers["psu-id"]) return [401, { ...refuse("PSU-ID", "No consent in this context", "CONSENT_UNKNOWN"), _links: { scaRedirect: { href: `${BASE}/sca/${randomUUID()}` } } }];
    return [200, { accounts: accounts.slice(0, 2).map((a) => ({ resourceId: a.id, bban: a.bban, currency: a.currency, name: a.name })) }];
  }
  return [404, refuse(null, `no such path in the fake service: ${draft.method} ${draft.path}`, "NOT_FOUND")];
}

function fill(value, p) {
  return value
    .replaceAll("{{persona.psuId}}", p.psuId ?? "")
    .replaceAll("{{persona.psuCorporateId}}", p.psuCorporateId ?? "")
    .replaceAll("{{persona.tppSessionId}}", p.tppSessionId ?? "")
    .replaceAll("{{callbackUrl}}", `${BASE}/workbench/callback`)
    .replaceAll("{{uuid}}", randomUUID());
}

function signed(draft) {
  const p = personas.find((x) => x.id === draft.personaId);
  if (!p) return { error: refuse("personaId", `no persona ${draft.personaId}`) };
  const date = clock.now.toUTCString();
  const headers = [["Date", date], ["X-Request-ID", randomUUID()], ...draft.headers.map(([n, v]) => [n, fill(v, p)]).filter(([, v]) => v !== "")];
  const digest = draft.body ? "SHA-256=ZmFrZS1kaWdlc3Q=" : null;
  if (digest) headers.push(["Digest", digest]);
  const signedHeaders = ["(request-target)", "date", "x-request-id", ...(digest ? ["digest"] : [])];
  const target = `${draft.path}${draft.query ? `?${draft.query}` : ""}`;
  const signingString = [`(request-target): ${draft.method.toLowerCase()} ${target}`, `date: ${date}`, `x-request-id: ${headers[1][1]}`, ...(digest ? [`digest: ${digest}`] : [])].join("\n");
  headers.push(["TPP-Signature-Certificate", "MIIB…(fake)"], ["Signature", `keyId="SN=1A2B,CA=CN=xs2a-sandbox Test CA",algorithm="rsa-sha256",headers="${signedHeaders.join(" ")}",signature="ZmFrZQ=="`]);
  return { p, preview: { url: `${BASE}${target}`, headers, signedHeaders, signingString, digest } };
}

// ---------------------------------------------------------------------------------------------------
// The workbench API

const OPERATIONS = [
  { id: "accounts-list", group: "Accounts", name: "List accounts", method: "GET", path: "/v1/accounts", pathParams: [], query: [{ name: "withBalance", value: "false", required: false }],
    headers: [["PSU-ID", "{{persona.psuId}}"], ["TPP-Session-ID", "{{persona.tppSessionId}}"], ["TPP-Redirect-URI", "{{callbackUrl}}?persona=bundled-aisp-pisp"], ["PSU-IP-Address", "127.0.0.1"]], body: null, role: "PSP_AI", description: "The consented accounts of the context." },
  { id: "payment-straks", group: "Payments", name: "Create instant payment (straks)", method: "POST", path: "/v1/payments/instant-norwegian-domestic-credit-transfers-straks", pathParams: [], query: [],
    headers: [["x-accept-fix", "amount-as-string"], ["PSU-ID", "{{persona.psuId}}"], ["TPP-Session-ID", "{{persona.tppSessionId}}"], ["TPP-Redirect-URI", "{{callbackUrl}}?persona=bundled-aisp-pisp"], ["PSU-IP-Address", "127.0.0.1"]],
    body: JSON.stringify({ instructedAmount: { amount: "100.00", currency: "NOK" }, debtorAccount: { bban: "12051000003" }, creditorName: "Ola Nordmann", creditorAccount: { bban: "12051001018" } }, null, 2), role: "PSP_PI", description: "Executed at once when the SCA completes." },
  { id: "payment-domestic", group: "Payments", name: "Create domestic payment", method: "POST", path: "/v1/payments/norwegian-domestic-credit-transfers", pathParams: [], query: [],
    headers: [["x-accept-fix", "amount-as-string"], ["PSU-ID", "{{persona.psuId}}"], ["TPP-Session-ID", "{{persona.tppSessionId}}"], ["TPP-Redirect-URI", "{{callbackUrl}}?persona=bundled-aisp-pisp"], ["PSU-IP-Address", "127.0.0.1"]],
    body: JSON.stringify({ instructedAmount: { amount: "250.00", currency: "NOK" }, debtorAccount: { bban: "12051000003" }, creditorName: "Ola Nordmann", creditorAccount: { bban: "12051001018" } }, null, 2), role: "PSP_PI", description: "Executed by the next batch run." },
  { id: "payment-status", group: "Payments", name: "Payment status", method: "GET", path: "/v1/{service}/{product}/{paymentId}/status",
    pathParams: [{ name: "service", description: "payments, periodic-payments or bulk-payments" }, { name: "product", description: "The payment product" }, { name: "paymentId", description: "The payment's id", source: "paymentId" }],
    query: [], headers: [["PSU-IP-Address", "127.0.0.1"]], body: null, role: "PSP_PI", description: "The payment's transactionStatus." },
];

function api(method, path, query, body) {
  const key = `${method} ${path}`;
  let m;
  if (key === "GET /session") return [200, { version: "0.2.0-fake", baseUrl: BASE, mode: "loopback", dataDir: null, callbackUrl: `${BASE}/workbench/callback`, clock: { now: clock.now.toISOString(), mode: clock.mode } }];
  if (key === "POST /sandbox/initialize") { const counts = seed(); publish("sandbox.changed", { what: "all" }); return [200, counts]; }
  if (key === "GET /sandbox/customers") return [200, customers.map(view)];
  if (key === "POST /sandbox/customers") {
    if (!/^\d{9}(\d{2})?$/.test(body.customerNumber ?? "")) return [400, refuse("customerNumber", `customerNumber '${body.customerNumber}' must be 11 digits (private) or 9 (corporate)`)];
    if (customers.some((c) => c.customerNumber === body.customerNumber)) return [409, refuse("customerNumber", "a customer with this number exists", "CONFLICT")];
    const c = { id: randomUUID(), customerNumber: body.customerNumber, name: body.name, type: body.type };
    customers.push(c);
    publish("sandbox.changed", { what: "customers" });
    return [201, c];
  }
  if ((m = /^(PUT|DELETE) \/sandbox\/customers\/([^/]+)$/.exec(key))) {
    const c = customers.find((x) => x.id === m[2]);
    if (!c) return [404, refuse("customerId", "no such customer", "RESOURCE_UNKNOWN")];
    if (m[1] === "DELETE") { customers = customers.filter((x) => x !== c); publish("sandbox.changed", { what: "customers" }); return [204, null]; }
    c.name = body.name;
    publish("sandbox.changed", { what: "customers" });
    return [200, c];
  }
  if (key === "POST /sandbox/accounts") {
    if (!/^\d{11}$/.test(body.bban ?? "")) return [400, refuse("bban", `bban: account number '${body.bban ?? ""}' has ${(body.bban ?? "").length} digits, a Norwegian account number has 11`)];
    for (const [i, b] of (body.balances ?? []).entries()) if (!/^-?\d+(\.\d{1,2})?$/.test(b.balanceAmount?.amount ?? "")) return [400, refuse(`balances[${i}].balanceAmount.amount`, `balances[${i}].balanceAmount.amount '${b.balanceAmount?.amount}' is not an amount in NOK`)];
    const a = accountFrom(body);
    accounts.push(a);
    transactions.set(a.id, []);
    publish("sandbox.changed", { what: "accounts" });
    return [201, a];
  }
  if ((m = /^(GET|PUT) \/sandbox\/accounts\/([^/]+)$/.exec(key))) {
    const i = accounts.findIndex((a) => a.id === m[2]);
    if (i < 0) return [404, refuse("mockAccountId", "no such account", "RESOURCE_UNKNOWN")];
    if (m[1] === "PUT") { accounts[i] = accountFrom(body, m[2]); publish("sandbox.changed", { what: "accounts" }); }
    return [200, accounts[i]];
  }
  if ((m = /^(GET|POST) \/sandbox\/accounts\/([^/]+)\/transactions(\/generate)?$/.exec(key))) {
    const list = transactions.get(m[2]) ?? [];
    const account = accounts.find((a) => a.id === m[2]);
    if (m[3]) { const made = generate(account?.currency ?? "NOK", body.count, body.fromDate, body.toDate); list.push(...made); transactions.set(m[2], list); publish("sandbox.changed", { what: "transactions" }); return [201, { created: made.length }]; }
    if (m[1] === "GET") return [200, list];
    const made = body.map((t, i) => {
      if (!/^-?\d+(\.\d+)?$/.test(String(t.amount))) throw { status: 400, body: refuse(`[${i}].amount`, `[${i}].amount '${t.amount}' is not an amount`) };
      return { ...generate(t.currency, 1, t.bookingDate, t.bookingDate)[0], amount: Math.round(Number(t.amount) * 100), remittanceInformationUnstructured: t.remittanceInformationUnstructured ?? "" };
    });
    list.push(...made);
    publish("sandbox.changed", { what: "transactions" });
    return [201, made];
  }
  if (key === "POST /sandbox/card-accounts") { const c = cardFrom(body); cards.push(c); publish("sandbox.changed", { what: "cardAccounts" }); return [201, c]; }
  if ((m = /^(GET|PUT) \/sandbox\/card-accounts\/([^/]+)$/.exec(key))) {
    const i = cards.findIndex((a) => a.id === m[2]);
    if (i < 0) return [404, refuse("mockCardAccountId", "no such card account", "RESOURCE_UNKNOWN")];
    if (m[1] === "PUT") cards[i] = cardFrom(body, m[2]);
    return [200, cards[i]];
  }
  if ((m = /^(GET|POST) \/sandbox\/card-accounts\/([^/]+)\/transactions(\/generate)?$/.exec(key))) {
    if (m[3]) return [201, { created: body.count }];
    if (m[1] === "POST") return [201, body];
    return [200, { cardAccount: { maskedPan: cards.find((c) => c.id === m[2])?.maskedPan ?? "" }, cardTransactions: { booked: [], pending: [] } }];
  }
  if (key === "GET /sandbox/agreements") return [200, agreements];
  if (key === "POST /sandbox/agreements") {
    const owner = customers.find((c) => c.customerNumber === body.owner);
    const a = { id: randomUUID(), owner: body.owner, ownerName: owner?.name ?? "", name: body.name, engagements: (body.engagements ?? []).map((e) => ({ customer: e.customer, customerName: customers.find((c) => c.customerNumber === e.customer)?.name ?? "", account: { id: "", iban: "", bban: e.account?.bban ?? "" }, roles: e.roles })) };
    agreements.push(a);
    return [201, a];
  }
  if (key === "GET /sandbox/clock") return [200, { now: clock.now.toISOString(), mode: clock.mode, offsetSeconds: 0 }];
  if (key === "PUT /sandbox/clock") {
    if (body.now) { const to = new Date(body.now); if (Number.isNaN(to.getTime())) return [400, refuse("now", `now '${body.now}' is not RFC 3339`)]; moveClock(to); }
    else if (body.advance) {
      const d = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(body.advance);
      if (!d || body.advance === "P" || body.advance.endsWith("T")) return [400, refuse("advance", `'${body.advance}' is not an ISO 8601 duration like PT1H, P1D or P2DT3H30M`)];
      moveClock(new Date(clock.now.getTime() + ((Number(d[1] ?? 0) * 24 + Number(d[2] ?? 0)) * 60 + Number(d[3] ?? 0)) * 60_000));
    } else if (body.mode) { clock.mode = body.mode; publish("clock", { now: clock.now.toISOString(), mode: clock.mode }); }
    return [200, { now: clock.now.toISOString(), mode: clock.mode, offsetSeconds: 0 }];
  }
  if (key === "GET /sandbox/batch-runs") return [200, { runs: runs.slice(0, Number(query.get("limit") ?? 20)), scheduled: scheduled() }];
  if (key === "POST /sandbox/batch-runs") return [201, runBatch(clock.now.toISOString(), "Manual")];
  if (key === "GET /sandbox/payments") return [200, payments.filter((p) => !query.get("status") || p.status === query.get("status"))];
  if ((m = /^PUT \/sandbox\/payments\/([^/]+)\/forced-outcome$/.exec(key))) {
    const p = payments.find((x) => x.paymentId === m[1]);
    if (!p) return [404, refuse("paymentId", "no such payment", "RESOURCE_UNKNOWN")];
    p.forcedOutcome = body.outcome;
    return [200, { paymentId: p.paymentId, forcedOutcome: p.forcedOutcome, transactionStatus: p.status }];
  }
  if (key === "GET /personas") return [200, personas];
  if (key === "POST /personas") {
    if (!body.name) return [400, refuse("name", "name is required and must not be empty")];
    const p = persona(`issued-${randomUUID().slice(0, 8)}`, body.name, "issued", body.roles ?? [], body.expired ? "expired" : body.untrusted ? "untrusted" : "valid", body.expired ? "The certificate expired yesterday" : body.untrusted ? "Issued by a CA the sandbox does not trust" : null);
    personas.push(p);
    return [201, p];
  }
  if (key === "POST /personas/import") { const p = persona(`imported-${randomUUID().slice(0, 8)}`, body.name, "imported", ["PSP_AI"], "valid"); personas.push(p); return [201, p]; }
  if ((m = /^(PATCH|DELETE) \/personas\/([^/]+)$/.exec(key))) {
    const p = personas.find((x) => x.id === m[2]);
    if (!p) return [404, refuse("id", "no such persona", "RESOURCE_UNKNOWN")];
    if (m[1] === "DELETE") { if (p.source === "bundled") return [409, refuse(null, "bundled personas cannot be deleted", "CONFLICT")]; personas.splice(personas.indexOf(p), 1); return [204, null]; }
    Object.assign(p, body);
    publish("persona.changed", { id: p.id });
    return [200, p];
  }
  if ((m = /^GET \/personas\/([^/]+)\/certificate$/.exec(key))) return [200, "-----BEGIN CERTIFICATE-----\nZmFrZQ==\n-----END CERTIFICATE-----\n", "application/x-pem-file"];
  if (key === "GET /operations") return [200, OPERATIONS];
  if (key === "POST /compose/preview") { const s = signed(body); return s.error ? [400, s.error] : [200, s.preview]; }
  if (key === "POST /compose/send") {
    const s = signed(body);
    if (s.error) return [400, s.error];
    const [status, answer] = bank(body, s.p);
    const sent = {
      id: randomUUID(), at: clock.now.toISOString(), draft: body, request: { method: body.method, url: s.preview.url, headers: s.preview.headers, body: body.body ?? null },
      signingString: s.preview.signingString, response: { status, headers: [["Content-Type", "application/json"], ["X-Request-ID", s.preview.headers[1][1]]], body: JSON.stringify(answer) }, durationMs: 3 + Math.round(Math.random() * 20),
    };
    history.unshift(sent);
    return [200, sent];
  }
  if (key === "GET /compose/history") return [200, history.map((h) => ({ id: h.id, at: h.at, personaId: h.draft.personaId, method: h.draft.method, path: h.draft.path, status: h.response.status, durationMs: h.durationMs }))];
  if ((m = /^GET \/compose\/history\/([^/]+)$/.exec(key))) { const h = history.find((x) => x.id === m[1]); return h ? [200, h] : [404, refuse("id", "no such request", "RESOURCE_UNKNOWN")]; }
  if (key === "POST /compose/export") return [200, { text: `# re-signs at run time\nxs2a-sandbox sign --persona ${body.draft.personaId} -X ${body.draft.method} --url ${BASE}${body.draft.path} ${body.draft.body ? "--data-file body.json " : ""}> headers.txt\ncurl -X ${body.draft.method} -H @headers.txt ${BASE}${body.draft.path}\n` }];
  if (key === "GET /sca/callbacks") return [200, callbacks];
  return [404, refuse(null, `no route ${key} in the fake service`, "NOT_FOUND")];
}

// ---------------------------------------------------------------------------------------------------
// Fake bank SCA pages and the callback

const page = (title, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

function sca(req, res, url, form) {
  const id = url.pathname.split("/")[2];
  const auth = authorisations.get(id);
  if (!auth) return send(res, 404, page("No such authorisation", "<p>Start again.</p>"), "text/html");
  const step = form?.get("step");
  if (!step) return send(res, 200, page("Identify yourself", `<form method="post"><input type="hidden" name="step" value="identify"><label for="nationalId">National identity number</label><input id="nationalId" name="nationalId"><button type="submit">Continue</button></form>`), "text/html");
  if (step === "identify") { auth.nationalId = form.get("nationalId"); publish("sca.step", { authorisationId: id, step: "method", tppId: "PSDNO-FSA-ABC123" }); return send(res, 200, page("Choose how to authenticate", `<form method="post"><input type="hidden" name="step" value="method"><button type="submit">Personal code and one-time code (HA2)</button></form>`), "text/html"); }
  if (step === "method") return send(res, 200, page("Approve the payment", `<form method="post"><input type="hidden" name="step" value="approve"><button type="submit">Approve</button></form>`), "text/html");
  const p = payments.find((x) => x.paymentId === auth.paymentId);
  if (p) setStatus(p, p.product.includes("straks") ? "ACSC" : "ACTC");
  const psuId = `psu-${Buffer.from(auth.nationalId ?? "").toString("hex").slice(0, 8)}-0000-4000-8000-000000000000`;
  const target = new URL(auth.redirect);
  target.searchParams.set("psu-id", psuId);
  target.searchParams.set("tpp-session-id", auth.session);
  target.searchParams.set("context", "PRIVATE");
  res.writeHead(302, { Location: target.toString() });
  res.end();
}

function callback(res, url) {
  const q = Object.fromEntries(url.searchParams);
  const personaId = q.persona ?? null;
  const p = personas.find((x) => x.id === personaId);
  const record = {
    id: randomUUID(), at: clock.now.toISOString(), personaId, outcome: q["psu-id"] ? "success" : "failure", psuId: q["psu-id"] ?? null,
    psuCorporateId: q["psu-corporate-id"] ?? null, context: q.context ?? null, tppSessionId: q["tpp-session-id"] ?? null,
    system: q.system ?? null, status: q.status ?? null, code: q.code ?? null, message: q.message ?? null, query: q,
  };
  if (p && record.psuId) { p.psuId = record.psuId; p.psuCorporateId = record.psuCorporateId; publish("persona.changed", { id: p.id }); }
  callbacks.unshift(record);
  publish("sca.callback", record);
  send(res, 200, page("SCA finished", "<p>SCA finished, you may close this window.</p>"), "text/html");
}

// ---------------------------------------------------------------------------------------------------
// HTTP

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };

// ---------------------------------------------------------------------------------------------------
// Traffic log (docs/traffic-api.md), synthetic: for the inspector's frame-time measurement
// (scripts/frame-time.mjs). FAKE_TRAFFIC_BURST entries are sent on the stream at connect, then
// FAKE_TRAFFIC_RATE per second live. Nothing here is real traffic.

const BURST = Number(process.env.FAKE_TRAFFIC_BURST ?? 0);
const RATE = Number(process.env.FAKE_TRAFFIC_RATE ?? 0);
let trafficId = 0;

function synthEntry(id) {
  const failed = id % 17 === 0;
  return {
    id, kind: "exchange", at: new Date(Date.UTC(2026, 5, 1, 12) + id * 5).toISOString(), durationMs: id % 9,
    method: id % 3 === 0 ? "POST" : "GET", path: `/v1/accounts/${(id % 500).toString(16).padStart(8, "0")}/transactions`,
    query: null, status: failed ? 401 : 200, area: "bank", source: "external",
    tpp: { organisationId: "PSDNO-FSA-ABC123", name: "Fake TPP AS", subject: "CN=Fake TPP AS" },
    psuId: `0183901${String(id % 1000).padStart(4, "0")}`, tppSessionId: null,
    failedStep: failed ? "signature" : null, code: failed ? "SIGNATURE_INVALID" : null, resources: [], journeys: [],
  };
}

function trafficStream(req, res) {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  res.write(": connected\n\n");
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

function traffic(path) {
  if (path === "/traffic") return [200, { entries: [], nextBefore: null }];
  if (path === "/journeys") return [200, []];
  const m = /^\/traffic\/(\d+)$/.exec(path);
  if (m) {
    const e = synthEntry(Number(m[1]));
    return [200, { ...e, request: { headers: [["Date", "Mon, 01 Jun 2026 12:00:00 GMT"]], body: null, bodyBytes: 0, bodyBase64: false },
      response: { headers: [["Content-Type", "application/json"]], body: "{}", bodyBytes: 2, bodyBase64: false },
      gate: null, tppMessages: [], composerSigningString: null }];
  }
  return null;
}

function send(res, status, body, type = "application/json") {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
  const raw = Buffer.isBuffer(body) || (typeof body === "string" && type !== "application/json");
  res.end(status === 204 ? undefined : raw ? body : JSON.stringify(body));
}

function readBody(req) {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => resolve(text));
  });
}

seed();
createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", BASE);
  const text = await readBody(req);
  if (url.pathname.startsWith("/sca/")) return sca(req, res, url, req.method === "POST" ? new URLSearchParams(text) : null);
  if (url.pathname === "/workbench/callback") return callback(res, url);
  if (url.pathname.startsWith("/workbench/api/")) {
    const auth = req.headers.authorization === `Bearer ${TOKEN}` || url.searchParams.get("token") === TOKEN;
    if (!auth) return send(res, 401, refuse(null, "missing or wrong operator token", "UNAUTHORIZED"));
    const path = url.pathname.slice("/workbench/api".length);
    if (path === "/events") {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.write(": connected\n\n");
      listeners.add(res);
      req.on("close", () => listeners.delete(res));
      return;
    }
    if (path === "/traffic/stream") return trafficStream(req, res);
    const t = req.method === "GET" ? traffic(path) : null;
    if (t) return send(res, t[0], t[1]);
    try {
      const [status, body, type] = api(req.method ?? "GET", path, url.searchParams, text ? JSON.parse(text) : undefined);
      return send(res, status, body, type);
    } catch (e) {
      if (e && e.status) return send(res, e.status, e.body);
      return send(res, 500, refuse(null, String(e), "SYSTEM_ERROR"));
    }
  }
  const rel = url.pathname.replace(/^\/workbench\/?/, "") || "index.html";
  const file = join(DIST, rel);
  if (url.pathname.startsWith("/workbench") && existsSync(file) && statSync(file).isFile()) {
    return send(res, 200, readFileSync(file), TYPES[extname(file)] ?? "application/octet-stream");
  }
  send(res, 404, refuse(null, `nothing at ${url.pathname}`, "NOT_FOUND"));
}).listen(PORT, "127.0.0.1", () => {
  console.log(`fake workbench service (not the sandbox): ${BASE}/workbench/?token=${TOKEN}`);
});

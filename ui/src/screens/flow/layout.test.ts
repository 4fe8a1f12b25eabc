// The flow view's model: entries → messages → coordinates, presentation mode's layout fitted to its area
// (the type as large as width and height allow, 16–28 px, every label and lane title inside the width, the
// rows spread over the height; a long journey keeps 16 px), and the Mermaid and base64-folding helpers.
import { describe, expect, it } from "vitest";
import type { Entry, EventEntry, ExchangeSummary } from "../../api/traffic";
import { foldBase64, presentBody } from "./fold";
import { fitLayout, MAX_FONT, MIN_FONT } from "./fit";
import { backLabel, geometryFor, labelRoom, layout, LANES, messagesOf, redirectsOf, responseLabel, shortPath, textWidth } from "./layout";
import type { Layout, Measure } from "./layout";
import { mermaidText, toMermaid } from "./mermaid";
import { pageAt } from "./Presentation";
import { exchangeSummary } from "../../test/fixtures";

let next = 1;
export function exchange(partial: Partial<ExchangeSummary>): ExchangeSummary {
  return exchangeSummary(next++, { durationMs: 3, journeys: ["payment:p1"], ...partial });
}

export function event(partial: Partial<EventEntry>): EventEntry {
  return { id: next++, kind: "event", at: "2026-06-01T12:00:01Z", event: "clock", data: {}, resources: [], journeys: ["payment:p1"], ...partial };
}

const PAY = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";

/** A straks payment journey: created, SCA on the bank's pages, read back, batch run. */
export function straksJourney(): Entry[] {
  return [
    exchange({ method: "POST", path: PAY, status: 401 }),
    exchange({ method: "POST", path: PAY, status: 201 }),
    exchange({ method: "GET", path: "/sca/a1", query: "step=identify", area: "sca-page", status: 200 }),
    event({ event: "sca.step", data: { authorisationId: "a1", step: "identify", tppId: "PSDNO-FSA-9C2C0A" } }),
    exchange({ method: "POST", path: "/sca/a1/approve", area: "sca-page", status: 303 }),
    exchange({ method: "GET", path: `${PAY}/3f2a1b4c-aaaa-bbbb-cccc-123456789012/status`, status: 200 }),
    event({ event: "payment.status", data: { paymentId: "p1", before: "ACTC", after: "ACCP", batchRunId: "r1" } }),
    event({ event: "payment.status", data: { paymentId: "p1", before: "ACCP", after: "ACSC", batchRunId: "r1" } }),
  ];
}

describe("messagesOf", () => {
  it("draws a request and its answer per exchange and one arrow per event, in id order", () => {
    const entries = straksJourney();
    const messages = messagesOf([...entries].reverse());
    expect(messages.map((m) => `${m.from}>${m.to}`)).toEqual([
      "tpp>bank",
      "bank>tpp",
      "tpp>bank",
      "bank>tpp",
      "psu>bank",
      "bank>psu",
      "psu>bank",
      "psu>bank",
      "bank>psu",
      "tpp>bank",
      "bank>tpp",
      "batch>bank",
      "batch>bank",
    ]);
  });

  it("puts the statuses on the arrows: 401 → SCA, the SCA redirect, ACTC → ACCP → ACSC", () => {
    const messages = messagesOf(straksJourney());
    expect(messages[1]).toMatchObject({ label: "401 Unauthorized → SCA", tone: "bad", kind: "response" });
    expect(messages[3]?.label).toBe("201 Created");
    expect(messages[8]?.label).toBe("303 See Other (redirect)");
    expect(messages[11]).toMatchObject({ status: "ACTC → ACCP", tone: "warn" });
    expect(messages[12]).toMatchObject({ status: "ACCP → ACSC", tone: "ok" });
  });

  it("draws the bank's own status changes as notes on its lane, not as messages to the TPP", () => {
    const [m] = messagesOf([event({ event: "payment.status", data: { paymentId: "p1", transactionStatus: "RCVD" } })]);
    expect(m).toMatchObject({ from: "bank", to: "bank", status: "RCVD", label: "payment status" });
    const [change] = messagesOf([event({ event: "payment.status", data: { paymentId: "p1", before: "ACTC", after: "ACSC", batchRunId: null } })]);
    expect(change).toMatchObject({ from: "bank", to: "bank", status: "ACTC → ACSC", tone: "ok" });
    expect(layout([change!]).messages[0]?.self).toBe(true);
  });

  it("draws one status change once: the bank's notice after the workbench's (as the service logs them) is left out", () => {
    // As logged by the service for a straks payment: RCVD at creation (the bank's notice only), then
    // ACTC → ACSC twice over, the workbench's notice and the bank's.
    const entries = [
      event({ event: "payment.status", data: { paymentId: "p1", transactionStatus: "RCVD" } }),
      event({ event: "payment.status", data: { paymentId: "p1", before: "ACTC", after: "ACSC", batchRunId: null, fundsAvailable: true } }),
      event({ event: "payment.status", data: { paymentId: "p1", basketId: null, transactionStatus: "ACSC" } }),
    ];
    const statuses = (list: Entry[]) => messagesOf(list).map((m) => m.status);
    expect(statuses(entries)).toEqual(["RCVD", "ACTC → ACSC"]);
    // Whatever order they come in.
    expect(statuses([entries[0]!, entries[2]!, entries[1]!].map((e, i) => ({ ...e, id: 9000 + i })))).toEqual(["RCVD", "ACTC → ACSC"]);
  });

  it("shows the PSU's browser going back to the TPP where the bank's pages redirect there", () => {
    const step = exchange({ method: "POST", path: "/sca/a1/identify", area: "sca-page", status: 303 });
    const confirm = exchange({ method: "POST", path: "/sca/a1/confirm", area: "sca-page", status: 303 });
    const leaving = new Map([
      [step.id, "/sca/a1"],
      [confirm.id, "https://tpp.example/cb?psu-id=e2cf17c6-3b04-5ad1-80cc-a507aeadf8f6&context=PRIVATE"],
    ]);
    const messages = messagesOf([step, confirm], leaving);
    expect(messages.map((m) => `${m.from}>${m.to}`)).toEqual(["psu>bank", "bank>psu", "psu>bank", "bank>psu", "psu>tpp"]);
    // In the story's words: neither the TPP's address nor the workbench's callback with its persona.
    expect(messages[4]?.label).toBe("back to the TPP with the PSU's id");
    expect(backLabel("http://127.0.0.1:8080/workbench/callback?persona=bundled-aisp&psu-id=e2cf17c6&psu-corporate-id=c1")).toBe(
      "back to the TPP with the PSU's and the company's ids",
    );
    expect(backLabel("https://app.example/cb?system=sandbox&status=401&code=PSU_CREDENTIALS_INVALID")).toBe(
      "back to the TPP: the SCA did not succeed (PSU_CREDENTIALS_INVALID)",
    );
    expect(redirectsOf([step, confirm, exchange({})])).toEqual([step.id, confirm.id]);
  });

  it("marks an answer the fault plan injected on its arrow", () => {
    const refused = exchange({ path: "/v1/accounts", status: 503, code: "SYSTEM_ERROR" });
    const served = exchange({ path: "/v1/accounts" });
    const marker = "injected: 503 maintenance until 02:30 (rule maintenance)";
    const messages = messagesOf([refused, served], new Map(), new Map([[refused.id, marker]]));
    expect(messages[1]?.label).toBe(`503 Service Unavailable — SYSTEM_ERROR · ${marker}`);
    expect(messages[1]?.injected).toBe(marker);
    expect(messages[3]?.label).toBe("200 OK");
    expect(messages[3]?.injected).toBeUndefined();
  });

  it("marks the PSU's page views with their URL", () => {
    const messages = messagesOf(straksJourney());
    expect(messages[4]).toMatchObject({ psuActs: true, pageUrl: "/sca/a1?step=identify" });
    expect(messages.filter((m) => m.pageUrl)).toHaveLength(1);
  });

  it("says what the PSU does on the bank's pages", () => {
    const messages = messagesOf(straksJourney());
    expect(messages[7]?.label).toBe("PSU approves: POST /sca/a1/approve");
    expect(messages[4]?.label).toBe("GET /sca/a1");
  });

  it("says where the gate refused a request", () => {
    expect(responseLabel(exchange({ status: 400, failedStep: "digest", code: "BAD_REQUEST" }))).toBe(
      "400 Bad Request — refused at digest",
    );
  });

  it("shortens ids in paths", () => {
    expect(shortPath("/v1/payments/x/3f2a1b4c-aaaa-bbbb-cccc-123456789012")).toBe("/v1/payments/x/3f2a1b…");
  });
});

describe("layout", () => {
  it("fits the width it is given, every label inside it, and writes at the size asked", () => {
    const messages = messagesOf(straksJourney());
    for (const width of [700, 1000, 1280]) {
      const model = layout(messages, geometryFor(width, 16));
      expect(model.width).toBeLessThanOrEqual(width);
      expect(model.fontSize).toBe(16);
      for (const m of model.messages) {
        expect(m.labelX - m.labelWidth / 2).toBeGreaterThanOrEqual(0);
        expect(m.labelX + m.labelWidth / 2).toBeLessThanOrEqual(model.width);
      }
    }
  });

  it("places four lanes and one row per message", () => {
    const model = layout(messagesOf(straksJourney()), { laneWidth: 200, margin: 10, header: 50, rowGap: 40, fontSize: 13 });
    expect(model.lanes.map((l) => l.title)).toEqual(LANES.map((l) => l.title));
    expect(model.lanes.map((l) => l.x)).toEqual([110, 310, 510, 710]);
    expect(model.messages[0]).toMatchObject({ x1: 110, x2: 310, y: 90, index: 0, self: false });
    expect(model.messages[1]).toMatchObject({ x1: 310, x2: 110, y: 130 });
    expect(model.width).toBe(820);
    expect(model.height).toBe(50 + 40 * 14 + 10);
  });

  it("draws a lane talking to itself as a note", () => {
    const model = layout(messagesOf([event({ event: "clock", data: { now: "2026-06-02T00:00:00Z" } })]));
    expect(model.messages[0]).toMatchObject({ self: true, from: "batch", to: "batch" });
  });
});

describe("Mermaid", () => {
  it("writes participants, arrows (answers dashed) and notes", () => {
    const text = toMermaid(messagesOf([...straksJourney().slice(0, 2), event({ event: "clock", data: { now: "T" } })]), "Straks #1");
    expect(text).toBe(
      [
        "sequenceDiagram",
        "  title Straks #35;1",
        "  participant TPP as TPP app",
        "  participant Bank as Bank interface",
        "  participant PSU as PSU (SCA pages)",
        "  participant Batch as Batch simulator",
        "  TPP->>Bank: POST /v1/payments/…-credit-transfers-straks",
        "  Bank-->>TPP: 401 Unauthorized → SCA",
        "  TPP->>Bank: POST /v1/payments/…-credit-transfers-straks",
        "  Bank-->>TPP: 201 Created",
        "  Note over Batch: clock → T",
        "",
      ].join("\n"),
    );
  });

  it("writes an event's status after its label", () => {
    const text = toMermaid(messagesOf([event({ event: "payment.status", data: { before: "ACTC", after: "ACSC", batchRunId: 1 } })]));
    expect(text).toContain("  Batch->>Bank: payment status at the batch run: ACTC → ACSC\n");
  });

  it("escapes what would end a Mermaid statement", () => {
    expect(mermaidText("a;b#c\nd")).toBe("a#59;b#35;c d");
  });
});

describe("presentation helpers", () => {
  it("folds base64 and keeps ordinary words", () => {
    const cert = "MIIDdzCCAl+gAwIBAgIUQ1n4cX2Y9kq0zq3b7w0tZ2c8x1YwDQYJKoZIhvcNAQELBQAw";
    expect(foldBase64(`cert ${cert} end`)).toBe(`cert «base64, ${cert.length} chars» end`);
    expect(foldBase64("instant-norwegian-domestic-credit-transfers-straks-and-more-words")).toContain("straks");
    expect(presentBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    // A link's path is no base64: its UUID and product name stay readable.
    const link = "http://127.0.0.1:45843/v1/payments/norwegian-domestic-credit-transfers/3f2a9c1e-7b4d-4e8a-9f10-2c3d4e5f6a7b/status";
    expect(foldBase64(`{"href": "${link}"}`)).toBe(`{"href": "${link}"}`);
    const scaLink = "/sca/3f2a9c1e-7b4d-4e8a-9f10-2c3d4e5f6a7b/authorisations/9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b";
    expect(foldBase64(scaLink)).toBe(scaLink);
    // A certificate with slashes in it is still folded.
    const withSlashes = "MIIDdzCCAl+gAwIBAgIUQ/xk2LZ9Rk8vWqj3/TJ8sT5oLwUwDQYJKoZIhvcNAQELBQAwRjELMAkG";
    expect(foldBase64(withSlashes)).toBe(`«base64, ${withSlashes.length} chars»`);
  });

  it("shows the PSU's latest page while the PSU acts, and none elsewhere", () => {
    const model = layout(messagesOf(straksJourney()));
    expect(pageAt(model.messages, 0)).toBeNull();
    expect(pageAt(model.messages, 4)?.pageUrl).toBe("/sca/a1?step=identify");
    expect(pageAt(model.messages, 8)?.pageUrl).toBe("/sca/a1?step=identify");
  });
});

function expectLabelsInside(model: Layout, measure: Measure) {
  for (const m of model.messages) {
    const room = labelRoom(m, model.fontSize, measure);
    expect(m.labelX - room / 2, m.label).toBeGreaterThanOrEqual(0);
    expect(m.labelX + room / 2, m.label).toBeLessThanOrEqual(model.width);
  }
  for (const lane of LANES) expect(measure(lane.title, model.fontSize), lane.title).toBeLessThanOrEqual(model.laneWidth - 8);
}

describe("fitLayout", () => {
  const messages = messagesOf(straksJourney());

  it("writes larger than 16 px where the room allows, and fills the height with the rows", () => {
    const room = { width: 1200, height: 1400 };
    const model = fitLayout(messages, room);
    expect(model.fontSize).toBeGreaterThan(MIN_FONT);
    expect(model.fontSize).toBeLessThanOrEqual(MAX_FONT);
    expect(model.width).toBeLessThanOrEqual(room.width);
    expect(model.height).toBeLessThanOrEqual(room.height);
    // The last row is near the bottom, not a third of the screen above it.
    expect(model.height).toBeGreaterThan(room.height * 0.9);
    expectLabelsInside(model, textWidth);
  });

  it("keeps 16 px for a journey too long for the height, which then scrolls", () => {
    const long = [...messages, ...messages, ...messages];
    const model = fitLayout(long, { width: 760, height: 480 });
    expect(model.fontSize).toBe(MIN_FONT);
    expect(model.height).toBeGreaterThan(480);
    expectLabelsInside(model, textWidth);
  });

  it("chooses smaller type where the labels are wider than the estimate, so none is cut", () => {
    // Capitals and bold type: half as wide again as the estimate.
    const wide: Measure = (text, size) => Math.ceil(textWidth(text, size) * 1.5);
    const room = { width: 1100, height: 2000 };
    const estimated = fitLayout(messages, room);
    const measured = fitLayout(messages, room, wide);
    expect(measured.fontSize).toBeLessThan(estimated.fontSize);
    expect(measured.fontSize).toBeGreaterThanOrEqual(MIN_FONT);
    expectLabelsInside(measured, wide);
  });

  it("cuts a label wider than the whole diagram at its end, and does not let it hold the type down", () => {
    const entries = straksJourney();
    const approve = entries.find((e) => e.kind === "exchange" && e.status === 303)!;
    const marker = `injected: 503 maintenance until 02:30 (rule ${"x".repeat(120)})`;
    const back = messagesOf(entries, new Map(), new Map([[approve.id, marker]]));
    const long = back.find((m) => m.key === `${approve.id}:res`);
    expect(long?.label.length).toBeGreaterThan(150);
    const model = fitLayout(back, { width: 1100, height: 2000 });
    expect(model.fontSize).toBeGreaterThan(MIN_FONT);
    const drawn = model.messages.find((m) => m.key === long?.key);
    expect(drawn?.drawn).toMatch(/^303 See Other \(redirect\) · injected: 503 maintenance.*…$/);
    expect(drawn?.label).toBe(long?.label);
    expectLabelsInside({ ...model, messages: model.messages.map((m) => ({ ...m, label: m.drawn })) }, textWidth);
    // The others are drawn whole.
    expect(model.messages.filter((m) => m.drawn !== m.label)).toHaveLength(1);
  });
});

// The traffic stream's resumption and de-duplication, and the filters as query and as a live predicate.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeEventSource } from "../test/fakeEventSource";
import { exchangeSummary } from "../test/fixtures";
import { compactEntry, connectTraffic, matchesFilter, trafficQuery } from "./traffic";
import type { Entry, ExchangeSummary } from "./traffic";

const exchange = (id: number, partial: Partial<ExchangeSummary> = {}): ExchangeSummary =>
  exchangeSummary(id, {
    tpp: { organisationId: "PSDNO-FSA-1", name: "Acme TPP", subject: "CN=Acme" },
    psuId: "p1",
    resources: [{ kind: "payment", id: "x" }],
    journeys: ["payment:x"],
    ...partial,
  });

describe("connectTraffic", () => {
  beforeEach(() => {
    FakeEventSource.reset();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("starts a margin before the page's newest id, drops repeats, and reopens a margin before the highest id seen", () => {
    const seen: number[] = [];
    const stream = connectTraffic({
      url: "http://h/workbench/api/traffic/stream?token=t",
      after: 10,
      resumeMargin: 2,
      create: (url) => new FakeEventSource(url),
      onEntry: (e) => seen.push(e.id),
      initialDelayMs: 100,
    });
    const first = FakeEventSource.latest();
    expect(first.url).toBe("http://h/workbench/api/traffic/stream?token=t&lastEventId=8");
    first.open();
    first.emitRaw("entry", exchange(11), 11);
    first.emitRaw("entry", exchange(11), 11);
    first.emitRaw("entry", exchange(12), 12);
    expect(seen).toEqual([11, 12]);
    // An exchange numbered when its request arrived, written after later entries: kept.
    first.emitRaw("entry", exchange(9), 9);
    expect(seen).toEqual([11, 12, 9]);
    // The browser gives up: the stream is reopened a margin before the highest id after the delay.
    first.fail(true);
    vi.advanceTimersByTime(100);
    const second = FakeEventSource.latest();
    expect(second).not.toBe(first);
    expect(second.url).toContain("lastEventId=10");
    second.emitRaw("entry", exchange(11), 11);
    second.emitRaw("entry", exchange(12), 12);
    second.emitRaw("entry", exchange(13), 13);
    expect(seen).toEqual([11, 12, 9, 13]);
    expect(stream.lastId()).toBe(13);
    stream.close();
    expect(second.readyState).toBe(2);
  });

  it("leaves a browser-side reconnect to the browser (it sends Last-Event-ID)", () => {
    connectTraffic({ url: "u", create: (url) => new FakeEventSource(url), onEntry: () => undefined });
    const es = FakeEventSource.latest();
    es.fail(false);
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});

describe("filters", () => {
  it("maps to the API's query, leaving out what is empty", () => {
    expect(trafficQuery({ tpp: " PSDNO-FSA-1 ", failed: true, status: "4xx", q: "" }, 50, 200)).toEqual({
      tpp: "PSDNO-FSA-1",
      psu: undefined,
      status: "4xx",
      failed: true,
      resource: undefined,
      journey: undefined,
      q: "",
      kind: undefined,
      before: 50,
      limit: 200,
    });
  });

  it("judges live entries as the service would", () => {
    const ok = exchange(1);
    const refused = exchange(2, { status: 400, failedStep: "signature", code: "BAD_REQUEST" });
    const event: Entry = { id: 3, kind: "event", at: "", event: "batch.run", data: {}, resources: [], journeys: [] };
    expect(matchesFilter(ok, {})).toBe(true);
    expect(matchesFilter(ok, { failed: true })).toBe(false);
    expect(matchesFilter(refused, { failed: true, status: "4xx" })).toBe(true);
    expect(matchesFilter(ok, { tpp: "PSDNO-FSA-1", psu: "p1" })).toBe(true);
    expect(matchesFilter(ok, { psu: "p2" })).toBe(false);
    expect(matchesFilter(ok, { resource: "payment:x" })).toBe(true);
    expect(matchesFilter(ok, { resource: "payment:y" })).toBe(false);
    expect(matchesFilter(refused, { q: "bad_request" })).toBe(true);
    expect(matchesFilter(ok, { q: "acme" })).toBe(true);
    // As the service's summary search: the PSU-ID, the TPP-Session-ID and the ids of named resources.
    expect(matchesFilter(exchange(7, { tppSessionId: "walkthrough-1" }), { q: "Walkthrough-1" })).toBe(true);
    expect(matchesFilter(ok, { q: "p1" })).toBe(true);
    expect(matchesFilter(ok, { q: "zzz" })).toBe(false);
    expect(matchesFilter(event, { failed: true })).toBe(false);
    expect(matchesFilter(event, { kind: "event" })).toBe(true);
  });

  it("leaves a 401 that asks for SCA out of the failed ones, as the service does", () => {
    const authorisation = { kind: "authorisation" as const, id: "a1" };
    const scaStart = exchange(4, { status: 401, code: "CONSENT_INVALID", resources: [authorisation] });
    const revoked = exchange(5, { status: 401, code: "CERTIFICATE_REVOKED", failedStep: "certificate" });
    const unknownPsu = exchange(6, { status: 401, code: "PSU_CREDENTIALS_INVALID" });
    expect(matchesFilter(scaStart, { failed: true })).toBe(false);
    expect(matchesFilter(scaStart, { status: "4xx" })).toBe(true);
    expect(matchesFilter(revoked, { failed: true })).toBe(true);
    expect(matchesFilter(unknownPsu, { failed: true })).toBe(true);
  });
});

describe("compactEntry", () => {
  it("shares repeated parts and keeps what the entry reads", () => {
    // Each a fresh copy, as the stream's JSON.parse gives them.
    const make = (id: number) => JSON.parse(JSON.stringify(exchange(id, { resources: [], journeys: [] }))) as Entry;
    const first = compactEntry(make(1));
    const second = compactEntry(make(2));
    expect(second.kind === "exchange" && first.kind === "exchange" && second.tpp === first.tpp).toBe(true);
    expect(second.resources).toBe(first.resources);
    expect(second.journeys).toBe(first.journeys);
    expect(second).toMatchObject({ id: 2, method: "GET", path: "/v1/accounts", psuId: "p1", resources: [], journeys: [] });
  });
});

// The inspector's lines: an event says its statuses, a long path keeps its distinguishing end.
import { describe, expect, it } from "vitest";
import type { EventEntry } from "../../api/traffic";
import { eventLine, splitPath } from "./TrafficList";

const event = (data: Record<string, unknown>): EventEntry => ({
  id: 1,
  kind: "event",
  at: "2026-06-01T12:00:00Z",
  event: "payment.status",
  data,
  resources: [],
  journeys: [],
});

describe("eventLine", () => {
  it("says a payment's statuses, in both notices the service logs", () => {
    expect(eventLine(event({ paymentId: "p", before: "RCVD", after: "ACTC", batchRunId: null }))).toBe("payment RCVD → ACTC");
    expect(eventLine(event({ paymentId: "p", transactionStatus: "RCVD" }))).toBe("payment RCVD");
  });
});

describe("splitPath", () => {
  it("keeps the last segments (ids shortened), to be cut in the middle", () => {
    const path = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks/52f2306c-04bd-44b9-a440-a2c321c1f59b/status";
    const [start, end] = splitPath(path);
    expect(start).toBe("/v1/payments/instant-norwegian-domestic-credit-transfers-straks");
    expect(end).toBe("/52f2306c…/status");
    expect(splitPath("/v1/consents")).toEqual(["/v1/consents", ""]);
    expect(splitPath("/v1/accounts/a/transactions/0123456789-0123456789-0123456789-0123456789")).toEqual([
      "/v1/accounts/a/transactions",
      "/0123456789-0123456789-0123456789-0123456789",
    ]);
  });
});

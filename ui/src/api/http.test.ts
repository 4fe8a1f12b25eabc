// The transport: the operator token on every request, JSON in and out, refusals as ApiError, warnings
// handed on, requests in flight counted.
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./errors";
import { AS_IS, AS_TEXT, answer, createTransport, queryString } from "./http";
import { json, mockFetch, refusal } from "../test/fetchMock";
import { SESSION } from "../test/harness";

const ACCOUNT = {
  id: "a1",
  resourceId: "a1",
  customerNumber: "14838510036",
  ownerName: "Kari Nordmann",
  bban: "12051000004",
  iban: "NO1612051000004",
  currency: "NOK",
  name: "X",
  product: "Brukskonto",
  cashAccountType: "CACC",
  status: "enabled",
  usage: "PRIV",
  balances: [],
};

const config = { baseUrl: "http://127.0.0.1:8080", token: "s3cret", desktop: false };

describe("transport", () => {
  it("sends the token as a bearer header under /workbench/api", async () => {
    const { fetch, calls } = mockFetch({ "GET /session": json(SESSION) });
    const t = createTransport(config, {}, fetch);
    await expect(answer(t.api.GET("/workbench/api/session"))).resolves.toEqual(SESSION);
    expect(calls[0]?.url).toBe("http://127.0.0.1:8080/workbench/api/session");
    expect(calls[0]?.headers.authorization).toBe("Bearer s3cret");
    expect(calls[0]?.headers.accept).toBe("application/json");
  });

  it("sends JSON bodies and query parameters, leaving out empty ones", async () => {
    const { fetch, calls } = mockFetch({ "GET /sandbox/payments": json([]) });
    const t = createTransport(config, {}, fetch);
    await answer(t.api.GET("/workbench/api/sandbox/payments", { params: { query: { limit: 5, status: undefined } } }));
    expect(calls[0]?.query.toString()).toBe("limit=5");
    expect(queryString({ limit: 5, status: "", before: null, tpp: undefined, failed: true })).toBe("limit=5&failed=true");
    const customer = { id: "c1", customerId: "c1", customerNumber: "14838510036", customerName: "Kari", name: "Kari", customerType: "private", type: "private" };
    const created = mockFetch({ "POST /sandbox/customers": json(customer, 201) });
    const api = createTransport(config, {}, created.fetch).api;
    await answer(api.POST("/workbench/api/sandbox/customers", { body: { customerNumber: "14838510036", name: "Kari", type: "private" } }));
    const sent = created.calls[0];
    expect(sent?.body).toEqual({ customerNumber: "14838510036", name: "Kari", type: "private" });
    expect(sent?.headers["content-type"]).toBe("application/json");
  });

  it("turns a refusal into an ApiError with the service's messages", async () => {
    const { fetch } = mockFetch({
      "POST /sandbox/accounts": refusal(400, { code: "FORMAT_ERROR", path: "bban", text: "bad check digit" }),
    });
    const t = createTransport(config, {}, fetch);
    const body = { customerNumber: "14838510036", accountName: "X", bban: "12051000005" };
    const error = await answer(t.api.POST("/workbench/api/sandbox/accounts", { body })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).messages[0]).toMatchObject({ code: "FORMAT_ERROR", path: "bban" });
  });

  it("reports a service that does not answer as a network error", async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError("Failed to fetch")));
    const t = createTransport(config, {}, fetch);
    const error = (await answer(t.api.GET("/workbench/api/session")).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(0);
    expect(error.messages[0]?.code).toBe("NETWORK");
  });

  it("hands the WARNINGs of a successful answer to the listener", async () => {
    const onWarnings = vi.fn();
    const { fetch } = mockFetch({
      "POST /sandbox/accounts": json({ ...ACCOUNT, tppMessages: [{ category: "WARNING", code: "FORMAT_ERROR", path: "bban", text: "heads up" }] }, 201),
    });
    const t = createTransport(config, { onWarnings }, fetch);
    const body = { customerNumber: "14838510036", accountName: "X", bban: "12051000004" };
    await answer(t.api.POST("/workbench/api/sandbox/accounts", { body }));
    expect(onWarnings).toHaveBeenCalledWith([{ category: "WARNING", code: "FORMAT_ERROR", path: "bban", text: "heads up" }]);
  });

  it("counts requests in flight", async () => {
    const counts: number[] = [];
    const { fetch } = mockFetch({ "GET /session": json(SESSION) });
    const t = createTransport(config, { onPending: (n) => counts.push(n) }, fetch);
    await answer(t.api.GET("/workbench/api/session"));
    expect(counts).toEqual([1, 0]);
  });

  it("answers undefined for 204", async () => {
    const { fetch } = mockFetch({ "DELETE /personas/p1": { status: 204 } });
    const t = createTransport(config, {}, fetch);
    await expect(answer(t.api.DELETE("/workbench/api/personas/{id}", { params: { path: { id: "p1" } } }))).resolves.toBeUndefined();
  });

  it("puts path parameters in as one encoded segment each", async () => {
    const { fetch, calls } = mockFetch({ "DELETE /snapshots/before%20a%2Fb": { status: 204 } });
    const t = createTransport(config, {}, fetch);
    await answer(t.api.DELETE("/workbench/api/snapshots/{name}", { params: { path: { name: "before a/b" } } }));
    expect(calls[0]?.url).toBe("http://127.0.0.1:8080/workbench/api/snapshots/before%20a%2Fb");
  });

  it("reads a text answer as it came, asking for any type", async () => {
    const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    const { fetch, calls } = mockFetch({ "GET /personas/p1/certificate": { text: pem } });
    const t = createTransport(config, {}, fetch);
    const got = await answer(t.api.GET("/workbench/api/personas/{id}/certificate", { params: { path: { id: "p1" } }, ...AS_TEXT }));
    expect(got).toBe(pem);
    expect(calls[0]?.headers.accept).toBe("*/*");
  });

  it("sends a file's JSON text as it is", async () => {
    const file = '{ "format": "xs2a-sandbox/state",\n  "version": 2, "trees": {} }';
    const sent: string[] = [];
    const fetch = vi.fn(async (request: Request) => {
      sent.push(await request.text());
      return new Response(JSON.stringify({ applied: false }), { status: 200 });
    });
    const t = createTransport(config, {}, fetch as unknown as typeof globalThis.fetch);
    await answer(t.api.POST("/workbench/api/state", { body: file as never, ...AS_IS }));
    expect(sent).toEqual([file]);
  });

  it("refuses an answer that should be JSON and is not", async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response("<html>proxy</html>", { status: 200 })));
    const t = createTransport(config, {}, fetch);
    const error = (await answer(t.api.GET("/workbench/api/session")).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.messages[0]?.code).toBe("FORMAT");
  });

  it("puts the token in the URL for places that cannot send a header", () => {
    const t = createTransport({ ...config, token: "a b" });
    expect(t.url("/workbench/api/events", true)).toBe("http://127.0.0.1:8080/workbench/api/events?token=a%20b");
    expect(t.url("/workbench/api/events")).toBe("http://127.0.0.1:8080/workbench/api/events");
  });
});

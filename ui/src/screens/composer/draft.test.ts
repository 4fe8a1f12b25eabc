// The composer's conversions between operations, past drafts and the Draft the service takes.
import { describe, expect, it } from "vitest";
import { fillPath, fromDraft, fromOperation, learn, matchTemplate, scaRedirectOf, toDraft, unfilled } from "./draft";
import type { Operation } from "../../api/types";

const OP: Operation = {
  id: "status",
  operationId: "payment_status",
  hints: [],
  group: "Payments",
  name: "Status",
  method: "GET",
  path: "/v1/{paymentService}/{paymentProduct}/{paymentId}/status",
  pathParams: [
    { name: "paymentService", description: "", follows: "payment", source: null, values: ["payments", "periodic-payments", "bulk-payments"] },
    { name: "paymentProduct", description: "", follows: "payment", source: null, values: ["instant-norwegian-domestic-credit-transfers-straks", "norwegian-domestic-credit-transfers"] },
    { name: "paymentId", description: "", follows: "payment", source: null, values: null },
  ],
  query: [{ name: "x", value: "1", required: false, values: null }],
  headers: [["PSU-ID", "{{persona.psuId}}"]],
  role: "PSP_PI",
  description: "",
  body: null,
};

describe("draft", () => {
  it("fills path parameters, keeping placeholders for the empty ones", () => {
    expect(fillPath("/v1/{a}/{b}", { a: "x y", b: "" })).toBe("/v1/x%20y/{b}");
  });

  it("starts an operation with the resource its parameters follow, enumerated ones at their first value", () => {
    const e = fromOperation(OP, "p1", { payment: { paymentId: "pay-1", id: "pay-1" } });
    expect(e.method).toBe("GET");
    expect(e.path).toBe("/v1/payments/instant-norwegian-domestic-credit-transfers-straks/pay-1/status");
    expect(e.query).toEqual([["x", "1"]]);
    expect(e.headers).toEqual([["PSU-ID", "{{persona.psuId}}"]]);
  });

  it("makes a Draft without empty parts and back again", () => {
    const draft = toDraft({
      personaId: "p1",
      method: "POST",
      path: " /v1/consents ",
      template: null,
      params: {},
      query: [["a", "1 2"], ["", "ignored"], ["allowLogicalDuplicate", ""]],
      headers: [["X-Request-ID", "r"], [" ", "ignored"]],
      body: "  ",
    });
    expect(draft).toEqual({ personaId: "p1", method: "POST", path: "/v1/consents", query: "a=1+2", headers: [["X-Request-ID", "r"]] });
    expect(fromDraft(draft).query).toEqual([["a", "1 2"]]);
  });

  it("finds the scaRedirect link", () => {
    const body = JSON.stringify({ paymentId: "pay-2", _links: { scaRedirect: { href: "http://h/sca/1" } } });
    expect(scaRedirectOf(body)).toBe("http://h/sca/1");
    expect(scaRedirectOf("not json")).toBeNull();
  });

  it("learns the payment an answer created with the service and product it was created under", () => {
    const create: Operation = {
      ...OP,
      id: "domestic",
      method: "POST",
      path: "/v1/{paymentService}/{paymentProduct}",
      pathParams: OP.pathParams.slice(0, 2).map((p) => ({ ...p, follows: null })),
    };
    const known = learn({}, [create, OP], { method: "POST", path: "/v1/periodic-payments/norwegian-domestic-credit-transfers" }, 201, JSON.stringify({ paymentId: "pay-3" }));
    const next = fromOperation(OP, "p1", known);
    expect(next.path).toBe("/v1/periodic-payments/norwegian-domestic-credit-transfers/pay-3/status");
    expect(unfilled(next)).toEqual([]);
    // A refusal teaches nothing; an account list names its first account.
    expect(learn({}, [create], { method: "POST", path: "/v1/payments/x" }, 400, JSON.stringify({ paymentId: "p" }))).toEqual({});
    expect(learn({}, [], { method: "GET", path: "/v1/accounts" }, 200, JSON.stringify({ accounts: [{ resourceId: "acc-1" }] }))).toEqual({
      account: { accountId: "acc-1", id: "acc-1" },
    });
  });

  it("names the parameters still empty, in a template or typed into a custom path", () => {
    const e = fromOperation(OP, "p1", {});
    expect(unfilled(e)).toEqual(["paymentId"]);
    expect(unfilled({ ...e, template: null, path: "/v1/consents/{consentId}" })).toEqual(["consentId"]);
    expect(matchTemplate("/v1/consents/{consentId}", "/v1/consents/c-1?x=1")).toEqual({ consentId: "c-1" });
    expect(matchTemplate("/v1/consents/{consentId}", "/v1/consents")).toBeNull();
  });
});

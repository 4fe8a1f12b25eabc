// The composer's conversions between operations, past drafts and the Draft the service takes.
import { describe, expect, it } from "vitest";
import { fillPath, fromDraft, fromOperation, idsFrom, scaRedirectOf, toDraft } from "./draft";
import type { Operation } from "../../api/types";

const OP: Operation = {
  id: "status",
  group: "Payments",
  name: "Status",
  method: "get",
  path: "/v1/{service}/{product}/{paymentId}/status",
  pathParams: [
    { name: "service", description: "" },
    { name: "product", description: "" },
    { name: "paymentId", description: "", source: "paymentId" },
  ],
  query: [{ name: "x", value: "1", required: false }],
  headers: [["PSU-ID", "{{persona.psuId}}"]],
  role: "PSP_PI",
  description: "",
};

describe("draft", () => {
  it("fills path parameters, keeping placeholders for the empty ones", () => {
    expect(fillPath("/v1/{a}/{b}", { a: "x y", b: "" })).toBe("/v1/x%20y/{b}");
  });

  it("starts an operation with ids seen earlier", () => {
    const e = fromOperation(OP, "p1", { paymentId: "pay-1" });
    expect(e.method).toBe("GET");
    expect(e.path).toBe("/v1/{service}/{product}/pay-1/status");
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
      query: [["a", "1 2"], ["", "ignored"]],
      headers: [["X-Request-ID", "r"], [" ", "ignored"]],
      body: "  ",
    });
    expect(draft).toEqual({ personaId: "p1", method: "POST", path: "/v1/consents", query: "a=1+2", headers: [["X-Request-ID", "r"]] });
    expect(fromDraft(draft).query).toEqual([["a", "1 2"]]);
  });

  it("finds the scaRedirect link and the ids an answer carries", () => {
    const body = JSON.stringify({ paymentId: "pay-2", _links: { scaRedirect: { href: "http://h/sca/1" } } });
    expect(scaRedirectOf(body)).toBe("http://h/sca/1");
    expect(scaRedirectOf("not json")).toBeNull();
    expect(idsFrom(body)).toEqual({ paymentId: "pay-2" });
    expect(idsFrom(JSON.stringify({ accounts: [{ resourceId: "acc-1" }] }))).toEqual({ accountId: "acc-1" });
  });
});

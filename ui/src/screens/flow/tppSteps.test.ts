// The TPP's next step in presentation: the story's persona, the order of the steps, each step's request made
// from the composer's form of it, and the scaRedirect an answer links to.
import { describe, expect, it } from "vitest";
import type { Operation, Persona } from "../../api/types";
import { draftOf, nextStep, paymentOf, scaRedirectOf, storyPersona } from "./tppSteps";

function persona(partial: Partial<Persona>): Persona {
  return {
    certificateSha256: "00:11",
    id: "p",
    issuer: "CN=Test CA",
    name: "P",
    notAfter: "2030-01-01T00:00:00Z",
    notBefore: "2020-01-01T00:00:00Z",
    organisationId: "PSDNO-FSA-1",
    problem: null,
    psuCorporateId: null,
    psuId: null,
    roles: ["PSP_AI", "PSP_PI"],
    serial: "01",
    source: "issued",
    status: "valid",
    subject: "CN=P",
    tppSessionId: null,
    ...partial,
  };
}

const STATUS: Operation = {
  id: "payment-status",
  operationId: "get_v1_service_product_paymentId_status",
  group: "Payments",
  name: "Payment status",
  method: "GET",
  path: "/v1/{service}/{product}/{paymentId}/status",
  pathParams: [],
  query: [],
  headers: [],
  body: null,
  role: "PSP_PI",
  description: "",
  hints: [],
};

describe("the TPP's next step", () => {
  it("tells the story as one persona holding both roles: the journey's own, else a bundled one", () => {
    const aisOnly = persona({ id: "ais", name: "AIS only", roles: ["PSP_AI"], source: "bundled" });
    const expired = persona({ id: "old", name: "Expired", status: "expired", source: "bundled" });
    const bundled = persona({ id: "both", name: "Sandbox AISP PISP AS", source: "bundled" });
    const issued = persona({ id: "mine", name: "My TPP" });
    expect(storyPersona([aisOnly, expired, issued, bundled])?.id).toBe("both");
    expect(storyPersona([aisOnly, expired, issued, bundled], "My TPP")?.id).toBe("mine");
    expect(storyPersona([aisOnly, expired], "AIS only")).toBeNull();
  });

  it("moves on as a demo does: consent, accounts, a payment, its status, another payment", () => {
    expect(nextStep("consent")).toBe("accounts");
    expect(nextStep("accounts")).toBe("domestic");
    expect(nextStep("straks")).toBe("status");
    expect(nextStep("status")).toBe("domestic");
  });

  it("reads a payment's status with the journey's payment, and not without one", () => {
    const payment = paymentOf("payment:p-1", "/v1/payments/norwegian-domestic-credit-transfers");
    expect(payment).toEqual({ service: "payments", product: "norwegian-domestic-credit-transfers", paymentId: "p-1" });
    expect(draftOf(STATUS, "both", payment)).toEqual({
      personaId: "both",
      method: "GET",
      path: "/v1/payments/norwegian-domestic-credit-transfers/p-1/status",
      headers: [],
    });
    expect(draftOf(STATUS, "both", null)).toBeNull();
    expect(paymentOf("consent:a1", "/v1/payments/x")).toBeNull();
    expect(paymentOf("payment:p-1", "/v1/payments/x/p-1/authorisations")).toBeNull();
  });

  it("finds the bank's page an answer sends the PSU to", () => {
    expect(scaRedirectOf('{"_links": {"scaRedirect": {"href": "http://h/sca/a1"}}}')).toBe("http://h/sca/a1");
    expect(scaRedirectOf('{"_links": {"scaRedirect": "http://h/sca/a2"}}')).toBe("http://h/sca/a2");
    expect(scaRedirectOf('{"accounts": []}')).toBeNull();
    expect(scaRedirectOf("not json")).toBeNull();
  });
});

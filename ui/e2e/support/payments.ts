// Payments made outside the UI for the tests that need one to look at: an external TPP app signs with the
// service's CLI (./tpp.ts), and the PSU's approval is done through the sandbox's SCA automation endpoint,
// as a CI script would. The UI under test then shows what happened.
import { expect } from "@playwright/test";
import type { APIRequestContext } from "@playwright/test";
import { randomUUID } from "node:crypto";
import type { Workbench } from "./service";
import { send, sign } from "./tpp";

export const DOMESTIC = "/v1/payments/norwegian-domestic-credit-transfers";
export const STRAKS = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";

export interface Made {
  paymentId: string;
  authorisationId: string;
}

/** A payment from Kari's current account to Ola's, created by an external TPP (RCVD, waiting for the PSU). */
export async function externalPayment(request: APIRequestContext, wb: Workbench, product = DOMESTIC, remittance = "e2e"): Promise<Made> {
  const url = `${wb.baseUrl}${product}`;
  const body = JSON.stringify({
    instructedAmount: { amount: `${10 + Math.floor(Math.random() * 90)}.00`, currency: "NOK" },
    debtorAccount: { bban: "12051000003", currency: "NOK" },
    creditorName: "Ola Nordmann",
    creditorAccount: { bban: "12051001018", currency: "NOK" },
    creditorAddress: { street: "Storgata", buildingNumber: "1", postalCode: "0155", townName: "Oslo", country: "NO" },
    remittanceInformationUnstructured: `${remittance} ${randomUUID().slice(0, 8)}`,
  });
  const headers = {
    "Content-Type": "application/json",
    "x-accept-fix": "amount-as-string",
    "TPP-Session-ID": randomUUID(),
    "TPP-Redirect-URI": wb.callbackUrl,
    "PSU-IP-Address": "192.0.2.10",
    "PSU-Context": "PRIVATE",
  };
  const created = await send(request, "POST", url, { ...headers, ...sign("POST", url, headers, body).headers }, body);
  expect(created.status(), await created.text()).toBe(201);
  const answer = (await created.json()) as { paymentId: string; _links?: { scaRedirect?: { href: string } | string } };
  const link = answer._links?.scaRedirect;
  const href = typeof link === "string" ? link : (link?.href ?? "");
  return { paymentId: answer.paymentId, authorisationId: href.split("/").pop() ?? "" };
}

/** The PSU approves through the sandbox's automation endpoint (what the bank's pages do). */
export async function approveByAutomation(request: APIRequestContext, wb: Workbench, made: Made, nationalId = "14838510036") {
  const url = `${wb.baseUrl}/v1/sandbox/sca/${made.authorisationId}`;
  const body = JSON.stringify({ nationalId });
  const headers = { "Content-Type": "application/json" };
  const answer = await send(request, "POST", url, { ...headers, ...sign("POST", url, headers, body).headers }, body);
  expect(answer.status(), await answer.text()).toBeLessThan(300);
}

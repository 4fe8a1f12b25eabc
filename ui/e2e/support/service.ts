// The running service the end-to-end tests use (XS2A_WORKBENCH_URL, started by scripts/test-browser.sh):
// its tokenised workbench URL, its session, and the workbench API for a test's own setup and checks (the
// UI is what is under test; the API only prepares data and reads back what the UI did).
import { expect } from "@playwright/test";
import type { APIRequestContext } from "@playwright/test";

export const URL_WITH_TOKEN = process.env.XS2A_WORKBENCH_URL ?? "";

export interface Workbench {
  origin: string;
  token: string;
  baseUrl: string;
  callbackUrl: string;
}

export async function workbench(request: APIRequestContext, url = URL_WITH_TOKEN): Promise<Workbench> {
  const parsed = new URL(url);
  const token = parsed.searchParams.get("token") ?? "";
  const answer = await request.get(`${parsed.origin}/workbench/api/session`, { headers: { Authorization: `Bearer ${token}` } });
  const session = (await answer.json()) as { baseUrl: string; callbackUrl: string };
  return { origin: parsed.origin, token, baseUrl: session.baseUrl, callbackUrl: session.callbackUrl };
}

/** A workbench API call that must succeed; its JSON answer. */
export async function api<T = unknown>(request: APIRequestContext, wb: Workbench, method: string, path: string, data?: unknown): Promise<T> {
  const answer = await request.fetch(`${wb.origin}/workbench/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${wb.token}`, "Content-Type": "application/json" },
    ...(data !== undefined ? { data: JSON.stringify(data) } : {}),
    failOnStatusCode: false,
  });
  expect(answer.status(), `${method} ${path}: ${await answer.text()}`).toBeLessThan(300);
  return (await answer.json().catch(() => null)) as T;
}

export interface CustomerView {
  id: string;
  customerNumber: string;
  name: string;
  accounts: { id: string; bban: string; name: string }[];
  cardAccounts: { id: string; maskedPan: string; name: string }[];
}

export async function customers(request: APIRequestContext, wb: Workbench): Promise<CustomerView[]> {
  return api<CustomerView[]>(request, wb, "GET", "/sandbox/customers");
}

/** A private customer of one's own with a funded current account (numbers unique to the test run). */
export async function fundedCustomer(request: APIRequestContext, wb: Workbench, name: string, nationalId: string, bban: string) {
  await api(request, wb, "POST", "/sandbox/customers", { customerNumber: nationalId, name, type: "private" });
  await api(request, wb, "POST", "/sandbox/accounts", {
    customerNumber: nationalId,
    accountName: "Brukskonto",
    bban,
    balances: [{ balanceType: "interimAvailable", balanceAmount: { amount: "10000.00", currency: "NOK" } }],
  });
}

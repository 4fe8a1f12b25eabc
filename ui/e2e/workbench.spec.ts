// End to end, against a running `xs2a-sandbox serve` (XS2A_WORKBENCH_URL = its tokenised /workbench/ URL)
// in Debian's headless chromium: reset the sandbox, make a customer and an account, send a signed straks
// payment, approve it in the bank's SCA pages (a popup), see the callback; send a domestic payment, approve
// it, advance the clock to the next batch run and see its status change; and see an expired persona
// refused, and find it in the inspector. Screenshots of each screen go to XS2A_SCREENSHOTS when set.
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { approveInBank } from "./support/bank";
import { bban, syntheticNationalId } from "./support/numbers";
import {
  chooseOperation,
  ensureHeader,
  removeHeader,
  responseBody,
  setHeader,
  setRequest,
  show,
  snap,
} from "./support/workbench";

const URL_WITH_TOKEN = process.env.XS2A_WORKBENCH_URL ?? "";
const STRAKS = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";
const DOMESTIC = "/v1/payments/norwegian-domestic-credit-transfers";
const OLA_CURRENT = "12051001018";

const customerNumber = syntheticNationalId();
const accountBban = bban();

function payment(remittance: string): string {
  return JSON.stringify(
    {
      instructedAmount: { amount: "100.00", currency: "NOK" },
      debtorAccount: { bban: accountBban, currency: "NOK" },
      creditorName: "Ola Nordmann",
      creditorAccount: { bban: OLA_CURRENT, currency: "NOK" },
      creditorAddress: { street: "Storgata", buildingNumber: "1", postalCode: "0155", townName: "Oslo", country: "NO" },
      remittanceInformationUnstructured: remittance,
    },
    null,
    2,
  );
}

/**
 * The payment id, from the `self` link near the top of the answer: the code editor renders only the lines
 * in view, so `paymentId` further down may not be in the page.
 */
function paymentIdOf(body: string): string | undefined {
  return /"href":\s*"\/v1\/[a-z-]+\/[a-z-]+\/([0-9a-f-]{36})"/.exec(body)?.[1];
}

/** The headers a payment needs besides the ones the service adds when signing. */
async function paymentHeaders(page: Page, psuKnown: boolean) {
  const panel = page.getByRole("tabpanel", { name: "Composer", exact: true });
  const persona = await panel.getByRole("combobox", { name: "Persona", exact: true }).inputValue();
  await ensureHeader(panel, "x-accept-fix", "amount-as-string");
  await ensureHeader(panel, "TPP-Session-ID", "{{persona.tppSessionId}}");
  // The contract's redirect: the workbench callback, naming the persona that gets the PSU-ID.
  await ensureHeader(panel, "TPP-Redirect-URI", `{{callbackUrl}}?persona=${persona}`);
  await ensureHeader(panel, "PSU-IP-Address", "127.0.0.1");
  if (psuKnown) {
    await setHeader(panel, "PSU-ID", "{{persona.psuId}}");
    await removeHeader(panel, "PSU-Context");
  } else {
    // No PSU-ID yet: the payment's SCA identifies the PSU and returns the psu-id in the callback.
    await removeHeader(panel, "PSU-ID");
    await setHeader(panel, "PSU-Context", "PRIVATE");
  }
}

/** Sends the composed request with Ctrl+Enter and answers the response body once the status is shown. */
async function sendAndExpect(page: Page, status: number): Promise<string> {
  const panel = page.getByRole("tabpanel", { name: "Composer", exact: true });
  const before = await panel.getByRole("list", { name: "Sent requests" }).getByRole("listitem").count().catch(() => 0);
  await panel.getByRole("textbox", { name: "Request body", exact: true }).click();
  await page.keyboard.press("Control+Enter");
  await expect(panel.getByRole("list", { name: "Sent requests" }).getByRole("listitem")).toHaveCount(before + 1);
  const response = panel.getByRole("region", { name: "Response", exact: true });
  await expect(response.getByRole("status")).toContainText(String(status));
  return responseBody(panel);
}

/** Opens the SCA the last response links to and approves it as the customer. */
async function approveLastResponse(page: Page) {
  const panel = page.getByRole("tabpanel", { name: "Composer", exact: true });
  const response = panel.getByRole("region", { name: "Response", exact: true });
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    response.getByRole("button", { name: "Open SCA", exact: true }).click(),
  ]);
  await approveInBank(popup, customerNumber);
  await expect(popup.getByText(/SCA finished/i).first()).toBeVisible();
  await popup.close();
}

test.describe("workbench end to end", () => {
  test.skip(!URL_WITH_TOKEN, "set XS2A_WORKBENCH_URL to the tokenised /workbench/ URL of a running service");

  test("sandbox data, a signed payment through SCA, a batch run, and a refusal", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    // The token is kept for the session and taken out of the address bar.
    await expect(page).not.toHaveURL(/token=/);
    await expect(page.getByRole("status", { name: "Live events" })).toHaveText("Live");

    // 1. Sandbox data: reset, a customer, an account with money on it.
    let panel = await show(page, "Sandbox data");
    await panel.getByRole("button", { name: "Initialise / reset sandbox" }).click();
    await page.getByRole("dialog", { name: "Initialise the sandbox?" }).getByRole("button", { name: "Initialise", exact: true }).click();
    await expect(page.getByRole("log", { name: "Notices" })).toContainText("Sandbox initialised");
    await panel.getByRole("button", { name: "New customer", exact: true }).click();
    const customerForm = panel.getByRole("form", { name: "New customer" });
    await customerForm.getByLabel("Type", { exact: true }).selectOption("private");
    await customerForm.getByLabel("National identity number", { exact: true }).fill(customerNumber);
    await customerForm.getByLabel("Name", { exact: true }).fill("Eva Ende-til-ende");
    await customerForm.getByRole("button", { name: "Create customer" }).click();
    await expect(panel.getByRole("article", { name: "Customer Eva Ende-til-ende" })).toBeVisible();
    await panel.getByRole("button", { name: "New account", exact: true }).click();
    const accountForm = panel.getByRole("form", { name: "New account" });
    await accountForm.getByLabel("Account name", { exact: true }).fill("Brukskonto");
    await accountForm.getByLabel("BBAN", { exact: true }).fill(accountBban);
    await accountForm.getByRole("button", { name: "Add balance" }).click();
    await accountForm.getByLabel("Balance 1 type", { exact: true }).selectOption("interimAvailable");
    await accountForm.getByLabel("Balance 1 amount", { exact: true }).fill("10000.00");
    await accountForm.getByRole("button", { name: "Create account" }).click();
    await expect(panel.getByRole("list", { name: "Accounts of this customer" })).toContainText(accountBban);
    await snap(page, "1-sandbox-data");

    // 2. Composer: a signed straks payment; the preview shows the signing string first.
    panel = await show(page, "Composer");
    await chooseOperation(panel, "POST", STRAKS);
    await setRequest(panel, "POST", STRAKS, payment("e2e straks"));
    await paymentHeaders(page, false);
    await panel.getByRole("button", { name: "Preview", exact: true }).click();
    const preview = panel.getByRole("region", { name: "Preview", exact: true });
    await expect(preview.getByLabel("Signing string", { exact: true })).toContainText("digest:");
    const straks = await sendAndExpect(page, 201);
    expect(straks).toContain("scaRedirect");
    const straksId = paymentIdOf(straks);
    expect(straksId).toBeTruthy();
    await snap(page, "2-composer");

    // 3. SCA in the bank's pages (a popup in the browser), then the callback on the SCA screen.
    await approveLastResponse(page);
    panel = await show(page, "SCA");
    const callbacks = panel.getByRole("table", { name: "SCA callbacks, newest first" });
    await expect(callbacks.getByRole("row").nth(1)).toContainText("success");
    await expect(callbacks.getByRole("row").nth(1)).toContainText("psu-id");
    await snap(page, "3-sca");

    // The persona got the PSU-ID from the callback; the composer shows it.
    panel = await show(page, "Composer");
    await expect(panel.getByLabel("PSU-ID", { exact: true })).not.toHaveValue("");

    // 4. A domestic payment waits for the batch: approve it, advance to the next run, see it booked.
    await chooseOperation(panel, "POST", DOMESTIC);
    await setRequest(panel, "POST", DOMESTIC, payment("e2e domestic"));
    await paymentHeaders(page, true);
    const domestic = await sendAndExpect(page, 201);
    const domesticId = paymentIdOf(domestic) ?? "";
    expect(domesticId).not.toBe("");
    await approveLastResponse(page);

    panel = await show(page, "Batch & clock");
    const payments = panel.getByRole("table", { name: "Payments, newest first" });
    await expect(payments.getByRole("row", { name: new RegExp(straksId ?? "-") })).toContainText(/ACSC|RJCT/);
    const row = payments.getByRole("row", { name: new RegExp(domesticId) });
    await expect(row).toContainText("ACTC");
    await panel.getByRole("button", { name: "Advance to the next run" }).click();
    await expect(row).toContainText("ACSC");
    // The newest run (a <details>, role group) opens to each payment's status before and after.
    const run = panel.getByRole("list", { name: "Past batch runs" }).getByRole("group").first();
    await run.getByText(/payments/).first().click();
    const outcomes = run.getByRole("table", { name: "What the run did to each payment" });
    await expect(outcomes.getByRole("row", { name: new RegExp(domesticId) })).toContainText("ACTC");
    await expect(outcomes.getByRole("row", { name: new RegExp(domesticId) })).toContainText("ACSC");
    await snap(page, "4-batch-and-clock");

    // 5. A refusal: a persona whose certificate expired yesterday.
    panel = await show(page, "Composer");
    await panel.getByRole("button", { name: "Issue persona…" }).click();
    const issue = page.getByRole("dialog", { name: "Issue a persona" });
    await issue.getByLabel("Persona name", { exact: true }).fill("Expired e2e");
    await issue.getByLabel("Expired (expired yesterday)").check();
    await issue.getByRole("button", { name: "Issue persona", exact: true }).click();
    await expect(issue).toBeHidden();
    const chosen = panel.getByRole("combobox", { name: "Persona", exact: true });
    await expect(chosen.locator("option:checked")).toContainText("Expired e2e");
    await expect(panel.getByRole("region", { name: "Signing persona", exact: true })).toContainText("expired");
    await chooseOperation(panel, "GET", "/v1/accounts");
    await setRequest(panel, "GET", "/v1/accounts");
    const refusal = await sendAndExpect(page, 400);
    expect(refusal).toMatch(/certificate/i);
    await snap(page, "5-composer-refusal");

    // 6. The traffic log's screens: the refusal is in the inspector's list; the payments have journeys.
    panel = await show(page, "Inspector");
    await expect(panel.getByRole("list", { name: "Exchanges" }).getByRole("listitem").last()).toContainText("/v1/accounts");
    await snap(page, "6-inspector");
    panel = await show(page, "Flow");
    await expect(panel.getByRole("img", { name: "Sequence diagram" })).toBeVisible();
    await snap(page, "7-flow");
  });
});

// The traffic inspector and the flow view end to end, against a running service (XS2A_WORKBENCH_URL: the
// tokenised workbench URL, e.g. the Vite server in front of `xs2a-sandbox serve`): an external TPP app signs
// with `xs2a-sandbox sign` (XS2A_SANDBOX_BIN) and sends a request with a deliberately wrong Digest and one
// carrying a Digest its signature does not list; the inspector shows the failing step and the marked
// difference. A straks payment made by that app and approved on the bank's pages appears in the flow view
// with its lanes and statuses, and presentation mode steps through it. Screenshots go to XS2A_SCREENSHOTS.
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { approveInBank } from "./support/bank";
import { approveByAutomation, externalPayment } from "./support/payments";
import { bban, syntheticNationalId } from "./support/numbers";
import { send, sha256Digest, sign } from "./support/tpp";
import { show, snap } from "./support/workbench";

const URL_WITH_TOKEN = process.env.XS2A_WORKBENCH_URL ?? "";
const STRAKS = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";
const OLA_CURRENT = "12051001018";
const CONSENT = JSON.stringify({
  access: { balances: [], transactions: [] },
  recurringIndicator: false,
  validUntil: "2026-12-31",
  frequencyPerDay: 4,
});

interface Workbench {
  origin: string;
  token: string;
  baseUrl: string;
  callbackUrl: string;
}

async function workbench(request: APIRequestContext): Promise<Workbench> {
  const url = new URL(URL_WITH_TOKEN);
  const token = url.searchParams.get("token") ?? "";
  const answer = await request.get(`${url.origin}/workbench/api/session`, { headers: { Authorization: `Bearer ${token}` } });
  const session = (await answer.json()) as { baseUrl: string; callbackUrl: string };
  return { origin: url.origin, token, baseUrl: session.baseUrl, callbackUrl: session.callbackUrl };
}

async function api(request: APIRequestContext, wb: Workbench, method: string, path: string, data?: unknown) {
  const answer = await request.fetch(`${wb.origin}/workbench/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${wb.token}`, "Content-Type": "application/json" },
    ...(data !== undefined ? { data: JSON.stringify(data) } : {}),
    failOnStatusCode: false,
  });
  expect(answer.status(), `${method} ${path}: ${await answer.text()}`).toBeLessThan(300);
  return (await answer.json().catch(() => null)) as unknown;
}

function rows(page: Page, text: RegExp) {
  const panel = page.getByRole("tabpanel", { name: "Inspector", exact: true });
  return panel.getByRole("listbox", { name: "Exchanges" }).getByRole("option").filter({ hasText: text });
}

/** Waits for the live list to show one more line like `text` than `before`, and opens it. */
async function openNew(page: Page, text: RegExp, before: number) {
  await expect(rows(page, text)).toHaveCount(before + 1);
  await rows(page, text).last().click();
  return page.getByRole("tabpanel", { name: "Inspector", exact: true }).getByRole("article", { name: /^Exchange \d+$/ });
}

test.describe("traffic inspector and flow view", () => {
  test("a wrong Digest and an unsigned Digest: the failing step, the marked difference, the cause", async ({ page, request, context }) => {
    const wb = await workbench(request);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    await expect(panel.getByRole("status").filter({ hasText: "live: open" })).toBeVisible();

    await panel.getByRole("checkbox", { name: "Failed only" }).check();
    const REFUSED = /POST\/v1\/consents400 ✕/;
    await expect(panel.getByRole("status").filter({ hasText: "live: open" })).toBeVisible();
    let before = await rows(page, REFUSED).count();

    // 0. The ordinary start of a consent journey, a 401 that asks for SCA, is not a refusal: once the next
    // refusal is listed live, it is not (it is again when "Failed only" is cleared).
    const SCA_START = /GET\/v1\/accounts401/;
    const accounts = `${wb.baseUrl}/v1/accounts`;
    const ask = sign("GET", accounts, { "TPP-Session-ID": randomUUID(), "TPP-Redirect-URI": wb.callbackUrl });
    expect((await send(request, "GET", accounts, ask.headers)).status()).toBe(401);

    // 1. Signed properly, then the Digest replaced by one over a different body.
    const url = `${wb.baseUrl}/v1/consents`;
    const signed = sign("POST", url, { "Content-Type": "application/json" }, CONSENT);
    const spoiled = { ...signed.headers, Digest: sha256Digest(`${CONSENT} `) };
    const refused = await send(request, "POST", url, spoiled, CONSENT);
    expect(refused.status()).toBe(400);

    const exchange = await openNew(page, REFUSED, before);
    await expect(rows(page, SCA_START)).toHaveCount(0);
    const verdict = exchange.getByRole("list", { name: "Gate verdict" });
    const failing = verdict.locator('[aria-current="step"]');
    await expect(failing).toContainText("digest");
    await expect(failing).toContainText("Rule: Digest is the algorithm name");
    await expect(exchange.getByRole("note")).toContainText("Digest over a different body");
    // The client's signing string, pasted: the digest line differs.
    await exchange.getByLabel("The client's signing string (paste it to compare)").fill(signed.signingString);
    await expect(exchange.getByText(/^1 line differs/)).toBeVisible();
    const changed = exchange.getByRole("table", { name: "Signing string comparison" }).locator('tr[data-kind="changed"]');
    await expect(changed).toHaveCount(1);
    await expect(changed).toContainText("digest: SHA-256=");
    expect(await changed.locator("mark").count()).toBeGreaterThan(0);
    await snap(page, "inspector-wrong-digest");

    // 2. Signed without a body, then sent with a body and its (correct) Digest: the Digest is not signed.
    before = await rows(page, REFUSED).count();
    const unsigned = sign("POST", url, { "Content-Type": "application/json" });
    const extra = await send(request, "POST", url, { ...unsigned.headers, Digest: sha256Digest(CONSENT) }, CONSENT);
    expect(extra.status()).toBe(400);
    const second = await openNew(page, REFUSED, before);
    await expect(second.locator('[aria-current="step"]')).toContainText("signed headers");
    await expect(second.getByRole("note")).toContainText("Header missing from the signed list: the request carries digest");
    await snap(page, "inspector-unsigned-header");
    await panel.getByRole("checkbox", { name: "Failed only" }).uncheck();
    await expect(rows(page, SCA_START)).not.toHaveCount(0);
    await snap(page, "inspector-sca-start-listed");

    // Copy as HAR entry; open in the composer, where the request is a draft to edit and re-send.
    await second.getByRole("button", { name: "Copy as HAR entry" }).click();
    await expect(page.getByRole("log", { name: "Notices" })).toContainText("Copied as HAR entry");
    const har = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { request: { method: string; url: string } };
    expect(har.request).toMatchObject({ method: "POST", url: `${wb.baseUrl}/v1/consents` });
    await second.getByRole("button", { name: "Open in composer" }).click();
    const composer = page.getByRole("tabpanel", { name: "Composer", exact: true });
    await expect(page.getByRole("tab", { name: "Composer", exact: true })).toHaveAttribute("aria-selected", "true");
    await expect(composer.getByLabel("Path", { exact: true })).toHaveValue("/v1/consents");
    await expect(composer.getByLabel("Method", { exact: true })).toHaveValue("POST");
    await show(page, "Inspector");

    // The list's keyboard: the list keeps the focus and names the row it is on (aria-activedescendant), so
    // arrowing announces the row; Home, then Enter opens the first line.
    const list = panel.getByRole("listbox", { name: "Exchanges" });
    await list.focus();
    await page.keyboard.press("Home");
    const active = await list.getAttribute("aria-activedescendant");
    expect(active).toBeTruthy();
    await expect(page.locator(`#${active ?? "none"}`)).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowDown");
    expect(await list.getAttribute("aria-activedescendant")).not.toBe(active);
    await expect(list).toBeFocused();
    await page.keyboard.press("Home");
    await page.keyboard.press("Enter");
    await expect(panel.getByRole("article", { name: /^Exchange \d+$/ })).toBeVisible();
  });

  test("the search box finds an exchange by the X-Request-ID and the TPP-Session-ID the app has in its logs", async ({ page, request }) => {
    const wb = await workbench(request);
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    await expect(panel.getByRole("status").filter({ hasText: "live: open" })).toBeVisible();
    // The app's own ids, as its logs hold them: neither is in the line the list shows.
    const requestId = randomUUID();
    const session = `tpp-session-${randomUUID()}`;
    const accounts = `${wb.baseUrl}/v1/accounts`;
    const ask = sign("GET", accounts, { "X-Request-ID": requestId, "TPP-Session-ID": session, "TPP-Redirect-URI": wb.callbackUrl });
    expect((await send(request, "GET", accounts, ask.headers)).status()).toBe(401);
    const list = panel.getByRole("listbox", { name: "Exchanges" });
    await expect(list.getByRole("option").filter({ hasText: /GET\/v1\/accounts401/ }).first()).toBeVisible();

    const search = panel.getByRole("searchbox", { name: "Search the log" });
    await search.fill(requestId.toUpperCase());
    await expect(list.getByRole("option")).toHaveCount(1);
    await expect(list.getByRole("option")).toContainText(/GET\/v1\/accounts401/);
    await snap(page, "inspector-search-request-id");
    // The pasted id shows whole in the smaller window too.
    await page.setViewportSize({ width: 1280, height: 720 });
    await snap(page, "inspector-search-request-id-1280");
    await list.getByRole("option").click();
    const exchange = panel.getByRole("article", { name: /^Exchange \d+$/ });
    await expect(exchange).toContainText(requestId);

    await search.fill(session);
    await expect(list.getByRole("option")).toHaveCount(1);
    await search.fill(`${randomUUID()}`);
    await expect(list.getByRole("option")).toHaveCount(0);
  });

  test("the handler's refusal after the gate let a request through, statuses on event lines, paths kept at their end", async ({ page, request }) => {
    const wb = await workbench(request);
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    await expect(panel.getByRole("status").filter({ hasText: "live: open" })).toBeVisible();
    const before = await rows(page, /POST\/v1\/consents400(?! ✕)/).count();
    // Signed properly, refused by the handler: a consent whose body is not a consent.
    const url = `${wb.baseUrl}/v1/consents`;
    const body = JSON.stringify({ access: "everything" });
    const headers = { "Content-Type": "application/json", "TPP-Session-ID": randomUUID(), "PSU-IP-Address": "192.0.2.10" };
    const refused = await send(request, "POST", url, { ...headers, ...sign("POST", url, headers, body).headers }, body);
    expect(refused.status()).toBe(400);
    const exchange = await openNew(page, /POST\/v1\/consents400(?! ✕)/, before);
    const verdict = exchange.getByRole("region", { name: "Verdict" });
    const heading = verdict.getByRole("heading", { name: /^Gate verdict/ });
    await expect(heading).toContainText("accepted, then refused by the handler (400");
    await expect(heading).not.toHaveText("Gate verdict: accepted");
    await expect(verdict.getByRole("note")).toContainText("Likely cause:");

    // A payment's status events say their statuses; a long path keeps its distinguishing end in view.
    const made = await externalPayment(request, wb, STRAKS, "inspector");
    await approveByAutomation(request, wb, made);
    const statusUrl = `${wb.baseUrl}${STRAKS}/${made.paymentId}/status`;
    await send(request, "GET", statusUrl, sign("GET", statusUrl, {}).headers);
    const events = panel.getByRole("listbox", { name: "Exchanges" }).getByRole("option").filter({ hasText: /payment (RCVD|ACTC|ACSC)/ });
    await expect(events.last()).toContainText(/payment [A-Z]{4}( → [A-Z]{4})?/);
    await expect(panel.getByRole("listbox", { name: "Exchanges" })).not.toContainText(/payment\s+→/);
    const line = rows(page, new RegExp(`${made.paymentId.slice(0, 8)}…/status`)).last();
    const end = line.getByText(`/${made.paymentId.slice(0, 8)}…/status`, { exact: true });
    await expect(line.getByTitle(`${STRAKS}/${made.paymentId}/status`)).toBeVisible();
    await expect(end).toBeVisible();
    expect(await end.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await snap(page, "6-inspector");
  });

  test("a straks payment journey in the flow view, and presentation mode through it", async ({ page, request, context }) => {
    const wb = await workbench(request);
    // Numbers of their own, so the test can run again against the same service.
    const customer = syntheticNationalId(300 + Math.floor(Math.random() * 150));
    const account = bban(7_100_000 + Math.floor(Math.random() * 800_000));
    await api(request, wb, "POST", "/sandbox/customers", { customerNumber: customer, name: "Trude Trafikk", type: "private" });
    await api(request, wb, "POST", "/sandbox/accounts", {
      customerNumber: customer,
      accountName: "Brukskonto",
      bban: account,
      balances: [{ balanceType: "interimAvailable", balanceAmount: { amount: "5000.00", currency: "NOK" } }],
    });

    // The TPP app initiates a straks payment without a PSU-ID: the bank answers with the SCA redirect.
    const body = JSON.stringify({
      instructedAmount: { amount: "125.50", currency: "NOK" },
      debtorAccount: { bban: account, currency: "NOK" },
      creditorName: "Ola Nordmann",
      creditorAccount: { bban: OLA_CURRENT, currency: "NOK" },
      creditorAddress: { street: "Storgata", buildingNumber: "1", postalCode: "0155", townName: "Oslo", country: "NO" },
      remittanceInformationUnstructured: "Traffic e2e",
    });
    const url = `${wb.baseUrl}${STRAKS}`;
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
    const answer = (await created.json()) as { paymentId: string; _links?: { scaRedirect?: string | { href: string } } };
    const link = answer._links?.scaRedirect;
    const scaHref = typeof link === "string" ? link : (link?.href ?? "");
    expect(scaHref).toBeTruthy();

    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Flow");
    const diagram = panel.getByRole("img", { name: "Sequence diagram" });
    await expect(diagram).toContainText("201 Created");

    // The PSU approves on the bank's pages; the diagram follows live.
    const psu = await context.newPage();
    await psu.goto(new URL(scaHref, wb.baseUrl).toString());
    await approveInBank(psu, customer);
    await psu.close();

    // The TPP reads the status back.
    const statusUrl = `${url}/${answer.paymentId}/status`;
    const status = await send(request, "GET", statusUrl, sign("GET", statusUrl, {}).headers);
    expect(status.status()).toBe(200);

    for (const lane of ["TPP app", "Bank interface", "PSU (SCA pages)", "Batch simulator"]) await expect(diagram).toContainText(lane);
    await expect(diagram).toContainText("(redirect)");
    await expect(diagram).toContainText("/confirm");
    await expect(diagram).toContainText("ACTC → ACSC");
    await expect(diagram).toContainText(/GET \/sca|GET \/v1\/sca|GET .*sca/i);
    await expect(diagram.locator('g.message[data-kind="request"]').last()).toContainText("GET /v1/payments/");
    await expect(panel.getByRole("combobox", { name: "Journey" })).toContainText("125.50");
    await snap(page, "flow-straks-journey");

    // Export as Mermaid text and as SVG (downloads in the browser; the desktop app's save dialog otherwise).
    const [mermaid] = await Promise.all([page.waitForEvent("download"), panel.getByRole("button", { name: "Export Mermaid" }).click()]);
    const mermaidText = readFileSync((await mermaid.path()) ?? "", "utf8");
    expect(mermaidText).toMatch(/^sequenceDiagram\n/);
    expect(mermaidText).toContain("participant PSU as PSU (SCA pages)");
    expect(mermaidText).toContain("PSU->>Bank: PSU approves: POST /sca/");
    const [svgFile] = await Promise.all([page.waitForEvent("download"), panel.getByRole("button", { name: "Export SVG" }).click()]);
    const svgText = readFileSync((await svgFile.path()) ?? "", "utf8");
    expect(svgText).toContain("<svg");
    expect(svgText).toContain("Batch simulator");
    // The file says what it shows.
    expect(svgText).toMatch(/<svg[^>]*>\s*<title>[^<]*125\.50[^<]*<\/title>/);

    // Presentation mode: from the first message, forward with the arrow keys to the PSU's page.
    await panel.getByRole("button", { name: "Present journey", exact: true }).click();
    const show_ = page.getByRole("dialog", { name: "Presentation" });
    await page.keyboard.press("Home");
    await expect(show_.getByRole("status", { name: "Position in the journey" })).toContainText(/^1 \/ \d+/);
    await expect(show_.getByLabel("Current message")).toContainText("TPP app → Bank interface");
    await page.keyboard.press("ArrowRight");
    await expect(show_.getByRole("status", { name: "Position in the journey" })).toContainText(/^2 \/ \d+/);
    await expect(show_.getByLabel("Current message")).toContainText("201 Created");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await expect(show_.getByRole("region", { name: "The PSU's SCA page" })).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await expect(show_.getByRole("status", { name: "Position in the journey" })).toContainText(/^4 \/ \d+/);
    await page.keyboard.press("Escape");
    await expect(show_).toBeHidden();
  });
});

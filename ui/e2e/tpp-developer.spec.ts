// The TPP developer without dead ends, against the real service: an outside app's SCA ends on the
// sandbox's page with the psu-id (not on the browser's error for an app that is not running), "Copy as
// curl" of that app's payment signs with a persona that may pay and runs as copied, a Digest refusal shows
// the bytes received (what `curl -d @file` did to the file), "x-accept-fix required" names the values, a
// pasted request gets the gate's verdict, the traffic can be cleared, the shortcuts leave the browser's own
// keys alone, a second tab opens authorised, and "Failed only" shows its entries after a long list.
import { expect, test } from "@playwright/test";
import type { Locator, Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { api, URL_WITH_TOKEN, workbench } from "./support/service";
import type { Workbench } from "./support/service";
import { SANDBOX_BIN, send } from "./support/tpp";
import { show, snap } from "./support/workbench";

const STRAKS = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";
/** A redirect URI no app answers at: what the PSU window met when a developer's app was not running. */
const UNREACHABLE = "http://127.0.0.1:9/tpp-app/callback";

/** A payment body as a developer saves it to a file: pretty-printed, with line ends. */
function paymentFile(): string {
  return `${JSON.stringify(
    {
      instructedAmount: { currency: "NOK", amount: "25.00" },
      debtorAccount: { bban: "12051000003", currency: "NOK" },
      creditorName: "Ola Nordmann",
      creditorAccount: { bban: "12051001018", currency: "NOK" },
      creditorAddress: { street: "Storgata", buildingNumber: "1", postalCode: "0155", townName: "Oslo", country: "NO" },
      remittanceInformationUnstructured: `e2e ${randomUUID().slice(0, 8)}`,
    },
    null,
    2,
  )}\n`;
}

/** An app of the developer's own: a certificate the workbench has no persona of, in a scratch directory. */
function outsideApp(roles: string): { dir: string; certDir: string; name: string } {
  const dir = mkdtempSync(join(tmpdir(), "xs2a-outside-app-"));
  const name = `Outside App ${randomUUID().slice(0, 6)}`;
  execFileSync(SANDBOX_BIN, ["cert", "issue", "--roles", roles, "--name", name, "--out", join(dir, "cert")], { encoding: "utf8" });
  return { dir, certDir: join(dir, "cert"), name };
}

/** Runs a shell command in `dir` with the sandbox's binary on the PATH; its exit status and output. */
function shell(dir: string, command: string): { status: number; out: string } {
  const env = { ...process.env, PATH: `${dirname(SANDBOX_BIN)}:${process.env.PATH ?? ""}` };
  try {
    return { status: 0, out: execFileSync("bash", ["-c", command], { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) };
  } catch (e) {
    const failed = e as { status?: number; stdout?: string; stderr?: string };
    return { status: failed.status ?? 1, out: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

/** The headers `xs2a-sandbox sign` prints, as a map. */
function signed(certDir: string, method: string, url: string, extra: Record<string, string>, dataFile?: string): Record<string, string> {
  const args = ["sign", "--cert-dir", certDir, "-X", method, "--url", url];
  for (const [name, value] of Object.entries(extra)) args.push("-H", `${name}: ${value}`);
  if (dataFile) args.push("--data-file", dataFile);
  const out = execFileSync(SANDBOX_BIN, args, { encoding: "utf8" });
  const headers: Record<string, string> = {};
  for (const line of out.split("\n")) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

/** A screenshot at 1440x900 and another at 1280x720 (`-1280`), the two sizes the workbench is looked at. */
async function snapBoth(page: Page, name: string): Promise<void> {
  await snap(page, name);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 720 });
  await snap(page, `${name}-1280`);
  if (size) await page.setViewportSize(size);
}

function inspectorRows(panel: Locator, text: RegExp): Locator {
  return panel.getByRole("listbox", { name: "Exchanges" }).getByRole("option").filter({ hasText: text });
}

async function openNewest(panel: Locator, text: RegExp): Promise<Locator> {
  await expect(inspectorRows(panel, text).first()).toBeVisible();
  await inspectorRows(panel, text).last().click();
  return panel.getByRole("article", { name: /^Exchange \d+$/ });
}

function paymentHeaders(wb: Workbench): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "x-accept-fix": "amount-as-string",
    "TPP-Session-ID": randomUUID(),
    "TPP-Redirect-URI": `${wb.baseUrl}/tpp-app/callback`,
    "PSU-IP-Address": "192.0.2.10",
    "PSU-Context": "PRIVATE",
  };
}

test.describe("the TPP developer: no dead ends", () => {
  test("an outside app's SCA ends on the sandbox's page with the psu-id, and the SCA screen shows the same", async ({ page, request }) => {
    const wb = await workbench(request);
    const app = outsideApp("PSP_AI");
    const url = `${wb.baseUrl}/v1/accounts`;
    const headers = { "TPP-Session-ID": randomUUID(), "TPP-Redirect-URI": UNREACHABLE, "PSU-IP-Address": "192.0.2.10" };
    const asked = await send(request, "GET", url, { ...headers, ...signed(app.certDir, "GET", url, headers) });
    expect(asked.status(), await asked.text()).toBe(401);

    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "SCA");
    await panel.getByRole("button", { name: "Refresh", exact: true }).click();
    const waiting = panel.getByRole("table", { name: "Authorisations waiting for the PSU, newest first" });
    const open = waiting.getByRole("button", { name: new RegExp(`Open the SCA of ${app.name}'s consent`) });
    const [popup] = await Promise.all([page.waitForEvent("popup"), open.click()]);
    await popup.waitForLoadState("load");
    await popup.getByLabel("National identity number", { exact: true }).fill("14838510036");
    await popup.getByRole("button", { name: "Continue", exact: true }).click();
    await popup.getByRole("button", { name: /HA2/ }).first().click();
    await popup.getByRole("radio", { name: /private person/ }).check();
    await popup.getByRole("button", { name: "Continue", exact: true }).click();
    const accounts = popup.getByRole("checkbox");
    await expect(accounts.first()).toBeVisible();
    for (let i = 0; i < (await accounts.count()); i++) await accounts.nth(i).check();
    await popup.getByRole("button", { name: /Approve|Confirm|Continue/ }).first().click();

    // Not the browser's error page for an app that is not there: the sandbox says where the PSU goes.
    await expect(popup.getByRole("heading", { name: `Back to ${app.name}` })).toBeVisible();
    expect(new URL(popup.url()).origin).toBe(new URL(wb.baseUrl).origin);
    const address = popup.locator("#handover-address");
    await expect(address).toContainText(UNREACHABLE);
    const psuId = new URL((await address.textContent()) ?? "").searchParams.get("psu-id") ?? "";
    expect(psuId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(popup.getByRole("definition").filter({ hasText: psuId })).toBeVisible();
    await expect(popup.getByRole("link", { name: `Continue to ${app.name}` })).toBeVisible();
    await popup.setViewportSize({ width: 520, height: 760 });
    await snap(popup, "psu-window-handover");

    // The SCA screen lists the same.
    await page.bringToFront();
    await panel.getByRole("button", { name: "Refresh", exact: true }).click();
    const finished = panel.getByRole("table", { name: "Authorisations finished, and where the PSU was sent, newest first" });
    const values = finished.getByRole("group", { name: `Values sent back to ${app.name}` });
    await expect(values).toContainText(psuId);
    await expect(finished.getByRole("link", { name: `Continue to ${app.name}` }).first()).toHaveAttribute("href", new RegExp(`psu-id=${psuId}`));
    await snapBoth(page, "sca-sent-back");
  });

  test("Copy as curl of an outside app's payment signs with a persona that may pay, and runs as copied", async ({ page, request, context }) => {
    const wb = await workbench(request);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const app = outsideApp("PSP_PI");
    const url = `${wb.baseUrl}${STRAKS}`;
    const file = join(app.dir, "payment.json");
    writeFileSync(file, paymentFile());
    const headers = paymentHeaders(wb);
    const body = readFileSync(file, "utf8");
    const made = await send(request, "POST", url, { ...headers, ...signed(app.certDir, "POST", url, headers, file) }, body);
    expect(made.status(), await made.text()).toBe(201);

    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    const exchange = await openNewest(panel, new RegExp(`POST.*instant-norwegian.*201.*${app.name}`));
    await exchange.getByRole("button", { name: "Copy as curl", exact: true }).click();
    // Not the first persona (account information only), but one that holds PSP_PI, and it says so.
    await expect(page.getByRole("log", { name: "Notices" })).toContainText("holds PSP_PI, which this operation needs");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("xs2a-sandbox sign");
    // As copied, from a directory of its own: the bank creates the payment (201), no 403.
    const elsewhere = mkdtempSync(join(tmpdir(), "xs2a-copied-"));
    const ran = shell(elsewhere, `${copied}\n`);
    expect(ran.status, ran.out).toBe(0);
    expect(ran.out).toContain('"transactionStatus":"RCVD"');
    expect(ran.out).not.toContain("FORBIDDEN");
  });

  test("a Digest refusal shows the bytes received: curl -d @file dropped the file's line ends", async ({ page, request }) => {
    const wb = await workbench(request);
    const app = outsideApp("PSP_PI");
    const url = `${wb.baseUrl}${STRAKS}`;
    const saved = paymentFile();
    writeFileSync(join(app.dir, "payment.json"), saved);
    const headerArgs = Object.entries(paymentHeaders(wb))
      .map(([n, v]) => `-H '${n}: ${v}'`)
      .join(" ");
    // What developers run: the Digest signed over the file, the file sent with curl -d.
    const ran = shell(
      app.dir,
      `xs2a-sandbox sign --cert-dir cert -X POST --url '${url}' ${headerArgs} --data-file payment.json > headers.txt && ` +
        `curl -s -H @headers.txt -d @payment.json '${url}'`,
    );
    expect(ran.out).toContain("digest");
    const sent = saved.replace(/[\r\n]/g, "");
    expect(sent.length).toBeLessThan(saved.length);

    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    const exchange = await openNewest(panel, new RegExp(`POST.*instant-norwegian.*400 ✕.*${app.name}`));
    const requestPart = exchange.getByRole("region", { name: "Request" });
    await expect(requestPart.getByRole("button", { name: "As received" })).toHaveAttribute("aria-pressed", "true");
    await expect(requestPart.getByText(`${sent.length} bytes as received, no line ends`)).toBeVisible();
    expect(await requestPart.getByLabel("Request body, as received").textContent()).toBe(sent);
    await expect(exchange.getByRole("note").filter({ hasText: "curl -d @file”" })).toContainText(`${sent.length} bytes with no line ends`);
    await requestPart.scrollIntoViewIfNeeded();
    await snapBoth(page, "inspector-digest-as-received");
  });

  test("x-accept-fix required names the values to send", async ({ page, request }) => {
    const wb = await workbench(request);
    const app = outsideApp("PSP_PI");
    const url = `${wb.baseUrl}${STRAKS}`;
    const file = join(app.dir, "payment.json");
    writeFileSync(file, paymentFile());
    const headers = paymentHeaders(wb);
    delete headers["x-accept-fix"];
    const refused = await send(request, "POST", url, { ...headers, ...signed(app.certDir, "POST", url, headers, file) }, readFileSync(file, "utf8"));
    expect(refused.status()).toBe(400);

    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    const exchange = await openNewest(panel, new RegExp(`POST.*instant-norwegian.*400.*${app.name}`));
    const messages = exchange.getByRole("list", { name: "tppMessages" });
    await expect(messages).toContainText("HTTP_HEADER_REQUIRED");
    for (const fix of ["amount-as-string", "cardaccount-switch-originalamount-and-transactionamount", "longer-names", "cash-account-type-iso"]) {
      await expect(messages).toContainText(fix);
    }
    await expect(messages).toContainText("'x-accept-fix: amount-as-string'");
  });

  test("a pasted curl command or raw request gets the gate's verdict step by step, in the Inspector and the Composer", async ({ page, request }) => {
    const wb = await workbench(request);
    const app = outsideApp("PSP_PI");
    const url = `${wb.baseUrl}${STRAKS}`;
    const file = join(app.dir, "payment.json");
    const body = paymentFile();
    writeFileSync(file, body);
    const asked = paymentHeaders(wb);
    const headers = { ...asked, ...signed(app.certDir, "POST", url, asked, file) };
    const options = Object.entries(headers)
      .map(([n, v]) => `  -H '${n}: ${v}' \\`)
      .join("\n");
    const withFile = `curl -s -X POST '${url}' \\\n${options}\n  -d @payment.json`;
    const flattened = body.replace(/\n/g, "");
    const raw = `POST ${STRAKS} HTTP/1.1\n${Object.entries(headers)
      .map(([n, v]) => `${n}: ${v}`)
      .join("\n")}\n\n${flattened}`;

    await page.goto(URL_WITH_TOKEN);
    const inspector = await show(page, "Inspector");
    await inspector.getByRole("button", { name: "Check a pasted request" }).click();
    const check = inspector.getByRole("region", { name: "Check a pasted request" });
    const field = check.getByLabel("curl command or raw HTTP request");
    // The curl command that sends a file: what curl -d does to it is said, since the file is not in the paste.
    await field.fill(withFile);
    await check.getByRole("button", { name: "Check", exact: true }).click();
    await expect(check.getByRole("alert")).toContainText("drops the file's line ends");
    await expect(check.getByRole("alert")).toContainText("--data-binary @payment.json");
    // The raw request as it arrived (the body without its line ends): refused at the Digest, step by step.
    await field.fill(raw);
    await check.getByRole("checkbox", { name: /as of the request's own Date/ }).check();
    await check.getByRole("button", { name: "Check", exact: true }).click();
    const verdict = check.getByRole("article", { name: "Verdict on the pasted request" });
    await expect(verdict.getByRole("heading", { name: "Gate verdict: refused at “digest”" })).toBeVisible();
    const steps = verdict.getByRole("list", { name: "Gate verdict" });
    await expect(steps.getByRole("listitem").filter({ hasText: "signature" }).first()).toBeVisible();
    await expect(verdict.getByText(`${flattened.length} bytes as received, no line ends`)).toBeVisible();
    await snapBoth(page, "inspector-pasted-request");

    // The same from the Composer, with the body as signed: accepted.
    const composer = await show(page, "Composer");
    await composer.getByRole("button", { name: "Check a pasted request" }).click();
    const there = composer.getByRole("region", { name: "Check a pasted request" });
    await there.getByLabel("curl command or raw HTTP request").fill(`${raw.slice(0, raw.length - flattened.length)}${body}`);
    await there.getByRole("checkbox", { name: /as of the request's own Date/ }).check();
    await there.getByRole("button", { name: "Check", exact: true }).click();
    await expect(there.getByRole("heading", { name: "Gate verdict: accepted" })).toBeVisible();
  });

  test("\"Failed only\" shows its entries after the list followed a long page to its end", async ({ page, request }) => {
    const wb = await workbench(request);
    const app = outsideApp("PSP_AI");
    const url = `${wb.baseUrl}/v1/sandbox/customers`;
    // More entries than the list shows at once, then a few refused ones among them.
    for (let i = 0; i < 60; i++) {
      const answer = await send(request, "GET", url, signed(app.certDir, "GET", url, {}));
      expect(answer.status()).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      const answer = await send(request, "GET", `${url}?limit=${i + 1}`, signed(app.certDir, "GET", url, {}));
      expect(answer.status()).toBe(400);
    }
    let failedPagesRead = 0;
    page.on("requestfinished", (r) => {
      if (/\/workbench\/api\/traffic\?.*failed=true/.test(r.url())) failedPagesRead++;
    });
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    await expect(panel.getByRole("status").filter({ hasText: "live: open" })).toBeVisible();
    const list = panel.getByRole("listbox", { name: "Exchanges" });
    await expect(list.getByRole("option").last()).toContainText(app.name);
    // A look at another screen while more traffic comes: the list follows it while it is not on screen,
    // where it has no box to scroll and no scroll event comes. It used to come back showing empty space
    // where the newest rows were expected (the race behind "Failed only: an empty list, 6 entries").
    await show(page, "Sandbox data");
    for (let i = 0; i < 40; i++) {
      const answer = await send(request, "GET", url, signed(app.certDir, "GET", url, {}));
      expect(answer.status()).toBe(200);
    }
    await expect.poll(async () => (await api<{ entries: unknown[] }>(request, wb, "GET", `/traffic?kind=exchange&limit=200&q=${encodeURIComponent(app.name)}`)).entries.length).toBe(103);
    await show(page, "Inspector");
    await expect(list.getByRole("option").last()).toContainText(app.name);
    await expect(list.getByRole("option").last()).toBeInViewport();
    await panel.getByRole("checkbox", { name: "Failed only" }).check();
    await expect.poll(() => failedPagesRead).toBeGreaterThan(0);
    // The refused ones are listed, the newest at the end where the list is: not an empty list beside a
    // status that counts them.
    await expect(list.getByRole("option").filter({ hasText: app.name })).toHaveCount(3);
    await expect(list.getByRole("option").filter({ hasText: app.name }).last()).toBeInViewport();
    await expect(list.getByRole("option").filter({ hasText: /200/ })).toHaveCount(0);
    await expect(panel.getByRole("status").filter({ hasText: /entries/ })).not.toContainText(/^6\d entries/);
  });

  test("Clear traffic asks first, then the Inspector and the Flow view start empty", async ({ page, request }) => {
    const wb = await workbench(request);
    const app = outsideApp("PSP_AI");
    const url = `${wb.baseUrl}/v1/sandbox/customers`;
    expect((await send(request, "GET", url, signed(app.certDir, "GET", url, {}))).status()).toBe(200);
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    await expect(inspectorRows(panel, new RegExp(app.name)).first()).toBeVisible();
    await panel.getByRole("button", { name: "Clear traffic…" }).click();
    const dialog = page.getByRole("dialog", { name: "Clear the traffic?" });
    await expect(dialog).toContainText("cannot be undone");
    await snapBoth(page, "inspector-clear-traffic");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(inspectorRows(panel, new RegExp(app.name)).first()).toBeVisible();
    await panel.getByRole("button", { name: "Clear traffic…" }).click();
    await page.getByRole("dialog", { name: "Clear the traffic?" }).getByRole("button", { name: "Clear traffic", exact: true }).click();
    await expect(panel.getByRole("region", { name: "No exchanges here yet" })).toBeVisible();
    await expect(page.getByRole("log", { name: "Notices" })).toContainText("Traffic cleared");
    const flow = await show(page, "Flow");
    await expect(flow.getByRole("region", { name: "No journeys yet" })).toBeVisible();
    const left = await api<{ entries: unknown[] }>(request, wb, "GET", "/traffic?kind=exchange");
    expect(left.entries).toEqual([]);
    // New traffic shows as before.
    expect((await send(request, "GET", url, signed(app.certDir, "GET", url, {}))).status()).toBe(200);
    await show(page, "Inspector");
    await expect(inspectorRows(panel, new RegExp(app.name))).toHaveCount(1);
  });
});

test.describe("keys and tabs", () => {
  test("Alt+digit switches screens and Ctrl+digit is left to the browser; the keys are named per platform", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    await page.keyboard.press("Alt+5");
    await expect(page.getByRole("tab", { name: "Inspector", exact: true })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Control+2");
    await expect(page.getByRole("tab", { name: "Inspector", exact: true })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tab", { name: "Composer", exact: true })).toHaveAttribute("aria-keyshortcuts", "Alt+2");
    await expect(page.getByRole("tab", { name: "Composer", exact: true })).toHaveAttribute("title", "Composer (Alt+2)");
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog.getByRole("row", { name: /Show Composer/ })).toContainText("Alt+2");
    await expect(dialog).not.toContainText(/Ctrl\+\d/);
    await expect(dialog.getByRole("row", { name: /Send the request/ })).toContainText("Ctrl+Enter");
  });

  test("on a Mac the same shortcuts read ⌥ and ⌘", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "platform", { get: () => "MacIntel" });
      Object.defineProperty(Navigator.prototype, "userAgentData", { get: () => undefined });
    });
    const page = await context.newPage();
    await page.goto(URL_WITH_TOKEN);
    await expect(page.getByRole("tab", { name: "Composer", exact: true })).toHaveAttribute("title", "Composer (⌥2)");
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog.getByRole("row", { name: /Show Composer/ })).toContainText("⌥2");
    await expect(dialog.getByRole("row", { name: /Send the request/ })).toContainText("⌘↩");
    await snap(page, "shortcuts-mac");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Alt+3");
    await expect(page.getByRole("tab", { name: "SCA", exact: true })).toHaveAttribute("aria-selected", "true");
    await context.close();
  });

  test("a second tab of the workbench opens authorised, without the token in its address", async ({ page, context }) => {
    await page.goto(URL_WITH_TOKEN);
    await expect(page.getByRole("tab", { name: "Sandbox data", exact: true })).toBeVisible();
    expect(page.url()).not.toContain("token=");
    const origin = new URL(URL_WITH_TOKEN).origin;
    const second = await context.newPage();
    await second.goto(`${origin}/workbench/`);
    const sandbox = second.getByRole("tabpanel", { name: "Sandbox data", exact: true });
    await expect(sandbox.getByText("Kari Nordmann").first()).toBeVisible();
    await expect(second.getByText("Not authorised.")).toHaveCount(0);
    // Its live events flow too: a screen switch and a read of the traffic work as in the first tab.
    const inspector = await show(second, "Inspector");
    await expect(inspector.getByRole("status").filter({ hasText: "live: open" })).toBeVisible();
    await snap(second, "second-tab-authorised");
    // A browser without the session (another profile) is still refused.
    const stranger = await context.browser()!.newContext();
    const outsider = await stranger.newPage();
    await outsider.goto(`${origin}/workbench/`);
    await expect(outsider.getByText("Not authorised.")).toBeVisible();
    await stranger.close();
  });
});

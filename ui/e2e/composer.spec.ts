// The Composer as a TPP developer uses it, against the real service: the request line at the top (method,
// URL, Send), a form for every operation with its headers, the preview with long values folded, Ctrl+Enter,
// history, path parameters that follow the resource or are refused while empty, personas issued and
// imported and never switched silently, and Copy as curl / as script that run as copied from elsewhere.
import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { choosePersona } from "./support/composer";
import { api, URL_WITH_TOKEN, workbench } from "./support/service";
import type { Workbench } from "./support/service";
import { SANDBOX_BIN } from "./support/tpp";
import { chooseOperation, show, snap } from "./support/workbench";

interface Entry {
  id: number;
  kind: string;
  method?: string;
  path?: string;
  status?: number;
  source?: string;
}

async function newestExchange(request: import("@playwright/test").APIRequestContext, wb: Workbench): Promise<Entry | undefined> {
  const page = await api<{ entries: Entry[] }>(request, wb, "GET", "/traffic?kind=exchange&limit=5");
  return page.entries.find((e) => e.source === "external") ?? page.entries[0];
}

/** Runs exported shell text with bash from a scratch directory, the sandbox's binary on the PATH. */
function runFromElsewhere(text: string, asFile: boolean): { status: number; out: string } {
  const dir = mkdtempSync(join(tmpdir(), "xs2a-export-"));
  const env = { ...process.env, PATH: `${dirname(SANDBOX_BIN)}:${process.env.PATH ?? ""}` };
  try {
    const args = asFile ? [join(dir, "request.sh")] : ["-c", text];
    if (asFile) writeFileSync(join(dir, "request.sh"), text);
    const out = execFileSync("bash", args, { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return { status: 0, out };
  } catch (e) {
    const failed = e as { status?: number; stdout?: string; stderr?: string };
    return { status: failed.status ?? 1, out: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

test.describe("composer", () => {
  test("method, URL and Send on one line at the top; the preview folds the certificate", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Composer");
    await chooseOperation(panel, "POST", "/v1/payments/instant-norwegian-domestic-credit-transfers-straks");
    const method = await panel.getByLabel("Method", { exact: true }).boundingBox();
    const path = await panel.getByLabel("Path", { exact: true }).boundingBox();
    const sendButton = await panel.getByRole("button", { name: "Send", exact: true }).boundingBox();
    expect(method && path && sendButton).toBeTruthy();
    // One row: the three share a line, and it is near the top of the window, not under the persona.
    expect(Math.abs((sendButton?.y ?? 0) - (path?.y ?? 0))).toBeLessThan(12);
    expect(Math.abs((method?.y ?? 0) - (path?.y ?? 0))).toBeLessThan(12);
    expect(sendButton?.y ?? 1000).toBeLessThan(300);
    expect(path?.x ?? 0).toBeGreaterThan(method?.x ?? 0);
    expect(sendButton?.x ?? 0).toBeGreaterThan(path?.x ?? 0);

    await panel.getByRole("button", { name: "Preview", exact: true }).click();
    const preview = panel.getByRole("region", { name: "Preview", exact: true });
    const headers = preview.getByRole("table", { name: "Headers to be sent" });
    const certificate = headers.getByRole("row", { name: /TPP-Signature-Certificate/i });
    const unfold = certificate.getByRole("button", { name: /Show all of TPP-Signature-Certificate \([\d,]+ characters\)/i });
    await expect(unfold).toHaveAttribute("aria-expanded", "false");
    expect(((await certificate.textContent()) ?? "").length).toBeLessThan(200);
    await snap(page, "2-composer-preview");
    await unfold.click();
    await expect(certificate.getByRole("button", { name: /Fold TPP-Signature-Certificate/i })).toHaveAttribute("aria-expanded", "true");
    expect(((await certificate.textContent()) ?? "").length).toBeGreaterThan(1000);
  });

  test("a form per operation, Ctrl+Enter sends, history reopens a past request", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Composer");
    await chooseOperation(panel, "GET", "/v1/sandbox/customers");
    const history = panel.getByRole("list", { name: "Sent requests" }).getByRole("listitem");
    const before = await history.count();
    await panel.getByLabel("Path", { exact: true }).click();
    await page.keyboard.press("Control+Enter");
    await expect(history).toHaveCount(before + 1);
    await expect(panel.getByRole("region", { name: "Response", exact: true }).getByRole("status")).toContainText("200");
    await expect(panel.getByRole("region", { name: "Response", exact: true }).getByRole("status")).not.toContainText(/\b0 ms/);
    await chooseOperation(panel, "GET", "/v1/accounts");
    await history.first().getByRole("button", { name: /Reopen GET \/v1\/sandbox\/customers/ }).click();
    await expect(panel.getByLabel("Path", { exact: true })).toHaveValue("/v1/sandbox/customers");
    await expect(panel.getByLabel("Operation", { exact: true })).toHaveValue("");
  });

  test("an empty path parameter is refused at its field and never sent; enumerated ones are choices", async ({ page, request }) => {
    const wb = await workbench(request);
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Composer");
    await chooseOperation(panel, "GET", "/v1/signing-baskets/{basketId}/status");
    const before = (await newestExchange(request, wb))?.id ?? 0;
    await panel.getByLabel("basketId", { exact: true }).fill("");
    await panel.getByRole("button", { name: "Send", exact: true }).click();
    const field = panel.getByLabel("basketId", { exact: true });
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleErrorMessage(/basketId is empty/);
    await panel.getByRole("button", { name: "Copy as curl", exact: true }).click();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    // Nothing reached the service.
    expect((await newestExchange(request, wb))?.id ?? 0).toBe(before);
    // A payment's service and product are choices, not free text.
    await chooseOperation(panel, "GET", "/v1/{service}/{product}/{paymentId}/status");
    await expect(panel.getByRole("combobox", { name: "service", exact: true })).toBeVisible();
    await expect(panel.getByRole("combobox", { name: "product", exact: true })).toBeVisible();
  });

  test("personas issued and imported; an operation needing another persona says it switched", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Composer");
    // Issue an account-information-only persona and import it back as PEMs (the bundled one's files).
    await panel.getByRole("button", { name: "Issue persona…" }).click();
    const issue = page.getByRole("dialog", { name: "Issue a persona" });
    const name = `AIS only ${Date.now()}`;
    await issue.getByLabel("Persona name", { exact: true }).fill(name);
    await issue.getByRole("checkbox", { name: "PSP_PI" }).uncheck().catch(() => undefined);
    await issue.getByRole("button", { name: "Issue persona", exact: true }).click();
    await expect(issue).toBeHidden();
    await expect(panel.getByRole("combobox", { name: "Persona", exact: true }).locator("option:checked")).toContainText(name);

    await panel.getByRole("button", { name: "Import PEM…" }).click();
    const imported = page.getByRole("dialog", { name: "Import a persona" });
    const certs = new URL("../../fixtures/certs/aisp", import.meta.url).pathname;
    await imported.getByLabel("Persona name", { exact: true }).fill(`Imported ${Date.now()}`);
    await imported.getByLabel(/Certificate/).first().fill(readFileSync(join(certs, "cert.pem"), "utf8"));
    await imported.getByLabel(/Private key/).first().fill(readFileSync(join(certs, "key.pem"), "utf8"));
    await imported.getByRole("button", { name: /Import/ }).last().click();
    await expect(imported).toBeHidden();
    await expect(panel.getByRole("combobox", { name: "Persona", exact: true }).locator("option:checked")).toContainText("Imported");

    // An account-information persona and a payment: the composer moves to one with PSP_PI, and says so.
    await choosePersona(page, "Sandbox AISP AS");
    await chooseOperation(panel, "POST", "/v1/payments/instant-norwegian-domestic-credit-transfers-straks");
    const region = panel.getByRole("region", { name: "Signing persona", exact: true });
    await expect(region.getByRole("status")).toContainText("Persona switched to");
    await expect(region.getByRole("status")).toContainText("does not have PSP_PI");
  });

  test("Copy as curl and Copy as script run as copied, from another directory", async ({ page, request, context }) => {
    const wb = await workbench(request);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Composer");
    await choosePersona(page, "Sandbox AISP PISP AS");
    // An operation whose headers carry the persona's placeholders.
    await chooseOperation(panel, "GET", "/v1/sandbox/customers");
    await panel.getByRole("button", { name: "Add header" }).click();
    const rows = await panel.getByRole("group", { name: /^Header \d+$/ }).count();
    await panel.getByLabel(`Header ${rows} name`, { exact: true }).fill("TPP-Session-ID");
    await panel.getByLabel(`Header ${rows} value`, { exact: true }).fill("{{persona.tppSessionId}}");

    for (const format of ["curl", "script"] as const) {
      await panel.getByRole("button", { name: `Copy as ${format}`, exact: true }).click();
      await expect(page.getByRole("log", { name: "Notices" })).toContainText(`Copied as ${format}`);
      const text = await page.evaluate(() => navigator.clipboard.readText());
      expect(text).not.toContain("{{");
      expect(text).not.toMatch(/--cert-dir '?fixtures\//);
      const before = (await newestExchange(request, wb))?.id ?? 0;
      const run = runFromElsewhere(text, format === "script");
      expect(run.status, run.out).toBe(0);
      expect(run.out).toContain("Kari Nordmann");
      const exchange = await newestExchange(request, wb);
      expect(exchange?.id ?? 0).toBeGreaterThan(before);
      expect(exchange?.status ?? 0).toBeGreaterThanOrEqual(200);
      expect(exchange?.status ?? 0).toBeLessThan(300);
    }
  });
});

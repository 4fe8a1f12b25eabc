// The Conformance screen end to end, against a running service (XS2A_WORKBENCH_URL) with the `xs2a-sandbox`
// CLI (XS2A_SANDBOX_BIN): a TPP app with a certificate of its own calls the bank twice — an account read whose
// scaRedirect it never follows, a payment without PSU-IP-Address — and the report, graded from the screen,
// shows those findings by group; the evidence opens in the inspector, and the report is saved as HTML.
import { expect, test } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SANDBOX_BIN, send } from "./support/tpp";
import { show, snap } from "./support/workbench";

const URL_WITH_TOKEN = process.env.XS2A_WORKBENCH_URL ?? "";
const NAME = "Conformance E2E TPP";
const REDIRECT = "https://tpp.example/callback";

function run(args: string[]): string {
  const done = spawnSync(SANDBOX_BIN, args, { encoding: "utf8" });
  if (done.status !== 0) throw new Error(`${SANDBOX_BIN} ${args[0]} failed: ${done.stderr}`);
  return done.stdout;
}

/** The headers `xs2a-sandbox sign` makes for a request signed with the certificate in `dir`. */
function signed(dir: string, method: string, url: string, extra: Record<string, string>, body?: string) {
  const args = ["sign", "--cert-dir", dir, "-X", method, "--url", url];
  for (const [name, value] of Object.entries(extra)) args.push("-H", `${name}: ${value}`);
  if (body !== undefined) args.push("-d", body);
  const headers: Record<string, string> = {};
  for (const line of run(args).split("\n")) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

test.describe("conformance report", () => {
  test("a TPP's findings by group, the evidence in the inspector, the report saved as HTML", async ({ page, request }) => {
    const dir = mkdtempSync(join(tmpdir(), "xs2a-conformance-e2e-"));
    try {
      run(["cert", "issue", "--roles", "PSP_AI,PSP_PI", "--name", NAME, "--out", join(dir, "tpp")]);
      const certs = join(dir, "tpp");
      const origin = new URL(URL_WITH_TOKEN).origin;
      const token = new URL(URL_WITH_TOKEN).searchParams.get("token") ?? "";
      const session = (await (
        await request.get(`${origin}/workbench/api/session`, { headers: { Authorization: `Bearer ${token}` } })
      ).json()) as { baseUrl: string };
      const base = session.baseUrl;

      const common = { "TPP-Session-ID": "e2e-conformance-1", "TPP-Redirect-URI": REDIRECT };
      const read = await send(request, "GET", `${base}/v1/accounts`, signed(certs, "GET", `${base}/v1/accounts`, { ...common, "PSU-IP-Address": "192.0.2.10" }));
      expect(read.status()).toBe(401);
      const body = JSON.stringify({
        instructedAmount: { currency: "NOK", amount: "10.00" },
        debtorAccount: { bban: "12051000003", currency: "NOK" },
        creditorName: "Ola Nordmann",
        creditorAccount: { bban: "12051001018", currency: "NOK" },
        creditorAddress: { townName: "Oslo", country: "NO" },
      });
      const straks = `${base}/v1/payments/instant-norwegian-domestic-credit-transfers-straks`;
      const headers = signed(certs, "POST", straks, { ...common, "x-accept-fix": "amount-as-string", "X-PSU-IDENTITY": "14838510036", "Content-Type": "application/json" }, body);
      const payment = await send(request, "POST", straks, headers, body);
      expect(payment.status()).toBe(400);

      await page.goto(URL_WITH_TOKEN);
      const panel = await show(page, "Conformance");
      const tpp = panel.getByRole("combobox", { name: "TPP" });
      // The TPPs the traffic log has seen, each with its organisation id and how many exchanges it made.
      await expect(tpp).toContainText(NAME);
      const label = (await tpp.locator("option", { hasText: NAME }).textContent()) ?? "";
      await tpp.selectOption({ label });
      await panel.getByRole("button", { name: "Grade" }).click();

      const summary = panel.getByRole("table", { name: "Summary by group" });
      await expect(summary.getByRole("row", { name: /Headers/ })).toContainText("Failed");
      await expect(summary.getByRole("row", { name: /SCA and consent/ })).toContainText("Failed");
      const missing = panel.getByRole("article", { name: /NO-HDR-002/ });
      await expect(missing).toContainText("Failed");
      await expect(missing.getByRole("list", { name: "Evidence for NO-HDR-002" })).toContainText("POST /v1/payments/instant-norwegian-domestic-credit-transfers-straks → 400");
      await expect(panel.getByRole("article", { name: /NO-SCA-001/ })).toContainText("never followed");
      await snap(page, "conformance-report");

      const download = page.waitForEvent("download");
      await panel.getByRole("button", { name: "Export HTML" }).click();
      expect((await download).suggestedFilename()).toBe("conformance.html");

      const open = missing.getByRole("button", { name: /^Open exchange \d+ in the inspector$/ });
      const id = ((await open.getAttribute("aria-label")) ?? "").match(/\d+/)?.[0];
      await open.click();
      await expect(page.getByRole("tab", { name: "Inspector", exact: true })).toHaveAttribute("aria-selected", "true");
      const inspector = page.getByRole("tabpanel", { name: "Inspector", exact: true });
      await expect(inspector.getByRole("article", { name: `Exchange ${id}` })).toBeVisible();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

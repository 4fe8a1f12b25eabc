// The three users' journeys end to end, from the UI alone, against the real service (scripts/test-browser.sh):
// a TPP developer (persona → consent → SCA → accounts → payment → status), a bank trainer (a journey in the
// flow view stepped through in presentation mode on a 1280x720 projector) and a tester (snapshots saved,
// restored, exported and imported, and a state file imported). Elements are found by role and label.
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { approveLast, choosePersona, freshSession, send } from "./support/composer";
import { drawnDiagram } from "./support/diagram";
import { api, URL_WITH_TOKEN, workbench } from "./support/service";
import type { Workbench } from "./support/service";
import { send as sendSigned, sign } from "./support/tpp";
import { chooseOperation, scrollsSideways, show, snap } from "./support/workbench";

test.describe("journeys", () => {
  test("TPP developer: persona, consent, SCA, accounts, a straks payment and its status", async ({ page, request }) => {
    const wb = await workbench(request);
    await api(request, wb, "POST", "/sandbox/initialize");
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Composer");
    // The persona with both roles; a fresh TPP session, so no consent is known yet.
    await choosePersona(page, "Sandbox AISP PISP AS");
    const personaRegion = panel.getByRole("region", { name: "Signing persona", exact: true });
    await freshSession(page);

    // Accounts without a consent: 401 and the bank's pages; the PSU consents there.
    await chooseOperation(panel, "GET", "/v1/accounts");
    const refused = await send(page, 401);
    expect(refused).toContain("scaRedirect");
    await approveLast(page);
    await expect(personaRegion.getByLabel("PSU-ID", { exact: true })).not.toHaveValue("");

    // With the PSU-ID the callback gave the persona: Kari's accounts.
    const accounts = await send(page, 200);
    expect(accounts).toContain("12051000003");

    // A straks payment from the same persona: no persona switch, 201 and the payment's SCA.
    await chooseOperation(panel, "POST", "/v1/payments/instant-norwegian-domestic-credit-transfers-straks");
    await expect(panel.getByRole("combobox", { name: "Persona", exact: true }).locator("option:checked")).toContainText("Sandbox AISP PISP AS");
    await expect(personaRegion.getByRole("status")).toHaveCount(0);
    const created = await send(page, 201);
    expect(created).toContain("scaRedirect");
    await approveLast(page);

    // Its status: the path parameters follow the payment just made.
    await chooseOperation(panel, "GET", "/v1/{service}/{product}/{paymentId}/status");
    await expect(panel.getByLabel("service", { exact: true })).toHaveValue("payments");
    await expect(panel.getByLabel("product", { exact: true })).toHaveValue("instant-norwegian-domestic-credit-transfers-straks");
    await expect(panel.getByLabel("paymentId", { exact: true })).not.toHaveValue("");
    const status = await send(page, 200);
    expect(status).toContain("ACSC");
    await snap(page, "2-composer");
  });

  test("trainer: a payment journey stepped through in presentation mode at 1280x720", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const wb = await workbench(request);
    // A fresh sandbox: the composer's payment would otherwise be a logical duplicate of an earlier test's.
    await api(request, wb, "POST", "/sandbox/initialize");
    await page.goto(URL_WITH_TOKEN);
    // A straks payment made and approved from the composer, so the flow view has a whole journey.
    const composer = await show(page, "Composer");
    await choosePersona(page, "Sandbox AISP PISP AS");
    await freshSession(page);
    await chooseOperation(composer, "POST", "/v1/payments/instant-norwegian-domestic-credit-transfers-straks");
    await send(page, 201);
    await approveLast(page);

    const panel = await show(page, "Flow");
    const diagram = panel.getByRole("img", { name: "Sequence diagram" });
    await expect(diagram).toContainText("back to the TPP");
    expect(await scrollsSideways(page)).toBeLessThanOrEqual(0);
    // One status change, drawn once, on the bank's lane.
    await expect(diagram.locator("[data-key]").filter({ hasText: /^payment status/ })).not.toHaveCount(0);
    const statuses = await diagram.locator("[data-key]").filter({ hasText: /ACSC/ }).count();
    expect(statuses).toBe(1);

    const present = panel.getByRole("button", { name: "Present journey", exact: true });
    await present.click();
    const show_ = page.getByRole("dialog", { name: "Presentation" });
    const counter = show_.getByRole("status", { name: "Position in the journey" });
    const title = show_.getByRole("heading", { level: 2, name: /Straks payment/ });
    await page.keyboard.press("Home");
    await expect(counter).toContainText(/^1 \/ \d+/);
    const total = Number(/\/ (\d+)/.exec((await counter.textContent()) ?? "")?.[1]);
    let sawPage = false;
    let sawApproval = false;
    for (let i = 1; i < total; i++) {
      await page.keyboard.press("ArrowRight");
      await expect(counter).toContainText(new RegExp(`^${i + 1} / ${total}`));
      // Title and counter stay in view, nothing scrolls sideways, the diagram's text is 16 px or more as
      // drawn on the screen, no label is cut and the current message shows whole.
      await expect(title).toBeInViewport();
      await expect(counter).toBeInViewport();
      expect(await scrollsSideways(page)).toBeLessThanOrEqual(0);
      const drawn = await drawnDiagram(show_);
      expect(drawn.problems, `step ${i + 1}`).toEqual([]);
      expect(drawn.texts).toBeGreaterThan(10);
      expect(drawn.smallest, `step ${i + 1}`).toBeGreaterThanOrEqual(16);
      const pagePanel = show_.getByRole("region", { name: "The PSU's SCA page" });
      if ((await pagePanel.count()) > 0 && !sawPage) {
        sawPage = true;
        // Beside the PSU's page, all four lanes still show, none cut.
        for (const lane of ["TPP app", "Bank interface", "PSU (SCA pages)", "Batch simulator"]) {
          const label = show_.getByRole("group", { name: "Lanes" }).getByText(lane, { exact: true });
          await expect(label).toBeInViewport();
          expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        }
      }
      // Where the PSU approves, the page they approve on shows the amount, above the fold.
      if (/PSU approves/.test((await show_.getByLabel("Current message").textContent()) ?? "")) {
        sawApproval = true;
        await expect(pagePanel.getByText("125.50", { exact: false }).first()).toBeInViewport();
        await snap(page, "presentation-sca-page");
      }
    }
    expect(sawPage).toBe(true);
    expect(sawApproval).toBe(true);
    // From the first answer (401 → SCA, its label the widest near the left edge), in the light and the dark
    // theme: the diagram's type 16 px or more on the screen, every label whole, the diagram using the room.
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    await expect(counter).toContainText(new RegExp(`^2 / ${total}`));
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const drawn = await drawnDiagram(show_);
      expect(drawn.problems, theme).toEqual([]);
      expect(drawn.smallest, theme).toBeGreaterThanOrEqual(16);
      const used = await show_.getByRole("img", { name: "Sequence diagram" }).evaluate((svg) => {
        const area = (svg.parentElement as HTMLElement).getBoundingClientRect();
        const box = svg.getBoundingClientRect();
        return { width: box.width / area.width, height: Math.min(box.height, area.height) / area.height, share: area.width / window.innerWidth };
      });
      // The diagram spans its column and reaches the bottom of the screen (or scrolls); its column is most of the width.
      expect(used.width, theme).toBeGreaterThan(0.95);
      expect(used.height, theme).toBeGreaterThan(0.9);
      expect(used.share, theme).toBeGreaterThan(0.6);
      await snap(page, `presentation-1280-${theme}`);
    }
    await page.emulateMedia({ colorScheme: null });
    await page.keyboard.press("Escape");
    await expect(show_).toBeHidden();
    await expect(present).toBeFocused();
  });

  test("tester: snapshots saved, restored, exported and imported, and a state file imported", async ({ page, request }) => {
    const wb = await workbench(request);
    await api(request, wb, "POST", "/sandbox/initialize");
    await page.goto(URL_WITH_TOKEN);
    // The batch screen is open (mounted) before anything changes: it must follow a restore without a reload.
    const batch = await show(page, "Batch & clock");
    const panel = await show(page, "Sandbox data");
    await panel.getByRole("button", { name: "Snapshots and state files" }).click();
    const snapshots = panel.getByRole("region", { name: "Snapshots", exact: true });
    const name = `before-${Date.now()}`;
    await snapshots.getByLabel("Snapshot name", { exact: true }).fill(name);
    await snapshots.getByRole("button", { name: "Save snapshot" }).click();
    const row = snapshots.getByRole("row", { name: new RegExp(name) });
    await expect(row).toContainText(/UTC/);
    await expect(row).toContainText(/KB|bytes/);

    // After the snapshot: an external TPP's payment (the batch screen lists it) and Ola deleted in the UI.
    const paymentId = await externalPayment(request, wb);
    await show(page, "Batch & clock");
    await expect(batch.getByRole("table", { name: "Payments, newest first" })).toContainText(paymentId);
    await show(page, "Sandbox data");
    await deleteCustomer(page, "Ola Nordmann");

    // Export the snapshot's state to a file (a download in the browser), from its Export for replay.
    await row.getByRole("button", { name: `Export snapshot ${name} for replay` }).click();
    const exporting = page.getByRole("dialog", { name: `Export snapshot “${name}” for replay` });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      exporting.getByRole("button", { name: "Save the state", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${name}.state.json`);
    const file = (await download.path()) ?? "";
    expect(JSON.parse(readFileSync(file, "utf8"))).toHaveProperty("trees");
    await exporting.getByRole("button", { name: "Close", exact: true }).click();

    // Restore it, after the confirmation: Ola is back and the payment gone, on every screen, no reload.
    await row.getByRole("button", { name: `Restore snapshot ${name}` }).click();
    await page.getByRole("dialog", { name: `Restore “${name}”?` }).getByRole("button", { name: "Restore", exact: true }).click();
    await expect(panel.getByRole("list", { name: "Customers" })).toContainText("Ola Nordmann");
    await show(page, "Batch & clock");
    await expect(batch.getByText(paymentId)).toHaveCount(0);

    // Import the exported file after its preview: Ola, deleted again, comes back.
    await show(page, "Sandbox data");
    await deleteCustomer(page, "Ola Nordmann");
    const chooser = page.waitForEvent("filechooser");
    await snapshots.getByRole("button", { name: "Import a state file…" }).click();
    await (await chooser).setFiles(file);
    const dialog = page.getByRole("dialog", { name: "Import this state file?" });
    await expect(dialog.getByRole("table", { name: "What the import changes" })).toContainText("customers");
    await snap(page, "6-snapshots-import");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(panel.getByRole("list", { name: "Customers" })).toContainText("Ola Nordmann");

    // Delete the snapshot, after the confirmation.
    await row.getByRole("button", { name: `Delete snapshot ${name}` }).click();
    await page.getByRole("dialog", { name: `Delete “${name}”?` }).getByRole("button", { name: "Delete", exact: true }).click();
    await expect(row).toHaveCount(0);
  });
});

/** Deletes a customer as a user does: choose them, Delete customer, confirm. */
async function deleteCustomer(page: Page, name: string): Promise<void> {
  const panel = page.getByRole("tabpanel", { name: "Sandbox data", exact: true });
  await panel.getByRole("list", { name: "Customers" }).getByRole("button", { name: new RegExp(name) }).click();
  await panel.getByRole("article", { name: `Customer ${name}` }).getByRole("button", { name: "Delete customer" }).click();
  await page.getByRole("dialog", { name: `Delete ${name}?` }).getByRole("button", { name: "Delete", exact: true }).click();
  await expect(panel.getByRole("list", { name: "Customers" })).not.toContainText(name);
}

/** A domestic payment from Kari's account, created by an external TPP app (signed with the CLI): its id. */
async function externalPayment(request: APIRequestContext, wb: Workbench): Promise<string> {
  const url = `${wb.baseUrl}/v1/payments/norwegian-domestic-credit-transfers`;
  const body = JSON.stringify({
    instructedAmount: { amount: "12.00", currency: "NOK" },
    debtorAccount: { bban: "12051000003", currency: "NOK" },
    creditorName: "Ola Nordmann",
    creditorAccount: { bban: "12051001018", currency: "NOK" },
    creditorAddress: { street: "Storgata", buildingNumber: "1", postalCode: "0155", townName: "Oslo", country: "NO" },
    remittanceInformationUnstructured: "Snapshot test",
  });
  const headers = {
    "Content-Type": "application/json",
    "x-accept-fix": "amount-as-string",
    "TPP-Session-ID": randomUUID(),
    "TPP-Redirect-URI": wb.callbackUrl,
    "PSU-IP-Address": "192.0.2.10",
    "PSU-Context": "PRIVATE",
  };
  const created = await sendSigned(request, "POST", url, { ...headers, ...sign("POST", url, headers, body).headers }, body);
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { paymentId: string }).paymentId;
}

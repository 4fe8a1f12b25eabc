// Production rehearsal from the workbench against the real service (docs/rehearsal.md): the whole sandbox
// switched to the production profile and back from the Batch & clock screen (a signed call to /v1/sandbox is
// 404 under production), a failure added from the Faults panel with one click and switched off again, and
// the injected answer marked in the inspector and on the journey's step in the flow view; the Faults panel's
// presets and the marked step saved as screenshots at 1440x900 and 1280x720.
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { externalPayment, STRAKS } from "./support/payments";
import { api, URL_WITH_TOKEN, workbench } from "./support/service";
import { send, sign } from "./support/tpp";
import { scrollsSideways, show, snap } from "./support/workbench";

/** Saves the window at 1440x900 and at a 1280x720 projector (`-1280`), with no sideways scroll at either. */
async function snapBoth(page: Page, name: string): Promise<void> {
  await snap(page, name);
  await page.setViewportSize({ width: 1280, height: 720 });
  expect(await scrollsSideways(page)).toBeLessThanOrEqual(0);
  await snap(page, `${name}-1280`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe("Production rehearsal", () => {
  // Whatever a test did or failed to do, the suite's later tests meet a bank without a plan and in the
  // sandbox profile.
  test.afterEach(async ({ request }) => {
    const wb = await workbench(request);
    await api(request, wb, "DELETE", "/faults");
    await api(request, wb, "PUT", "/profile", { profile: "sandbox" });
  });

  test("switch to the production profile and back", async ({ page, request }) => {
    const wb = await workbench(request);
    const customers = async () => {
      const url = `${wb.baseUrl}/v1/sandbox/customers`;
      return (await send(request, "GET", url, sign("GET", url, {}).headers)).status();
    };
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Batch & clock");
    const profile = panel.getByRole("region", { name: "Profile" });
    await profile.getByRole("radio", { name: "Production" }).check();
    await expect(profile.getByRole("radio", { name: "Production" })).toBeChecked();
    await expect(profile).toContainText("Tolerances are refused");
    expect(await customers()).toBe(404);
    await profile.getByRole("radio", { name: "Sandbox" }).check();
    await expect(profile.getByRole("radio", { name: "Sandbox" })).toBeChecked();
    expect(await customers()).toBe(200);
  });

  test("a failure added with one click, seen in the inspector, switched off", async ({ page, request }) => {
    const wb = await workbench(request);
    const customers = async () => {
      const url = `${wb.baseUrl}/v1/sandbox/customers`;
      return (await send(request, "GET", url, sign("GET", url, {}).headers)).status();
    };
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Batch & clock");
    const faults = panel.getByRole("region", { name: "Faults" });
    await faults.getByRole("button", { name: /Maintenance: 503/ }).click();
    const on = faults.getByRole("checkbox", { name: "Rule maintenance on" });
    await expect(on).toBeChecked();
    expect(await customers()).toBe(503);

    const inspector = await show(page, "Inspector");
    await inspector.getByRole("listbox", { name: "Exchanges" }).getByRole("option").filter({ hasText: /503/ }).last().click();
    const exchange = inspector.getByRole("article", { name: /^Exchange \d+$/ });
    // The exchange has two notes: the fault plan's marker and the verdict's likely cause, which says the
    // fault plan answered (not the bank's handler).
    const notes = exchange.getByRole("note");
    await expect(notes.filter({ hasText: /^injected: 503 maintenance until \d\d:\d\d \(rule maintenance\)$/ })).toHaveCount(1);
    await expect(notes.filter({ hasText: "Likely cause" })).toContainText("fault plan");

    await show(page, "Batch & clock");
    await page.reload();
    const again = (await show(page, "Batch & clock")).getByRole("region", { name: "Faults" });
    await expect(again.getByLabel("Rule maintenance fired")).toHaveText("1");
    await again.getByRole("checkbox", { name: "Rule maintenance on" }).uncheck();
    await expect(again.getByRole("checkbox", { name: "Rule maintenance on" })).not.toBeChecked();
    expect(await customers()).toBe(200);
    await again.getByRole("button", { name: "Remove rule maintenance" }).click();
    await expect(again).toContainText("No rules");
  });

  test("the presets, and a payment's step the plan injected marked in the flow view", async ({ page, request }) => {
    const wb = await workbench(request);
    const made = await externalPayment(request, wb, STRAKS, "injected");
    await page.goto(URL_WITH_TOKEN);
    const faults = (await show(page, "Batch & clock")).getByRole("region", { name: "Faults" });
    const maintenance = faults.getByRole("button", { name: /Maintenance: 503/ });
    await expect(maintenance).toBeEnabled();
    await faults.scrollIntoViewIfNeeded();
    await snapBoth(page, "faults-presets");

    await maintenance.click();
    await expect(faults.getByRole("checkbox", { name: "Rule maintenance on" })).toBeChecked();
    await expect(maintenance).toBeDisabled();
    // The TPP app asks for the payment's status: the plan answers 503 in the bank's place.
    const url = `${wb.baseUrl}${STRAKS}/${made.paymentId}/status`;
    expect((await send(request, "GET", url, sign("GET", url, {}).headers)).status()).toBe(503);
    await expect(faults.getByLabel("Rule maintenance fired")).toHaveText("1");
    await faults.scrollIntoViewIfNeeded();
    await snapBoth(page, "faults-rule-fired");

    const flow = await show(page, "Flow");
    await flow.getByRole("combobox", { name: "Journey" }).selectOption(`payment:${made.paymentId}`);
    const diagram = flow.getByRole("img", { name: "Sequence diagram" });
    await expect(diagram).toContainText(/503 .*injected: 503 maintenance until \d\d:\d\d \(rule maintenance\)/);
    await snapBoth(page, "flow-injected");
  });
});

// Production rehearsal from the workbench against the real service (docs/rehearsal.md): the whole sandbox
// switched to the production profile and back from the Batch & clock screen (a signed call to /v1/sandbox is
// 404 under production), a failure added from the Faults panel with one click and switched off again, and
// the injected answer marked in the inspector.
import { expect, test } from "@playwright/test";
import { api, URL_WITH_TOKEN, workbench } from "./support/service";
import { send, sign } from "./support/tpp";
import { show } from "./support/workbench";

test.describe("Production rehearsal", () => {
  test.skip(!URL_WITH_TOKEN, "set XS2A_WORKBENCH_URL to the tokenised /workbench/ URL of a running service");

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
});

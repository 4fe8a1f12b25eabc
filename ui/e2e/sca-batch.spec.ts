// The SCA screen and the Batch & clock screen against the real service: an authorisation waiting for the
// PSU listed and opened in the SCA window (a popup here), the redirect back captured and the PSU-ID kept for
// the persona; the simulated clock advanced to the next run, each payment's outcome following live, a
// forced outcome set — all without sideways scrolling on a 1280-pixel screen.
import { expect, test } from "@playwright/test";
import { approveInBank } from "./support/bank";
import { choosePersona, KARI, send } from "./support/composer";
import { approveByAutomation, externalPayment } from "./support/payments";
import { URL_WITH_TOKEN, workbench } from "./support/service";
import { chooseOperation, scrollsSideways, show, snap } from "./support/workbench";

test.describe("SCA and batch", () => {
  test("SCA: a waiting authorisation opened from the list, the callback captured, the PSU-ID kept", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const composer = await show(page, "Composer");
    await choosePersona(page, "Sandbox AISP PISP AS");
    const persona = composer.getByRole("region", { name: "Signing persona", exact: true });
    await persona.getByLabel("PSU-ID", { exact: true }).fill("");
    await persona.getByLabel("TPP-Session-ID", { exact: true }).fill(`sca-${Date.now()}`);
    await persona.getByRole("button", { name: "Save PSU details" }).click();
    await chooseOperation(composer, "GET", "/v1/accounts");
    await send(page, 401);

    const panel = await show(page, "SCA");
    // The address to paste a link into names this service, not a fixed port.
    const origin = new URL(URL_WITH_TOKEN).origin;
    await expect(panel.getByLabel("scaRedirect URL")).toHaveAttribute("placeholder", `${origin}/sca/…`);
    const waiting = panel.getByRole("table", { name: "Authorisations waiting for the PSU, newest first" });
    const row = waiting.getByRole("row").nth(1);
    await expect(row).toContainText("Consent");
    await expect(row).toContainText("Sandbox AISP PISP AS");
    const [popup] = await Promise.all([page.waitForEvent("popup"), row.getByRole("button", { name: /Open the SCA of/ }).click()]);
    await approveInBank(popup, KARI);
    await popup.close();
    const callbacks = panel.getByRole("table", { name: "SCA callbacks, newest first" });
    await expect(callbacks.getByRole("row").nth(1)).toContainText("success");
    await expect(callbacks.getByRole("row").nth(1)).toContainText("psu-id");
    await snap(page, "3-sca");
    await show(page, "Composer");
    await expect(persona.getByLabel("PSU-ID", { exact: true })).not.toHaveValue("");
  });

  test("Batch & clock at 1280 px: advance to the next run, outcomes live, a forced outcome", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const wb = await workbench(request);
    const settles = await externalPayment(request, wb);
    await approveByAutomation(request, wb, settles);
    const forced = await externalPayment(request, wb);
    await approveByAutomation(request, wb, forced);
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Batch & clock");
    const payments = panel.getByRole("table", { name: "Payments, newest first" });
    const row = payments.getByRole("row", { name: new RegExp(settles.paymentId) });
    await expect(row).toContainText("ACTC");
    expect(await scrollsSideways(page)).toBeLessThanOrEqual(0);
    // The forced outcome column is on the screen, not cut off at its right edge.
    const select = payments.getByRole("combobox", { name: `Forced outcome of payment ${forced.paymentId}` });
    await expect(select).toBeInViewport({ ratio: 1 });
    await select.selectOption("RJCT");
    await expect(page.getByRole("log", { name: "Notices" })).toContainText(`Payment ${forced.paymentId} will end RJCT`);

    await panel.getByRole("button", { name: "Advance to the next run" }).click();
    await expect(row).toContainText("ACSC");
    await expect(payments.getByRole("row", { name: new RegExp(forced.paymentId) })).toContainText("RJCT");
    const run = panel.getByRole("list", { name: "Past batch runs" }).getByRole("group").first();
    await expect(run).toContainText(/\d+ payments?\b/);
    await expect(run).not.toContainText(/\b1 payments\b/);
    expect(await scrollsSideways(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    await snap(page, "4-batch-and-clock");
  });
});

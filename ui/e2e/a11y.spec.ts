// Everyone's checks: the six screens, with something on each (a customer open, a request answered, an
// exchange open, a journey drawn, a payment through the batch), scanned by axe-core for the WCAG 2 A and AA
// rules in the light and the dark theme — contrast of every text, diagram colours included — with zero
// violations; and presentation mode, a dialog and the shortcut list giving the focus back to their opener.
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { axeViolations } from "./support/axe";
import { approveByAutomation, externalPayment, STRAKS } from "./support/payments";
import { URL_WITH_TOKEN, workbench } from "./support/service";
import { send, sign } from "./support/tpp";
import { chooseOperation, show } from "./support/workbench";
import type { Screen } from "./support/workbench";

/** Puts something on the screen to scan: what a user would have open there. */
async function fill(page: Page, screen: Screen): Promise<void> {
  const panel = await show(page, screen);
  if (screen === "Sandbox data") {
    await panel.getByRole("list", { name: "Customers" }).getByRole("button", { name: /Kari Nordmann/ }).click();
    await panel.getByRole("button", { name: "Snapshots and state files" }).click();
    await expect(panel.getByRole("region", { name: "Snapshots", exact: true })).toBeVisible();
  } else if (screen === "Composer") {
    // An answer with JSON in the code editor (keys, strings, numbers), and the preview.
    await chooseOperation(panel, "GET", "/v1/sandbox/customers");
    await panel.getByRole("button", { name: "Send", exact: true }).click();
    await expect(panel.getByRole("region", { name: "Response", exact: true }).getByRole("status")).toContainText("200");
    await expect(panel.getByRole("region", { name: "Response", exact: true }).getByRole("textbox", { name: "Response body" })).toContainText("customerName");
    await panel.getByRole("button", { name: "Preview", exact: true }).click();
    await expect(panel.getByRole("region", { name: "Preview", exact: true })).toBeVisible();
  } else if (screen === "Inspector") {
    const list = panel.getByRole("listbox", { name: "Exchanges" });
    await list.getByRole("option").last().click();
    await expect(panel.getByRole("article").first()).toBeVisible();
  } else if (screen === "Flow") {
    await expect(panel.getByRole("img", { name: "Sequence diagram" })).toBeVisible();
  } else if (screen === "Batch & clock") {
    await expect(panel.getByRole("table", { name: "Payments, newest first" })).toBeVisible();
  }
}

const SCREENS: Screen[] = ["Sandbox data", "Composer", "SCA", "Batch & clock", "Inspector", "Flow"];

test.describe("accessibility", () => {
  test("the six screens in the light and the dark theme: no WCAG 2 AA violation", async ({ page, request }) => {
    const wb = await workbench(request);
    // Traffic for the inspector and the flow view, a payment for the batch screen.
    const made = await externalPayment(request, wb, STRAKS, "a11y");
    await approveByAutomation(request, wb, made);
    const statusUrl = `${wb.baseUrl}${STRAKS}/${made.paymentId}/status`;
    await send(request, "GET", statusUrl, sign("GET", statusUrl, {}).headers);
    const found: string[] = [];
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(URL_WITH_TOKEN);
      await expect(page.getByRole("status", { name: "Live events" })).toHaveText("Live");
      for (const screen of SCREENS) {
        await fill(page, screen);
        for (const v of await axeViolations(page)) found.push(`${theme} · ${screen}: ${v}`);
      }
      // Presentation mode too (its own colours and sizes).
      await show(page, "Flow");
      await page.getByRole("button", { name: "Present journey", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Presentation" })).toBeVisible();
      for (const v of await axeViolations(page)) found.push(`${theme} · Presentation: ${v}`);
      await page.keyboard.press("Escape");
    }
    expect(found).toEqual([]);
  });

  test("the focus goes back to what opened presentation mode, a dialog and the shortcut list", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Flow");
    const present = panel.getByRole("button", { name: "Present journey", exact: true });
    await expect(present).toBeEnabled();
    await present.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: "Presentation" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(present).toBeFocused();

    const shortcuts = page.getByRole("button", { name: "Keyboard shortcuts" });
    await shortcuts.click();
    await page.keyboard.press("Escape");
    await expect(shortcuts).toBeFocused();
    // Opened with `?` from nowhere in particular: back to the button that opens the list.
    await page.locator("body").click({ position: { x: 5, y: 600 } });
    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(shortcuts).toBeFocused();

    // Two buttons a screen reader tells apart: the header's type scale and the flow view's presentation.
    await expect(page.getByRole("button", { name: "Large type" })).toHaveAttribute("aria-pressed", /true|false/);
    await expect(page.getByRole("button", { name: "Presentation" })).toHaveCount(0);
  });
});

// Going through the bank's SCA pages in the popup the workbench opened, as a PSU: identify with the
// national identity number, pick a method, act as a private person, tick every account offered and consent
// (or approve a payment), until the bank redirects to the workbench's callback page.
import type { Page } from "@playwright/test";

async function visible(page: Page, locator: ReturnType<Page["getByRole"]>): Promise<boolean> {
  return (await locator.count()) > 0 && (await locator.first().isVisible());
}

/** Clicks and waits for the page the click leads to. */
async function go(page: Page, click: () => Promise<void>): Promise<void> {
  await Promise.all([page.waitForEvent("load"), click()]);
}

export async function approveInBank(popup: Page, nationalId: string): Promise<void> {
  await popup.waitForLoadState("load");
  for (let step = 0; step < 12; step++) {
    if (new URL(popup.url()).pathname.startsWith("/workbench/callback")) return;
    const identify = popup.getByLabel("National identity number", { exact: true });
    if ((await identify.count()) > 0 && (await identify.isVisible())) {
      await identify.fill(nationalId);
      await go(popup, () => popup.getByRole("button", { name: "Continue", exact: true }).click());
      continue;
    }
    const method = popup.getByRole("button", { name: /HA2|biometrics/ });
    if (await visible(popup, method)) {
      await go(popup, () => method.first().click());
      continue;
    }
    const privately = popup.getByRole("radio", { name: /private person/ });
    if (await visible(popup, privately)) {
      await privately.check();
      await go(popup, () => popup.getByRole("button", { name: "Continue", exact: true }).click());
      continue;
    }
    // The consent page: the accounts to grant are ticked by the PSU (none are by default).
    const accounts = popup.getByRole("checkbox");
    for (let i = 0; i < (await accounts.count()); i++) await accounts.nth(i).check();
    for (const name of ["Approve", "Confirm"]) {
      const button = popup.getByRole("button", { name, exact: true });
      if (await visible(popup, button)) {
        await go(popup, () => button.click());
        break;
      }
    }
  }
  if (!new URL(popup.url()).pathname.startsWith("/workbench/callback")) {
    throw new Error(`the SCA pages did not end at the workbench callback; last page ${popup.url()}: ${await popup.title()}`);
  }
}

// The PSU's SCA done on the bank's page that presentation mode shows live beside the diagram (no popup):
// identify with the national identity number, pick a method, act as a private person, tick every account
// offered and consent (or approve a payment), until the bank sends the PSU back to the TPP and the page
// closes. Each step waits for the page it leads to (the element pressed is gone from the new page).
import { expect } from "@playwright/test";
import type { Locator } from "@playwright/test";

async function shown(locator: Locator): Promise<boolean> {
  return (await locator.count()) > 0 && (await locator.first().isVisible());
}

/** Presses `target` and waits until the page it was on has been replaced (or the live page closed). */
async function press(region: Locator, target: Locator, act: (l: Locator) => Promise<void> = (l) => l.click()): Promise<void> {
  const handle = await target.first().elementHandle();
  await act(target.first());
  await expect.poll(async () => (await region.count()) === 0 || !(await handle?.evaluate((el) => el.isConnected))).toBe(true);
}

/** Does the PSU's SCA on the live page in `region` (presentation's "The PSU's SCA page, live"). */
export async function psuDoesSca(
  region: Locator,
  nationalId: string,
  options: { answer?: "Confirm" | "Cancel"; atLastPage?: () => Promise<void> } = {},
): Promise<void> {
  await expect(region.getByRole("button").first()).toBeVisible();
  for (let step = 0; step < 12; step++) {
    if ((await region.count()) === 0) return;
    const identify = region.getByLabel("National identity number", { exact: true });
    if (await shown(identify)) {
      await identify.fill(nationalId);
      await press(region, region.getByRole("button", { name: "Continue", exact: true }));
      continue;
    }
    const method = region.getByRole("button", { name: /HA2/ });
    if (await shown(method)) {
      await press(region, method);
      continue;
    }
    const privately = region.getByRole("radio", { name: /private person/ });
    if (await shown(privately)) {
      await privately.check();
      await press(region, region.getByRole("button", { name: "Continue", exact: true }));
      continue;
    }
    const accounts = region.getByRole("checkbox");
    for (let i = 0; i < (await accounts.count()); i++) await accounts.nth(i).check();
    await options.atLastPage?.();
    const names = options.answer === "Cancel" ? ["Cancel"] : ["Approve", "Confirm"];
    for (const name of names) {
      const button = region.getByRole("button", { name, exact: true });
      if (await shown(button)) {
        await press(region, button);
        break;
      }
    }
  }
  await expect(region, "the bank's pages sent the PSU back to the TPP").toHaveCount(0);
}

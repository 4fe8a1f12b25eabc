// Steps in the composer as a TPP developer takes them: choose a persona, send, open the SCA the answer links
// to and approve it on the bank's pages (a popup in the browser).
import { expect } from "@playwright/test";
import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { approveInBank } from "./bank";
import { responseBody } from "./workbench";

export const KARI = "14838510036";

export function composer(page: Page): Locator {
  return page.getByRole("tabpanel", { name: "Composer", exact: true });
}

/** Chooses the persona whose option's text contains `name`. */
export async function choosePersona(page: Page, name: string): Promise<void> {
  const select = composer(page).getByRole("combobox", { name: "Persona", exact: true });
  const value = await select.locator("option", { hasText: name }).first().getAttribute("value");
  await select.selectOption(value ?? "");
}

/** The chosen persona as a TPP app starting afresh: no PSU-ID known yet, a new TPP session. */
export async function freshSession(page: Page): Promise<void> {
  const persona = composer(page).getByRole("region", { name: "Signing persona", exact: true });
  await persona.getByLabel("PSU-ID", { exact: true }).fill("");
  await persona.getByLabel("TPP-Session-ID", { exact: true }).fill(randomUUID());
  await persona.getByRole("button", { name: "Save PSU details" }).click();
  await expect(page.getByRole("log", { name: "Notices" })).toContainText("PSU details saved");
}

/** Sends the composed request and answers the response body once the new answer's status is shown. */
export async function send(page: Page, status: number | RegExp): Promise<string> {
  const panel = composer(page);
  const history = panel.getByRole("list", { name: "Sent requests" }).getByRole("listitem");
  const before = await history.count();
  await panel.getByRole("button", { name: "Send", exact: true }).click();
  await expect(history).toHaveCount(before + 1);
  const response = panel.getByRole("region", { name: "Response", exact: true });
  await expect(response.getByRole("status")).toContainText(typeof status === "number" ? String(status) : status);
  return responseBody(panel);
}

/** Opens the SCA the last answer links to and approves it as the PSU with that national identity number. */
export async function approveLast(page: Page, nationalId = KARI): Promise<void> {
  const response = composer(page).getByRole("region", { name: "Response", exact: true });
  const [popup] = await Promise.all([page.waitForEvent("popup"), response.getByRole("button", { name: "Open SCA", exact: true }).click()]);
  await approveInBank(popup, nationalId);
  await expect(popup.getByText(/SCA finished/i).first()).toBeVisible();
  await popup.close();
}

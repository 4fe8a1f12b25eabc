// Steps in the workbench UI for the end-to-end test, found by role and label as a person finds them.
import { expect } from "@playwright/test";
import type { Locator, Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

export type Screen = "Sandbox data" | "Composer" | "SCA" | "Batch & clock" | "Inspector" | "Flow" | "Conformance";

const KEYS: Record<Screen, string> = {
  "Sandbox data": "1",
  Composer: "2",
  SCA: "3",
  "Batch & clock": "4",
  Inspector: "5",
  Flow: "6",
  Conformance: "7",
};

/** Switches screen with its shortcut and answers the screen's panel. */
export async function show(page: Page, screen: Screen): Promise<Locator> {
  await page.keyboard.press(`Alt+${KEYS[screen]}`);
  await expect(page.getByRole("tab", { name: screen, exact: true })).toHaveAttribute("aria-selected", "true");
  return page.getByRole("tabpanel", { name: screen, exact: true });
}

/**
 * Saves a screenshot of the window as it is (1440x900 by default, the presentation tests' 1280x720) to
 * $XS2A_SCREENSHOTS when set: the pictures of the README and docs/workbench.md come from here.
 */
export async function snap(page: Page, name: string): Promise<void> {
  const dir = process.env.XS2A_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  // Let the editors finish measuring (CodeMirror lays out on the next animation frames).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))));
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** Whether the page scrolls sideways (its content wider than the window). */
export async function scrollsSideways(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Sets a header row of the composer's request, adding a row when there is none with that name. */
export async function setHeader(panel: Locator, name: string, value: string): Promise<void> {
  const rows = await panel.getByRole("group", { name: /^Header \d+$/ }).count();
  for (let i = 1; i <= rows; i++) {
    const field = panel.getByLabel(`Header ${i} name`, { exact: true });
    if ((await field.inputValue()).toLowerCase() === name.toLowerCase()) {
      await panel.getByLabel(`Header ${i} value`, { exact: true }).fill(value);
      return;
    }
  }
  await panel.getByRole("button", { name: "Add header", exact: true }).click();
  await panel.getByLabel(`Header ${rows + 1} name`, { exact: true }).fill(name);
  await panel.getByLabel(`Header ${rows + 1} value`, { exact: true }).fill(value);
}

/** Adds a header row only when the request has none with that name (the operation's own value wins). */
export async function ensureHeader(panel: Locator, name: string, value: string): Promise<void> {
  const rows = await panel.getByRole("group", { name: /^Header \d+$/ }).count();
  for (let i = 1; i <= rows; i++) {
    if ((await panel.getByLabel(`Header ${i} name`, { exact: true }).inputValue()).toLowerCase() === name.toLowerCase()) return;
  }
  await setHeader(panel, name, value);
}

/** Removes the composer's header rows with that name. */
export async function removeHeader(panel: Locator, name: string): Promise<void> {
  for (let i = await panel.getByRole("group", { name: /^Header \d+$/ }).count(); i >= 1; i--) {
    if ((await panel.getByLabel(`Header ${i} name`, { exact: true }).inputValue()).toLowerCase() === name.toLowerCase()) {
      await panel.getByRole("button", { name: `Remove header ${i}`, exact: true }).click();
    }
  }
}

/**
 * Chooses the operation whose option ends with "METHOD path"; fails the test, naming it, when there is none
 * (choosing "(custom request)" instead would send whatever the form held before).
 */
export async function chooseOperation(panel: Locator, method: string, path: string): Promise<void> {
  const select = panel.getByLabel("Operation", { exact: true });
  // The picker is there only once the service's forms arrived: wait for their options. (Waiting for a count
  // other than 1 passed while there was no picker at all, on a loaded machine, and the chosen "operation"
  // was then "(custom request)": the request sent was the first operation's, still in the form.)
  await expect(select.locator("option").nth(1)).toBeAttached();
  const options = await select.locator("option").evaluateAll((list) =>
    list.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent ?? "" })),
  );
  const match = options.find((o) => o.text.trim().endsWith(`${method} ${path}`));
  if (!match) throw new Error(`the composer offers no operation "${method} ${path}" (${options.length} options)`);
  await select.selectOption(match.value);
  // The form is filled from the operation: the request line shows its method and path.
  await expect(panel.getByLabel("Method", { exact: true })).toHaveValue(method);
  await expect(panel.getByLabel("Path", { exact: true })).toHaveValue(new RegExp(`^${path.split("{")[0]!.replace(/[.*+?^$()|[\]\\]/g, "\\$&")}`));
}

/** Makes the composer's request exactly: method, path, body (in CodeMirror). */
export async function setRequest(panel: Locator, method: string, path: string, body?: string): Promise<void> {
  await panel.getByLabel("Method", { exact: true }).selectOption(method);
  await panel.getByLabel("Path", { exact: true }).fill(path);
  const editor = panel.getByRole("textbox", { name: "Request body", exact: true });
  await editor.click();
  await editor.press("ControlOrMeta+a");
  await editor.press("Delete");
  if (body) await panel.page().keyboard.insertText(body);
}

/** The response body as the composer shows it (CodeMirror's text). */
export async function responseBody(panel: Locator): Promise<string> {
  const response = panel.getByRole("region", { name: "Response", exact: true });
  return (await response.getByRole("textbox", { name: "Response body", exact: true }).textContent()) ?? "";
}

// The trainer's demo told from one screen (issue: "one journey, told from one screen"): against the real
// service, at 1280x720, in presentation mode — consent and SCA, then a domestic payment executed by a batch
// run — with the TPP's steps, the PSU's pages, the batch run and the clock all driven from presentation, and
// how often the demo leaves presentation counted (the target: never). Also each piece on its own: the diagram
// following the newest journey unless pinned, full screen, the story's words (no workbench internals, links
// not folded as base64), large type in the flow view, a restart that replays what the room saw (and says
// what it cannot), and a reset that starts a clean story. Elements are found by role and label.
import { expect, test } from "@playwright/test";
import type { Locator, Page } from "@playwright/test";
import { axeViolations } from "./support/axe";
import { drawnDiagram } from "./support/diagram";
import { psuDoesSca } from "./support/livePage";
import { api, URL_WITH_TOKEN, workbench } from "./support/service";
import { scrollsSideways, show, snap } from "./support/workbench";

const KARI = "14838510036";
const TPP = "Sandbox AISP PISP AS";

interface Exits {
  presentation: number;
  popups: number;
  screens: number;
}

/** Opens presentation from the Flow screen and starts counting how often the demo leaves it. */
async function present(page: Page): Promise<{ dialog: Locator; exits: () => Promise<Exits> }> {
  const panel = await show(page, "Flow");
  await panel.getByRole("button", { name: "Present journey", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Presentation" });
  await expect(dialog).toBeVisible();
  let popups = 0;
  page.on("popup", () => popups++);
  // Presentation left (closed) or the screen behind it switched, counted in the page as it happens.
  await page.evaluate(() => {
    const w = window as unknown as { presentationExits: number; screenSwitches: number };
    w.presentationExits = 0;
    w.screenSwitches = 0;
    const open = () => document.querySelector('[role="dialog"][aria-label="Presentation"]') !== null;
    const tab = () => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent ?? "";
    let was = open();
    let screen = tab();
    new MutationObserver(() => {
      const now = open();
      if (was && !now) w.presentationExits++;
      was = now;
      if (tab() !== screen) w.screenSwitches++;
      screen = tab();
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-selected"] });
  });
  const exits = async () => {
    const counted = await page.evaluate(() => {
      const w = window as unknown as { presentationExits: number; screenSwitches: number };
      return { presentation: w.presentationExits, screens: w.screenSwitches };
    });
    return { ...counted, popups };
  };
  return { dialog, exits };
}

/** Sends the TPP's next step `step` from presentation. */
async function tppSends(dialog: Locator, step: string): Promise<void> {
  const tpp = dialog.getByRole("region", { name: "The TPP" });
  await tpp.getByRole("combobox", { name: "Next step", exact: true }).selectOption({ label: step });
  await tpp.getByRole("button", { name: "Send as the TPP" }).click();
  await expect(tpp.getByRole("button", { name: "Send as the TPP" })).toBeEnabled();
}

function diagramOf(dialog: Locator): Locator {
  return dialog.getByRole("img", { name: "Sequence diagram" });
}

test.describe("trainer demo", () => {
  test.beforeEach(async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const wb = await workbench(request);
    await api(request, wb, "POST", "/sandbox/initialize");
  });

  test("the whole demo at 1280x720 in presentation mode: consent and SCA, a domestic payment and its batch run, 0 exits", async ({ page, request }) => {
    const wb = await workbench(request);
    await page.goto(URL_WITH_TOKEN);
    const { dialog, exits } = await present(page);
    const lanes = dialog.getByRole("group", { name: "Lanes" });

    // The TPP asks for a consent: one persona with both roles tells the whole story.
    const tpp = dialog.getByRole("region", { name: "The TPP" });
    await expect(tpp).toContainText(TPP);
    await tppSends(dialog, "A consent request");
    await expect(dialog.getByRole("heading", { level: 2, name: `Consent for ${TPP}`, exact: true })).toBeVisible();

    // The PSU's page opens beside the diagram, usable, sized for the projector, all four lanes still shown.
    const psu = dialog.getByRole("region", { name: "The PSU's SCA page, live" });
    await expect(psu.getByLabel("National identity number", { exact: true })).toBeInViewport();
    await expect(psu.getByRole("button", { name: "Continue", exact: true })).toBeInViewport();
    await expect(psu.getByRole("document", { name: "The bank's page" })).not.toHaveAttribute("inert");
    for (const lane of ["TPP app", "Bank interface", "PSU (SCA pages)", "Batch simulator"]) {
      await expect(lanes.getByText(lane, { exact: true })).toBeInViewport();
    }
    await snap(page, "trainer-demo-psu-page");
    // WCAG 2 AA with the bank's page live beside the diagram, in the light and the dark theme.
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      expect(await axeViolations(page), theme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: null });
    await psuDoesSca(psu, KARI);
    const diagram = diagramOf(dialog);
    await expect(diagram).toContainText("back to the TPP with the PSU's id");
    await expect(diagram).toContainText("PSU consents");

    // The accounts, with the PSU-ID the SCA gave the persona.
    await tppSends(dialog, "A read of the accounts");
    await expect(diagram).toContainText("GET /v1/accounts");
    await expect(diagram).toContainText("200 OK");

    // A domestic payment: the diagram follows the new journey; the PSU approves it on the page beside it.
    await tppSends(dialog, "A domestic payment");
    await expect(dialog.getByRole("heading", { level: 2, name: "Domestic payment 1000.00 NOK to Ola Nordmann", exact: true })).toBeInViewport();
    await psuDoesSca(psu, KARI, {
      // Where the PSU approves, the amount and the button show without scrolling.
      atLastPage: async () => {
        await snap(page, "trainer-demo-approve");
        await expect(psu.getByText("1000.00", { exact: false }).first()).toBeInViewport();
        await expect(psu.getByRole("button", { name: "Approve", exact: true })).toBeInViewport();
      },
    });
    await expect(diagram).toContainText("ACTC");

    // The bank's side: the clock is shown, and the batch run executes the payment.
    const bank = dialog.getByRole("region", { name: "The bank" });
    await expect(bank.getByRole("timer", { name: "Sandbox time" })).toHaveText(/\d{2}:\d{2}/);
    await bank.getByRole("button", { name: "Run the batch now" }).click();
    await expect(bank.getByRole("status", { name: "What the bank did" })).toContainText("1 payment processed");
    await expect(diagram).toContainText("ACTC → ACSC");

    // The TPP reads the status: executed.
    await tppSends(dialog, "A read of the payment's status");
    await expect(dialog.getByLabel("Current message")).toContainText("200 OK");
    const body = dialog.getByRole("region", { name: "The message" });
    await expect(body).toBeVisible();
    expect(await scrollsSideways(page)).toBeLessThanOrEqual(0);
    const drawn = await drawnDiagram(dialog);
    expect(drawn.problems).toEqual([]);
    expect(drawn.smallest).toBeGreaterThanOrEqual(16);
    await snap(page, "trainer-demo-executed");

    // Measured: the demo never left presentation (no close, no screen switch, no second window).
    expect(await exits()).toEqual({ presentation: 0, popups: 0, screens: 0 });
    // One TPP name through the story: the consent's and the payment's journeys are the same TPP's.
    const journeys = await api<{ kind: string; tpp: string; status: string; beforeReset: string | null }[]>(request, wb, "GET", "/journeys?limit=50");
    expect(journeys.filter((j) => !j.beforeReset).map((j) => [j.kind, j.tpp, j.status])).toEqual([
      ["payment", TPP, "ACSC"],
      ["consent", TPP, "SCA done"],
    ]);
  });

  test("the diagram follows the newest journey unless the trainer pins one", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const { dialog } = await present(page);
    const title = (name: string) => dialog.getByRole("heading", { level: 2, name, exact: true });
    await tppSends(dialog, "A consent request");
    await expect(title(`Consent for ${TPP}`)).toBeVisible();
    // A new journey starts: presentation follows it.
    await tppSends(dialog, "A domestic payment");
    await expect(title("Domestic payment 1000.00 NOK to Ola Nordmann")).toBeVisible();
    // Pinned, the next new journey does not take its place.
    const pin = dialog.getByRole("button", { name: "Pin journey" });
    await pin.click();
    await expect(pin).toHaveAttribute("aria-pressed", "true");
    await tppSends(dialog, "A straks (instant) payment");
    await expect(dialog.getByRole("region", { name: "The PSU's SCA page, live" })).toBeVisible();
    await expect(title("Domestic payment 1000.00 NOK to Ola Nordmann")).toBeVisible();
    // The Flow screen behind says the same: its choice is the pinned journey, and the diagram draws it.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    const panel = page.getByRole("tabpanel", { name: "Flow", exact: true });
    const journey = panel.getByRole("combobox", { name: "Journey", exact: true });
    await expect(journey.locator("option:checked")).toHaveText(/^Domestic payment 1000\.00 NOK to Ola Nordmann/);
    await expect(panel.getByText(/Domestic payment 1000\.00 NOK to Ola Nordmann · TPP .* · pinned/)).toBeVisible();
    // Unpinned: the newest journey (the straks payment) is drawn, and presented.
    await journey.selectOption({ label: "The newest journey (follows new traffic)" });
    await expect(panel.getByText(/Straks payment 125\.50 NOK to Ola Nordmann · TPP .* · the newest journey, followed/)).toBeVisible();
    await panel.getByRole("button", { name: "Present journey", exact: true }).click();
    await expect(title("Straks payment 125.50 NOK to Ola Nordmann")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Pin journey" })).toHaveAttribute("aria-pressed", "false");
  });

  test("full screen from presentation: the page's own, left with Escape before presentation is", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const { dialog } = await present(page);
    const full = dialog.getByRole("button", { name: "Full screen" });
    await full.click();
    await expect(full).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => page.evaluate(() => document.fullscreenElement === document.documentElement)).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
    await expect(full).toHaveAttribute("aria-pressed", "false");
    await expect(dialog).toBeVisible();
    await full.click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    // Leaving presentation leaves full screen too.
    await dialog.getByRole("button", { name: "Leave (Esc)" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
  });

  test("the story in its own words: the way back to the TPP, links with their ids, the whole title", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const { dialog } = await present(page);
    await tppSends(dialog, "A straks (instant) payment");
    await psuDoesSca(dialog.getByRole("region", { name: "The PSU's SCA page, live" }), KARI);
    const diagram = diagramOf(dialog);
    await expect(diagram).toContainText("back to the TPP with the PSU's id");
    for (const internal of ["/workbench/callback", "persona=", "bundled-"]) await expect(diagram).not.toContainText(internal);
    // The payment's answer: its links keep their paths, the payment's id in them (no "«base64…»").
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByLabel("Current message")).toContainText("201 Created");
    const body = dialog.getByRole("region", { name: "The message" }).getByLabel("Message body");
    await expect(body).toContainText(/"href": "[^"]*\/v1\/payments\/instant-norwegian-domestic-credit-transfers-straks\/[0-9a-f-]{36}/);
    await expect(body).not.toContainText("«base64");
    // The title whole, on the projector's screen: not cut.
    const title = dialog.getByRole("heading", { level: 2, name: "Straks payment 125.50 NOK to Ola Nordmann", exact: true });
    await expect(title).toBeInViewport({ ratio: 1 });
    expect(await title.evaluate((h) => h.scrollWidth <= h.clientWidth && h.scrollHeight <= h.clientHeight + 1)).toBe(true);
    await snap(page, "trainer-demo-words");
  });

  test("large type reaches the flow view's diagram labels", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(URL_WITH_TOKEN);
    const { dialog } = await present(page);
    await tppSends(dialog, "A consent request");
    await expect(dialog.getByRole("region", { name: "The PSU's SCA page, live" })).toBeVisible();
    await page.keyboard.press("Escape");
    const panel = page.getByRole("tabpanel", { name: "Flow", exact: true });
    const frame = panel.getByRole("region", { name: "Flow diagram" });
    await expect(frame.getByRole("img", { name: "Sequence diagram" })).toContainText("POST /v1/bank-offered-consents");
    const large = page.getByRole("button", { name: "Large type" });
    if ((await large.getAttribute("aria-pressed")) !== "true") await large.click();
    await expect(large).toHaveAttribute("aria-pressed", "true");
    await expect.poll(async () => (await drawnDiagram(frame)).smallest).toBeGreaterThanOrEqual(16);
    const drawn = await drawnDiagram(frame);
    expect(drawn.problems).toEqual([]);
    expect(drawn.texts).toBeGreaterThan(4);
    await snap(page, "flow-large-type");
    await large.click();
    await expect(large).toHaveAttribute("aria-pressed", "false");
    // Presentation on a 1440x900 screen, the bank's page beside the diagram.
    await panel.getByRole("button", { name: "Present journey", exact: true }).click();
    await expect(dialog.getByRole("region", { name: "The PSU's SCA page, live" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Open the PSU's page" }).click();
    await expect(dialog.getByRole("region", { name: "The PSU's SCA page, live" }).getByLabel("National identity number", { exact: true })).toBeInViewport();
    expect(await scrollsSideways(page)).toBeLessThanOrEqual(0);
    await snap(page, "presentation-1440");
  });

  test("restart from the payment replays what the room saw: the PSU's pages and the batch run, and says first what it cannot", async ({ page, request }) => {
    const wb = await workbench(request);
    await page.goto(URL_WITH_TOKEN);
    const { dialog, exits } = await present(page);
    await tppSends(dialog, "A domestic payment");
    await psuDoesSca(dialog.getByRole("region", { name: "The PSU's SCA page, live" }), KARI);
    // The bank's clock moved to the next run: the scheduled run executes the payment.
    const bank = dialog.getByRole("region", { name: "The bank" });
    await bank.getByRole("button", { name: "Advance to the next run" }).click();
    await expect(bank.getByRole("status", { name: "What the bank did" })).toContainText("Clock moved to the next run");
    const diagram = diagramOf(dialog);
    await expect(diagram).toContainText("ACTC → ACSC");

    // From the payment's creation: the dialog lists the steps played again and what is not, before anything.
    await page.keyboard.press("Home");
    await expect(dialog.getByLabel("Current message")).toContainText("POST /v1/payments/norwegian-domestic-credit-transfers");
    await dialog.getByRole("button", { name: "Restart from this step" }).click();
    const confirm = page.getByRole("dialog", { name: "Restart the journey from this step?" });
    const steps = confirm.getByRole("list", { name: "Steps played again" });
    await expect(steps).toContainText("TPP POST /v1/payments/norwegian-domestic-credit-transfers");
    await expect(steps).toContainText(/PSU POST \/sca\/[0-9a-f-]+\/identify/);
    await expect(steps).toContainText("PSU back to the TPP with the PSU's id");
    await expect(steps).toContainText("Batch a batch run, asked for now");
    await expect(confirm.getByRole("list", { name: "Not played again as it happened" })).toContainText(
      /the scheduled batch run at .*: the schedule is not waited for/,
    );
    await snap(page, "trainer-restart-plan");
    await confirm.getByRole("button", { name: "Restart", exact: true }).click();
    await expect(confirm).toBeHidden();

    // The re-run is a new journey, followed live: the PSU's steps on the bank's pages again, the batch run
    // redone, so the payment ends executed, not at ACTC.
    type Journey = { id: string; kind: string; status: string | null; beforeReset: string | null };
    // This test's own (earlier tests' journeys are from before its initialise).
    const payments = async () =>
      (await api<Journey[]>(request, wb, "GET", "/journeys?limit=50")).filter((j) => j.kind === "payment" && !j.beforeReset);
    await expect.poll(async () => (await payments()).map((j) => j.status), { timeout: 60_000 }).toEqual(["ACSC", "ACSC"]);
    const [rerun] = await payments();
    await expect(diagram).toContainText("PSU approves");
    await expect(diagram).toContainText("back to the TPP with the PSU's id");
    await expect(diagram).toContainText("ACTC → ACSC");
    const entries = await api<{ entries: { kind: string; area?: string; method?: string }[] }>(
      request,
      wb,
      "GET",
      `/journeys/${encodeURIComponent(rerun!.id)}`,
    );
    const pages = entries.entries.filter((e) => e.kind === "exchange" && e.area === "sca-page");
    expect(pages.filter((e) => e.method === "POST").length, "the PSU's forms, sent again").toBeGreaterThanOrEqual(3);
    expect(entries.entries.some((e) => e.kind === "exchange" && e.area === "sandbox"), "no automation shortcut").toBe(false);
    expect(await exits()).toEqual({ presentation: 0, popups: 0, screens: 0 });
  });

  test("initialise starts a clean story: the journeys before it listed apart, marked as before the reset", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const { dialog } = await present(page);
    await tppSends(dialog, "A consent request");
    await psuDoesSca(dialog.getByRole("region", { name: "The PSU's SCA page, live" }), KARI);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    const sandbox = await show(page, "Sandbox data");
    await sandbox.getByRole("button", { name: "Initialise / reset sandbox" }).click();
    const confirm = page.getByRole("dialog", { name: "Initialise the sandbox?" });
    await expect(confirm).toContainText("lists its journeys apart, as before the reset, and starts a clean story");
    await confirm.getByRole("button", { name: "Initialise", exact: true }).click();
    await expect(confirm).toBeHidden();

    const panel = await show(page, "Flow");
    const journey = panel.getByRole("combobox", { name: "Journey", exact: true });
    // Listed apart (under "Before the sandbox was reset"), each saying so in place of a stale status.
    await expect(journey.getByRole("option", { name: new RegExp(`^Consent for ${TPP} · before the reset at `) })).not.toHaveCount(0);
    await expect(journey.getByRole("option", { name: /SCA done/ })).toHaveCount(0);
    await expect(journey.locator("option:checked")).toHaveText("The newest journey (follows new traffic)");
    await expect(panel.getByRole("heading", { name: "No journey since the sandbox was reset" })).toBeVisible();
    await panel.getByRole("button", { name: "Present journey", exact: true }).click();
    await expect(dialog.getByRole("heading", { level: 2, name: "No journey yet", exact: true })).toBeVisible();
    await expect(dialog.getByRole("status", { name: "Position in the journey" })).toContainText("No messages yet");
    // The old journey, chosen, says what it is.
    await page.keyboard.press("Escape");
    await journey.selectOption({ label: (await journey.getByRole("option", { name: new RegExp(`^Consent for ${TPP}`) }).first().textContent()) ?? "" });
    await expect(panel.getByText(/before the sandbox was reset at .*: its resources are gone/)).toBeVisible();
  });
});

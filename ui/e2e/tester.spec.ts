// The tester's job without curl (issue 36), against the real service (scripts/test-browser.sh), by role and
// label: a journey made in the composer and on the bank's pages is exported from the Flow screen for replay —
// the state it starts from, the recorded flow and the recording persona's certificate and key, each a download —
// and the commands the dialog gives are run exactly as copied, from another directory, with the CLI
// (XS2A_SANDBOX_BIN): `replay --junit` passes and its JUnit report says so. The same for a snapshot, whose panel
// warns that an ephemeral service's snapshots vanish at exit. Generated transactions say what was made and that
// the number is per account, their amounts show as the form takes them, forms open next to their buttons, and
// the inspector sums up a run of created transactions in one line with the list on demand.
import { expect, test } from "@playwright/test";
import type { Locator, Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { approveLast, choosePersona, freshSession, send } from "./support/composer";
import { DOMESTIC, externalPayment } from "./support/payments";
import { api, customers, URL_WITH_TOKEN, workbench } from "./support/service";
import { SANDBOX_BIN, send as sendSigned, sign } from "./support/tpp";
import { chooseOperation, scrollsSideways, show, snap } from "./support/workbench";

/** Clicks `button` and saves the download it starts into `dir` under the name the page offered. */
async function download(page: Page, dir: string, button: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const name = file.suggestedFilename();
  await file.saveAs(join(dir, name));
  return name;
}

/** Runs copied shell text with bash in `dir`, the sandbox's binary on the PATH. */
function runIn(dir: string, text: string): { status: number; out: string } {
  const env = { ...process.env, PATH: `${dirname(SANDBOX_BIN)}:${process.env.PATH ?? ""}` };
  try {
    const out = execFileSync("bash", ["-c", text], { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return { status: 0, out };
  } catch (e) {
    const failed = e as { status?: number; stdout?: string; stderr?: string };
    return { status: failed.status ?? 1, out: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

/**
 * In an open Export-for-replay dialog: saves the state, the flow and the certificate and key, copies the commands
 * and runs them as copied in a scratch directory; answers the directory, the files' names and the run.
 */
async function exportAndReplay(page: Page, dialog: Locator) {
  const dir = mkdtempSync(join(tmpdir(), "xs2a-replay-"));
  const files = dialog.getByRole("table", { name: "Files to save" });
  const state = await download(page, dir, files.getByRole("button", { name: "Save the state", exact: true }));
  const flow = await download(page, dir, files.getByRole("button", { name: "Save the flow", exact: true }));
  const key = await download(page, dir, files.getByRole("button", { name: "Save the certificate and key of Sandbox AISP PISP AS" }));
  await expect(files.getByRole("status")).toHaveCount(3);
  await dialog.getByRole("button", { name: "Copy the commands" }).click();
  const commands = await page.evaluate(() => navigator.clipboard.readText());
  expect(commands).toContain(`tar -xf ${key}`);
  expect(commands).toContain(`xs2a-sandbox replay ${flow} --fixture ${state} --cert-dir bundled-aisp-pisp --junit`);
  const run = runIn(dir, commands);
  return { dir, state, flow, key, commands, run };
}

test.describe("tester", () => {
  test("a journey exported for replay from the Flow screen replays headless with replay --junit, as copied", async ({ page, request, context }) => {
    const wb = await workbench(request);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await api(request, wb, "POST", "/sandbox/initialize");
    await page.goto(URL_WITH_TOKEN);

    // The journey: a consent asked for in the composer, given by Kari on the bank's pages, and the accounts read.
    const composer = await show(page, "Composer");
    await choosePersona(page, "Sandbox AISP PISP AS");
    await freshSession(page);
    await chooseOperation(composer, "GET", "/v1/accounts");
    await send(page, 401);
    await approveLast(page);
    expect(await send(page, 200)).toContain("12051000003");

    const flow = await show(page, "Flow");
    await expect(flow.getByRole("img", { name: "Sequence diagram" })).toContainText("back to the TPP");
    await flow.getByRole("button", { name: "Export for replay…" }).click();
    const dialog = page.getByRole("dialog", { name: /^Export the journey .* for replay$/ });
    const files = dialog.getByRole("table", { name: "Files to save" });
    // The flow says what it holds and which TPP recorded it; the persona's key comes with the warning.
    await expect(files).toContainText(/The recorded flow: [3-9] steps/);
    await expect(files).toContainText(/recorded by Sandbox AISP PISP AS \(organisation PSDNO-FSA-/);
    await expect(files.getByRole("note")).toContainText("This private key is public.");
    await snap(page, "tester-export-journey");
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await scrollsSideways(page)).toBe(0);
    await snap(page, "tester-export-journey-1280");
    await page.setViewportSize({ width: 1440, height: 900 });

    const done = await exportAndReplay(page, dialog);
    // The files are named after what they hold.
    expect(done.state).toMatch(/^consent-[0-9a-f]{8}\.state\.json$/);
    expect(done.flow).toBe(done.state.replace(".state.json", ".flow.json"));
    expect(done.key).toBe("bundled-aisp-pisp.cert-dir.tar");
    expect(done.run.status, done.run.out).toBe(0);
    expect(done.run.out).not.toContain("note:");
    const saved = JSON.parse(readFileSync(join(done.dir, done.flow), "utf8")) as { state: string; recordedBy: { name: string }[] };
    expect(saved.state).toBe(done.state);
    expect(saved.recordedBy.map((r) => r.name)).toEqual(["Sandbox AISP PISP AS"]);
    const junit = readFileSync(join(done.dir, done.flow.replace(".flow.json", ".junit.xml")), "utf8");
    expect(junit).toMatch(/<testsuite name="consent-[0-9a-f]{8}" tests="[3-9]" failures="0"/);
    expect(junit).toContain("SCA POST /v1/sandbox/sca/{authorisationId}");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await expect(dialog).toBeHidden();
  });

  test("a snapshot exported as state plus flow replays as copied; an ephemeral service's panel warns", async ({ page, request, context }) => {
    const wb = await workbench(request);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await api(request, wb, "POST", "/sandbox/initialize");
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Sandbox data");
    await panel.getByRole("button", { name: "Snapshots and state files" }).click();
    const snapshots = panel.getByRole("region", { name: "Snapshots", exact: true });
    // The service under test runs with --ephemeral: its snapshots vanish when it stops, and the panel says so.
    await expect(snapshots.getByRole("note", { name: "Snapshots vanish at exit" })).toContainText(
      "These snapshots vanish when the service stops.",
    );
    const name = `ci start ${Date.now()}`;
    await snapshots.getByLabel("Snapshot name", { exact: true }).fill(name);
    await snapshots.getByRole("button", { name: "Save snapshot" }).click();
    const row = snapshots.getByRole("row", { name: new RegExp(name) });
    await expect(row).toContainText(/UTC/);
    await snap(page, "tester-snapshots-ephemeral");
    await page.setViewportSize({ width: 1280, height: 720 });
    await snap(page, "tester-snapshots-ephemeral-1280");
    await page.setViewportSize({ width: 1440, height: 900 });

    // After the snapshot, an outside TPP app (the bundled AISP PISP certificate, signed with the CLI) reads the
    // customers and starts a payment.
    const listUrl = `${wb.baseUrl}/v1/sandbox/customers`;
    expect((await sendSigned(request, "GET", listUrl, sign("GET", listUrl, {}).headers)).status()).toBe(200);
    await externalPayment(request, wb, DOMESTIC, "Replay test");

    await row.getByRole("button", { name: `Export snapshot ${name} for replay` }).click();
    const dialog = page.getByRole("dialog", { name: `Export snapshot “${name}” for replay` });
    await expect(dialog.getByRole("table", { name: "Files to save" })).toContainText(/The recorded flow: 2 steps, everything served since the snapshot/);
    await snap(page, "tester-export-snapshot");
    const done = await exportAndReplay(page, dialog);
    const stem = name.replace(/ /g, "-");
    expect([done.state, done.flow]).toEqual([`${stem}.state.json`, `${stem}.flow.json`]);
    expect(done.run.status, done.run.out).toBe(0);
    expect(readFileSync(join(done.dir, `${stem}.junit.xml`), "utf8")).toContain('tests="2" failures="0"');
  });

  test("generated transactions say what was made, per account; amounts as the form takes them; forms open next to their buttons; the inspector sums up the run", async ({ page, request }) => {
    const wb = await workbench(request);
    await api(request, wb, "POST", "/sandbox/initialize");
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Sandbox data");
    await panel.getByRole("list", { name: "Customers" }).getByRole("button", { name: /Kari Nordmann/ }).click();
    const article = panel.getByRole("article", { name: "Customer Kari Nordmann" });
    const top = async (l: Locator) => (await l.boundingBox())?.y ?? Number.NaN;

    // "New account" opens under the Accounts heading, above the card accounts.
    const accounts = article.getByRole("region", { name: "Accounts", exact: true });
    const cards = article.getByRole("region", { name: "Card accounts", exact: true });
    const newAccount = accounts.getByRole("button", { name: "New account", exact: true });
    await newAccount.click();
    const accountForm = accounts.getByRole("form", { name: "New account" });
    await expect(accountForm).toBeVisible();
    expect(await top(accountForm)).toBeGreaterThan(await top(newAccount));
    expect(await top(accountForm)).toBeLessThan(await top(cards));
    await accountForm.getByRole("button", { name: "Cancel" }).click();

    // Generating for every account sits with the customer, its form right under the button, above the accounts;
    // the number is per account, and it says what that makes.
    const generateAll = article.getByRole("button", { name: "Generate transactions for every account" });
    expect(await top(generateAll)).toBeLessThan(await top(accounts));
    await generateAll.click();
    const form = article.getByRole("form", { name: "Generate transactions for each of Kari Nordmann's accounts" });
    expect(await top(form)).toBeGreaterThan(await top(generateAll));
    expect(await top(form)).toBeLessThan(await top(accounts));
    const perAccount = form.getByLabel("Transactions per account", { exact: true });
    await perAccount.fill("250");
    await expect(perAccount).toHaveAccessibleDescription("Each of the 2 accounts and 1 card account gets 250: 750 transactions in all.");
    await form.getByRole("button", { name: "Generate for every account" }).click();
    await expect(article.getByRole("status", { name: "What was generated" })).toHaveText(
      "Made 250 transactions on each of 2 accounts and 250 card transactions on 1 card account, 750 transactions in all.",
    );
    await snap(page, "tester-generated");
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await scrollsSideways(page)).toBe(0);
    await snap(page, "tester-generated-1280");
    await page.setViewportSize({ width: 1440, height: 900 });

    // An account's transactions open under its row, their amounts as the form takes them (-125.50, not -12550).
    const rows = accounts.getByRole("list", { name: "Accounts of this customer" });
    const open = rows.getByRole("button", { name: "Transactions of account 12051000003" });
    await open.click();
    const add = accounts.getByRole("form", { name: "Add a transaction" });
    expect(await top(add)).toBeGreaterThan(await top(open));
    await add.getByLabel("Amount", { exact: true }).fill("-125.50");
    await add.getByRole("button", { name: "Add transaction" }).click();
    const table = accounts.getByRole("table", { name: /transactions \(at most 500 shown; amounts as the form takes them\)/ });
    await expect(table.getByRole("cell", { name: "-125.50", exact: true })).toBeVisible();
    const amounts = await table.getByRole("row").evaluateAll((trs) => trs.slice(1).map((tr) => tr.children[1]?.textContent ?? ""));
    expect(amounts.length).toBeGreaterThan(250);
    for (const amount of amounts) expect(amount).toMatch(/^-?\d+\.\d{2}$/);

    // A run of 120 transactions generated by an outside TPP app: the inspector says "120 transactions created"
    // in one line, and lists them when asked.
    const kari = (await customers(request, wb)).find((c) => c.name === "Kari Nordmann");
    const accountId = kari?.accounts[0]?.id ?? "";
    const url = `${wb.baseUrl}/v1/sandbox/accounts/${accountId}/transactions/generate`;
    const run = JSON.stringify({ count: 120, fromDate: "2026-03-01", toDate: "2026-05-31" });
    const signed = sign("POST", url, { "Content-Type": "application/json" }, run);
    expect((await sendSigned(request, "POST", url, signed.headers, run)).status()).toBeLessThan(300);
    const inspector = await show(page, "Inspector");
    await inspector
      .getByRole("listbox", { name: "Exchanges" })
      .getByRole("option")
      .filter({ hasText: /POST\/v1\/sandbox\/accounts\/.*\/transactions\/generate/ })
      .last()
      .click();
    const changes = inspector.getByRole("article", { name: /^Exchange \d+$/ }).getByRole("region", { name: "State changes" });
    const list = changes.getByRole("list", { name: "Resources changed" });
    const runLine = list.getByRole("listitem").filter({ hasText: /^created 120 transactions/ });
    await expect(runLine).toHaveCount(1);
    await expect(list.getByRole("listitem")).not.toHaveCount(120);
    await runLine.getByRole("button", { name: "Show them" }).click();
    await expect(runLine.getByRole("list", { name: "120 transactions created" }).getByRole("listitem")).toHaveCount(120);
    await snap(page, "tester-inspector-run");
    await page.setViewportSize({ width: 1280, height: 720 });
    await snap(page, "tester-inspector-run-1280");
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  test("a bundled persona's certificate and key download as a --cert-dir, after the warning that the key is public", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const composer = await show(page, "Composer");
    await choosePersona(page, "Sandbox AISP AS");
    await composer.getByRole("button", { name: "Download certificate and key…" }).click();
    const dialog = page.getByRole("dialog", { name: "Download the certificate and key of Sandbox AISP AS?" });
    await expect(dialog.getByRole("note")).toContainText("This private key is public.");
    await expect(dialog).toContainText("bundled-aisp.cert-dir.tar");
    await snap(page, "tester-persona-key");
    await page.setViewportSize({ width: 1280, height: 720 });
    await snap(page, "tester-persona-key-1280");
    await page.setViewportSize({ width: 1440, height: 900 });
    const dir = mkdtempSync(join(tmpdir(), "xs2a-key-"));
    const name = await download(page, dir, dialog.getByRole("button", { name: "Save certificate and key" }));
    expect(name).toBe("bundled-aisp.cert-dir.tar");
    await expect(dialog).toBeHidden();
    // Unpacked, it is a --cert-dir the CLI signs with.
    const signed = runIn(dir, `tar -xf ${name} && xs2a-sandbox sign --cert-dir bundled-aisp --url http://127.0.0.1:1/v1/accounts`);
    expect(signed.status, signed.out).toBe(0);
    expect(signed.out).toContain("Signature:");
    expect(readFileSync(join(dir, "bundled-aisp", "README.txt"), "utf8")).toContain("THIS PRIVATE KEY IS PUBLIC");
  });
});

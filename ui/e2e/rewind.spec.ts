// Rewind end to end against a running service (XS2A_WORKBENCH_URL, XS2A_SANDBOX_BIN as in traffic.spec.ts):
// an external TPP app creates a customer; the inspector shows the exchange's State changes (the customer
// created, field by field), exports the state at the exchange as a state file holding the customer, and
// compares the state before it with the state after a later read (the customer differs), and rewinds the
// sandbox to before it after a confirmation saying the sandbox rewinds only itself: the customer is gone
// from the sandbox; rewinding to before the rewind brings it back.
import { expect, test } from "@playwright/test";
import type { APIRequestContext } from "@playwright/test";
import { readFileSync } from "node:fs";
import { syntheticNationalId } from "./support/numbers";
import { send, sign } from "./support/tpp";
import { scrollsSideways, show, snap } from "./support/workbench";

const URL_WITH_TOKEN = process.env.XS2A_WORKBENCH_URL ?? "";

async function session(request: APIRequestContext) {
  const url = new URL(URL_WITH_TOKEN);
  const token = url.searchParams.get("token") ?? "";
  const answer = await request.get(`${url.origin}/workbench/api/session`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await answer.json()) as { baseUrl: string };
  return { origin: url.origin, token, baseUrl: body.baseUrl };
}

test.describe("rewind", () => {
  test("an exchange's state changes, exported, rewound to before it and back", async ({ page, request }) => {
    const wb = await session(request);
    const customers = async () => {
      const answer = await request.get(`${wb.origin}/workbench/api/state`, { headers: { Authorization: `Bearer ${wb.token}` } });
      return JSON.stringify(await answer.json());
    };
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Inspector");
    await expect(panel.getByRole("status").filter({ hasText: "live: open" })).toBeVisible();

    const name = `Rewind Testesen ${Date.now()}`;
    const body = JSON.stringify({ customerNumber: syntheticNationalId(400), name, type: "private" });
    const url = `${wb.baseUrl}/v1/sandbox/customers`;
    const created = await send(request, "POST", url, sign("POST", url, { "Content-Type": "application/json" }, body).headers, body);
    expect(created.status(), await created.text()).toBe(201);
    expect(await customers()).toContain(name);

    const row = panel.getByRole("listbox", { name: "Exchanges" }).getByRole("option").filter({ hasText: /POST\/v1\/sandbox\/customers201/ });
    await row.last().click();
    const exchange = panel.getByRole("article", { name: /^Exchange \d+$/ });
    const changes = exchange.getByRole("region", { name: "State changes" });
    const list = changes.getByRole("list", { name: "Resources changed" });
    await expect(list.getByRole("listitem").filter({ hasText: "created customer" })).toHaveCount(1);

    // Export the state at the exchange: a state file with the customer in it.
    const download = page.waitForEvent("download");
    await changes.getByRole("button", { name: "Export the state at this exchange" }).click();
    const file = await (await download).path();
    expect(readFileSync(file, "utf8")).toContain(name);

    // Compare the state before it with the state after a later read: the customer is the difference.
    const listed = await send(request, "GET", url, sign("GET", url, {}).headers);
    expect(listed.status()).toBe(200);
    const createdId = /^Exchange (\d+)$/.exec((await exchange.getAttribute("aria-label")) ?? "")?.[1];
    expect(createdId).toBeTruthy();
    await changes.getByRole("button", { name: "Compare with…" }).click();
    const compare = changes.getByRole("region", { name: "Compare states" });
    await compare.getByRole("combobox", { name: "State of this exchange" }).selectOption({ label: `before #${createdId}` });
    const other = compare.getByRole("combobox", { name: "Compare with" });
    const read = other.locator("option", { hasText: "GET /v1/sandbox/customers → 200" }).first();
    await expect(read).toBeAttached();
    await other.selectOption({ label: (await read.textContent()) ?? "" });
    await compare.getByRole("button", { name: "Compare" }).click();
    const comparison = compare.getByRole("region", { name: "Comparison" });
    await expect(comparison).toContainText(`The state before #${createdId} against the state after #`);
    const differing = comparison.getByRole("list", { name: "Resources that differ" });
    await expect(differing.getByRole("listitem").filter({ hasText: /^only after #\d+ customer / })).toHaveCount(1);
    await snap(page, "rewind-compare");
    // The panel fits a 1280x720 projector too, without sideways scrolling.
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await scrollsSideways(page)).toBe(0);
    await snap(page, "rewind-compare-1280");
    await page.setViewportSize({ width: 1440, height: 900 });

    // Rewind to before it: asked first, saying what it undoes (the service's preview); the TPP's own state
    // is not rewound.
    await changes.getByRole("button", { name: "Rewind to before this exchange" }).click();
    const dialog = page.getByRole("dialog", { name: /^Rewind the sandbox to before #\d+\?$/ });
    await expect(dialog).toContainText(/This undoes [1-9]\d* changes? /);
    await expect(dialog).toContainText("The sandbox rewinds only itself");
    await snap(page, "rewind-confirm");
    await dialog.getByRole("button", { name: "Rewind" }).click();
    await expect(page.getByRole("log", { name: "Notices" })).toContainText("The sandbox is back at the state before");
    expect(await customers()).not.toContain(name);

    // The rewind is an entry of the timeline: rewinding to before it undoes it.
    const notice = await page.getByRole("log", { name: "Notices" }).textContent();
    const rewindEntry = /rewind to before #(\d+)/.exec(notice ?? "")?.[1];
    expect(rewindEntry).toBeTruthy();
    const undo = await request.post(`${wb.origin}/workbench/api/rewind`, {
      headers: { Authorization: `Bearer ${wb.token}` },
      data: { to: Number(rewindEntry), position: "before" },
    });
    expect(undo.status()).toBe(200);
    expect(await customers()).toContain(name);
  });
});

// A first start on an empty data directory, as a new user has it: the service started on a data directory
// of its own (not the shared test service), the workbench opens on Sandbox data with the seeded customers
// and one line saying where to begin.
import { expect, test } from "@playwright/test";
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SANDBOX_BIN } from "./support/tpp";

async function start(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(SANDBOX_BIN, ["serve", "--data", dir, "--port", "0"], {
    // The UI scripts/test-browser.sh serves (XS2A_UI_DIST), else this checkout's build.
    env: { ...process.env, XS2A_UI_DIST: process.env.XS2A_UI_DIST ?? new URL("../dist", import.meta.url).pathname },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    // No timer of its own: the URL comes when the service is ready, however loaded the machine; a service
    // that ends first rejects below, one that hangs is left to the test's own timeout.
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /^workbench: (\S+)$/m.exec(out);
      if (found?.[1]) resolve(found[1]);
    });
    child.on("exit", (code) => reject(new Error(`the service ended (${code}): ${out}`)));
  });
  return { child, url };
}

test("first start on an empty data directory: Sandbox data with the seeded customers and where to begin", async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), "xs2a-first-start-"));
  const { child, url } = await start(dir);
  try {
    await page.goto(url);
    await expect(page.getByRole("tab", { name: "Sandbox data", exact: true })).toHaveAttribute("aria-selected", "true");
    const panel = page.getByRole("tabpanel", { name: "Sandbox data", exact: true });
    const customers = panel.getByRole("list", { name: "Customers" });
    for (const name of ["Kari Nordmann", "Ola Nordmann", "Per Hansen", "Fjordkraft Testbedrift AS", "Nordlys Handel AS"]) {
      await expect(customers).toContainText(name);
    }
    const hint = page.getByRole("note");
    await expect(hint).toHaveCount(1);
    await expect(hint).toContainText("Where to begin");
    await expect(hint).toContainText(new URL(url).origin);
  } finally {
    child.kill("SIGTERM");
    await new Promise((done) => child.once("exit", done));
    rmSync(dir, { recursive: true, force: true });
  }
});

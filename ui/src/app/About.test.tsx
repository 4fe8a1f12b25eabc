// About: version, service URL and mode, data directory; in the desktop app also "Open folder" and the
// licences the app's build generated (through the `about` and `open_data_folder` commands).
import { screen, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AboutDialog } from "./About";
import { renderWorkbench, SESSION } from "../test/harness";
import { json } from "../test/fetchMock";

const DESKTOP_ABOUT = {
  version: "0.2.0",
  licences: {
    generatedFrom: ["Cargo.lock", "ui/package-lock.json"],
    components: [
      { name: "tauri", version: "2.12.5", kind: "crate", licence: "Apache-2.0 OR MIT", repository: null, texts: [0] },
      { name: "sled", version: "0.34.7", kind: "crate", licence: "MIT OR Apache-2.0", repository: null, texts: [] },
      { name: "solid-js", version: "1.9.19", kind: "npm", licence: "MIT", repository: null, texts: [1] },
    ],
    texts: ["Apache License 2.0 text", "MIT License text"],
  },
};

afterEach(() => {
  delete window.__TAURI__;
});

describe("About", () => {
  it("in a browser shows the version, the service and its mode, and where the licences are", async () => {
    renderWorkbench(() => <AboutDialog onClose={() => {}} />);
    const dialog = screen.getByRole("dialog", { name: "About xs2a-sandbox workbench" });
    expect(await within(dialog).findByText("0.2.0")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("http://127.0.0.1:8080");
    expect(dialog).toHaveTextContent("loopback (this machine only)");
    expect(dialog).toHaveTextContent("ephemeral");
    expect(dialog).toHaveTextContent("listed in the desktop app's About");
    expect(within(dialog).queryByRole("button", { name: "Open folder" })).toBeNull();
  });

  it("in the desktop app lists the licences, finds a component and opens the data folder", async () => {
    const invoke = vi.fn((command: string) =>
      Promise.resolve(command === "about" ? DESKTOP_ABOUT : "/home/u/.local/share/no.sandbox.xs2a.workbench"),
    );
    window.__TAURI__ = { core: { invoke: invoke as never } };
    renderWorkbench(() => <AboutDialog onClose={() => {}} />, {
      routes: { "GET /session": json({ ...SESSION, dataDir: "/home/u/.local/share/no.sandbox.xs2a.workbench" }) },
    });
    const dialog = screen.getByRole("dialog", { name: "About xs2a-sandbox workbench" });
    expect(await within(dialog).findByText(/2 Rust crates and 1 npm package,/)).toBeInTheDocument();
    expect(dialog).toHaveTextContent("Cargo.lock and ui/package-lock.json");
    expect(dialog).toHaveTextContent("Apache-2.0 OR MIT: 1 · MIT OR Apache-2.0: 1 · MIT: 1.");
    expect(within(dialog).getByText(/tauri 2\.12\.5 — Apache-2\.0 OR MIT/)).toBeInTheDocument();

    await userEvent.type(within(dialog).getByRole("searchbox", { name: "Find a component" }), "solid");
    expect(within(dialog).queryByText(/tauri 2\.12\.5/)).toBeNull();
    await userEvent.click(within(dialog).getByText(/solid-js 1\.9\.19 — MIT/));
    expect(within(dialog).getByText("MIT License text")).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole("button", { name: "Open folder" }));
    expect(invoke).toHaveBeenCalledWith("open_data_folder");
    expect(await within(dialog).findByRole("status")).toHaveTextContent(
      "Opened /home/u/.local/share/no.sandbox.xs2a.workbench",
    );
  });
});

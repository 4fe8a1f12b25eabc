// The shell: seven screens as tabs, Alt+1..7 (not Ctrl, the browser's tab keys) and the arrow keys switch, `?` lists the shortcuts, the base
// URL is shown and copyable, the live connection is shown, a missing token is explained.
import { fireEvent, screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { App } from "./App";
import { renderWorkbench } from "../test/harness";
import { json, refusal } from "../test/fetchMock";
import { exchangeSummary } from "../test/fixtures";

vi.mock("../components/codemirror", () => {
  throw new Error("no CodeMirror in tests");
});

const EMPTY = {
  "GET /sandbox/customers": json([]),
  "GET /sandbox/agreements": json([]),
  "GET /operations": json([]),
  "GET /personas": json([]),
  "GET /compose/history": json([]),
  "GET /sca/callbacks": json([]),
  "GET /sandbox/clock": json({ now: "2026-06-01T12:00:00Z", mode: "frozen", offsetSeconds: 0 }),
  "GET /sandbox/batch-runs": json({ runs: [], scheduled: ["2026-06-01T14:00:00Z"] }),
  "GET /sandbox/payments": json([]),
};

describe("App shell", () => {
  it("lists seven screens as tabs and shows the chosen one", async () => {
    renderWorkbench(() => <App />, { routes: EMPTY });
    const tabs = within(screen.getByRole("tablist", { name: "Workbench screens" })).getAllByRole("tab");
    expect(tabs.map((t) => t.textContent?.replace(/\d$/, ""))).toEqual([
      "Sandbox data",
      "Composer",
      "SCA",
      "Batch & clock",
      "Inspector",
      "Flow",
      "Conformance",
    ]);
    expect(screen.getByRole("tab", { name: /Sandbox data/ })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByRole("tabpanel", { name: /Sandbox data/ })).toBeVisible();
    await userEvent.click(screen.getByRole("tab", { name: /^SCA/ }));
    expect(screen.getByRole("tab", { name: /^SCA/ })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByRole("heading", { name: "No SCA callbacks yet" })).toBeInTheDocument();
  });

  it("switches screens with Alt+digit, leaves Ctrl+digit to the browser, and follows the arrow keys in the tab list", () => {
    renderWorkbench(() => <App />, { routes: EMPTY });
    fireEvent.keyDown(document.body, { key: "4", code: "Digit4", altKey: true });
    expect(screen.getByRole("tab", { name: /Batch & clock/ })).toHaveAttribute("aria-selected", "true");
    // Ctrl+5 is the browser's "fifth tab": the workbench neither acts on it nor stops it.
    const ctrl = new KeyboardEvent("keydown", { key: "5", code: "Digit5", ctrlKey: true, bubbles: true, cancelable: true });
    document.body.dispatchEvent(ctrl);
    expect(ctrl.defaultPrevented).toBe(false);
    expect(screen.getByRole("tab", { name: /Batch & clock/ })).toHaveAttribute("aria-selected", "true");
    fireEvent.keyDown(document.body, { key: "5", code: "Digit5", altKey: true });
    expect(screen.getByRole("tab", { name: /Inspector/ })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: /Inspector/ })).toHaveAttribute("aria-keyshortcuts", "Alt+5");
    fireEvent.keyDown(screen.getByRole("tab", { name: /Inspector/ }), { key: "ArrowDown" });
    expect(screen.getByRole("tab", { name: /Flow/ })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: /Flow/ })).toHaveFocus();
  });

  it("shows the shortcuts with ? and closes them with Escape", async () => {
    renderWorkbench(() => <App />, { routes: EMPTY });
    fireEvent.keyDown(document.body, { key: "?" });
    const dialog = screen.getByRole("dialog", { name: "Keyboard shortcuts" });
    expect(dialog).toHaveTextContent("Ctrl+Enter");
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("gives the focus back to the control that opened the shortcuts, or to their button when opened by key", async () => {
    renderWorkbench(() => <App />, { routes: EMPTY });
    const button = screen.getByRole("button", { name: "Keyboard shortcuts" });
    await userEvent.click(button);
    fireEvent.keyDown(screen.getByRole("dialog", { name: "Keyboard shortcuts" }), { key: "Escape" });
    await waitFor(() => expect(button).toHaveFocus());
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: "?" });
    fireEvent.keyDown(screen.getByRole("dialog", { name: "Keyboard shortcuts" }), { key: "Escape" });
    await waitFor(() => expect(button).toHaveFocus());
  });

  it("names the large-type switch apart from the flow view's presentation", () => {
    renderWorkbench(() => <App />, { routes: EMPTY });
    expect(screen.getByRole("button", { name: "Large type" })).toHaveAttribute("aria-pressed", "false");
    expect(screen.queryByRole("button", { name: "Presentation" })).toBeNull();
  });

  it("says where to begin while the service has seen no request, and not once it has", async () => {
    const { unmount } = renderWorkbench(() => <App />, {
      routes: { ...EMPTY, "GET /traffic": json({ entries: [], nextBefore: null }) },
    });
    expect(await screen.findByRole("note")).toHaveTextContent("Where to begin: send a first signed request from the Composer");
    expect(screen.getByRole("note")).toHaveTextContent("http://127.0.0.1:8080");
    unmount();
    renderWorkbench(() => <App />, {
      routes: {
        ...EMPTY,
        "GET /traffic": json({
          entries: [exchangeSummary(1, { status: 401, code: "CONSENT_INVALID" })],
          nextBefore: null,
        }),
      },
    });
    await screen.findByRole("tabpanel", { name: /Sandbox data/ });
    await waitFor(() => expect(screen.queryByRole("note")).toBeNull());
  });

  it("does not take ? typed into a field", async () => {
    renderWorkbench(() => <App />, { routes: EMPTY });
    const search = await screen.findByRole("button", { name: "New customer" });
    await userEvent.click(search);
    const name = screen.getByLabelText("Name");
    fireEvent.keyDown(name, { key: "?" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows the base URL and copies it", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
    renderWorkbench(() => <App />, { routes: EMPTY });
    expect(await screen.findByText("http://127.0.0.1:8080")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Copy the base URL" }));
    expect(writeText).toHaveBeenCalledWith("http://127.0.0.1:8080");
  });

  it("shows whether live events flow", async () => {
    const { stream } = renderWorkbench(() => <App />, { routes: EMPTY, live: true });
    const status = screen.getByRole("status", { name: "Live events" });
    expect(status).toHaveTextContent("Connecting");
    expect(stream().url).toBe("http://127.0.0.1:8080/workbench/api/events?token=t0k");
    stream().open();
    await waitFor(() => expect(status).toHaveTextContent("Live"));
  });

  // As the service answers: a wrong token 401, none at all 403, both FORBIDDEN at Authorization.
  it.each([401, 403])("explains a missing or wrong token (%i)", async (status) => {
    renderWorkbench(() => <App />, {
      routes: {
        ...EMPTY,
        "GET /session": refusal(status, {
          code: "FORBIDDEN",
          path: "Authorization",
          text: "The workbench API needs the operator credential: Authorization: Bearer <token>",
        }),
      },
    });
    expect(await screen.findByText(/Not authorised/)).toBeInTheDocument();
  });
});

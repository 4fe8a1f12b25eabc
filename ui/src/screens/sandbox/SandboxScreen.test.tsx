// The Sandbox data screen: its empty state, reset with confirmation, and the service's messages shown at
// the field they name.
import { fireEvent, screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SandboxScreen } from "./SandboxScreen";
import { renderWorkbench } from "../../test/harness";
import { json, refusal } from "../../test/fetchMock";
import { customerView } from "../../test/fixtures";

const KARI = customerView("Kari Nordmann", "14838510036", {
  accounts: [
    { id: "a-1", bban: "12051000003", iban: "NO8312051000003", currency: "NOK", name: "Brukskonto", cashAccountType: "CACC" },
  ],
});
const OLA = customerView("Ola Nordmann", "02917910181");

describe("SandboxScreen", () => {
  it("says what to do first when there are no customers", async () => {
    renderWorkbench(() => <SandboxScreen />, {
      routes: { "GET /sandbox/customers": json([]), "GET /sandbox/agreements": json([]) },
    });
    expect(await screen.findByRole("heading", { name: "No customers yet" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Initialise the sandbox" })).toBeInTheDocument();
  });

  it("initialises the sandbox only after confirmation", async () => {
    let customers: unknown[] = [];
    const { calls } = renderWorkbench(() => <SandboxScreen />, {
      routes: {
        "GET /sandbox/customers": () => json(customers),
        "GET /sandbox/agreements": json([]),
        "POST /sandbox/initialize": () => {
          customers = [KARI, OLA];
          return json({ customers: 2, privateCustomers: 2, corporateCustomers: 0, accounts: 1, cardAccounts: 0, transactions: 0, cardTransactions: 0, agreements: 0, referenceDate: "2026-06-01" });
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Initialise / reset sandbox" }));
    const dialog = screen.getByRole("dialog", { name: "Initialise the sandbox?" });
    expect(calls.some((c) => c.path === "/sandbox/initialize")).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Initialise" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === "/sandbox/initialize")).toHaveLength(1);
    expect(await screen.findByRole("button", { name: /Kari Nordmann/ })).toBeInTheDocument();
  });

  it("searches customers by name or number", async () => {
    renderWorkbench(() => <SandboxScreen />, {
      routes: { "GET /sandbox/customers": json([KARI, OLA]), "GET /sandbox/agreements": json([]) },
    });
    const list = await screen.findByRole("list", { name: "Customers" });
    expect(within(list).getAllByRole("button")).toHaveLength(2);
    fireEvent.input(screen.getByLabelText("Search customers"), { target: { value: "0291" } });
    expect(within(list).getAllByRole("button").map((b) => b.textContent)).toEqual([expect.stringContaining("Ola")]);
  });

  it("shows the service's refusal of a new customer at the customer number field", async () => {
    const { calls } = renderWorkbench(() => <SandboxScreen />, {
      routes: {
        "GET /sandbox/customers": json([KARI]),
        "GET /sandbox/agreements": json([]),
        "POST /sandbox/customers": refusal(400, {
          code: "FORMAT_ERROR",
          path: "customerNumber",
          text: "customerNumber: the check digits are wrong",
        }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "New customer" }));
    await user.type(screen.getByLabelText("National identity number"), "14838510037");
    await user.type(screen.getByLabelText("Name"), "Kari Feil");
    await user.click(screen.getByRole("button", { name: "Create customer" }));
    const field = screen.getByLabelText("National identity number");
    await waitFor(() => expect(field).toHaveAttribute("aria-invalid", "true"));
    expect(field).toHaveAccessibleErrorMessage("customerNumber: the check digits are wrong");
    expect(screen.getByLabelText("Name")).toHaveAttribute("aria-invalid", "false");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      customerNumber: "14838510037",
      name: "Kari Feil",
      type: "private",
    });
  });

  it("shows a balance's error at that balance's amount field", async () => {
    renderWorkbench(() => <SandboxScreen />, {
      routes: {
        "GET /sandbox/customers": json([KARI]),
        "GET /sandbox/agreements": json([]),
        "POST /sandbox/accounts": refusal(400, {
          code: "FORMAT_ERROR",
          path: "balances[1].balanceAmount.amount",
          text: "balances[1].balanceAmount.amount: NOK has 2 decimals",
        }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: /Kari Nordmann/ }));
    await user.click(screen.getByRole("button", { name: "New account" }));
    await user.click(screen.getByRole("button", { name: "Add balance" }));
    await user.click(screen.getByRole("button", { name: "Add balance" }));
    await user.type(screen.getByLabelText("Balance 2 amount"), "1.001");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() => expect(screen.getByLabelText("Balance 2 amount")).toHaveAttribute("aria-invalid", "true"));
    expect(screen.getByLabelText("Balance 2 amount")).toHaveAccessibleErrorMessage(
      "balances[1].balanceAmount.amount: NOK has 2 decimals",
    );
    expect(screen.getByLabelText("Balance 1 amount")).toHaveAttribute("aria-invalid", "false");
    // Shown once, at the field, not again at the top of the form.
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("shows a transaction's error ([0].amount) at the amount field and a message with no field at the top", async () => {
    renderWorkbench(() => <SandboxScreen />, {
      routes: {
        "GET /sandbox/customers": json([KARI]),
        "GET /sandbox/agreements": json([]),
        "GET /sandbox/accounts/a-1/transactions": json([]),
        "POST /sandbox/accounts/a-1/transactions": refusal(
          400,
          { code: "FORMAT_ERROR", path: "[0].amount", text: "[0].amount: not a number" },
          { code: "FORMAT_ERROR", text: "the batch was refused whole" },
        ),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: /Kari Nordmann/ }));
    await user.click(screen.getByRole("button", { name: "Transactions of account 12051000003" }));
    const form = await screen.findByRole("form", { name: "Add a transaction" });
    await user.type(within(form).getByLabelText("Amount"), "abc");
    await user.click(within(form).getByRole("button", { name: "Add transaction" }));
    await waitFor(() => expect(within(form).getByLabelText("Amount")).toHaveAttribute("aria-invalid", "true"));
    expect(within(form).getByLabelText("Amount")).toHaveAccessibleErrorMessage("[0].amount: not a number");
    expect(within(form).getByRole("alert")).toHaveTextContent("the batch was refused whole");
  });
});

/** The smallest state file the service takes (fixtures/schema/state.schema.json). */
const STATE = JSON.stringify({ format: "xs2a-sandbox/state", version: 1, trees: { "sandbox-customers": [] } });

describe("Snapshots", () => {
  const SNAP = { name: "start-of-demo", takenAt: "2026-06-01T12:00:00Z", bytes: 48_213 };
  const OUTCOME = {
    applied: false,
    preview: { mode: "replace", records: 42, trees: { "sandbox-customers": { added: 1, changed: 0, unchanged: 5, removed: 0 } } },
  };

  it("saves one by name, lists it with time and size, and restores it only after confirmation", async () => {
    let list: (typeof SNAP)[] = [];
    const { calls } = renderWorkbench(() => <SandboxScreen />, {
      routes: {
        "GET /sandbox/customers": json([KARI]),
        "GET /sandbox/agreements": json([]),
        "GET /snapshots": () => json(list),
        "PUT /snapshots/start-of-demo": () => {
          list = [SNAP];
          return json(SNAP, 201);
        },
        "POST /snapshots/start-of-demo/restore": json({ ...OUTCOME, applied: true }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Snapshots and state files" }));
    const panel = await screen.findByRole("region", { name: "Snapshots" });
    await user.type(within(panel).getByLabelText("Snapshot name"), "start-of-demo");
    await user.click(within(panel).getByRole("button", { name: "Save snapshot" }));
    const table = await within(panel).findByRole("table", { name: "1 snapshot, by name" });
    const row = within(table).getByRole("row", { name: /start-of-demo/ });
    expect(row).toHaveTextContent("2026-06-01 12:00:00 UTC");
    expect(row).toHaveTextContent("47.1 KB");
    await user.click(within(row).getByRole("button", { name: "Restore snapshot start-of-demo" }));
    const dialog = screen.getByRole("dialog", { name: "Restore “start-of-demo”?" });
    expect(calls.some((c) => c.path.endsWith("/restore"))).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Restore" }));
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith("/restore"))).toHaveLength(1));
  });

  it("imports a state file after showing what it would change", async () => {
    const { calls } = renderWorkbench(() => <SandboxScreen />, {
      routes: {
        "GET /sandbox/customers": json([KARI]),
        "GET /sandbox/agreements": json([]),
        "GET /snapshots": json([]),
        "POST /state": (call) => json({ ...OUTCOME, applied: call.query.get("preview") !== "true" }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Snapshots and state files" }));
    const panel = await screen.findByRole("region", { name: "Snapshots" });
    const click = vi.spyOn(HTMLInputElement.prototype, "click").mockImplementation(function (this: HTMLInputElement) {
      const file = new File([STATE], "state.json", { type: "application/json" });
      Object.defineProperty(this, "files", { value: [file] });
      this.dispatchEvent(new Event("change"));
    });
    await user.click(within(panel).getByRole("button", { name: "Import a state file…" }));
    const dialog = await screen.findByRole("dialog", { name: "Import this state file?" });
    expect(within(dialog).getByRole("table", { name: "What the import changes" })).toHaveTextContent("sandbox-customers");
    expect(calls.filter((c) => c.path === "/state").map((c) => c.query.get("preview"))).toEqual(["true"]);
    await user.click(within(dialog).getByRole("button", { name: "Import" }));
    await waitFor(() => expect(calls.filter((c) => c.path === "/state")).toHaveLength(2));
    const imported = calls.filter((c) => c.path === "/state")[1];
    expect(imported?.query.get("mode")).toBe("replace");
    expect(imported?.query.get("preview")).toBeNull();
    expect(imported?.body).toEqual(JSON.parse(STATE));
    click.mockRestore();
  });
});

// An entry's state changes against a mocked rewind API (answers checked against the OpenAPI document): the
// resources with their fields, the balances moved, bookkeeping folded; the rewind asked first, saying what
// it undoes (the service's preview) and that the sandbox rewinds only itself, then sent as the API's body; a
// point where rewinding undoes nothing says so and offers no Rewind; the service's note on a rewind that
// undid nothing is shown; an entry that changed nothing says so; "Compare
// with…" picks another entry of the timeline and shows what differs between the two states.
import { screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Comparison, EntryChanges } from "../../api/types";
import type { ExchangeSummary } from "../../api/traffic";
import { renderWorkbench } from "../../test/harness";
import { json } from "../../test/fetchMock";
import { exchangeSummary } from "../../test/fixtures";
import { shortValue } from "./ChangeSummaryView";
import { StateChanges } from "./StateChanges";

const CHANGES: EntryChanges = {
  entry: 7,
  commits: 1,
  omitted: 0,
  groups: [
    { resource: "payment", change: "changed", internal: false, count: 1 },
    { resource: "duplicate-index", change: "created", internal: true, count: 1 },
  ],
  resources: [
    {
      tree: "payments",
      resource: "payment",
      id: "p-1",
      internal: false,
      change: "changed",
      fields: [{ path: "/transactionStatus", before: "RCVD", after: "ACSC" }],
      before: { transactionStatus: "RCVD" },
      after: { transactionStatus: "ACSC" },
    },
    {
      tree: "payment-duplicates",
      resource: "duplicate-index",
      id: "x",
      internal: true,
      change: "created",
      fields: [],
      before: null,
      after: { id: "x" },
    },
  ],
  balances: [
    {
      resource: "account",
      accountId: "a-1",
      name: "Brukskonto",
      balanceType: "interimAvailable",
      currency: "NOK",
      before: "1000.00",
      after: "750.00",
      moved: "-250.00",
    },
  ],
};

function exchange(id: number, method: string, path: string, status: number): ExchangeSummary {
  return exchangeSummary(id, { at: "2026-06-01T12:00:00.123Z", durationMs: 2, method, path, status, area: "sandbox" });
}

const COMPARED: Comparison = {
  a: { entry: 7, position: "after" },
  b: { entry: 4, position: "before" },
  omitted: 0,
  groups: [
    { resource: "customer", change: "removed", internal: false, count: 1 },
    { resource: "payment", change: "changed", internal: false, count: 1 },
  ],
  resources: [
    {
      tree: "sandbox-customers",
      resource: "customer",
      id: "c-9",
      internal: false,
      change: "removed",
      fields: [],
      before: { name: "Ny Kunde" },
      after: null,
    },
    {
      tree: "payments",
      resource: "payment",
      id: "p-1",
      internal: false,
      change: "changed",
      fields: [{ path: "/transactionStatus", before: "ACSC", after: "RCVD" }],
      before: { transactionStatus: "ACSC" },
      after: { transactionStatus: "RCVD" },
    },
  ],
  balances: [],
};

describe("StateChanges", () => {
  it("lists the resources with the fields that differ and the balances moved", async () => {
    renderWorkbench(() => <StateChanges id={7} />, { routes: { "GET /traffic/7/changes": json(CHANGES) } });
    const list = await screen.findByRole("list", { name: "Resources changed" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(1);
    const fields = screen.getByRole("table", { name: "Fields of payment p-1" });
    expect(fields).toHaveTextContent("/transactionStatusRCVDACSC");
    expect(screen.getByRole("table", { name: "Balances moved" })).toHaveTextContent("BrukskontointerimAvailable1000.00750.00-250.00 NOK");
    expect(screen.getByText("1 bookkeeping record (indexes, counters)")).toBeInTheDocument();
  });

  it("sums up a run of many resources changed one way in one line, and lists them when asked", async () => {
    const created = (i: number): EntryChanges["resources"][number] => ({
      tree: "sandbox-transactions",
      resource: "transaction",
      id: `t-${i}`,
      internal: false,
      change: "created",
      fields: [],
      before: null,
      after: { amount: -100 * i },
    });
    const run: EntryChanges = {
      entry: 8,
      commits: 1,
      // 600 made, 6 listed (an answer lists at most 500): the count is the whole run's.
      omitted: 594,
      groups: [
        { resource: "account", change: "changed", internal: false, count: 1 },
        { resource: "transaction", change: "created", internal: false, count: 600 },
      ],
      resources: [{ ...CHANGES.resources[0]!, tree: "sandbox-accounts", resource: "account", id: "a-1", fields: [] }, ...Array.from({ length: 5 }, (_, i) => created(i))],
      balances: [],
    };
    renderWorkbench(() => <StateChanges id={8} />, { routes: { "GET /traffic/8/changes": json(run) } });
    const list = await screen.findByRole("list", { name: "Resources changed" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual(["changed account a-1", "created 600 transactions Show them"]);
    await userEvent.click(within(items[1]!).getByRole("button", { name: "Show them" }));
    const shown = within(items[1]!).getByRole("list", { name: "600 transactions created" });
    expect(within(shown).getAllByRole("listitem")).toHaveLength(5);
    expect(items[1]).toHaveTextContent("595 more not listed");
    expect(within(items[1]!).getByRole("button", { name: "Hide them" })).toHaveAttribute("aria-expanded", "true");
  });

  it("asks before rewinding, saying how many changes it undoes and that the TPP's state stays, then sends the point", async () => {
    const { calls } = renderWorkbench(() => <StateChanges id={7} />, {
      routes: {
        "GET /traffic/7/changes": json(CHANGES),
        "GET /rewind/preview": json({ to: { entry: 7, position: "before" }, undone: 3, changed: 2 }),
        "POST /rewind": json({ to: { entry: 7, position: "before" }, entry: 9, undone: 3, changed: 2 }),
      },
    });
    await screen.findByRole("list", { name: "Resources changed" });
    await userEvent.click(screen.getByRole("button", { name: "Rewind to before this exchange" }));
    const dialog = await screen.findByRole("dialog", { name: "Rewind the sandbox to before #7?" });
    const asked = calls.find((c) => c.path === "/rewind/preview");
    expect(Object.fromEntries(asked?.query ?? [])).toEqual({ to: "7", position: "before" });
    expect(dialog).toHaveTextContent("This undoes 3 changes (2 records of the state change)");
    expect(dialog).toHaveTextContent("The sandbox rewinds only itself");
    expect(calls.some((c) => c.method === "POST" && c.path === "/rewind")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Rewind" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST" && c.path === "/rewind")?.body).toEqual({ to: 7, position: "before" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // A rewind that undid something carries no note.
    expect(screen.queryByRole("status", { name: "Rewind note" })).not.toBeInTheDocument();
  });

  it("says plainly that rewinding to a point with nothing to undo changes nothing, and offers no Rewind", async () => {
    const { calls } = renderWorkbench(() => <StateChanges id={7} />, {
      routes: {
        "GET /traffic/7/changes": json(CHANGES),
        "GET /rewind/preview": json({ to: { entry: 7, position: "after" }, undone: 0, changed: 0 }),
        "POST /rewind": json({ to: { entry: 7, position: "after" }, entry: 9, undone: 0, changed: 0 }),
      },
    });
    await screen.findByRole("list", { name: "Resources changed" });
    await userEvent.click(screen.getByRole("button", { name: "Rewind to after this exchange" }));
    const dialog = await screen.findByRole("dialog", { name: "Rewinding to after #7 changes nothing" });
    expect(dialog).toHaveTextContent("already what it was after this exchange");
    expect(within(dialog).queryByRole("button", { name: "Rewind" })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === "POST" && c.path === "/rewind")).toBe(false);
  });

  it("shows the service's note when a rewind undid nothing", async () => {
    // The preview saw a change to undo; by the time the rewind ran, nothing was left (another client rewound).
    const note = "The sandbox was already at that point: nothing was undone.";
    renderWorkbench(() => <StateChanges id={7} />, {
      routes: {
        "GET /traffic/7/changes": json(CHANGES),
        "GET /rewind/preview": json({ to: { entry: 7, position: "before" }, undone: 1, changed: 1 }),
        "POST /rewind": json({ to: { entry: 7, position: "before" }, entry: 9, undone: 0, changed: 0, note }),
      },
    });
    await screen.findByRole("list", { name: "Resources changed" });
    await userEvent.click(screen.getByRole("button", { name: "Rewind to before this exchange" }));
    const dialog = await screen.findByRole("dialog", { name: "Rewind the sandbox to before #7?" });
    expect(dialog).toHaveTextContent("This undoes 1 change (1 record of the state change)");
    await userEvent.click(within(dialog).getByRole("button", { name: "Rewind" }));
    expect(await screen.findByRole("status", { name: "Rewind note" })).toHaveTextContent(note);
  });

  it("says when an entry changed nothing", async () => {
    renderWorkbench(() => <StateChanges id={3} noun="event" />, {
      routes: { "GET /traffic/3/changes": json({ entry: 3, commits: 0, omitted: 0, groups: [], resources: [], balances: [] }) },
    });
    expect(await screen.findByText("It changed nothing in the sandbox's state.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Export the state at this event" })).toBeInTheDocument();
  });

  it("compares the state at the entry with the state at another one picked from the timeline", async () => {
    const { calls } = renderWorkbench(() => <StateChanges id={7} />, {
      routes: {
        "GET /traffic/7/changes": json(CHANGES),
        "GET /traffic": json({
          entries: [
            exchange(7, "POST", "/v1/payments/sepa-credit-transfers", 201),
            exchange(5, "GET", "/v1/accounts", 200),
            exchange(4, "POST", "/v1/sandbox/customers", 201),
          ],
          nextBefore: null,
        }),
        "GET /state/compare": json(COMPARED),
      },
    });
    await screen.findByRole("list", { name: "Resources changed" });
    await userEvent.click(screen.getByRole("button", { name: "Compare with…" }));
    const panel = await screen.findByRole("region", { name: "Compare states" });
    const other = within(panel).getByRole("combobox", { name: "Compare with" });
    // The entry itself is not offered; the newest other entry is chosen first.
    await waitFor(() => expect(within(other).getAllByRole("option")).toHaveLength(2));
    expect(other).toHaveDisplayValue("#5 GET /v1/accounts → 200");
    await userEvent.selectOptions(other, "#4 POST /v1/sandbox/customers → 201");
    await userEvent.selectOptions(within(panel).getByRole("combobox", { name: "State of the other entry" }), "before #4");
    await userEvent.click(within(panel).getByRole("button", { name: "Compare" }));
    const compared = await within(panel).findByRole("region", { name: "Comparison" });
    const sent = calls.find((c) => c.path === "/state/compare");
    expect(Object.fromEntries(sent?.query ?? [])).toEqual({ a: "7", b: "4", aPosition: "after", bPosition: "before" });
    expect(compared).toHaveTextContent("The state after #7 against the state before #4");
    const differing = within(compared).getByRole("list", { name: "Resources that differ" });
    expect(within(differing).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "only after #7 customer c-9",
      expect.stringContaining("differs payment p-1"),
    ]);
    expect(within(compared).getByRole("table", { name: "Fields of payment p-1" })).toHaveTextContent(
      "Fieldafter #7before #4/transactionStatusACSCRCVD",
    );
  });

  it("says when the two states are the same", async () => {
    renderWorkbench(() => <StateChanges id={7} />, {
      routes: {
        "GET /traffic/7/changes": json(CHANGES),
        "GET /traffic": json({ entries: [exchange(5, "GET", "/v1/accounts", 200)], nextBefore: null }),
        "GET /state/compare": json({ a: { entry: 7, position: "after" }, b: { entry: 5, position: "after" }, omitted: 0, groups: [], resources: [], balances: [] }),
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Compare with…" }));
    const panel = await screen.findByRole("region", { name: "Compare states" });
    await waitFor(() => expect(within(panel).getByRole("combobox", { name: "Compare with" })).toHaveDisplayValue("#5 GET /v1/accounts → 200"));
    await userEvent.click(within(panel).getByRole("button", { name: "Compare" }));
    expect(await within(panel).findByText("The two states are the same.")).toBeInTheDocument();
  });

  it("shortens long values", () => {
    expect(shortValue(null)).toBe("—");
    expect(shortValue({ a: 1 })).toBe('{"a":1}');
    expect(shortValue("x".repeat(100))).toHaveLength(78);
  });
});

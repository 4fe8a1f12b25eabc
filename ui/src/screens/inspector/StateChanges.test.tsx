// An entry's state changes against a mocked rewind API (answers checked against the OpenAPI document): the
// resources with their fields, the balances moved, bookkeeping folded; the rewind asked first, saying the
// sandbox rewinds only itself, then sent as the API's body; an entry that changed nothing says so.
import { screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { EntryChanges } from "../../api/types";
import { renderWorkbench } from "../../test/harness";
import { json } from "../../test/fetchMock";
import { shortValue, StateChanges } from "./StateChanges";

const CHANGES: EntryChanges = {
  entry: 7,
  commits: 1,
  omitted: 0,
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

  it("asks before rewinding, saying the TPP's state stays, then sends the point", async () => {
    const { calls } = renderWorkbench(() => <StateChanges id={7} />, {
      routes: {
        "GET /traffic/7/changes": json(CHANGES),
        "POST /rewind": json({ to: { entry: 7, position: "before" }, entry: 9, undone: 3, changed: 2 }),
      },
    });
    await screen.findByRole("list", { name: "Resources changed" });
    await userEvent.click(screen.getByRole("button", { name: "Rewind to before this exchange" }));
    const dialog = await screen.findByRole("dialog", { name: "Rewind the sandbox to before #7?" });
    expect(dialog).toHaveTextContent("The sandbox rewinds only itself");
    expect(calls.some((c) => c.path === "/rewind")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Rewind" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/rewind")?.body).toEqual({ to: 7, position: "before" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("says when an entry changed nothing", async () => {
    renderWorkbench(() => <StateChanges id={3} noun="event" />, {
      routes: { "GET /traffic/3/changes": json({ entry: 3, commits: 0, omitted: 0, resources: [], balances: [] }) },
    });
    expect(await screen.findByText("It changed nothing in the sandbox's state.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Export the state at this event" })).toBeInTheDocument();
  });

  it("shortens long values", () => {
    expect(shortValue(null)).toBe("—");
    expect(shortValue({ a: 1 })).toBe('{"a":1}');
    expect(shortValue("x".repeat(100))).toHaveLength(78);
  });
});

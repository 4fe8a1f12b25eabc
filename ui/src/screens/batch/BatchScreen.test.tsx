// The Batch & clock screen: empty states, advancing to the next run, the clock and statuses following
// live events, a run's before/after, forcing an outcome.
import { screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { BatchScreen } from "./BatchScreen";
import { renderWorkbench } from "../../test/harness";
import { json } from "../../test/fetchMock";
import type { BatchRuns, PaymentSummary } from "../../api/types";

const CLOCK = { now: "2026-06-01T12:00:00Z", mode: "frozen", offsetSeconds: 0 };
const SCHEDULED = ["2026-06-01T14:00:00Z", "2026-06-01T18:00:00Z", "2026-06-02T05:00:00Z", "2026-06-02T08:00:00Z", "2026-06-02T11:00:00Z"];
const PAYMENT: PaymentSummary = {
  paymentId: "pay-1",
  product: "norwegian-domestic-credit-transfers",
  service: "payments",
  status: "ACTC",
  amount: "100.00",
  currency: "NOK",
  debtor: "12051000003",
  creditorName: "Ola Nordmann",
  createdAt: "2026-06-01T11:59:00Z",
  forcedOutcome: null,
  tppId: "PSDNO-FSA-ABC123",
};

describe("BatchScreen", () => {
  it("says what to do when there are no runs and no payments", async () => {
    renderWorkbench(() => <BatchScreen />, {
      routes: {
        "GET /sandbox/clock": json(CLOCK),
        "GET /sandbox/batch-runs": json({ runs: [], scheduled: SCHEDULED }),
        "GET /sandbox/payments": json([]),
      },
    });
    expect(await screen.findByRole("heading", { name: "No batch runs yet" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "No payments yet" })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("timer", { name: "Sandbox time" })).toHaveTextContent("2026-06-01 12:00:00 UTC"),
    );
    expect(within(screen.getByRole("list", { name: "Next scheduled runs" })).getAllByRole("listitem")).toHaveLength(5);
  });

  it("advances to the next run, then shows the run's before/after and the payment's new status", async () => {
    let runs: BatchRuns = { runs: [], scheduled: SCHEDULED };
    let payments = [PAYMENT];
    const { calls } = renderWorkbench(() => <BatchScreen />, {
      routes: {
        "GET /sandbox/clock": json(CLOCK),
        "GET /sandbox/batch-runs": () => json(runs),
        "GET /sandbox/payments": () => json(payments),
        "PUT /sandbox/clock": () => {
          runs = {
            runs: [
              {
                id: "run-000001",
                at: "2026-06-01T14:00:00Z",
                trigger: "Scheduled",
                lastOfDay: false,
                processed: 1,
                outcomes: [{ paymentId: "pay-1", before: "ACTC", after: "ACSC", fundsAvailable: true }],
              },
            ],
            scheduled: SCHEDULED.slice(1),
          };
          payments = [{ ...PAYMENT, status: "ACSC" }];
          return json({ now: "2026-06-01T14:00:00Z", mode: "frozen", offsetSeconds: 7200 });
        },
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Advance to the next run" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ now: "2026-06-01T14:00:00Z" }));
    const past = await screen.findByRole("list", { name: "Past batch runs" });
    expect(past).toHaveTextContent("2026-06-01 14:00:00 UTC");
    const outcomes = within(past).getByRole("table", { name: "What the run did to each payment" });
    expect(outcomes).toHaveTextContent("ACTC");
    expect(outcomes).toHaveTextContent("ACSC");
    const table = screen.getByRole("table", { name: "Payments, newest first" });
    await waitFor(() => expect(table).toHaveTextContent("ACSC"));
    expect(screen.getByRole("timer", { name: "Sandbox time" })).toHaveTextContent("2026-06-01 14:00:00 UTC");
  });

  it("follows the clock, batch runs and payment statuses as events arrive", async () => {
    const { stream } = renderWorkbench(() => <BatchScreen />, {
      live: true,
      routes: {
        "GET /sandbox/clock": json(CLOCK),
        "GET /sandbox/batch-runs": json({ runs: [], scheduled: SCHEDULED }),
        "GET /sandbox/payments": json([PAYMENT]),
      },
    });
    const table = await screen.findByRole("table", { name: "Payments, newest first" });
    stream().open();
    stream().emit("clock", { now: "2026-06-03T08:00:00Z", mode: "frozen" }, 1);
    await waitFor(() => expect(screen.getByRole("timer", { name: "Sandbox time" })).toHaveTextContent("2026-06-03 08:00:00 UTC"));
    stream().emit("batch.progress", { runId: "run-000009", done: 40, total: 100 }, 2);
    expect(await screen.findByRole("progressbar", { name: /run-000009/ })).toHaveAttribute("value", "40");
    stream().emit("payment.status", { paymentId: "pay-1", before: "ACTC", after: "ACCP", fundsAvailable: false }, 3);
    await waitFor(() => expect(table).toHaveTextContent("ACCP"));
    expect(table).toHaveTextContent("funds short");
    stream().emit("batch.run", { id: "run-000009", at: "2026-06-03T08:00:00Z", trigger: "Scheduled", lastOfDay: false, processed: 100, statuses: { ACCP: 100 } }, 4);
    expect(await screen.findByRole("list", { name: "Past batch runs" })).toHaveTextContent("run-000009");
    expect(screen.queryByRole("progressbar", { name: /run-000009/ })).not.toBeInTheDocument();
  });

  it("reads the payments once for a storm of events about payments it does not list", async () => {
    const { stream, calls } = renderWorkbench(() => <BatchScreen />, {
      live: true,
      routes: {
        "GET /sandbox/clock": json(CLOCK),
        "GET /sandbox/batch-runs": json({ runs: [], scheduled: SCHEDULED }),
        "GET /sandbox/payments": json([PAYMENT]),
      },
    });
    await screen.findByRole("table", { name: "Payments, newest first" });
    stream().open();
    for (let i = 0; i < 2000; i++) stream().emit("payment.status", { paymentId: `other-${i}`, before: "ACTC", after: "ACSC" }, i + 1);
    await waitFor(() => expect(calls.filter((c) => c.path === "/sandbox/payments")).toHaveLength(2));
    await new Promise((done) => setTimeout(done, 400));
    expect(calls.filter((c) => c.path === "/sandbox/payments")).toHaveLength(2);
  });

  it("forces a payment's outcome", async () => {
    const { calls } = renderWorkbench(() => <BatchScreen />, {
      routes: {
        "GET /sandbox/clock": json(CLOCK),
        "GET /sandbox/batch-runs": json({ runs: [], scheduled: SCHEDULED }),
        "GET /sandbox/payments": json([PAYMENT]),
        "PUT /sandbox/payments/pay-1/forced-outcome": json({ paymentId: "pay-1", forcedOutcome: "RJCT", transactionStatus: "ACTC" }),
      },
    });
    const select = await screen.findByLabelText("Forced outcome of payment pay-1");
    await userEvent.selectOptions(select, "RJCT");
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ outcome: "RJCT" }));
    await waitFor(() => expect(screen.getByLabelText("Forced outcome of payment pay-1")).toHaveValue("RJCT"));
  });
});

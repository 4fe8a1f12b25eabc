// Screen 4, Batch & clock: the simulated clock (live), the next scheduled runs, run now, past runs with each
// payment's before/after status, and the payments with their forced outcomes, all following the live
// `clock`, `batch.run`, `batch.progress` and `payment.status` events; and the production rehearsal (the
// profile, the Faults panel, the central register: screens/rehearsal).
import { createResource, createSignal } from "solid-js";
import type { BatchProgressEvent, BatchRunEvent, ClockReading, PaymentStatus } from "../../api/types";
import { useEvent, useResync, useWorkbench } from "../../app/context";
import { ErrorMessages } from "../../components/ErrorMessages";
import { ClockPanel } from "./ClockPanel";
import { PaymentsPanel } from "./PaymentsPanel";
import { RunsPanel } from "./RunsPanel";
import { FaultsPanel } from "../rehearsal/FaultsPanel";
import { ProfilePanel } from "../rehearsal/ProfilePanel";
import { RegisterPanel } from "../rehearsal/RegisterPanel";
import { createDebounced } from "../../lib/debounce";
import { valueOf } from "../../lib/resource";
import { count } from "../../lib/format";

export function BatchScreen() {
  const wb = useWorkbench();
  const [reading, setReading] = createSignal<{ clock: ClockReading; receivedAt: number }>();
  const received = (clock: ClockReading) => setReading({ clock, receivedAt: Date.now() });
  const [clockError, setClockError] = createSignal<unknown>(null);
  const readClock = () =>
    wb.client.sandbox.clock().then(received, (e: unknown) => setClockError(e));
  void readClock();

  const [runs, { refetch: refetchRuns }] = createResource(() => wb.client.sandbox.batchRuns(20));
  const [status, setStatus] = createSignal<PaymentStatus | "">("");
  const [payments, { refetch: refetchPayments, mutate: mutatePayments }] = createResource(
    () => ({ status: status() }),
    (query) => wb.client.sandbox.payments({ ...query, limit: 200 }),
  );
  const [announced, setAnnounced] = createSignal<BatchRunEvent[]>([]);
  const [progress, setProgress] = createSignal<BatchProgressEvent | null>(null);
  const [running, setRunning] = createSignal(false);
  const [runError, setRunError] = createSignal<unknown>(null);

  const refreshAll = () => {
    void refetchRuns();
    void refetchPayments();
  };
  const refreshSoon = createDebounced(refreshAll);
  const refetchPaymentsSoon = createDebounced(() => void refetchPayments());

  useEvent("clock", (e) => received(e.data));
  useEvent("batch.progress", (e) => setProgress(e.data));
  useEvent("batch.run", (e) => {
    setAnnounced((list) => [e.data, ...list.filter((r) => r.id !== e.data.id)].slice(0, 10));
    if (progress()?.runId === e.data.id) setProgress(null);
    refreshSoon();
  });
  useEvent("payment.status", (e) => {
    const list = valueOf(payments);
    if (!list?.some((p) => p.paymentId === e.data.paymentId)) {
      refetchPaymentsSoon();
      return;
    }
    // The workbench's notice says `after`; the bank's own says `transactionStatus`.
    const status = (e.data.after ?? e.data.transactionStatus) as PaymentStatus | undefined;
    if (!status) return;
    mutatePayments(
      list.map((p) =>
        p.paymentId === e.data.paymentId
          ? { ...p, status, ...(e.data.fundsAvailable != null ? { fundsAvailable: e.data.fundsAvailable } : {}) }
          : p,
      ),
    );
  });
  useResync(() => {
    void readClock();
    refreshAll();
  });

  const runNow = async () => {
    setRunning(true);
    setRunError(null);
    try {
      const run = await wb.client.sandbox.runBatchNow();
      wb.notify(`Batch run done: ${count(run.processed, "payment")} processed`, "success");
      refreshAll();
    } catch (e) {
      setRunError(e);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div class="batch-screen">
      <div class="columns">
        <div>
          <ErrorMessages error={clockError()} />
          <ClockPanel
            reading={reading()}
            nextRun={valueOf(runs)?.scheduled[0]}
            onChanged={(clock) => {
              received(clock);
              refreshAll();
              wb.refetchSession();
            }}
          />
          <ErrorMessages error={(runs.error as unknown) ?? runError()} />
          <RunsPanel
            scheduled={valueOf(runs)?.scheduled ?? []}
            runs={valueOf(runs)?.runs ?? []}
            announced={announced()}
            progress={progress()}
            running={running()}
            onRunNow={() => void runNow()}
          />
        </div>
        <div>
          <ErrorMessages error={payments.error as unknown} />
          <PaymentsPanel
            payments={valueOf(payments) ?? []}
            status={status()}
            onStatus={setStatus}
            onForced={(answer) =>
              mutatePayments((valueOf(payments) ?? []).map((p) =>
                p.paymentId === answer.paymentId
                  ? { ...p, forcedOutcome: answer.forcedOutcome, status: answer.transactionStatus }
                  : p,
              ))
            }
          />
        </div>
      </div>
      <div class="columns rehearsal">
        <div>
          <ProfilePanel />
          <RegisterPanel />
        </div>
        <div>
          <FaultsPanel />
        </div>
      </div>
    </div>
  );
}

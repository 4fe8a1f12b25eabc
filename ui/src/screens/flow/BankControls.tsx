// The bank's side, from presentation mode: the sandbox clock (live, ticking while it runs), the next
// scheduled batch run, "Run the batch now" and "Advance to the next run" — what the Batch & clock screen
// does for these, so the trainer shows a payment executed without leaving the presentation.
import { createResource, createSignal } from "solid-js";
import type { ClockReading } from "../../api/types";
import { useEvent, useResync, useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ErrorMessages } from "../../components/ErrorMessages";
import { count, formatInstant } from "../../lib/format";
import { valueOf } from "../../lib/resource";
import { createTickingClock } from "../batch/clock";

export function BankControls() {
  const wb = useWorkbench();
  const [reading, setReading] = createSignal<{ clock: ClockReading; receivedAt: number }>();
  const received = (clock: ClockReading) => setReading({ clock, receivedAt: Date.now() });
  const [error, setError] = createSignal<unknown>(null);
  const readClock = () => wb.client.sandbox.clock().then(received, (e: unknown) => setError(e));
  void readClock();
  const now = createTickingClock(reading);
  const [runs, { refetch: refetchRuns }] = createResource(() => wb.client.sandbox.batchRuns(1));
  const [busy, setBusy] = createSignal<"run" | "next" | null>(null);
  const [said, setSaid] = createSignal("");
  useEvent("clock", (e) => received(e.data));
  useEvent("batch.run", () => void refetchRuns());
  useResync(() => {
    void readClock();
    void refetchRuns();
  });
  const nextRun = () => valueOf(runs)?.scheduled[0];

  const act = async (which: "run" | "next", work: () => Promise<string>) => {
    setBusy(which);
    setError(null);
    try {
      setSaid(await work());
      void refetchRuns();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };
  const runNow = () =>
    act("run", async () => {
      const run = await wb.client.sandbox.runBatchNow();
      return `Batch run: ${count(run.processed, "payment")} processed`;
    });
  const advance = () =>
    act("next", async () => {
      const at = nextRun();
      if (!at) return "";
      const clock = await wb.client.sandbox.changeClock({ now: at });
      received(clock);
      return "Clock moved to the next run";
    });

  return (
    <section class="presentation-group" aria-label="The bank">
      <span class="presentation-group-name">
        Bank clock{" "}
        <strong role="timer" aria-live="off" aria-label="Sandbox time">
          {now() ? formatInstant(now()?.toISOString()) : "…"}
        </strong>
      </span>
      <Button busy={busy() === "run"} disabled={busy() !== null} onClick={() => void runNow()}>
        Run the batch now
      </Button>
      <Button
        busy={busy() === "next"}
        disabled={busy() !== null || !nextRun()}
        title={nextRun() ? `The next scheduled run: ${formatInstant(nextRun())}` : undefined}
        onClick={() => void advance()}
      >
        Advance to the next run
      </Button>
      <span class="hint" role="status" aria-label="What the bank did">
        {said()}
      </span>
      <ErrorMessages error={error()} title="The bank's clock or batch could not be changed." />
    </section>
  );
}

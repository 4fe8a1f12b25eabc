// The day's scheduled batch runs, "Run now", a long run's progress, and the past runs with each payment's
// status before and after.
import { createSignal, For, Show } from "solid-js";
import type { BatchProgressEvent, BatchRun, BatchRunEvent } from "../../api/types";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { Progress } from "../../components/ProgressBar";
import { StatusBadge } from "../../components/StatusBadge";
import { formatInstant } from "../../lib/format";
import { count } from "../../lib/format";

export interface RunsPanelProps {
  scheduled: readonly string[];
  runs: readonly BatchRun[];
  /** Runs announced by `batch.run` events whose details have not been read yet. */
  announced: readonly BatchRunEvent[];
  progress: BatchProgressEvent | null;
  running: boolean;
  onRunNow: () => void;
}

function RunHeading(props: { id: string; at: string; trigger: string; lastOfDay: boolean; processed: number }) {
  return (
    <>
      <strong>{formatInstant(props.at)}</strong> · {props.trigger === "Manual" ? "run now" : "scheduled"}
      {props.lastOfDay ? " · last of the day" : ""} · {count(props.processed, "payment")} · <code>{props.id}</code>
    </>
  );
}

export function RunsPanel(props: RunsPanelProps) {
  // Which runs the user opened, by id: the list is re-read as runs happen, and must not close them.
  const [open, setOpen] = createSignal<ReadonlySet<string>>(new Set());
  const toggle = (id: string, isOpen: boolean) =>
    setOpen((set) => {
      const next = new Set(set);
      if (isOpen) next.add(id);
      else next.delete(id);
      return next;
    });
  const pendingAnnouncements = () => props.announced.filter((a) => !props.runs.some((r) => r.id === a.id));
  return (
    <section class="panel" aria-label="Batch runs">
      <h3>Batch runs</h3>
      <h4 id="scheduled-heading">Next scheduled runs</h4>
      <ol class="runs-scheduled" aria-labelledby="scheduled-heading">
        <For each={props.scheduled}>{(at) => <li>{formatInstant(at)}</li>}</For>
      </ol>
      <div class="actions">
        <Button variant="primary" busy={props.running} onClick={() => props.onRunNow()}>
          Run now
        </Button>
      </div>
      <Show when={props.progress}>
        {(p) => <Progress value={p().done} max={p().total} label={`Batch run ${p().runId}: payments done`} />}
      </Show>
      <h4>Past runs</h4>
      <Show
        when={props.runs.length + pendingAnnouncements().length > 0}
        fallback={
          <EmptyState title="No batch runs yet">
            <p>
              Runs happen five times a simulated day (05:00, 08:00, 11:00, 14:00 and 18:00 UTC). Press{" "}
              <strong>Run now</strong>, or <strong>Advance to the next run</strong> on the clock, and each payment's
              status before and after appears here.
            </p>
          </EmptyState>
        }
      >
        <ul class="cards" aria-label="Past batch runs">
          <For each={pendingAnnouncements()}>
            {(a) => (
              <li>
                <RunHeading {...a} />
                <p class="hint">
                  <For each={Object.entries(a.statuses)}>
                    {([status, count]) => (
                      <span>
                        <StatusBadge value={status} /> {count}{" "}
                      </span>
                    )}
                  </For>
                </p>
              </li>
            )}
          </For>
          <For each={props.runs}>
            {(run) => (
              <li>
                <details open={open().has(run.id)} onToggle={(e) => toggle(run.id, e.currentTarget.open)}>
                  <summary>
                    <RunHeading {...run} />
                  </summary>
                  <Show when={run.outcomes.length > 0} fallback={<p class="hint">No payment was due.</p>}>
                    <table class="data">
                      <caption>What the run did to each payment</caption>
                      <thead>
                        <tr>
                          <th scope="col">Payment</th>
                          <th scope="col">Before</th>
                          <th scope="col">After</th>
                          <th scope="col">Funds available</th>
                          <th scope="col">Reason</th>
                        </tr>
                      </thead>
                      <tbody>
                        <For each={run.outcomes}>
                          {(o) => (
                            <tr>
                              <td>
                                <code>{o.paymentId}</code>
                              </td>
                              <td>
                                <StatusBadge value={o.before} />
                              </td>
                              <td>
                                <StatusBadge value={o.after} />
                              </td>
                              <td>{o.fundsAvailable === undefined ? "" : o.fundsAvailable ? "yes" : "no"}</td>
                              <td>{o.reason}</td>
                            </tr>
                          )}
                        </For>
                      </tbody>
                    </table>
                  </Show>
                </details>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </section>
  );
}

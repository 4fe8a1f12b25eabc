// "Restart the journey from this step?": before anything is rewound, the plan the service would follow
// (`GET /journeys/{id}/restart?from=`): the steps it plays again as the room saw them (the TPP's requests, the
// PSU's pages, the PSU's way back to the TPP, batch runs), as whom, and what it cannot play again as it
// happened, with the reason. A plan the service refuses (no key for the journey's certificate) is said
// instead, and nothing can be started.
import { createResource, For, Show } from "solid-js";
import type { Restart } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { ErrorMessages } from "../../components/ErrorMessages";
import { count } from "../../lib/format";
import { valueOf } from "../../lib/resource";

const ACTOR: Record<Restart["steps"][number]["actor"], string> = { tpp: "TPP", psu: "PSU", batch: "Batch" };

export interface RestartDialogProps {
  journeyId: string;
  /** The exchange restarted from, and its label. */
  from: number;
  label: string;
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}

export function RestartDialog(props: RestartDialogProps) {
  const wb = useWorkbench();
  const [plan] = createResource(
    () => ({ journey: props.journeyId, from: props.from }),
    (p) => wb.client.rewind.restartPlan(p.journey, p.from),
  );
  return (
    <Dialog
      title="Restart the journey from this step?"
      description={`The sandbox returns to its state before “${props.label}” and plays the journey again from there. The sandbox rewinds only itself: the TPP app's own state is not rewound.`}
      onClose={props.onCancel}
    >
      <ErrorMessages error={(plan.error as unknown) ?? props.error} title="The journey cannot be restarted from here." />
      <Show when={valueOf(plan)}>
        {(p) => (
          <>
            <p>
              {count(p().steps.length, "step")} played again, signed as <strong>{p().persona}</strong>:
            </p>
            <ol class="restart-steps" aria-label="Steps played again">
              <For each={p().steps}>
                {(s) => (
                  <li>
                    <span class="restart-actor">{ACTOR[s.actor]}</span> {s.label}
                  </li>
                )}
              </For>
            </ol>
            <Show
              when={p().notReplayed.length > 0}
              fallback={<p class="hint">Everything from this step on is played again as it happened.</p>}
            >
              <h3>Not played again as it happened</h3>
              <ul class="restart-not-replayed" aria-label="Not played again as it happened">
                <For each={p().notReplayed}>
                  {(n) => (
                    <li>
                      <strong>{n.label}</strong>: {n.reason}
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </>
        )}
      </Show>
      <div class="actions">
        <Button onClick={() => props.onCancel()} autofocus>
          Cancel
        </Button>
        <Button variant="danger" busy={props.busy} disabled={!valueOf(plan)} onClick={() => props.onConfirm()}>
          Restart
        </Button>
      </div>
    </Dialog>
  );
}

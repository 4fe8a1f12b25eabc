// What one timeline entry changed in the sandbox's state (docs/rewind.md): the resources it created, changed
// and removed with the fields that differ, the balances it moved, and the ways back: rewind the sandbox to the
// state before or after the entry and export the state at the entry as a state file, and compare the state at
// the entry with the state at another ("Compare with…"). The rewind's confirmation first asks the service what
// the rewind would undo now: it says how many changes it undoes (and that the TPP's own state stays as it
// is), or, where it would undo nothing, says so and offers no Rewind at all. Used by the inspector and by the
// flow view, per step.
import { createResource, createSignal, Show } from "solid-js";
import type { Position, RewindPreview } from "../../api/types";
import { saveFile } from "../../api/native";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Dialog } from "../../components/Dialog";
import { ErrorMessages } from "../../components/ErrorMessages";
import { Loading } from "../../components/Loading";
import { createActions } from "../../lib/action";
import { count } from "../../lib/format";
import { valueOf } from "../../lib/resource";
import { ChangeSummaryView } from "./ChangeSummaryView";
import { CompareStates } from "./CompareStates";

export interface StateChangesProps {
  /** The timeline entry (exchange or event). */
  id: number;
  /** "exchange" or "step": how the buttons name the entry. */
  noun?: string;
  /** Called once the sandbox was rewound. */
  onRewound?: () => void;
}

export function StateChanges(props: StateChangesProps) {
  const wb = useWorkbench();
  const { busy, error, run } = createActions();
  // The point being confirmed, with what rewinding there would undo (read when the button is pressed).
  const [asking, setAsking] = createSignal<RewindPreview | null>(null);
  // The service's word on the last rewind when it undid nothing (`note`), kept in view under the buttons.
  const [note, setNote] = createSignal<string | null>(null);
  const [comparing, setComparing] = createSignal(false);
  const [changes, { refetch }] = createResource(() => props.id, (id) => wb.client.rewind.changes(id));
  const noun = () => props.noun ?? "exchange";

  const ask = (position: Position) =>
    run(`rewind-${position}`, async () => {
      setNote(null);
      setAsking(await wb.client.rewind.preview(props.id, position));
    });

  const rewind = (position: Position) =>
    run(`rewind-${position}`, async () => {
      const done = await wb.client.rewind.to(props.id, position);
      setAsking(null);
      setNote(done.note ?? null);
      wb.notify(
        `The sandbox is back at the state ${position} #${props.id} (${count(done.undone, "change")} undone, ${count(done.changed, "record")} changed)` +
          (done.entry ? `; to undo, rewind to before #${done.entry}.` : ".") +
          (done.note ? ` ${done.note}` : ""),
        "success",
      );
      void refetch();
      props.onRewound?.();
    });

  const exportAt = (position: Position) =>
    run(`export-${position}`, async () => {
      const text = await wb.client.rewind.stateAt(props.id, position);
      // The name says what it holds: the state before or after which entry.
      const where = await saveFile(`state-${position}-${noun()}-${props.id}.state.json`, text, "application/json");
      if (where) wb.notify(`State file saved: ${where}`, "success");
    });

  return (
    <section class="panel state-changes" aria-label="State changes">
      <h4>State changes</h4>
      <ErrorMessages error={changes.error as unknown} title="What it changed could not be read." />
      <Show when={valueOf(changes)} fallback={<Show when={changes.loading}><Loading label="Reading the change journal…" /></Show>}>
        {(c) => (
          <Show when={c().commits > 0} fallback={<p class="hint">It changed nothing in the sandbox's state.</p>}>
            <ChangeSummaryView summary={c()} listLabel="Resources changed" />
          </Show>
        )}
      </Show>
      <div class="actions">
        <Button busy={busy() === "rewind-before"} onClick={() => void ask("before")}>
          Rewind to before this {noun()}
        </Button>
        <Button busy={busy() === "rewind-after"} onClick={() => void ask("after")}>
          Rewind to after this {noun()}
        </Button>
        <Button busy={busy() === "export-after"} onClick={() => void exportAt("after")}>
          Export the state at this {noun()}
        </Button>
        <Button busy={busy() === "export-before"} onClick={() => void exportAt("before")}>
          Export the state before it
        </Button>
        <Button aria-expanded={comparing()} onClick={() => setComparing((c) => !c)}>
          Compare with…
        </Button>
      </div>
      <Show when={comparing()}>
        <CompareStates id={props.id} noun={noun()} />
      </Show>
      <ErrorMessages error={error()} />
      <Show when={note()}>
        {(text) => (
          <p class="hint" role="status" aria-label="Rewind note">
            {text()}
          </p>
        )}
      </Show>
      <Show when={asking()}>
        {(preview) => (
          <Show
            when={preview().undone > 0}
            fallback={
              <Dialog
                title={`Rewinding to ${preview().to.position} #${props.id} changes nothing`}
                description={
                  `The sandbox's state is already what it was ${preview().to.position} this ${noun()}: ` +
                  "no change since then is left to undo, so there is nothing to rewind."
                }
                onClose={() => setAsking(null)}
              >
                <div class="actions">
                  <Button onClick={() => setAsking(null)} autofocus>
                    Close
                  </Button>
                </div>
              </Dialog>
            }
          >
            <ConfirmDialog
              title={`Rewind the sandbox to ${preview().to.position} #${props.id}?`}
              message={
                `This undoes ${count(preview().undone, "change")} (${count(preview().changed, "record")} of the state change): ` +
                `the sandbox's state (customers, accounts, consents, payments, the clock…) returns to what it was ${preview().to.position} this ${noun()}. ` +
                "The sandbox rewinds only itself: your TPP app keeps its own state (tokens, ids, what it showed), which may now refer to things the sandbox no longer has. " +
                "The rewind is an entry of the timeline: rewinding to before it undoes it."
              }
              confirmLabel="Rewind"
              busy={busy() === `rewind-${preview().to.position}`}
              onConfirm={() => void rewind(preview().to.position)}
              onCancel={() => setAsking(null)}
            />
          </Show>
        )}
      </Show>
    </section>
  );
}

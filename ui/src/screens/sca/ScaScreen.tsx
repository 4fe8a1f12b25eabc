// Screen 3, SCA: the authorisations waiting for the PSU (opened in the SCA window from here), those finished
// with where the bank sent the PSU (a TPP app's psu-id, whether or not the app was there to receive it), the
// callbacks the bank's pages redirected to the workbench (live as `sca.callback` events arrive), the PSU's
// steps through the pages as they happen, and opening a pasted scaRedirect URL.
import { createEffect, createResource, createSignal, For, on, onCleanup, onMount, Show } from "solid-js";
import type { Callback, ScaStepEvent } from "../../api/types";
import { useEvent, useResync, useWorkbench } from "../../app/context";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { Loading } from "../../components/Loading";
import { formatInstant } from "../../lib/format";
import { CallbackTable } from "./CallbackTable";
import { OpenScaForm } from "./OpenScaForm";
import { PendingList } from "./PendingList";
import { FinishedList } from "./FinishedList";
import { Button } from "../../components/Button";
import { valueOf } from "../../lib/resource";

export function ScaScreen() {
  const wb = useWorkbench();
  const [stored, { refetch }] = createResource(() => wb.client.sca.callbacks());
  const [personas, { refetch: refetchPersonas }] = createResource(() => wb.client.personas.list());
  const [pending, { refetch: refetchPending }] = createResource(() => wb.client.sca.pending());
  const [finished, { refetch: refetchFinished }] = createResource(() => wb.client.sca.finished());
  const refetchAuthorisations = () => {
    void refetchPending();
    void refetchFinished();
  };
  const [openError, setOpenError] = createSignal<unknown>(null);
  // Authorisations start elsewhere (the composer, a TPP app): read them whenever the screen is shown.
  createEffect(
    on(wb.screen, (screen, before) => {
      if (screen === "sca" && before !== undefined && before !== "sca") refetchAuthorisations();
    }),
  );
  // Back from the PSU's window (its own window or a popup): what the PSU did there is read afresh.
  onMount(() => {
    const onFocus = () => {
      if (wb.screen() === "sca") refetchAuthorisations();
    };
    window.addEventListener("focus", onFocus);
    onCleanup(() => window.removeEventListener("focus", onFocus));
  });
  const [live, setLive] = createSignal<Callback[]>([]);
  const [steps, setSteps] = createSignal<(ScaStepEvent & { at: string })[]>([]);

  useEvent("sca.callback", (e) => {
    setLive((list) => [e.data, ...list.filter((c) => c.id !== e.data.id)]);
    void refetchPersonas();
    refetchAuthorisations();
  });
  useEvent("sca.step", (e) => {
    setSteps((list) => [{ ...e.data, at: e.at }, ...list].slice(0, 20));
    refetchAuthorisations();
  });
  useEvent("persona.changed", () => void refetchPersonas());
  useResync(() => {
    setLive([]);
    void refetch();
    refetchAuthorisations();
  });

  // Live callbacks first, then the stored ones not already shown.
  const callbacks = () => {
    const seen = new Set(live().map((c) => c.id));
    return [...live(), ...(valueOf(stored) ?? []).filter((c) => !seen.has(c.id))];
  };

  return (
    <div class="sca-screen">
      <section class="panel" aria-label="Waiting for the PSU">
        <div class="section-head">
          <h3>Waiting for the PSU</h3>
          <Button onClick={refetchAuthorisations} busy={pending.loading || finished.loading}>
            Refresh
          </Button>
        </div>
        <ErrorMessages error={(pending.error as unknown) ?? openError()} />
        <Show when={valueOf(pending)}>{(list) => <PendingList pending={list()} onError={setOpenError} />}</Show>
      </section>
      <section class="panel" aria-label="Sent back to the TPP">
        <h3>Sent back to the TPP</h3>
        <p class="hint">
          Where the bank sent the PSU at the end of each SCA, with the values your app receives there. The SCA window
          shows the same before it goes on, so a TPP app that is not running leaves no browser error.
        </p>
        <ErrorMessages error={finished.error as unknown} />
        <Show when={valueOf(finished)}>{(list) => <FinishedList finished={list()} />}</Show>
      </section>
      <OpenScaForm />
      <Show when={steps().length > 0}>
        <section class="panel" aria-label="SCA steps">
          <h3>Steps in the bank's pages</h3>
          <ul class="rows" aria-label="Recent SCA steps">
            <For each={steps()}>
              {(s) => (
                <li>
                  <span>
                    {formatInstant(s.at)} · <strong>{s.step}</strong> · authorisation <code>{s.authorisationId}</code> ·
                    TPP <code>{s.tppId}</code>
                  </span>
                </li>
              )}
            </For>
          </ul>
        </section>
      </Show>
      <ErrorMessages error={stored.error as unknown} />
      <Show when={valueOf(stored)} fallback={<Show when={stored.loading}><Loading label="Loading callbacks…" /></Show>}>
        <Show
          when={callbacks().length > 0}
          fallback={
            <EmptyState title="No SCA callbacks yet">
              <p>
                Send a request that needs SCA from the Composer (creating a payment, or reading accounts without a
                consent), press <strong>Open SCA</strong> and finish the bank's pages. The bank redirects back to the
                workbench and the callback, with the PSU-ID it gave the persona, appears here.
              </p>
            </EmptyState>
          }
        >
          <CallbackTable callbacks={callbacks()} personas={valueOf(personas) ?? []} />
        </Show>
      </Show>
    </div>
  );
}

// Screen 1, Sandbox data: initialise or reset the sandbox, find customers, create and edit customers,
// accounts, card accounts, agreements and transactions; snapshots and state files. Lists follow
// `sandbox.changed` events.
import { createMemo, createResource, createSignal, Show } from "solid-js";
import { useEvent, useResync, useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { Loading } from "../../components/Loading";
import { createDebounced } from "../../lib/debounce";
import { dateOf } from "../../lib/format";
import { CustomerDetail } from "./CustomerDetail";
import { CustomerForm } from "./CustomerForm";
import { CustomerList } from "./CustomerList";
import { SnapshotsPanel } from "./SnapshotsPanel";
import { valueOf } from "../../lib/resource";

export function SandboxScreen() {
  const wb = useWorkbench();
  const [customers, { refetch: refetchCustomers }] = createResource(() => wb.client.sandbox.customers());
  const [agreements, { refetch: refetchAgreements }] = createResource(() => wb.client.sandbox.agreements());
  const [selected, setSelected] = createSignal<string | null>(null);
  const [creating, setCreating] = createSignal(false);
  const [confirmReset, setConfirmReset] = createSignal(false);
  const [snapshots, setSnapshots] = createSignal(false);
  const [resetting, setResetting] = createSignal(false);
  const [resetError, setResetError] = createSignal<unknown>(null);

  const refresh = () => {
    void refetchCustomers();
    void refetchAgreements();
  };
  const refreshSoon = createDebounced(refresh);
  useEvent("sandbox.changed", (e) => {
    if (e.data.what !== "transactions") refreshSoon();
  });
  useResync(refresh);

  const today = () => dateOf(valueOf(wb.session)?.clock.now ?? new Date());
  const current = createMemo(() => valueOf(customers)?.find((c) => c.id === selected()) ?? null);
  const list = () => valueOf(customers) ?? [];

  const reset = async () => {
    setResetting(true);
    setResetError(null);
    try {
      const counts = await wb.client.sandbox.initialize();
      wb.notify(
        `Sandbox initialised: ${counts.customers} customers, ${counts.accounts} accounts, ${counts.cardAccounts} card accounts, ${counts.transactions} transactions`,
        "success",
      );
      setSelected(null);
      setConfirmReset(false);
      refresh();
    } catch (e) {
      setResetError(e);
      setConfirmReset(false);
    } finally {
      setResetting(false);
    }
  };

  return (
    <div class="sandbox-screen">
      <div class="toolbar">
        <Button variant="danger" busy={resetting()} onClick={() => setConfirmReset(true)}>
          Initialise / reset sandbox
        </Button>
        <Button
          variant="primary"
          onClick={() => {
            setCreating(true);
            setSelected(null);
          }}
        >
          New customer
        </Button>
        <Button aria-expanded={snapshots()} aria-controls="snapshots-panel" onClick={() => setSnapshots(!snapshots())}>
          Snapshots and state files
        </Button>
      </div>
      <Show when={snapshots()}>
        <div id="snapshots-panel">
          <SnapshotsPanel
            onChanged={() => {
              setSelected(null);
              refresh();
            }}
          />
        </div>
      </Show>
      <ErrorMessages error={resetError()} />
      <ErrorMessages error={customers.error as unknown} />

      <Show when={valueOf(customers)} fallback={<Show when={customers.loading}><Loading label="Loading customers…" /></Show>}>
        <Show
          when={list().length > 0 || creating()}
          fallback={
            <EmptyState
              title="No customers yet"
              action={
                <Button variant="primary" onClick={() => setConfirmReset(true)}>
                  Initialise the sandbox
                </Button>
              }
            >
              <p>
                Start by initialising the sandbox: it creates the five test customers (Kari and Ola Nordmann, Per
                Hansen, two companies) with their accounts, cards and transactions. Or create a customer of your own.
              </p>
            </EmptyState>
          }
        >
          <div class="split">
            <CustomerList
              customers={list()}
              selected={selected()}
              onSelect={(id) => {
                setCreating(false);
                setSelected(id);
              }}
            />
            <div class="detail">
              <Show when={creating()}>
                <CustomerForm
                  onDone={(c) => {
                    setCreating(false);
                    refresh();
                    setSelected(c.id);
                  }}
                  onCancel={() => setCreating(false)}
                />
              </Show>
              {/* Keyed by the chosen id: another customer gets a fresh detail, a refetch keeps the open editor. */}
              <Show when={!creating() && selected()} keyed>
                {(_id) => (
                  <Show when={current()}>
                    {(c) => (
                      <CustomerDetail
                        customer={c()}
                        agreements={valueOf(agreements) ?? []}
                        today={today()}
                        onChanged={refresh}
                        onDeleted={() => {
                          setSelected(null);
                          refresh();
                        }}
                      />
                    )}
                  </Show>
                )}
              </Show>
              <Show when={!creating() && !current()}>
                <p class="hint">Choose a customer to see and edit their accounts, cards and transactions.</p>
              </Show>
            </div>
          </div>
        </Show>
      </Show>

      <Show when={confirmReset()}>
        <ConfirmDialog
          title="Initialise the sandbox?"
          message="Everything made by hand is removed and the known test data is written afresh; consents, TPP sessions and authorisations are removed too. The traffic so far stays in the log: the Flow screen lists its journeys apart, as before the reset, and starts a clean story."
          confirmLabel="Initialise"
          busy={resetting()}
          onConfirm={reset}
          onCancel={() => setConfirmReset(false)}
        />
      </Show>
    </div>
  );
}

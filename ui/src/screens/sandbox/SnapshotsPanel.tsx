// Snapshots and state files, the tester's and the trainer's "back to the start": save the whole state under
// a name, list the snapshots with when they were taken and their size, restore one (after a confirmation),
// delete one, export one for replay (its state and everything served since as a flow, ReplayExport) or save
// the current state to a file (the desktop's save dialog, a download in a browser; named for the sandbox's
// clock), and import a state file after the preview the service gives of what it would change. A restore or an
// import is followed by `sandbox.changed {what: "all"}`, on which every screen reads its data afresh. A service
// without a data directory of its own (`--ephemeral`) keeps its snapshots only until it stops: the panel says so.
import { createResource, createSignal, For, Show } from "solid-js";
import type { ClockReading, ImportOutcome, Snapshot, StateMode } from "../../api/types";
import { openFile, saveFile } from "../../api/native";
import { useEvent, useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Dialog } from "../../components/Dialog";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { SelectField, TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { Loading } from "../../components/Loading";
import { createActions } from "../../lib/action";
import { count, formatInstant } from "../../lib/format";
import { valueOf } from "../../lib/resource";
import { ReplayExport } from "../flow/ReplayExport";
import type { ReplaySource } from "../flow/ReplayExport";

/** `1,234 bytes`, `12.3 KB`, `4.5 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return count(bytes, "byte");
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The stem of a snapshot's files: its name with what a file system might refuse replaced. */
export function snapshotStem(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, "-").replace(/^-+|-+$/g, "") || "snapshot";
}

/** The sandbox clock's time now, from a reading (a frozen clock stays where it is; the others move on). */
export function sandboxNow(clock: ClockReading, realNow = Date.now()): Date {
  return clock.mode === "frozen" ? new Date(clock.now) : new Date(realNow + (clock.offsetSeconds ?? 0) * 1000);
}

/** The file name of the whole state exported at `at` (as the service names it): `sandbox-2026-06-01T1200Z.state.json`. */
export function stateFileName(at: Date): string {
  const iso = at.toISOString();
  return `sandbox-${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z.state.json`;
}

/** What an import did or would do, tree by tree. */
export function ImportPreview(props: { outcome: ImportOutcome; label: string }) {
  const trees = () => Object.entries(props.outcome.preview.trees).filter(([, c]) => c !== undefined);
  return (
    <div>
      <p>
        {count(props.outcome.preview.records, "record")} in the file · mode {props.outcome.preview.mode}
        {trees().length === 0 ? " · nothing would change" : ""}
      </p>
      <Show when={trees().length > 0}>
        <table class="data">
          <caption>{props.label}</caption>
          <thead>
            <tr>
              <th scope="col">Data</th>
              <th scope="col">Added</th>
              <th scope="col">Changed</th>
              <th scope="col">Unchanged</th>
              <th scope="col">Removed</th>
            </tr>
          </thead>
          <tbody>
            <For each={trees()}>
              {([tree, change]) => (
                <tr>
                  <th scope="row">{tree}</th>
                  <td class="num">{change?.added}</td>
                  <td class="num">{change?.changed}</td>
                  <td class="num">{change?.unchanged}</td>
                  <td class="num">{change?.removed}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
    </div>
  );
}

interface PendingImport {
  file: string;
  path: string;
  mode: StateMode;
  outcome: ImportOutcome;
}

export function SnapshotsPanel(props: { onChanged: () => void }) {
  const wb = useWorkbench();
  const [list, { refetch }] = createResource(() => wb.client.fixtures.snapshots());
  const form = createForm();
  const [name, setName] = createSignal("");
  const [restoring, setRestoring] = createSignal<Snapshot | null>(null);
  const [deleting, setDeleting] = createSignal<Snapshot | null>(null);
  const [pending, setPending] = createSignal<PendingImport | null>(null);
  const { busy, error, run: act } = createActions();
  const importForm = createForm();

  useEvent("sandbox.changed", (e) => {
    if (e.data.what === "all") void refetch();
  });

  const save = async () => {
    const taken = await form.run(() => wb.client.fixtures.takeSnapshot(name().trim()));
    if (!taken) return;
    wb.notify(`Snapshot “${taken.name}” saved (${formatBytes(taken.bytes)})`, "success");
    setName("");
    void refetch();
  };

  const restore = (s: Snapshot) =>
    act(`restore-${s.name}`, async () => {
      await wb.client.fixtures.restoreSnapshot(s.name);
      setRestoring(null);
      wb.notify(`Snapshot “${s.name}” restored`, "success");
      props.onChanged();
    });

  const remove = (s: Snapshot) =>
    act(`delete-${s.name}`, async () => {
      await wb.client.fixtures.deleteSnapshot(s.name);
      setDeleting(null);
      wb.notify(`Snapshot “${s.name}” deleted`, "success");
      void refetch();
    });

  const [exporting, setExporting] = createSignal<ReplaySource | null>(null);
  const exportSnapshot = (s: Snapshot) =>
    setExporting({
      title: `Export snapshot “${s.name}” for replay`,
      stem: snapshotStem(s.name),
      flowNote: "everything served since the snapshot was taken",
      stateNote: `the snapshot's state, taken ${formatInstant(s.takenAt)}`,
      readState: () => wb.client.fixtures.snapshotFile(s.name),
      readFlow: (state) => wb.client.fixtures.snapshotFlow(s.name, state),
    });

  const exportState = () =>
    act("export-state", async () => {
      const clock = valueOf(wb.session)?.clock;
      const text = await wb.client.fixtures.exportState();
      const name = stateFileName(clock ? sandboxNow(clock) : new Date());
      const where = await saveFile(name, text, "application/json");
      if (where) wb.notify(`The state saved to ${where}`, "success");
    });
  const ephemeral = () => {
    const session = valueOf(wb.session);
    return session !== undefined && !session.dataDir;
  };

  const chooseFile = () =>
    act("import", async () => {
      const file = await openFile("Import a state file", ["json"]);
      if (!file) return;
      const outcome = await wb.client.fixtures.importState(file.contents, "replace", true);
      importForm.clear();
      setPending({ file: file.contents, path: file.path, mode: "replace", outcome });
    });

  const changeMode = async (mode: StateMode) => {
    const p = pending();
    if (!p) return;
    const outcome = await importForm.run(() => wb.client.fixtures.importState(p.file, mode, true));
    if (outcome) setPending({ ...p, mode, outcome });
  };

  const confirmImport = async () => {
    const p = pending();
    if (!p) return;
    const done = await importForm.run(() => wb.client.fixtures.importState(p.file, p.mode, false));
    if (!done) return;
    setPending(null);
    wb.notify(`Imported ${p.path}: ${count(done.preview.records, "record")}`, "success");
    props.onChanged();
  };

  return (
    <section class="panel snapshots" aria-label="Snapshots">
      <h3>Snapshots and state files</h3>
      <p class="hint">
        A snapshot is the whole sandbox state (customers, accounts, transactions, agreements, consents, payments, the
        clock) kept under a name in this data directory; restoring it brings every screen back to that moment.
      </p>
      <Show when={ephemeral()}>
        <p class="warning" role="note" aria-label="Snapshots vanish at exit">
          <strong>These snapshots vanish when the service stops.</strong> It runs without a data directory of its own
          (<code>--ephemeral</code>, or <code>--fixture</code> without <code>--data</code>), so everything in it is
          temporary. Export a snapshot for replay to keep it as files.
        </p>
      </Show>
      <Form form={form} onSubmit={() => void save()} label="Save a snapshot" class="form compact snapshot-form">
        <TextField
          label="Snapshot name"
          path="name"
          hint="Saving under a name that exists replaces that snapshot."
          value={name()}
          onValue={setName}
          autocomplete="off"
          placeholder="start-of-demo"
        />
        <div class="actions">
          <Button type="submit" variant="primary" busy={form.busy()} disabled={name().trim() === ""}>
            Save snapshot
          </Button>
        </div>
      </Form>
      <div class="actions">
        <Button busy={busy() === "export-state"} onClick={() => void exportState()}>
          Export the state to a file…
        </Button>
        <Button busy={busy() === "import"} onClick={() => void chooseFile()}>
          Import a state file…
        </Button>
      </div>
      <ErrorMessages error={error()} />
      <ErrorMessages error={list.error as unknown} title="The snapshots could not be read." />
      <Show when={valueOf(list)} fallback={<Show when={list.loading}><Loading label="Loading snapshots…" /></Show>}>
        {(snapshots) => (
          <Show
            when={snapshots().length > 0}
            fallback={
              <EmptyState title="No snapshots yet">
                <p>Save one before a demo or a test run, to come back to it in one step.</p>
              </EmptyState>
            }
          >
            <table class="data">
              <caption>{count(snapshots().length, "snapshot")}, by name</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Taken</th>
                  <th scope="col">Size</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                <For each={snapshots()}>
                  {(s) => (
                    <tr>
                      <th scope="row">{s.name}</th>
                      <td>{formatInstant(s.takenAt)}</td>
                      <td class="num">{formatBytes(s.bytes)}</td>
                      <td>
                        <span class="row-actions">
                          <Button aria-label={`Restore snapshot ${s.name}`} onClick={() => setRestoring(s)}>
                            Restore
                          </Button>
                          <Button aria-label={`Export snapshot ${s.name} for replay`} onClick={() => exportSnapshot(s)}>
                            Export…
                          </Button>
                          <Button variant="danger" aria-label={`Delete snapshot ${s.name}`} onClick={() => setDeleting(s)}>
                            Delete
                          </Button>
                        </span>
                      </td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </Show>
        )}
      </Show>

      <Show when={exporting()}>{(source) => <ReplayExport source={source()} onClose={() => setExporting(null)} />}</Show>
      <Show when={restoring()}>
        {(s) => (
          <ConfirmDialog
            title={`Restore “${s().name}”?`}
            message={`The sandbox goes back to the state taken ${formatInstant(s().takenAt)}: everything made since is replaced, the clock included.`}
            confirmLabel="Restore"
            busy={busy() === `restore-${s().name}`}
            onConfirm={() => void restore(s())}
            onCancel={() => setRestoring(null)}
          />
        )}
      </Show>
      <Show when={deleting()}>
        {(s) => (
          <ConfirmDialog
            title={`Delete “${s().name}”?`}
            message="The snapshot is removed; the sandbox's state is not touched."
            confirmLabel="Delete"
            busy={busy() === `delete-${s().name}`}
            onConfirm={() => void remove(s())}
            onCancel={() => setDeleting(null)}
          />
        )}
      </Show>
      <Show when={pending()}>
        {(p) => (
          <Dialog title="Import this state file?" description={p().path} onClose={() => setPending(null)}>
            <Form form={importForm} onSubmit={() => void confirmImport()} label="Import a state file" class="form compact">
              <SelectField
                label="Mode"
                path="mode"
                value={p().mode}
                onValue={(v) => void changeMode(v as StateMode)}
                options={[
                  { value: "replace", label: "Replace: the sandbox becomes what the file holds" },
                  { value: "merge", label: "Merge: the file's records are added or updated, others kept" },
                ]}
              />
              <ImportPreview outcome={p().outcome} label="What the import changes" />
              <div class="actions">
                <Button onClick={() => setPending(null)}>Cancel</Button>
                <Button type="submit" variant="primary" busy={importForm.busy()}>
                  Import
                </Button>
              </div>
            </Form>
          </Dialog>
        )}
      </Show>
    </section>
  );
}

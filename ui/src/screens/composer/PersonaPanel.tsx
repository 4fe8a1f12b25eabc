// The persona the composer signs with: chosen from the list, its certificate's status and problem, the
// PSU-ID / PSU-Corporate-ID / TPP-Session-ID it sends next (editable), and issuing, importing, deleting; its
// certificate, or its certificate with its key as a --cert-dir (CertDir).
import { createEffect, createSignal, For, on, Show } from "solid-js";
import type { Persona } from "../../api/types";
import { saveFile } from "../../api/native";
import { CertDirButton, keyOffered } from "./CertDir";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Dialog } from "../../components/Dialog";
import { ErrorMessages } from "../../components/ErrorMessages";
import { TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { StatusBadge } from "../../components/StatusBadge";
import { formatInstant } from "../../lib/format";
import { ImportPersonaForm, IssuePersonaForm } from "./PersonaForms";

export interface PersonaPanelProps {
  personas: readonly Persona[];
  selected: string;
  onSelect: (id: string) => void;
  onChanged: () => void;
  /** Why the composer moved to this persona by itself (an operation needing a role), said next to it. */
  notice?: string | null;
}

function PsuFields(props: { persona: Persona; onSaved: () => void }) {
  const wb = useWorkbench();
  const form = createForm();
  const [psuId, setPsuId] = createSignal("");
  const [psuCorporateId, setPsuCorporateId] = createSignal("");
  const [tppSessionId, setTppSessionId] = createSignal("");
  // Follow the persona (an SCA callback fills its PSU-ID) unless the user is editing.
  createEffect(
    on(
      () => [props.persona.psuId, props.persona.psuCorporateId, props.persona.tppSessionId] as const,
      ([p, c, s]) => {
        setPsuId(p ?? "");
        setPsuCorporateId(c ?? "");
        setTppSessionId(s ?? "");
      },
    ),
  );
  const orNull = (v: string) => (v.trim() === "" ? null : v.trim());
  const save = async () => {
    const saved = await form.run(() =>
      wb.client.personas.update(props.persona.id, {
        psuId: orNull(psuId()),
        psuCorporateId: orNull(psuCorporateId()),
        tppSessionId: orNull(tppSessionId()),
      }),
    );
    if (saved) {
      wb.notify(`${saved.name}: PSU details saved`, "success");
      props.onSaved();
    }
  };
  return (
    <Form form={form} onSubmit={() => void save()} label="PSU details of the persona" class="form compact">
      <div class="grid">
        <TextField label="PSU-ID" path="psuId" hint="Filled by an SCA callback" value={psuId()} onValue={setPsuId} />
        <TextField label="PSU-Corporate-ID" path="psuCorporateId" value={psuCorporateId()} onValue={setPsuCorporateId} />
        <TextField label="TPP-Session-ID" path="tppSessionId" value={tppSessionId()} onValue={setTppSessionId} />
      </div>
      <div class="actions">
        <Button type="submit" busy={form.busy()}>
          Save PSU details
        </Button>
      </div>
    </Form>
  );
}

export function PersonaPanel(props: PersonaPanelProps) {
  const wb = useWorkbench();
  const [dialog, setDialog] = createSignal<"issue" | "import" | "delete" | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<unknown>(null);
  const current = () => props.personas.find((p) => p.id === props.selected);

  const made = (persona: Persona) => {
    setDialog(null);
    props.onChanged();
    props.onSelect(persona.id);
  };

  const remove = async (persona: Persona) => {
    setBusy(true);
    setError(null);
    try {
      await wb.client.personas.remove(persona.id);
      wb.notify(`Persona ${persona.name} deleted`, "success");
      setDialog(null);
      props.onChanged();
    } catch (e) {
      setError(e);
      setDialog(null);
    } finally {
      setBusy(false);
    }
  };

  const download = async (persona: Persona) => {
    setError(null);
    try {
      const pem = await wb.client.personas.certificate(persona.id);
      await saveFile(`${persona.id}.pem`, pem, "application/x-pem-file");
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section class="persona-panel" aria-label="Signing persona">
      <div class="field">
        <label for="persona-select">Persona</label>
        <select id="persona-select" value={props.selected} onChange={(e) => props.onSelect(e.currentTarget.value)}>
          <For each={props.personas}>
            {(p) => (
              <option value={p.id} selected={p.id === props.selected}>
                {p.name} ({p.roles.join(", ") || "no roles"}) — {p.status}
              </option>
            )}
          </For>
        </select>
      </div>
      <Show when={props.notice}>
        <p class="persona-switched" role="status">
          {props.notice}
        </p>
      </Show>
      <Show when={current()}>
        {(p) => (
          <div class="persona-card">
            <p>
              <StatusBadge value={p().status} /> {p().source} · <code>{p().organisationId}</code> · serial{" "}
              <code>{p().serial}</code> · valid {formatInstant(p().notBefore)} – {formatInstant(p().notAfter)}
            </p>
            <Show when={p().problem}>
              <p class="problem">{p().problem}</p>
            </Show>
            <PsuFields persona={p()} onSaved={() => props.onChanged()} />
          </div>
        )}
      </Show>
      <ErrorMessages error={error()} />
      <div class="actions">
        <Button onClick={() => setDialog("issue")}>Issue persona…</Button>
        <Button onClick={() => setDialog("import")}>Import PEM…</Button>
        <Show when={current()}>
          {(p) => (
            <>
              <Button onClick={() => void download(p())}>Download certificate</Button>
              <Show when={keyOffered(p())}>
                <CertDirButton persona={p()} />
              </Show>
              <Show when={p().source !== "bundled"}>
                <Button variant="danger" onClick={() => setDialog("delete")}>
                  Delete persona
                </Button>
              </Show>
            </>
          )}
        </Show>
      </div>
      <Show when={dialog() === "issue"}>
        <Dialog title="Issue a persona" onClose={() => setDialog(null)}>
          <IssuePersonaForm onDone={made} onCancel={() => setDialog(null)} />
        </Dialog>
      </Show>
      <Show when={dialog() === "import"}>
        <Dialog title="Import a persona" onClose={() => setDialog(null)}>
          <ImportPersonaForm onDone={made} onCancel={() => setDialog(null)} />
        </Dialog>
      </Show>
      <Show when={dialog() === "delete" && current()}>
        {(p) => (
          <ConfirmDialog
            title={`Delete ${p().name}?`}
            message="Its certificate and key are removed from the workbench."
            confirmLabel="Delete"
            busy={busy()}
            onConfirm={() => void remove(p())}
            onCancel={() => setDialog(null)}
          />
        )}
      </Show>
    </section>
  );
}

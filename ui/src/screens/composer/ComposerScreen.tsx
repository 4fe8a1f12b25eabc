// Screen 2, Composer (the TPP side): pick an operation and a persona, edit the request, preview the exact
// headers, Digest and signing string, send it (Ctrl+Enter), read the answer, reopen any past request,
// export it as curl or a script, open the SCA pages the answer links to.
import { createEffect, createResource, createSignal, on, onCleanup, onMount, Show } from "solid-js";
import { messagesFromError } from "../../api/errors";
import type { Operation, Persona, Preview, Sent } from "../../api/types";
import { useEvent, useResync, useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { createForm, Form } from "../../components/form";
import { Loading } from "../../components/Loading";
import { EMPTY_EDITOR, fromDraft, fromOperation, idsFrom, toDraft } from "./draft";
import type { EditorState } from "./draft";
import { ExportPanel } from "./ExportPanel";
import { HistoryList } from "./HistoryList";
import { OperationPicker } from "./OperationPicker";
import { PersonaPanel } from "./PersonaPanel";
import { PreviewPanel } from "./PreviewPanel";
import { RequestEditor } from "./RequestEditor";
import { ResponsePanel } from "./ResponsePanel";
import { valueOf } from "../../lib/resource";

/** The persona to start an operation with: the chosen one if it fits, else the first valid one with the role. */
function personaFor(list: readonly Persona[], op: Operation | undefined, current: string): string {
  const fits = (p: Persona) => !op?.role || p.roles.includes(op.role);
  const chosen = list.find((p) => p.id === current);
  if (chosen && fits(chosen)) return chosen.id;
  return (list.find((p) => p.status === "valid" && fits(p)) ?? chosen ?? list[0])?.id ?? "";
}

export function ComposerScreen() {
  const wb = useWorkbench();
  const [operations] = createResource(() => wb.client.compose.operations());
  const [personas, { refetch: refetchPersonas }] = createResource(() => wb.client.personas.list());
  const [history, { refetch: refetchHistory }] = createResource(() => wb.client.compose.history());
  const [operationId, setOperationId] = createSignal("");
  const [editor, setEditor] = createSignal<EditorState>(EMPTY_EDITOR);
  const [preview, setPreview] = createSignal<Preview | null>(null);
  const [sent, setSent] = createSignal<Sent | null>(null);
  const [action, setAction] = createSignal<"send" | "preview" | null>(null);
  const [opening, setOpening] = createSignal<string | null>(null);
  const knownIds: Record<string, string> = {};
  let touched = false;
  const form = createForm();

  const operation = () => valueOf(operations)?.find((o) => o.id === operationId()) ?? null;

  useEvent("persona.changed", () => void refetchPersonas());
  useEvent("sca.callback", () => void refetchPersonas());
  useResync(() => {
    void refetchPersonas();
    void refetchHistory();
  });

  // Start with the first operation once the forms arrive, and keep a persona chosen.
  createEffect(
    on(() => valueOf(operations), (ops) => {
      const first = ops?.[0];
      if (first && !touched) selectOperation(first.id, false);
    }),
  );
  createEffect(
    on(() => valueOf(personas), (list) => {
      if (!list || list.length === 0) return;
      const id = personaFor(list, operation() ?? undefined, editor().personaId);
      if (id !== editor().personaId) setEditor((e) => ({ ...e, personaId: id }));
    }),
  );

  function selectOperation(id: string, byUser = true) {
    touched ||= byUser;
    setOperationId(id);
    setPreview(null);
    form.clear();
    const op = valueOf(operations)?.find((o) => o.id === id);
    if (op) setEditor(fromOperation(op, personaFor(valueOf(personas) ?? [], op, editor().personaId), knownIds));
    else setEditor((e) => ({ ...e, template: null }));
  }

  const send = async () => {
    if (action()) return;
    setAction("send");
    const result = await form.run(() => wb.client.compose.send(toDraft(editor())));
    setAction(null);
    if (!result) return;
    setSent(result);
    Object.assign(knownIds, idsFrom(result.response.body));
    void refetchHistory();
  };

  const showPreview = async () => {
    if (action()) return;
    setAction("preview");
    const result = await form.run(() => wb.client.compose.preview(toDraft(editor())));
    setAction(null);
    if (result) setPreview(result);
  };

  const reopen = async (id: string) => {
    setOpening(id);
    try {
      const past = await wb.client.compose.historyEntry(id);
      touched = true;
      setOperationId("");
      setEditor(fromDraft(past.draft));
      setSent(past);
      setPreview(null);
      form.clear();
    } catch (e) {
      form.setMessages(messagesFromError(e));
    } finally {
      setOpening(null);
    }
  };

  // "Open in composer" from the inspector: the exchange's request, as a draft to edit and re-send.
  createEffect(
    on(wb.handoff.composerDraft, (draft) => {
      if (!draft) return;
      touched = true;
      setOperationId("");
      setEditor(fromDraft(draft));
      setPreview(null);
      setSent(null);
      form.clear();
      wb.handoff.setComposerDraft(null);
    }),
  );

  onMount(() => {
    // Capture phase: Ctrl+Enter sends even from inside the body editor, which would insert a line.
    const onKey = (e: KeyboardEvent) => {
      if (wb.screen() !== "composer" || e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
      e.preventDefault();
      e.stopPropagation();
      void send();
    };
    document.addEventListener("keydown", onKey, true);
    onCleanup(() => document.removeEventListener("keydown", onKey, true));
  });

  return (
    <div class="composer">
      <div class="composer-side">
        <ErrorMessages error={operations.error as unknown} title="The operations could not be read." />
        <Show when={valueOf(operations)} fallback={<Show when={operations.loading}><Loading label="Loading operations…" /></Show>}>
          {(ops) => <OperationPicker operations={ops()} selected={operationId()} onSelect={selectOperation} />}
        </Show>
        <ErrorMessages error={personas.error as unknown} title="The personas could not be read." />
        <Show when={valueOf(personas)}>
          {(list) => (
            <Show
              when={list().length > 0}
              fallback={
                <EmptyState title="No personas">
                  <p>A persona is the TPP certificate the composer signs with. Issue one, or import a PEM.</p>
                </EmptyState>
              }
            >
              <PersonaPanel
                personas={list()}
                selected={editor().personaId}
                onSelect={(personaId) => setEditor((e) => ({ ...e, personaId }))}
                onChanged={() => void refetchPersonas()}
              />
            </Show>
          )}
        </Show>
        <Form form={form} onSubmit={() => void send()} label="Request">
          <RequestEditor editor={editor()} onEditor={setEditor} operation={operation()} />
          <div class="actions">
            <Button busy={action() === "preview"} onClick={() => void showPreview()}>
              Preview
            </Button>
            <Button type="submit" variant="primary" busy={action() === "send"} aria-keyshortcuts="Control+Enter">
              Send
            </Button>
            <span class="hint">Ctrl+Enter sends</span>
          </div>
        </Form>
        <ExportPanel draft={() => toDraft(editor())} />
      </div>
      <div class="composer-side">
        <Show when={preview()}>{(p) => <PreviewPanel preview={p()} />}</Show>
        <Show
          when={sent()}
          fallback={
            <EmptyState title="Nothing sent yet">
              <p>
                Choose an operation and a persona, check the headers and the body, press Preview to see the signing
                string, then Send (Ctrl+Enter).
              </p>
            </EmptyState>
          }
        >
          {(s) => <ResponsePanel sent={s()} />}
        </Show>
        <HistoryList entries={valueOf(history) ?? []} personas={valueOf(personas) ?? []} opening={opening()} onOpen={(id) => void reopen(id)} />
      </div>
    </div>
  );
}

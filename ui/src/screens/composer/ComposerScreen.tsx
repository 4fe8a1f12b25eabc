// Screen 2, Composer (the TPP side), laid out as request workbenches are: the operation and, on one line
// at the top, method, URL and Send; below, the path parameters, headers, query and body; beside them the
// signing persona, the preview (exact headers, Digest, signing string), the answer and the history. Ctrl+Enter
// sends; a request with a path parameter still empty is refused at that field and never sent; the answer's
// ids fill the next operation's parameters; export as curl or a script; Open SCA where the answer links.
import { PastedCheck } from "../inspector/PastedCheck";
import { ariaKeys, keyLabel } from "../../app/shortcuts";
import { createEffect, createResource, createSignal, on, onCleanup, onMount, Show } from "solid-js";
import { messagesFromError } from "../../api/errors";
import type { Draft, Operation, PathParam, Persona, Preview, Sent } from "../../api/types";
import { useEvent, useResync, useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { createForm, Form } from "../../components/form";
import { Loading } from "../../components/Loading";
import { EMPTY_EDITOR, fromDraft, fromOperation, learn, toDraft, unfilled } from "./draft";
import type { EditorState, Known } from "./draft";
import { ExportPanel } from "./ExportPanel";
import { HistoryList } from "./HistoryList";
import { OperationPicker } from "./OperationPicker";
import { PersonaPanel } from "./PersonaPanel";
import { PreviewPanel } from "./PreviewPanel";
import { RequestEditor } from "./RequestEditor";
import { ResponsePanel } from "./ResponsePanel";
import { valueOf } from "../../lib/resource";

/** The persona to start an operation with: the chosen one if it fits, else the first valid one with the role. */
export function personaFor(list: readonly Persona[], op: Operation | undefined | null, current: string): string {
  const fits = (p: Persona) => !op?.role || p.roles.includes(op.role);
  const chosen = list.find((p) => p.id === current);
  if (chosen && fits(chosen)) return chosen.id;
  return (list.find((p) => p.status === "valid" && fits(p)) ?? chosen ?? list[0])?.id ?? "";
}

const FOLLOWED: Record<string, string> = {
  payment: "payment",
  consent: "consent",
  basket: "signing basket",
  authorisation: "authorisation",
  account: "account list",
  cardAccount: "card account list",
  transaction: "transaction list",
};

/** Why a path parameter is still empty, said at its field. */
function emptyParamText(name: string, param: PathParam | undefined): string {
  if (param?.follows) {
    return `${name} is empty: no ${FOLLOWED[param.follows] ?? param.follows} was answered in this composer yet. Send the operation that makes one first, or type its id.`;
  }
  return `${name} is empty: fill it in; the request is not sent with {${name}} in its path.`;
}

/** Why Send sent nothing while no persona is chosen. */
function noPersonaText(loading: boolean): string {
  return loading
    ? "Not sent: the personas are still being read, and a request is signed by one. Press Send again in a moment."
    : "Not sent: no persona is chosen to sign the request. Choose one under Signing persona, or issue or import one.";
}

export function ComposerScreen() {
  const [pasting, setPasting] = createSignal(false);
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
  const [switched, setSwitched] = createSignal<string | null>(null);
  let known: Known = {};
  let touched = false;
  const form = createForm();

  const operation = () => valueOf(operations)?.find((o) => o.id === operationId()) ?? null;
  const baseUrl = () => valueOf(wb.session)?.baseUrl ?? wb.config.baseUrl;

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
      choosePersona(personaFor(list, operation(), editor().personaId));
    }),
  );

  /**
   * Moves to another persona when the operation needs a role the chosen one lacks — never silently: the
   * persona panel says which, and why.
   */
  function choosePersona(id: string) {
    const before = editor().personaId;
    if (id === before) return;
    setEditor((e) => ({ ...e, personaId: id }));
    const list = valueOf(personas) ?? [];
    const from = list.find((p) => p.id === before);
    const to = list.find((p) => p.id === id);
    const op = operation();
    if (from && to && op?.role) {
      const psu = to.psuId ? "" : ` ${to.name} has no PSU-ID yet: the bank will ask the PSU who they are on its pages.`;
      const text = `Persona switched to ${to.name}: ${from.name} does not have ${op.role}, which “${op.name}” needs.${psu}`;
      setSwitched(text);
    }
  }

  function selectOperation(id: string, byUser = true) {
    touched ||= byUser;
    setOperationId(id);
    setPreview(null);
    setSwitched(null);
    form.clear();
    const op = valueOf(operations)?.find((o) => o.id === id);
    if (op) {
      const persona = personaFor(valueOf(personas) ?? [], op, editor().personaId);
      setEditor(fromOperation(op, editor().personaId || persona, known));
      choosePersona(persona);
    } else setEditor((e) => ({ ...e, template: null }));
  }

  /**
   * The draft to send, or null with the reason said: no persona to sign with yet (the personas are read
   * apart from the operations, and may arrive after an operation was chosen and Send pressed), or a path
   * parameter still empty (at its field). Never a request other than the one on the screen.
   */
  function ready(): Draft | null {
    if (!editor().personaId) {
      form.setMessages([{ category: "ERROR", code: "FORMAT_ERROR", path: "personaId", text: noPersonaText(personas.loading) }]);
      return null;
    }
    const missing = unfilled(editor());
    if (missing.length === 0) return toDraft(editor());
    const params = operation()?.pathParams ?? [];
    form.setMessages(
      missing.map((name) => ({
        category: "ERROR",
        code: "FORMAT_ERROR",
        path: editor().template ? `pathParams.${name}` : "path",
        text: emptyParamText(name, params.find((p) => p.name === name)),
      })),
    );
    return null;
  }

  const send = async () => {
    if (action()) return;
    const draft = ready();
    if (!draft) return;
    setAction("send");
    const result = await form.run(() => wb.client.compose.send(draft));
    setAction(null);
    if (!result) return;
    setSent(result);
    setPreview(null);
    known = learn(known, valueOf(operations) ?? [], draft, result.response.status, result.response.body);
    void refetchHistory();
  };

  const showPreview = async () => {
    if (action()) return;
    const draft = ready();
    if (!draft) return;
    setAction("preview");
    const result = await form.run(() => wb.client.compose.preview(draft));
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
        <Form form={form} onSubmit={() => void send()} label="Request">
          <Show when={valueOf(operations)} fallback={<Show when={operations.loading}><Loading label="Loading operations…" /></Show>}>
            {(ops) => <OperationPicker operations={ops()} selected={operationId()} onSelect={selectOperation} />}
          </Show>
          <RequestEditor
            editor={editor()}
            onEditor={setEditor}
            operation={operation()}
            baseUrl={baseUrl()}
            actions={
              <>
                <Button type="submit" variant="primary" busy={action() === "send"} aria-keyshortcuts={ariaKeys("Mod+Enter")} title={`Send (${keyLabel("Mod+Enter")})`}>
                  Send
                </Button>
                <Button busy={action() === "preview"} onClick={() => void showPreview()}>
                  Preview
                </Button>
              </>
            }
          />
        </Form>
        <ExportPanel draft={ready} />
        {/* What your own app sent, checked by the gate as the Inspector checks it. */}
        <div class="actions">
          <Button aria-expanded={pasting()} onClick={() => setPasting(!pasting())}>
            Check a pasted request
          </Button>
        </div>
        <Show when={pasting()}>
          <PastedCheck />
        </Show>
      </div>
      <div class="composer-side">
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
                notice={switched()}
                onSelect={(personaId) => {
                  setSwitched(null);
                  setEditor((e) => ({ ...e, personaId }));
                }}
                onChanged={() => void refetchPersonas()}
              />
            </Show>
          )}
        </Show>
        <Show when={preview()}>{(p) => <PreviewPanel preview={p()} />}</Show>
        <Show
          when={sent()}
          fallback={
            <EmptyState title="Nothing sent yet">
              <p>
                Choose an operation and a persona, check the headers and the body, press Preview to see the signing
                string, then Send ({keyLabel("Mod+Enter")}).
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

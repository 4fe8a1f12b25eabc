// The request being composed, as request workbenches lay it out: method, URL and Send on one line at the
// top (the `actions` the composer hands in), then the path parameters (filled from the resource each
// follows, enumerated ones as a choice), the headers (placeholders such as {{persona.psuId}} are filled by
// the service), the query parameters and the JSON body in CodeMirror. Every part names its Draft path so
// the service's messages land on it.
import { createUniqueId, For, Show } from "solid-js";
import type { JSX } from "solid-js";
import type { Operation, PathParam } from "../../api/types";
import { CodeEditor } from "../../components/CodeEditor";
import { SelectField, TextField, useFieldMessages } from "../../components/Field";
import { fillPath, METHODS } from "./draft";
import type { EditorState } from "./draft";
import { RowsEditor } from "./RowsEditor";

/** The JSON body in CodeMirror, with the service's message for `body` under it. */
function BodyField(props: { value: string; onValue: (body: string) => void }) {
  const messages = useFieldMessages(() => "body");
  const errorId = createUniqueId();
  return (
    <div class="field" classList={{ invalid: messages().length > 0 }}>
      <span class="label">Request body (JSON)</span>
      <CodeEditor
        label="Request body"
        describedBy={errorId}
        invalid={messages().length > 0}
        value={props.value}
        onChange={(body) => props.onValue(body)}
        minHeight="10rem"
      />
      <p class="field-error" id={errorId}>
        <For each={messages()}>{(m) => <span>{m.text ?? m.code} </span>}</For>
      </p>
    </div>
  );
}

const FOLLOWED: Record<string, string> = {
  payment: "payment",
  consent: "consent",
  basket: "signing basket",
  authorisation: "authorisation",
  account: "account",
  cardAccount: "card account",
  transaction: "transaction",
};

/** What a path parameter's hint says: what it is and where its value comes from. */
export function paramHint(p: PathParam): string {
  const from = p.follows ? `Filled from the last ${FOLLOWED[p.follows] ?? p.follows} this composer saw.` : "";
  const what = p.description.trim();
  return [what && !/[.!?]$/.test(what) ? `${what}.` : what, from].filter(Boolean).join(" ");
}

function ParamField(props: { param: PathParam; value: string; onValue: (value: string) => void }) {
  return (
    <Show
      when={props.param.values && props.param.values.length > 0}
      fallback={
        <TextField
          label={props.param.name}
          path={`pathParams.${props.param.name}`}
          hint={paramHint(props.param)}
          value={props.value}
          onValue={(v) => props.onValue(v)}
          spellcheck={false}
          autocomplete="off"
        />
      }
    >
      <SelectField
        label={props.param.name}
        path={`pathParams.${props.param.name}`}
        hint={paramHint(props.param)}
        value={props.value}
        onValue={(v) => props.onValue(v)}
        options={props.param.values ?? []}
      />
    </Show>
  );
}

export interface RequestEditorProps {
  editor: EditorState;
  onEditor: (editor: EditorState) => void;
  operation: Operation | null;
  /** The service's base URL, which the path is relative to (said in the path's description). */
  baseUrl: string;
  /** Send and Preview, on the request line. */
  actions: JSX.Element;
}

export function RequestEditor(props: RequestEditorProps) {
  const patch = (p: Partial<EditorState>) => props.onEditor({ ...props.editor, ...p });
  const setParam = (name: string, value: string) => {
    const params = { ...props.editor.params, [name]: value };
    const template = props.editor.template;
    patch({ params, ...(template ? { path: fillPath(template, params) } : {}) });
  };
  const required = () => props.operation?.query.filter((q) => q.required).map((q) => q.name) ?? [];
  return (
    <div class="request-editor">
      <div class="request-line">
        <SelectField
          label="Method"
          path="method"
          class="request-method"
          value={props.editor.method}
          onValue={(v) => patch({ method: v })}
          options={METHODS}
        />
        <TextField
          label="Path"
          path="path"
          class="request-path"
          hint={`Relative to the base URL ${props.baseUrl}`}
          value={props.editor.path}
          onValue={(v) => patch({ path: v, template: null })}
          spellcheck={false}
          autocomplete="off"
        />
        <div class="request-actions">{props.actions}</div>
      </div>
      <Show when={props.editor.template && props.operation && props.operation.pathParams.length > 0}>
        <fieldset>
          <legend>Path parameters</legend>
          <div class="grid">
            <For each={props.operation?.pathParams ?? []}>
              {(p) => <ParamField param={p} value={props.editor.params[p.name] ?? ""} onValue={(v) => setParam(p.name, v)} />}
            </For>
          </div>
        </fieldset>
      </Show>
      <RowsEditor
        noun="Header"
        path="headers"
        rows={props.editor.headers}
        onRows={(headers) => patch({ headers })}
        hints={props.editor.template ? (props.operation?.hints ?? []) : []}
      />
      <RowsEditor
        noun="Query parameter"
        path="query"
        rows={props.editor.query}
        onRows={(query) => patch({ query })}
        required={required()}
        note="A parameter left without a value is not sent."
      />
      <BodyField value={props.editor.body} onValue={(body) => patch({ body })} />
    </div>
  );
}

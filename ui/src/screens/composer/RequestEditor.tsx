// The request being composed: method, path (following the operation's path parameters), query
// parameters, the extra headers (placeholders such as {{persona.psuId}} are filled by the service) and the
// JSON body in CodeMirror. Every part names its Draft path so the service's messages land on it.
import { createUniqueId, For, Show } from "solid-js";
import type { Operation } from "../../api/types";
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

export interface RequestEditorProps {
  editor: EditorState;
  onEditor: (editor: EditorState) => void;
  operation: Operation | null;
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
      <div class="grid">
        <SelectField label="Method" path="method" value={props.editor.method} onValue={(v) => patch({ method: v })} options={METHODS} />
        <TextField
          label="Path"
          path="path"
          hint="Relative to the base URL"
          value={props.editor.path}
          onValue={(v) => patch({ path: v, template: null })}
          spellcheck={false}
          class="wide"
        />
      </div>
      <Show when={props.editor.template && props.operation && props.operation.pathParams.length > 0}>
        <fieldset>
          <legend>Path parameters</legend>
          <div class="grid">
            <For each={props.operation?.pathParams ?? []}>
              {(p) => (
                <TextField
                  label={p.name}
                  path={`pathParams.${p.name}`}
                  hint={`${p.description}${p.source ? ` (from an earlier answer's ${p.source})` : ""}`}
                  value={props.editor.params[p.name] ?? ""}
                  onValue={(v) => setParam(p.name, v)}
                  spellcheck={false}
                />
              )}
            </For>
          </div>
        </fieldset>
      </Show>
      <RowsEditor noun="Query parameter" path="query" rows={props.editor.query} onRows={(query) => patch({ query })} required={required()} />
      <RowsEditor noun="Header" path="headers" rows={props.editor.headers} onRows={(headers) => patch({ headers })} />
      <BodyField value={props.editor.body} onValue={(body) => patch({ body })} />
    </div>
  );
}

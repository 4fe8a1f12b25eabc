// A JSON editor: CodeMirror 6 once it has loaded (read-only for responses, editable for request bodies);
// a plain labelled textarea until then, or when CodeMirror cannot load.
import { createEffect, createSignal, onCleanup, onMount, Show } from "solid-js";
import type { EditorHandle } from "./codemirror";

export interface CodeEditorProps {
  value: string;
  onChange?: (text: string) => void;
  readOnly?: boolean;
  /** The accessible name of the text box. */
  label: string;
  /** The id of an element describing the text box (its error). */
  describedBy?: string;
  invalid?: boolean;
  minHeight?: string;
}

export function CodeEditor(props: CodeEditorProps) {
  let host!: HTMLDivElement;
  const [editor, setEditor] = createSignal<EditorHandle | null>(null);
  let disposed = false;

  onMount(() => {
    import("./codemirror")
      .then(({ createEditor }) => {
        if (disposed) return;
        const handle = createEditor(host, {
          doc: props.value,
          readOnly: props.readOnly ?? false,
          label: props.label,
          describedBy: props.describedBy,
          onChange: (text) => props.onChange?.(text),
        });
        setEditor(handle);
      })
      .catch(() => {
        // Keep the textarea: everything still works, without highlighting.
      });
  });

  createEffect(() => {
    const value = props.value;
    editor()?.setDoc(value);
  });

  onCleanup(() => {
    disposed = true;
    editor()?.destroy();
  });

  return (
    <div class="code-editor" style={{ "min-height": props.minHeight ?? "8rem" }}>
      <div ref={host} class="code-host" />
      <Show when={!editor()}>
        <textarea
          class="code-fallback"
          aria-label={props.label}
          aria-describedby={props.describedBy}
          aria-errormessage={props.invalid ? props.describedBy : undefined}
          aria-invalid={props.invalid ? true : undefined}
          readOnly={props.readOnly}
          spellcheck={false}
          value={props.value}
          onInput={(e) => props.onChange?.(e.currentTarget.value)}
        />
      </Show>
    </div>
  );
}

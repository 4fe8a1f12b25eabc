// CodeMirror 6 set up for JSON: loaded on demand by CodeEditor, so the first screen does not wait for it.
// Only the modules the workbench needs (no basicSetup): line numbers, history, brackets, JSON highlighting.
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { json } from "@codemirror/lang-json";
import { tags } from "@lezer/highlight";

/**
 * JSON's colours from the theme (theme.css, --code-*), which meet 4.5:1 on the editor's background in the
 * light and the dark theme; CodeMirror's default style is for a light background only.
 */
const jsonHighlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: "var(--code-key)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--code-string)" },
  { tag: tags.number, color: "var(--code-number)" },
  { tag: [tags.bool, tags.null, tags.atom], color: "var(--code-atom)" },
  { tag: tags.invalid, color: "var(--bad)" },
]);

export interface EditorOptions {
  doc: string;
  readOnly: boolean;
  label: string;
  describedBy?: string | undefined;
  onChange?: (text: string) => void;
}

export interface EditorHandle {
  setDoc(text: string): void;
  focus(): void;
  destroy(): void;
}

export function createEditor(parent: HTMLElement, options: EditorOptions): EditorHandle {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        indentOnInput(),
        syntaxHighlighting(jsonHighlight),
        json(),
        EditorView.lineWrapping,
        EditorState.readOnly.of(options.readOnly),
        EditorView.editable.of(!options.readOnly),
        // Tab indents in the editable body; Escape then Tab leaves the editor (CodeMirror's focus escape).
        keymap.of([...(options.readOnly ? [] : [indentWithTab]), ...defaultKeymap, ...historyKeymap]),
        ...(options.readOnly ? [] : [history()]),
        EditorView.contentAttributes.of({
          "aria-label": options.label,
          ...(options.describedBy ? { "aria-describedby": options.describedBy } : {}),
          "aria-multiline": "true",
          ...(options.readOnly ? { "aria-readonly": "true", tabindex: "0" } : {}),
          role: "textbox",
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange?.(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    setDoc(text) {
      if (text === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}

// Editable name/value rows (headers, query parameters): each row's name and value labelled by its number,
// rows added and removed; the service's message for `headers[2]` lands on row 3.
import { Index, Show } from "solid-js";
import type { Header } from "../../api/types";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";

export interface RowsEditorProps {
  /** Singular noun for labels: "Header", "Query parameter". */
  noun: string;
  /** JSON path of the list in the Draft: "headers" (rows are `headers[0]` ...). */
  path: string;
  rows: readonly Header[];
  onRows: (rows: Header[]) => void;
  /** Marks rows whose name is required (query parameters the operation requires). */
  required?: readonly string[];
  /** A line under the legend about all the rows. */
  note?: string;
  /** What the operation says about a row, by its name (a header's hint). */
  hints?: readonly { header: string; text: string }[];
}

export function RowsEditor(props: RowsEditorProps) {
  const set = (i: number, row: Header) => props.onRows(props.rows.map((r, j) => (j === i ? row : r)));
  return (
    <fieldset class="rows-editor">
      <legend>{props.noun}s</legend>
      <Show when={props.note && props.rows.length > 0}>
        <p class="hint">{props.note}</p>
      </Show>
      <Index each={props.rows}>
        {(row, i) => (
          <div class="header-row" role="group" aria-label={`${props.noun} ${i + 1}`}>
            <TextField
              label={`${props.noun} ${i + 1} name`}
              path={[`${props.path}[${i}]`, `${props.path}[${i}][0]`]}
              value={row()[0]}
              onValue={(v) => set(i, [v, row()[1]])}
              autocomplete="off"
              spellcheck={false}
            />
            <TextField
              label={`${props.noun} ${i + 1} value`}
              path={`${props.path}[${i}][1]`}
              hint={
                props.hints?.find((h) => h.header.toLowerCase() === row()[0].trim().toLowerCase())?.text ??
                (props.required?.includes(row()[0]) ? "Required by the operation" : undefined)
              }
              value={row()[1]}
              onValue={(v) => set(i, [row()[0], v])}
              autocomplete="off"
              spellcheck={false}
            />
            <Button aria-label={`Remove ${props.noun.toLowerCase()} ${i + 1}`} onClick={() => props.onRows(props.rows.filter((_, j) => j !== i))}>
              Remove
            </Button>
          </div>
        )}
      </Index>
      <Show when={props.rows.length === 0}>
        <p class="hint">None.</p>
      </Show>
      <Button onClick={() => props.onRows([...props.rows, ["", ""]])}>Add {props.noun.toLowerCase()}</Button>
    </fieldset>
  );
}

// A read-only list of HTTP headers as a table, names in code type. A long value (a certificate, a
// signature) is folded to its start and its length, with a control to show it whole.
import { createSignal, For, Show } from "solid-js";
import type { Header } from "../api/types";
import { count } from "../lib/format";

/** Values longer than this are folded. */
export const FOLD_AT = 160;

export function FoldedValue(props: { value: string; name: string }) {
  const [open, setOpen] = createSignal(false);
  return (
    <Show when={props.value.length > FOLD_AT} fallback={<code class="wrap">{props.value}</code>}>
      <code class="wrap">{open() ? props.value : `${props.value.slice(0, 64)}…`}</code>{" "}
      <button
        type="button"
        class="btn link fold-toggle"
        aria-expanded={open()}
        aria-label={`${open() ? "Fold" : "Show all of"} ${props.name} (${count(props.value.length, "character")})`}
        onClick={() => setOpen(!open())}
      >
        {open() ? "fold" : `show all ${count(props.value.length, "character")}`}
      </button>
    </Show>
  );
}

export function HeadersTable(props: { headers: readonly Header[]; label: string; highlight?: readonly string[] }) {
  const marked = (name: string) => (props.highlight ?? []).some((h) => h.toLowerCase() === name.toLowerCase());
  return (
    <table class="headers">
      <caption class="visually-hidden">{props.label}</caption>
      <thead>
        <tr>
          <th scope="col">Header</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        <For each={props.headers}>
          {([name, value]) => (
            <tr classList={{ signed: marked(name) }}>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>
                <FoldedValue value={value} name={name} />
              </td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}

// A read-only list of HTTP headers as a table, names in code type.
import { For } from "solid-js";
import type { Header } from "../api/types";

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
                <code class="wrap">{value}</code>
              </td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}

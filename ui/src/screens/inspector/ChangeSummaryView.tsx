// A summary of state changes as a person reads it (docs/rewind.md): the resources that differ, each with the
// fields that differ (a JSON pointer, the value on each side), the balances that moved, and the sandbox's own
// bookkeeping folded away. Shared by an entry's State changes and by the comparison of two states, which name
// the sides and the kinds of change in their own words.
import { For, Show } from "solid-js";
import type { BalanceMove, ResourceChange } from "../../api/types";
import { count } from "../../lib/format";

/** What differs between two sides, as both the changes of an entry and a comparison carry it. */
export interface ChangeSummary {
  resources: readonly ResourceChange[];
  balances: readonly BalanceMove[];
  omitted: number;
}

/** How a view names the two sides and the kinds of change. */
export interface SideWords {
  before: string;
  after: string;
  /** The badge of each kind of change. */
  badge: (change: ResourceChange["change"]) => string;
}

export const ENTRY_WORDS: SideWords = { before: "Before", after: "After", badge: (change) => change };

/** A field's value in a few characters. */
export function shortValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** The short form of a resource's id (a UUID's first part). */
export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 8)}…` : id;
}

function ResourceRow(props: { change: ResourceChange; words: SideWords }) {
  const c = () => props.change;
  return (
    <li class={`state-change ${c().change}`}>
      <span class="badge">{props.words.badge(c().change)}</span> {c().resource} <code title={c().id}>{shortId(c().id)}</code>
      <Show when={c().change === "changed" && c().fields.length > 0}>
        <table class="fields" aria-label={`Fields of ${c().resource} ${c().id}`}>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">{props.words.before}</th>
              <th scope="col">{props.words.after}</th>
            </tr>
          </thead>
          <tbody>
            <For each={c().fields}>
              {(f) => (
                <tr>
                  <td class="mono">{f.path}</td>
                  <td class="mono">{shortValue(f.before)}</td>
                  <td class="mono">{shortValue(f.after)}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
    </li>
  );
}

export interface ChangeSummaryViewProps {
  summary: ChangeSummary;
  /** The accessible name of the list of resources. */
  listLabel: string;
  words?: SideWords;
}

export function ChangeSummaryView(props: ChangeSummaryViewProps) {
  const words = () => props.words ?? ENTRY_WORDS;
  const shown = () => props.summary.resources.filter((r) => !r.internal);
  const internal = () => props.summary.resources.filter((r) => r.internal);
  return (
    <>
      <p class="hint">
        {count(shown().length, "resource")} {props.summary.omitted > 0 ? `(and ${props.summary.omitted} more not listed)` : ""}
      </p>
      <ul class="state-change-list" aria-label={props.listLabel}>
        <For each={shown()}>{(r) => <ResourceRow change={r} words={words()} />}</For>
      </ul>
      <Show when={props.summary.balances.length > 0}>
        <table class="fields" aria-label="Balances moved">
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Balance</th>
              <th scope="col">{words().before}</th>
              <th scope="col">{words().after}</th>
              <th scope="col">Moved</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.summary.balances}>
              {(b) => (
                <tr>
                  <td>{b.name ?? shortId(b.accountId)}</td>
                  <td>{b.balanceType}</td>
                  <td class="mono">{b.before ?? "—"}</td>
                  <td class="mono">{b.after ?? "—"}</td>
                  <td class="mono">
                    {b.moved} {b.currency}
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
      <Show when={internal().length > 0}>
        <details>
          <summary>{count(internal().length, "bookkeeping record")} (indexes, counters)</summary>
          <ul class="state-change-list">
            <For each={internal()}>{(r) => <ResourceRow change={r} words={words()} />}</For>
          </ul>
        </details>
      </Show>
    </>
  );
}

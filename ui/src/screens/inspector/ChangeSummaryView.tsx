// A summary of state changes as a person reads it (docs/rewind.md): the resources that differ, each with the
// fields that differ (a JSON pointer, the value on each side), the balances that moved, and the sandbox's own
// bookkeeping folded away. A run of many resources of one kind changed one way ("250 transactions created") is
// one line, its resources listed on demand; a few are listed as they are. Shared by an entry's State changes
// and by the comparison of two states, which name the sides and the kinds of change in their own words.
import { createSignal, createUniqueId, For, Show } from "solid-js";
import type { BalanceMove, ChangeGroup, ResourceChange } from "../../api/types";
import { Button } from "../../components/Button";
import { count } from "../../lib/format";

/** What differs between two sides, as both the changes of an entry and a comparison carry it. */
export interface ChangeSummary {
  resources: readonly ResourceChange[];
  balances: readonly BalanceMove[];
  omitted: number;
  /** Every change counted by kind and change, those not listed included. */
  groups: readonly ChangeGroup[];
}

/** From this many resources of one kind changed one way, they are summarised in one line. */
export const RUN = 4;

/** `1 card account`, `250 card accounts`: a resource kind as people say it. */
export function resourceCount(n: number, kind: string): string {
  const irregular: Record<string, [string, string]> = {
    "payment-bookings": ["payment booking", "payment bookings"],
    "traffic-settings": ["traffic settings record", "traffic settings records"],
    expiry: ["expiry", "expiries"],
    "duplicate-index": ["duplicate-index entry", "duplicate-index entries"],
  };
  const [one, many] = irregular[kind] ?? [kind.replace(/-/g, " "), `${kind.replace(/-/g, " ")}s`];
  return count(n, one, many);
}

/** One run: its line, and its resources once asked for (those the answer lists). */
function RunRow(props: { group: ChangeGroup; rows: readonly ResourceChange[]; words: SideWords }) {
  const [open, setOpen] = createSignal(false);
  const listId = createUniqueId();
  const what = () => `${resourceCount(props.group.count, props.group.resource)} ${props.words.badge(props.group.change)}`;
  return (
    <li class={`state-change run ${props.group.change}`}>
      <span class="badge">{props.words.badge(props.group.change)}</span> {resourceCount(props.group.count, props.group.resource)}{" "}
      <Button variant="link" aria-expanded={open()} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
        {open() ? "Hide them" : "Show them"}
      </Button>
      <Show when={open()}>
        <ul class="state-change-list" id={listId} aria-label={what()}>
          <For each={props.rows}>{(r) => <ResourceRow change={r} words={props.words} />}</For>
        </ul>
        <Show when={props.rows.length < props.group.count}>
          <p class="hint">{props.group.count - props.rows.length} more not listed (an answer lists at most 500).</p>
        </Show>
      </Show>
    </li>
  );
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

/**
 * The short form of a resource's id: a UUID's first part; a composite key keeps its later parts, which tell
 * its records apart (`<account>/<date>/<sequence>`: `d2359611…/2026-09-03/412`).
 */
export function shortId(id: string): string {
  const [first = "", ...rest] = id.split("/");
  const head = first.length > 14 ? `${first.slice(0, 8)}…` : first;
  return [head, ...rest].join("/");
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
  const rowsOf = (g: ChangeGroup) => shown().filter((r) => r.resource === g.resource && r.change === g.change);
  // The groups in the answer's order; a small one is listed resource by resource, a run in one line.
  const parts = () =>
    props.summary.groups
      .filter((g) => !g.internal)
      .map((g) => ({ group: g, rows: rowsOf(g), run: g.count >= RUN }));
  const total = () => props.summary.groups.filter((g) => !g.internal).reduce((n, g) => n + g.count, 0);
  return (
    <>
      <p class="hint">
        {count(total(), "resource")} {props.summary.omitted > 0 ? `(${props.summary.omitted} of them not listed)` : ""}
      </p>
      <ul class="state-change-list" aria-label={props.listLabel}>
        <For each={parts()}>
          {(part) => (
            <Show when={part.run} fallback={<For each={part.rows}>{(r) => <ResourceRow change={r} words={words()} />}</For>}>
              <RunRow group={part.group} rows={part.rows} words={words()} />
            </Show>
          )}
        </For>
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

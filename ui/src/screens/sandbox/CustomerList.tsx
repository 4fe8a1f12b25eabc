// The customers, searchable by name, number, BBAN or masked PAN; choosing one shows it beside the list.
import { createMemo, createSignal, For, Show } from "solid-js";
import type { CustomerView } from "../../api/types";
import { count } from "../../lib/format";

export function matches(customer: CustomerView, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return (
    customer.name.toLowerCase().includes(q) ||
    customer.customerNumber.includes(q) ||
    customer.accounts.some((a) => a.bban.includes(q) || a.iban.toLowerCase().includes(q)) ||
    customer.cardAccounts.some((c) => c.maskedPan.toLowerCase().includes(q))
  );
}

export interface CustomerListProps {
  customers: readonly CustomerView[];
  selected: string | null;
  onSelect: (id: string) => void;
}

export function CustomerList(props: CustomerListProps) {
  const [query, setQuery] = createSignal("");
  const shown = createMemo(() => props.customers.filter((c) => matches(c, query())));
  return (
    <div class="customer-list">
      <label for="customer-search">Search customers</label>
      <input
        id="customer-search"
        type="search"
        placeholder="Name, number, BBAN or card"
        value={query()}
        onInput={(e) => setQuery(e.currentTarget.value)}
      />
      <p class="hint" role="status">
        {shown().length} of {count(props.customers.length, "customer")}
      </p>
      <ul aria-label="Customers">
        <For each={shown()}>
          {(c) => (
            <li>
              <button
                type="button"
                class="list-button"
                aria-current={props.selected === c.id ? "true" : undefined}
                onClick={() => props.onSelect(c.id)}
              >
                <span class="name">{c.name}</span>
                <span class="meta">
                  <code>{c.customerNumber}</code> · {c.type} · {count(c.accounts.length, "account")}
                  <Show when={c.cardAccounts.length > 0}> · {count(c.cardAccounts.length, "card")}</Show>
                </span>
              </button>
            </li>
          )}
        </For>
      </ul>
    </div>
  );
}

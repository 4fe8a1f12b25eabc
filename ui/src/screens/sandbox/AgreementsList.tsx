// The corporate agreements a customer takes part in (as the owner, or engaged as a person), as a list.
import { For, Show } from "solid-js";
import type { Agreement } from "../../api/types";

export function AgreementsList(props: { agreements: readonly Agreement[]; customerNumber: string }) {
  const mine = () =>
    props.agreements.filter(
      (a) => a.owner === props.customerNumber || a.engagements.some((e) => e.customer === props.customerNumber),
    );
  return (
    <Show when={mine().length > 0} fallback={<p class="hint">No corporate agreements.</p>}>
      <ul class="cards" aria-label="Corporate agreements">
        <For each={mine()}>
          {(a) => (
            <li>
              <strong>{a.name}</strong> — {a.ownerName} <code>{a.owner}</code>
              <br />
              PSU-Corporate-ID <code>{a.id}</code>
              <ul>
                <For each={a.engagements}>
                  {(e) => (
                    <li>
                      {e.customerName} <code>{e.customer}</code> on <code>{e.account.bban}</code>:{" "}
                      {e.roles.join(", ")}
                    </li>
                  )}
                </For>
              </ul>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}

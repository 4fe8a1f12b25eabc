// One mock card account's transactions: booked ones listed, pending ones by id (SPEC.md's shape), a form
// to add one, and a form to generate many.
import { createResource, For, Show } from "solid-js";
import type { CardAccountSummary, GenerateTransactions } from "../../api/types";
import { useEvent, useWorkbench } from "../../app/context";
import { ErrorMessages } from "../../components/ErrorMessages";
import { Loading } from "../../components/Loading";
import { CardTransactionForm } from "./CardTransactionForm";
import { GenerateForm } from "./GenerateForm";
import { cardTransactionBatch } from "./cardBatch";
import { count } from "../../lib/format";
import { createDebounced } from "../../lib/debounce";
import { valueOf } from "../../lib/resource";

export function CardTransactionsPanel(props: { card: CardAccountSummary; today: string }) {
  const wb = useWorkbench();
  const [list, { refetch }] = createResource(
    () => props.card.id,
    (id) => wb.client.sandbox.cardTransactions(id, { bookingStatus: "both", limit: 500 }),
  );
  const refetchSoon = createDebounced(() => void refetch());
  useEvent("sandbox.changed", (e) => {
    if (e.data.what === "transactions" || e.data.what === "all") refetchSoon();
  });
  const booked = () => valueOf(list)?.cardTransactions.booked ?? [];
  const pending = () => valueOf(list)?.cardTransactions.pending ?? [];

  const generate = async (body: GenerateTransactions) => {
    await wb.client.sandbox.addCardTransactions(props.card.id, cardTransactionBatch(body, props.card.currency));
    wb.notify(`${count(body.count, "card transaction")} generated`, "success");
    void refetch();
  };

  return (
    <section class="panel" aria-label={`Transactions of card ${props.card.maskedPan}`}>
      <h3>
        Card transactions of {props.card.name} <code>{props.card.maskedPan}</code>
      </h3>
      <div class="two-forms">
        <CardTransactionForm
          cardAccountId={props.card.id}
          currency={props.card.currency}
          today={props.today}
          onAdded={() => void refetch()}
        />
        <GenerateForm
          title="Generate card transactions"
          today={props.today}
          onGenerate={generate}
        />
      </div>
      <ErrorMessages error={list.error as unknown} />
      <Show when={valueOf(list)} fallback={<Show when={list.loading}><Loading label="Loading card transactions…" /></Show>}>
        <Show when={pending().length > 0}>
          <p>
            Pending: <For each={pending()}>{(id) => <code class="chip">{id}</code>}</For>
          </p>
        </Show>
        <Show when={booked().length > 0} fallback={<p class="hint">No booked card transactions yet.</p>}>
          <table class="data">
            <caption>{count(booked().length, "booked card transaction")} (amounts in minor units)</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Transaction date</th>
                <th scope="col">Booking date</th>
                <th scope="col">Amount</th>
                <th scope="col">Original amount</th>
                <th scope="col">MCC</th>
              </tr>
            </thead>
            <tbody>
              <For each={booked()}>
                {(t) => (
                  <tr>
                    <td>
                      <code>{t.cardTransactionId}</code>
                    </td>
                    <td>{t.transactionDate}</td>
                    <td>{t.bookingDate}</td>
                    <td class="num">
                      {t.transactionAmount.amount} {t.transactionAmount.currency}
                    </td>
                    <td class="num">
                      {t.originalAmount.amount} {t.originalAmount.currency}
                    </td>
                    <td>{t.merchantCategoryCode}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      </Show>
    </section>
  );
}

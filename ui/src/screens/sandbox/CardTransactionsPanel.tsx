// One mock card account's transactions: booked ones listed (amounts as the form takes them, not the listing's
// minor units), pending ones by id (the interface's shape), a form to add one, and a form to generate many.
import { For, Show } from "solid-js";
import type { CardAccountSummary, GenerateTransactions } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { count } from "../../lib/format";
import { createAmountFormat } from "./amounts";
import { CardTransactionForm } from "./CardTransactionForm";
import { cardTransactionBatch } from "./cardBatch";
import { createTransactionList, TransactionsPanelFrame } from "./TransactionsPanelFrame";

export function CardTransactionsPanel(props: { card: CardAccountSummary; today: string }) {
  const wb = useWorkbench();
  const { list, reload } = createTransactionList(
    () => props.card.id,
    (id) => wb.client.sandbox.cardTransactions(id, { bookingStatus: "both", limit: 500 }),
  );

  const amount = createAmountFormat();
  const generate = async (body: GenerateTransactions) => {
    await wb.client.sandbox.addCardTransactions(props.card.id, cardTransactionBatch(body, props.card.currency));
    wb.notify(`Made ${count(body.count, "card transaction")} on card account ${props.card.maskedPan}`, "success");
    reload();
  };

  return (
    <TransactionsPanelFrame
      label={`Transactions of card ${props.card.maskedPan}`}
      heading={
        <>
          Card transactions of {props.card.name} <code>{props.card.maskedPan}</code>
        </>
      }
      addForm={
        <CardTransactionForm
          cardAccountId={props.card.id}
          currency={props.card.currency}
          today={props.today}
          onAdded={reload}
        />
      }
      generateTitle="Generate card transactions"
      today={props.today}
      onGenerate={generate}
      list={list}
      loadingLabel="Loading card transactions…"
    >
      {(answer) => {
        const booked = () => answer().cardTransactions.booked ?? [];
        const pending = () => answer().cardTransactions.pending ?? [];
        return (
          <>
            <Show when={pending().length > 0}>
              <p>
                Pending: <For each={pending()}>{(id) => <code class="chip">{id}</code>}</For>
              </p>
            </Show>
            <Show when={booked().length > 0} fallback={<p class="hint">No booked card transactions yet.</p>}>
              <table class="data">
                <caption>{count(booked().length, "booked card transaction")} (amounts as the form takes them)</caption>
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
                          {amount(t.transactionAmount.amount, t.transactionAmount.currency)} {t.transactionAmount.currency}
                        </td>
                        <td class="num">
                          {amount(t.originalAmount.amount, t.originalAmount.currency)} {t.originalAmount.currency}
                        </td>
                        <td>{t.merchantCategoryCode}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </Show>
          </>
        );
      }}
    </TransactionsPanelFrame>
  );
}

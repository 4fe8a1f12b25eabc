// One mock account's transactions: the list as the service answers it, its amounts shown as the form takes
// them (`-298.03`, not the listing's minor units), a form to add one, and a form to generate many over a date
// range.
import { For, Show } from "solid-js";
import type { AccountSummary, GenerateTransactions } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { count } from "../../lib/format";
import { createAmountFormat } from "./amounts";
import { TransactionForm } from "./TransactionForm";
import { createTransactionList, TransactionsPanelFrame } from "./TransactionsPanelFrame";

export function TransactionsPanel(props: { account: AccountSummary; today: string }) {
  const wb = useWorkbench();
  const { list, reload } = createTransactionList(
    () => props.account.id,
    (id) => wb.client.sandbox.transactions(id, { limit: 500 }),
  );

  const amount = createAmountFormat();
  const generate = async (body: GenerateTransactions) => {
    const answer = await wb.client.sandbox.generateTransactions(props.account.id, body);
    wb.notify(`Made ${count(answer.created, "transaction")} on account ${props.account.bban}`, "success");
    reload();
  };

  return (
    <TransactionsPanelFrame
      label={`Transactions of ${props.account.bban}`}
      heading={
        <>
          Transactions of {props.account.name} <code>{props.account.bban}</code>
        </>
      }
      addForm={
        <TransactionForm
          accountId={props.account.id}
          currency={props.account.currency}
          today={props.today}
          onAdded={reload}
        />
      }
      generateTitle="Generate transactions"
      today={props.today}
      onGenerate={generate}
      list={list}
      loadingLabel="Loading transactions…"
    >
      {(transactions) => (
        <Show when={transactions().length > 0} fallback={<p class="hint">No transactions yet.</p>}>
          <table class="data">
            <caption>
              {count(transactions().length, "transaction")} (at most 500 shown; amounts as the form takes them)
            </caption>
            <thead>
              <tr>
                <th scope="col">Booking date</th>
                <th scope="col">Amount</th>
                <th scope="col">Currency</th>
                <th scope="col">Creditor</th>
                <th scope="col">Debtor</th>
                <th scope="col">Remittance</th>
              </tr>
            </thead>
            <tbody>
              <For each={transactions()}>
                {(t) => (
                  <tr>
                    <td>{t.bookingDate}</td>
                    <td class="num">{amount(t.amount, t.currency)}</td>
                    <td>{t.currency}</td>
                    <td>{t.creditorName}</td>
                    <td>{t.debtorName}</td>
                    <td>{t.remittanceInformationUnstructured}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      )}
    </TransactionsPanelFrame>
  );
}

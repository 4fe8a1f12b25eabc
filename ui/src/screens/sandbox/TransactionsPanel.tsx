// One mock account's transactions: the list as the service answers it (amounts in minor units), a form to
// add one, and a form to generate many over a date range.
import { createResource, For, Show } from "solid-js";
import type { AccountSummary, GenerateTransactions } from "../../api/types";
import { useEvent, useWorkbench } from "../../app/context";
import { ErrorMessages } from "../../components/ErrorMessages";
import { Loading } from "../../components/Loading";
import { GenerateForm } from "./GenerateForm";
import { TransactionForm } from "./TransactionForm";
import { createDebounced } from "../../lib/debounce";
import { valueOf } from "../../lib/resource";
import { count } from "../../lib/format";

export function TransactionsPanel(props: { account: AccountSummary; today: string }) {
  const wb = useWorkbench();
  const [list, { refetch }] = createResource(
    () => props.account.id,
    (id) => wb.client.sandbox.transactions(id, { limit: 500 }),
  );
  const refetchSoon = createDebounced(() => void refetch());
  useEvent("sandbox.changed", (e) => {
    if (e.data.what === "transactions" || e.data.what === "all") refetchSoon();
  });

  const generate = async (body: GenerateTransactions) => {
    const answer = await wb.client.sandbox.generateTransactions(props.account.id, body);
    wb.notify(`${answer.created} transactions generated`, "success");
    void refetch();
  };

  return (
    <section class="panel" aria-label={`Transactions of ${props.account.bban}`}>
      <h3>
        Transactions of {props.account.name} <code>{props.account.bban}</code>
      </h3>
      <div class="two-forms">
        <TransactionForm
          accountId={props.account.id}
          currency={props.account.currency}
          today={props.today}
          onAdded={() => void refetch()}
        />
        <GenerateForm
          title="Generate transactions"
          today={props.today}
          onGenerate={generate}
        />
      </div>
      <ErrorMessages error={list.error as unknown} />
      <Show when={valueOf(list)} fallback={<Show when={list.loading}><Loading label="Loading transactions…" /></Show>}>
        <Show when={(valueOf(list) ?? []).length > 0} fallback={<p class="hint">No transactions yet.</p>}>
          <table class="data">
            <caption>
              {count(valueOf(list)?.length ?? 0, "transaction")} (at most 500 shown; amounts in minor units, as the sandbox lists them)
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
              <For each={valueOf(list)}>
                {(t) => (
                  <tr>
                    <td>{t.bookingDate}</td>
                    <td class="num">{t.amount}</td>
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
      </Show>
    </section>
  );
}

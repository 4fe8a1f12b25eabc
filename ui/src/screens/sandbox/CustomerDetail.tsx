// One customer: rename or delete them; their accounts and card accounts (create, edit, transactions);
// transactions generated for every account at once; their corporate agreements.
import { createSignal, For, Match, Show, Switch } from "solid-js";
import type { Account, AccountSummary, Agreement, CardAccount, CardAccountSummary, CustomerView } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorMessages } from "../../components/ErrorMessages";
import { Progress } from "../../components/ProgressBar";
import { AccountForm } from "./AccountForm";
import { AgreementForm } from "./AgreementForm";
import { AgreementsList } from "./AgreementsList";
import { CardAccountForm } from "./CardAccountForm";
import { CardTransactionsPanel } from "./CardTransactionsPanel";
import { CustomerForm } from "./CustomerForm";
import { GenerateForm } from "./GenerateForm";
import { TransactionsPanel } from "./TransactionsPanel";
import { createActions } from "../../lib/action";
import { cardTransactionBatch } from "./cardBatch";
import { count } from "../../lib/format";

type Editor =
  | { kind: "none" }
  | { kind: "customer" }
  | { kind: "account"; account?: Account }
  | { kind: "card"; card?: CardAccount }
  | { kind: "transactions"; account: AccountSummary }
  | { kind: "cardTransactions"; card: CardAccountSummary }
  | { kind: "agreement" }
  | { kind: "generateAll" };

export interface CustomerDetailProps {
  customer: CustomerView;
  agreements: readonly Agreement[];
  today: string;
  onChanged: () => void;
  onDeleted: () => void;
}

export function CustomerDetail(props: CustomerDetailProps) {
  const wb = useWorkbench();
  const [editor, setEditor] = createSignal<Editor>({ kind: "none" });
  const [confirmDelete, setConfirmDelete] = createSignal(false);
  const { busy, error, run: load } = createActions();
  const [progress, setProgress] = createSignal<{ done: number; total: number } | null>(null);
  const bbans = () => props.customer.accounts.map((a) => a.bban);
  const only = <K extends Editor["kind"]>(kind: K) => {
    const e = editor();
    return e.kind === kind ? (e as Extract<Editor, { kind: K }>) : undefined;
  };
  const close = () => setEditor({ kind: "none" });
  const saved = () => {
    close();
    props.onChanged();
  };

  const remove = () =>
    load("delete", async () => {
      await wb.client.sandbox.deleteCustomer(props.customer.id);
      setConfirmDelete(false);
      wb.notify(`Customer ${props.customer.name} deleted`, "success");
      props.onDeleted();
    });

  const generateAll = async (body: { count: number; fromDate: string; toDate: string }) => {
    const targets = [
      ...props.customer.accounts.map((a) => () => wb.client.sandbox.generateTransactions(a.id, body)),
      ...props.customer.cardAccounts.map((c) => async () => {
        await wb.client.sandbox.addCardTransactions(c.id, cardTransactionBatch(body, c.currency));
        return { created: body.count };
      }),
    ];
    setProgress({ done: 0, total: targets.length });
    let created = 0;
    try {
      for (const [i, run] of targets.entries()) {
        created += (await run()).created;
        setProgress({ done: i + 1, total: targets.length });
      }
      wb.notify(`${count(created, "transaction")} generated over ${count(targets.length, "account")}`, "success");
    } finally {
      setProgress(null);
    }
  };

  return (
    <article class="customer-detail" aria-label={`Customer ${props.customer.name}`}>
      <header class="detail-header">
        <h3>{props.customer.name}</h3>
        <p>
          {props.customer.type === "private" ? "Private" : "Corporate"} · <code>{props.customer.customerNumber}</code>
        </p>
        <div class="actions">
          <Button onClick={() => setEditor({ kind: "customer" })}>Rename</Button>
          <Button variant="danger" onClick={() => setConfirmDelete(true)}>
            Delete customer
          </Button>
        </div>
      </header>
      <ErrorMessages error={error()} />

      <section aria-label="Accounts">
        <div class="section-head">
          <h4>Accounts</h4>
          <Button onClick={() => setEditor({ kind: "account" })}>New account</Button>
        </div>
        <Show when={props.customer.accounts.length > 0} fallback={<p class="hint">No accounts yet.</p>}>
          <ul class="rows" aria-label="Accounts of this customer">
            <For each={props.customer.accounts}>
              {(a) => (
                <li>
                  <span>
                    <strong>{a.name}</strong> <code>{a.bban}</code> {a.currency} · {a.cashAccountType}
                  </span>
                  <span class="row-actions">
                    <Button
                      busy={busy() === `account-${a.id}`}
                      aria-label={`Edit account ${a.bban}`}
                      onClick={() =>
                        load(`account-${a.id}`, async () => {
                          setEditor({ kind: "account", account: await wb.client.sandbox.account(a.id) });
                        })
                      }
                    >
                      Edit
                    </Button>
                    <Button
                      aria-label={`Transactions of account ${a.bban}`}
                      onClick={() => setEditor({ kind: "transactions", account: a })}
                    >
                      Transactions
                    </Button>
                  </span>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>

      <section aria-label="Card accounts">
        <div class="section-head">
          <h4>Card accounts</h4>
          <Button onClick={() => setEditor({ kind: "card" })}>New card account</Button>
        </div>
        <Show when={props.customer.cardAccounts.length > 0} fallback={<p class="hint">No card accounts.</p>}>
          <ul class="rows" aria-label="Card accounts of this customer">
            <For each={props.customer.cardAccounts}>
              {(c) => (
                <li>
                  <span>
                    <strong>{c.name}</strong> <code>{c.maskedPan}</code> {c.currency}
                  </span>
                  <span class="row-actions">
                    <Button
                      busy={busy() === `card-${c.id}`}
                      aria-label={`Edit card account ${c.maskedPan}`}
                      onClick={() =>
                        load(`card-${c.id}`, async () => {
                          setEditor({ kind: "card", card: await wb.client.sandbox.cardAccount(c.id) });
                        })
                      }
                    >
                      Edit
                    </Button>
                    <Button
                      aria-label={`Transactions of card account ${c.maskedPan}`}
                      onClick={() => setEditor({ kind: "cardTransactions", card: c })}
                    >
                      Transactions
                    </Button>
                  </span>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <Show when={props.customer.accounts.length + props.customer.cardAccounts.length > 0}>
          <Button onClick={() => setEditor({ kind: "generateAll" })}>Generate transactions for every account</Button>
        </Show>
      </section>

      <section aria-label="Corporate agreements">
        <div class="section-head">
          <h4>Corporate agreements</h4>
          <Show when={props.customer.type === "corporate"}>
            <Button onClick={() => setEditor({ kind: "agreement" })}>New agreement</Button>
          </Show>
        </div>
        <AgreementsList agreements={props.agreements} customerNumber={props.customer.customerNumber} />
      </section>

      <div class="editor">
        <Switch>
          <Match when={editor().kind === "customer"}>
            <CustomerForm customer={props.customer} onDone={saved} onCancel={close} />
          </Match>
          <Match when={only("account")} keyed>
            {(e) => (
              <AccountForm
                customerNumber={props.customer.customerNumber}
                account={e.account}
                onDone={saved}
                onCancel={close}
              />
            )}
          </Match>
          <Match when={only("card")} keyed>
            {(e) => (
              <CardAccountForm
                customerNumber={props.customer.customerNumber}
                bbans={bbans()}
                cardAccount={e.card}
                onDone={saved}
                onCancel={close}
              />
            )}
          </Match>
          <Match when={only("transactions")} keyed>
            {(e) => <TransactionsPanel account={e.account} today={props.today} />}
          </Match>
          <Match when={only("cardTransactions")} keyed>
            {(e) => <CardTransactionsPanel card={e.card} today={props.today} />}
          </Match>
          <Match when={editor().kind === "agreement"}>
            <AgreementForm owner={props.customer.customerNumber} bbans={bbans()} onDone={saved} onCancel={close} />
          </Match>
          <Match when={editor().kind === "generateAll"}>
            <GenerateForm
              title={`Generate transactions for each of ${props.customer.name}'s accounts`}
              submitLabel="Generate for every account"
              today={props.today}
              onGenerate={generateAll}
            />
            <Show when={progress()}>
              {(p) => <Progress value={p().done} max={p().total} label="Accounts done" />}
            </Show>
          </Match>
        </Switch>
      </div>

      <Show when={confirmDelete()}>
        <ConfirmDialog
          title={`Delete ${props.customer.name}?`}
          message="The customer, their accounts, card accounts and transactions are removed from the sandbox."
          confirmLabel="Delete"
          busy={busy() === "delete"}
          onConfirm={remove}
          onCancel={() => setConfirmDelete(false)}
        />
      </Show>
    </article>
  );
}

// One customer: rename or delete them; their accounts and card accounts (create, edit, transactions);
// transactions generated for every account at once; their corporate agreements. Every form opens next to the
// button that opened it: the customer's own under the header, a new account under the Accounts heading, an
// account's edit form or transactions under its row, a new agreement under the agreements' heading.
import { createSignal, For, Show } from "solid-js";
import type { JSX } from "solid-js";
import type { Account, AccountSummary, Agreement, CardAccount, CardAccountSummary, CustomerView } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorMessages } from "../../components/ErrorMessages";
import { AccountForm } from "./AccountForm";
import { AgreementForm } from "./AgreementForm";
import { AgreementsList } from "./AgreementsList";
import { CardAccountForm } from "./CardAccountForm";
import { CardTransactionsPanel } from "./CardTransactionsPanel";
import { CustomerForm } from "./CustomerForm";
import { GenerateAllForm } from "./GenerateAllForm";
import { TransactionsPanel } from "./TransactionsPanel";
import { createActions } from "../../lib/action";

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

/** A form shown in place, right after the button that opened it. */
function InPlace(props: { children: JSX.Element }) {
  return <div class="in-place">{props.children}</div>;
}

export function CustomerDetail(props: CustomerDetailProps) {
  const wb = useWorkbench();
  const [editor, setEditor] = createSignal<Editor>({ kind: "none" });
  const [confirmDelete, setConfirmDelete] = createSignal(false);
  const { busy, error, run: load } = createActions();
  const bbans = () => props.customer.accounts.map((a) => a.bban);
  const only = <K extends Editor["kind"]>(kind: K) => {
    const e = editor();
    return e.kind === kind ? (e as Extract<Editor, { kind: K }>) : undefined;
  };
  /** Opens `next`, or closes it when the same button is pressed again. */
  const toggle = (next: Editor, same: boolean) => setEditor(same ? { kind: "none" } : next);
  const close = () => setEditor({ kind: "none" });
  const saved = () => {
    close();
    props.onChanged();
  };
  const editingAccount = (id: string) => only("account")?.account?.id === id;
  const editingCard = (id: string) => only("card")?.card?.id === id;
  const holdings = () => props.customer.accounts.length + props.customer.cardAccounts.length;

  const remove = () =>
    load("delete", async () => {
      await wb.client.sandbox.deleteCustomer(props.customer.id);
      setConfirmDelete(false);
      wb.notify(`Customer ${props.customer.name} deleted`, "success");
      props.onDeleted();
    });

  return (
    <article class="customer-detail" aria-label={`Customer ${props.customer.name}`}>
      <header class="detail-header">
        <h3>{props.customer.name}</h3>
        <p>
          {props.customer.type === "private" ? "Private" : "Corporate"} · <code>{props.customer.customerNumber}</code>
        </p>
        <div class="actions">
          <Button aria-expanded={editor().kind === "customer"} onClick={() => toggle({ kind: "customer" }, editor().kind === "customer")}>
            Rename
          </Button>
          <Show when={holdings() > 0}>
            <Button
              aria-expanded={editor().kind === "generateAll"}
              onClick={() => toggle({ kind: "generateAll" }, editor().kind === "generateAll")}
            >
              Generate transactions for every account
            </Button>
          </Show>
          <Button variant="danger" onClick={() => setConfirmDelete(true)}>
            Delete customer
          </Button>
        </div>
      </header>
      <Show when={editor().kind === "customer"}>
        <InPlace>
          <CustomerForm customer={props.customer} onDone={saved} onCancel={close} />
        </InPlace>
      </Show>
      <Show when={editor().kind === "generateAll"}>
        <InPlace>
          <GenerateAllForm customer={props.customer} today={props.today} />
        </InPlace>
      </Show>
      <ErrorMessages error={error()} />

      <section aria-label="Accounts">
        <div class="section-head">
          <h4>Accounts</h4>
          <Button
            aria-expanded={only("account") !== undefined && !only("account")?.account}
            onClick={() => toggle({ kind: "account" }, only("account") !== undefined && !only("account")?.account)}
          >
            New account
          </Button>
        </div>
        <Show when={only("account") && !only("account")?.account}>
          <InPlace>
            <AccountForm customerNumber={props.customer.customerNumber} onDone={saved} onCancel={close} />
          </InPlace>
        </Show>
        <Show when={props.customer.accounts.length > 0} fallback={<p class="hint">No accounts yet.</p>}>
          <ul class="rows" aria-label="Accounts of this customer">
            {/* Rows keyed by id, not by object: a refetch after any change (a live event) keeps an open
                form and what was typed in it, where new objects would remount the row. */}
            <For each={props.customer.accounts.map((row) => row.id)}>
              {(id) => (
                <Show when={props.customer.accounts.find((row) => row.id === id)}>
                  {(a) => (
                    <li>
                      <span>
                        <strong>{a().name}</strong> <code>{a().bban}</code> {a().currency} · {a().cashAccountType}
                      </span>
                      <span class="row-actions">
                        <Button
                          busy={busy() === `account-${a().id}`}
                          aria-label={`Edit account ${a().bban}`}
                          aria-expanded={editingAccount(a().id)}
                          onClick={() =>
                            editingAccount(a().id)
                              ? close()
                              : load(`account-${a().id}`, async () => {
                                  setEditor({ kind: "account", account: await wb.client.sandbox.account(a().id) });
                                })
                          }
                        >
                          Edit
                        </Button>
                        <Button
                          aria-label={`Transactions of account ${a().bban}`}
                          aria-expanded={only("transactions")?.account.id === a().id}
                          onClick={() => toggle({ kind: "transactions", account: a() }, only("transactions")?.account.id === a().id)}
                        >
                          Transactions
                        </Button>
                      </span>
                      <Show when={editingAccount(a().id) && only("account")?.account} keyed>
                        {(account) => (
                          <InPlace>
                            <AccountForm
                              customerNumber={props.customer.customerNumber}
                              account={account}
                              onDone={saved}
                              onCancel={close}
                            />
                          </InPlace>
                        )}
                      </Show>
                      <Show when={only("transactions")?.account.id === a().id ? only("transactions") : undefined} keyed>
                        {(e) => (
                          <InPlace>
                            <TransactionsPanel account={e.account} today={props.today} />
                          </InPlace>
                        )}
                      </Show>
                    </li>
                  )}
                </Show>
              )}
            </For>
          </ul>
        </Show>
      </section>

      <section aria-label="Card accounts">
        <div class="section-head">
          <h4>Card accounts</h4>
          <Button
            aria-expanded={only("card") !== undefined && !only("card")?.card}
            onClick={() => toggle({ kind: "card" }, only("card") !== undefined && !only("card")?.card)}
          >
            New card account
          </Button>
        </div>
        <Show when={only("card") && !only("card")?.card}>
          <InPlace>
            <CardAccountForm
              customerNumber={props.customer.customerNumber}
              bbans={bbans()}
              onDone={saved}
              onCancel={close}
            />
          </InPlace>
        </Show>
        <Show when={props.customer.cardAccounts.length > 0} fallback={<p class="hint">No card accounts.</p>}>
          <ul class="rows" aria-label="Card accounts of this customer">
            {/* Rows keyed by id, not by object: a refetch after any change (a live event) keeps an open
                form and what was typed in it, where new objects would remount the row. */}
            <For each={props.customer.cardAccounts.map((row) => row.id)}>
              {(id) => (
                <Show when={props.customer.cardAccounts.find((row) => row.id === id)}>
                  {(c) => (
                    <li>
                      <span>
                        <strong>{c().name}</strong> <code>{c().maskedPan}</code> {c().currency}
                      </span>
                      <span class="row-actions">
                        <Button
                          busy={busy() === `card-${c().id}`}
                          aria-label={`Edit card account ${c().maskedPan}`}
                          aria-expanded={editingCard(c().id)}
                          onClick={() =>
                            editingCard(c().id)
                              ? close()
                              : load(`card-${c().id}`, async () => {
                                  setEditor({ kind: "card", card: await wb.client.sandbox.cardAccount(c().id) });
                                })
                          }
                        >
                          Edit
                        </Button>
                        <Button
                          aria-label={`Transactions of card account ${c().maskedPan}`}
                          aria-expanded={only("cardTransactions")?.card.id === c().id}
                          onClick={() =>
                            toggle({ kind: "cardTransactions", card: c() }, only("cardTransactions")?.card.id === c().id)
                          }
                        >
                          Transactions
                        </Button>
                      </span>
                      <Show when={editingCard(c().id) && only("card")?.card} keyed>
                        {(card) => (
                          <InPlace>
                            <CardAccountForm
                              customerNumber={props.customer.customerNumber}
                              bbans={bbans()}
                              cardAccount={card}
                              onDone={saved}
                              onCancel={close}
                            />
                          </InPlace>
                        )}
                      </Show>
                      <Show when={only("cardTransactions")?.card.id === c().id ? only("cardTransactions") : undefined} keyed>
                        {(e) => (
                          <InPlace>
                            <CardTransactionsPanel card={e.card} today={props.today} />
                          </InPlace>
                        )}
                      </Show>
                    </li>
                  )}
                </Show>
              )}
            </For>
          </ul>
        </Show>
      </section>

      <section aria-label="Corporate agreements">
        <div class="section-head">
          <h4>Corporate agreements</h4>
          <Show when={props.customer.type === "corporate"}>
            <Button
              aria-expanded={editor().kind === "agreement"}
              onClick={() => toggle({ kind: "agreement" }, editor().kind === "agreement")}
            >
              New agreement
            </Button>
          </Show>
        </div>
        <Show when={editor().kind === "agreement"}>
          <InPlace>
            <AgreementForm owner={props.customer.customerNumber} bbans={bbans()} onDone={saved} onCancel={close} />
          </InPlace>
        </Show>
        <AgreementsList agreements={props.agreements} customerNumber={props.customer.customerNumber} />
      </section>

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

// Transactions generated for every account and card account of one customer at once. The number is per
// account, and the field says so with what it makes in all; each account's batch is one request (accounts:
// `…/transactions/generate`; card accounts: a batch made here, cardBatch), with progress per account; when
// done it says what was made in words ("250 transactions on each of 2 accounts"), and where it stopped if an
// account's batch was refused.
import { createSignal, Show } from "solid-js";
import type { CustomerView, GenerateTransactions } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Progress } from "../../components/ProgressBar";
import { count } from "../../lib/format";
import { cardTransactionBatch } from "./cardBatch";
import { GenerateForm } from "./GenerateForm";

/** `250 transactions on each of 2 accounts and 250 card transactions on 1 card account, 750 in all`. */
export function madeSummary(perAccount: number, accounts: number, cards: number): string {
  const on = (n: number, noun: string) => (n === 1 ? `on 1 ${noun}` : `on each of ${n} ${noun}s`);
  const parts = [
    ...(accounts > 0 ? [`${count(perAccount, "transaction")} ${on(accounts, "account")}`] : []),
    ...(cards > 0 ? [`${count(perAccount, "card transaction")} ${on(cards, "card account")}`] : []),
  ];
  const total = perAccount * (accounts + cards);
  return `${parts.join(" and ")}${accounts + cards > 1 ? `, ${count(total, "transaction")} in all` : ""}`;
}

export function GenerateAllForm(props: { customer: CustomerView; today: string }) {
  const wb = useWorkbench();
  const [progress, setProgress] = createSignal<{ done: number; total: number } | null>(null);
  const [said, setSaid] = createSignal<string | null>(null);
  const accounts = () => props.customer.accounts.length;
  const cards = () => props.customer.cardAccounts.length;
  const holdings = () =>
    [accounts() > 0 ? count(accounts(), "account") : "", cards() > 0 ? count(cards(), "card account") : ""]
      .filter(Boolean)
      .join(" and ");

  const generate = async (body: GenerateTransactions) => {
    const targets = [
      ...props.customer.accounts.map((a) => () => wb.client.sandbox.generateTransactions(a.id, body)),
      ...props.customer.cardAccounts.map((c) => () =>
        wb.client.sandbox.addCardTransactions(c.id, cardTransactionBatch(body, c.currency)),
      ),
    ];
    setSaid(null);
    setProgress({ done: 0, total: targets.length });
    let done = 0;
    try {
      for (const run of targets) {
        await run();
        done += 1;
        setProgress({ done, total: targets.length });
      }
      const text = `Made ${madeSummary(body.count, accounts(), cards())}.`;
      setSaid(text);
      wb.notify(text, "success");
    } catch (e) {
      setSaid(`Stopped after ${done} of ${count(targets.length, "account")}: the next one's batch was refused (below).`);
      throw e;
    } finally {
      setProgress(null);
    }
  };

  return (
    <>
      <GenerateForm
        title={`Generate transactions for each of ${props.customer.name}'s accounts`}
        submitLabel="Generate for every account"
        countLabel="Transactions per account"
        countHint={(n) =>
          Number.isInteger(n) && n > 0
            ? `Each of the ${holdings()} gets ${n}: ${count(n * (accounts() + cards()), "transaction")} in all.`
            : `The number each of the ${holdings()} gets.`
        }
        today={props.today}
        onGenerate={generate}
      />
      <Show when={progress()}>{(p) => <Progress value={p().done} max={p().total} label="Accounts done" />}</Show>
      <Show when={said()}>
        {(text) => (
          <p role="status" aria-label="What was generated">
            {text()}
          </p>
        )}
      </Show>
    </>
  );
}

// The frame both transaction panels share (an account's, a card account's): the heading, the form that adds
// one beside the form that generates many, and the list, read afresh when the sandbox's transactions change,
// with its error and loading states. Each panel keeps its own list request and table.
import { createResource, Show } from "solid-js";
import type { JSX, Resource } from "solid-js";
import type { GenerateTransactions } from "../../api/types";
import { useEvent } from "../../app/context";
import { ErrorMessages } from "../../components/ErrorMessages";
import { Loading } from "../../components/Loading";
import { createDebounced } from "../../lib/debounce";
import { valueOf } from "../../lib/resource";
import { GenerateForm } from "./GenerateForm";

/** The list of `id`'s transactions, read again (debounced) whenever a sandbox change touches transactions. */
export function createTransactionList<T>(id: () => string, read: (id: string) => Promise<T>) {
  const [list, { refetch }] = createResource(id, read);
  const refetchSoon = createDebounced(() => void refetch());
  useEvent("sandbox.changed", (e) => {
    if (e.data.what === "transactions" || e.data.what === "all") refetchSoon();
  });
  return { list, reload: () => void refetch() };
}

export function TransactionsPanelFrame<T>(props: {
  label: string;
  heading: JSX.Element;
  /** The form that adds one transaction. */
  addForm: JSX.Element;
  generateTitle: string;
  today: string;
  onGenerate: (body: GenerateTransactions) => Promise<void>;
  list: Resource<T>;
  loadingLabel: string;
  /** What the list shows, given the list (an accessor: it follows the list as it is read again). */
  children: (list: () => T) => JSX.Element;
}) {
  return (
    <section class="panel" aria-label={props.label}>
      <h3>{props.heading}</h3>
      <div class="two-forms">
        {props.addForm}
        <GenerateForm title={props.generateTitle} today={props.today} onGenerate={props.onGenerate} />
      </div>
      <ErrorMessages error={props.list.error as unknown} />
      <Show
        when={valueOf(props.list)}
        fallback={
          <Show when={props.list.loading}>
            <Loading label={props.loadingLabel} />
          </Show>
        }
      >
        {(list) => props.children(list)}
      </Show>
    </section>
  );
}

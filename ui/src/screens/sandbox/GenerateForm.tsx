// Generates N transactions over a date range (`POST .../transactions/generate`); the caller says for which
// account(s), so the same form serves one account and "every account of this customer".
import { createSignal } from "solid-js";
import type { GenerateTransactions } from "../../api/types";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { addDays } from "../../lib/format";

export interface GenerateFormProps {
  /** The form's accessible name and heading. */
  title: string;
  today: string;
  /** Does the work; a rejection's tppMessages are shown at the fields. */
  onGenerate: (body: GenerateTransactions) => Promise<unknown>;
  submitLabel?: string;
  /** The count field's label (default "Number of transactions"): whether the number is per account. */
  countLabel?: string;
  /** The count field's hint, given the number typed. */
  countHint?: (count: number) => string;
}

export function GenerateForm(props: GenerateFormProps) {
  const form = createForm();
  const [count, setCount] = createSignal("20");
  // eslint-disable-next-line solid/reactivity -- the initial values only
  const [fromDate, setFromDate] = createSignal(addDays(props.today, -90));
  // eslint-disable-next-line solid/reactivity
  const [toDate, setToDate] = createSignal(props.today);

  const submit = () =>
    form.run(() =>
      props.onGenerate({ count: Number(count().trim() || "NaN"), fromDate: fromDate(), toDate: toDate() }),
    );

  return (
    <Form form={form} onSubmit={() => void submit()} label={props.title} class="form compact">
      <h4>{props.title}</h4>
      <div class="grid">
        <TextField
          label={props.countLabel ?? "Number of transactions"}
          path="count"
          inputmode="numeric"
          hint={props.countHint?.(Number(count().trim() || "NaN"))}
          value={count()}
          onValue={setCount}
        />
        <TextField label="From date" path="fromDate" type="date" value={fromDate()} onValue={setFromDate} />
        <TextField label="To date" path="toDate" type="date" value={toDate()} onValue={setToDate} />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.busy()}>
          {props.submitLabel ?? "Generate"}
        </Button>
      </div>
    </Form>
  );
}

// What the account and card-account forms share (the service's `holdings`): the status, a credit amount with
// its currency (an account's credit line, a card's credit limit), the balances, and the form's buttons. Each
// form keeps its own fields (numbers, names, type) and body.
import { ACCOUNT_STATUSES } from "../../api/types";
import type { AccountStatus } from "../../api/types";
import { Button } from "../../components/Button";
import { SelectField, TextField } from "../../components/Field";
import { BalancesEditor } from "./BalancesEditor";
import type { BalanceRow } from "./BalancesEditor";

/** The status select; "(default)" leaves it to the service (enabled). */
export function StatusField(props: { value: AccountStatus | ""; onValue: (status: AccountStatus | "") => void }) {
  return (
    <SelectField
      label="Status"
      path="status"
      value={props.value}
      onValue={(v) => props.onValue(v as AccountStatus | "")}
      options={[{ value: "", label: "(default)" }, ...ACCOUNT_STATUSES]}
    />
  );
}

/** A credit amount and its currency: `label` ("Credit line") names both, `path` ("creditLine") is the body's field. */
export function CreditFields(props: {
  label: string;
  path: string;
  amount: string;
  onAmount: (amount: string) => void;
  currency: string;
  onCurrency: (currency: string) => void;
}) {
  return (
    <>
      <TextField
        label={props.label}
        path={`${props.path}.amount`}
        inputmode="decimal"
        value={props.amount}
        onValue={props.onAmount}
      />
      <TextField
        label={`${props.label} currency`}
        path={`${props.path}.currency`}
        value={props.currency}
        onValue={props.onCurrency}
        size={4}
      />
    </>
  );
}

/** The balances editor and the form's buttons: Cancel, and "Create <noun>" or "Save <noun>" when editing. */
export function HoldingFormEnd(props: {
  noun: string;
  editing: boolean;
  busy: boolean;
  balances: BalanceRow[];
  onBalances: (rows: BalanceRow[]) => void;
  currency: string;
  onCancel: () => void;
}) {
  return (
    <>
      <BalancesEditor rows={props.balances} onRows={props.onBalances} currency={props.currency} />
      <div class="actions">
        <Button onClick={() => props.onCancel()}>Cancel</Button>
        <Button type="submit" variant="primary" busy={props.busy}>
          {props.editing ? `Save ${props.noun}` : `Create ${props.noun}`}
        </Button>
      </div>
    </>
  );
}

// Edits a `balances` list: one row per balance (type, amount, currency), rows added and removed; each field
// names its path (`balances[1].balanceAmount.amount`) so the service's message lands on it.
import { Index, Show } from "solid-js";
import { BALANCE_TYPES } from "../../api/types";
import type { Balance, BalanceType } from "../../api/types";
import { Button } from "../../components/Button";
import { SelectField, TextField } from "../../components/Field";

export interface BalanceRow {
  balanceType: BalanceType;
  amount: string;
  currency: string;
}

export function rowsFromBalances(balances: readonly Balance[] | undefined): BalanceRow[] {
  return (balances ?? []).map((b) => ({
    balanceType: b.balanceType,
    amount: String(b.balanceAmount.amount),
    currency: b.balanceAmount.currency,
  }));
}

export function balancesFromRows(rows: readonly BalanceRow[]): Balance[] {
  return rows.map((r) => ({
    balanceType: r.balanceType,
    balanceAmount: { amount: r.amount.trim(), currency: r.currency.trim() },
  }));
}

export interface BalancesEditorProps {
  rows: BalanceRow[];
  onRows: (rows: BalanceRow[]) => void;
  currency: string;
  path?: string;
}

export function BalancesEditor(props: BalancesEditorProps) {
  const path = () => props.path ?? "balances";
  const update = (index: number, patch: Partial<BalanceRow>) =>
    props.onRows(props.rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const unused = (): BalanceType =>
    BALANCE_TYPES.find((t) => !props.rows.some((r) => r.balanceType === t)) ?? "closingBooked";
  return (
    <fieldset class="balances">
      <legend>Balances</legend>
      <Index each={props.rows}>
        {(row, i) => (
          <div class="row-fields" role="group" aria-label={`Balance ${i + 1}`}>
            <SelectField
              label={`Balance ${i + 1} type`}
              path={`${path()}[${i}].balanceType`}
              value={row().balanceType}
              options={BALANCE_TYPES}
              onValue={(v) => update(i, { balanceType: v as BalanceType })}
            />
            <TextField
              label={`Balance ${i + 1} amount`}
              path={`${path()}[${i}].balanceAmount.amount`}
              inputmode="decimal"
              value={row().amount}
              onValue={(v) => update(i, { amount: v })}
            />
            <TextField
              label={`Balance ${i + 1} currency`}
              path={`${path()}[${i}].balanceAmount.currency`}
              value={row().currency}
              onValue={(v) => update(i, { currency: v })}
              size={4}
            />
            <Button
              class="remove"
              aria-label={`Remove balance ${i + 1}`}
              onClick={() => props.onRows(props.rows.filter((_, j) => j !== i))}
            >
              Remove
            </Button>
          </div>
        )}
      </Index>
      <Show when={props.rows.length === 0}>
        <p class="hint">No balances.</p>
      </Show>
      <Button
        onClick={() => props.onRows([...props.rows, { balanceType: unused(), amount: "", currency: props.currency }])}
      >
        Add balance
      </Button>
    </fieldset>
  );
}

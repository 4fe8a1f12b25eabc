// Creates or edits a mock account: the same body for POST and PUT (docs/reference/mock-data.md), every field
// checked by the service and its message shown at the field.
import { createSignal, Show } from "solid-js";
import { CASH_ACCOUNT_TYPES } from "../../api/types";
import type { Account, AccountBody, AccountStatus } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { SelectField, TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { compact, optional, optionalAmount } from "../../lib/body";
import { balancesFromRows, rowsFromBalances } from "./BalancesEditor";
import { GenerateButton } from "./GenerateButton";
import { CreditFields, HoldingFormEnd, StatusField } from "./HoldingFields";
import type { BalanceRow } from "./BalancesEditor";

export interface AccountFormProps {
  customerNumber: string;
  /** Edits this account; creates a new one when absent. */
  account?: Account;
  onDone: (account: Account) => void;
  onCancel: () => void;
}

export function AccountForm(props: AccountFormProps) {
  const wb = useWorkbench();
  const form = createForm();
  /* eslint-disable solid/reactivity -- the initial values only */
  const a = props.account;
  const [customerNumber, setCustomerNumber] = createSignal(a?.customerNumber ?? props.customerNumber);
  const [accountName, setAccountName] = createSignal(a?.name ?? "");
  const [bban, setBban] = createSignal(a?.bban ?? "");
  const [iban, setIban] = createSignal(a?.iban ?? "");
  const [currency, setCurrency] = createSignal(a?.currency ?? "NOK");
  const [product, setProduct] = createSignal(a?.product ?? "");
  const [cashAccountType, setCashAccountType] = createSignal(a?.cashAccountType ?? "");
  const [status, setStatus] = createSignal<AccountStatus | "">(a?.status ?? "");
  const [creditLine, setCreditLine] = createSignal(a?.creditLine?.amount ?? "");
  const [creditLineCurrency, setCreditLineCurrency] = createSignal(a?.creditLine?.currency ?? a?.currency ?? "NOK");
  const [balances, setBalances] = createSignal<BalanceRow[]>(rowsFromBalances(a?.balances));
  /* eslint-enable solid/reactivity */

  const body = (): AccountBody =>
    compact({
      customerNumber: customerNumber().trim(),
      accountName: accountName(),
      bban: bban().trim(),
      iban: optional(iban()),
      currency: optional(currency()),
      product: optional(product()),
      cashAccountType: optional(cashAccountType()),
      status: status() === "" ? undefined : (status() as AccountStatus),
      creditLine: optionalAmount(creditLine(), creditLineCurrency()),
      balances: balancesFromRows(balances()),
    });

  const submit = async () => {
    const existing = props.account;
    const saved = await form.run(() =>
      existing ? wb.client.sandbox.updateAccount(existing.id, body()) : wb.client.sandbox.createAccount(body()),
    );
    if (saved) {
      wb.notify(`Account “${saved.name}” (${saved.bban}) ${existing ? "saved" : "created"}`, "success");
      props.onDone(saved);
    }
  };

  return (
    <Form form={form} onSubmit={() => void submit()} label={props.account ? "Edit account" : "New account"}>
      <h3>{props.account ? `Edit account ${props.account.bban}` : "New account"}</h3>
      <div class="grid">
        <TextField label="Owner's customer number" path="customerNumber" value={customerNumber()} onValue={setCustomerNumber} />
        <TextField label="Account name" path="accountName" value={accountName()} onValue={setAccountName} />
        <div class="field-with-action">
          <TextField label="BBAN" path="bban" hint="11 digits" inputmode="numeric" value={bban()} onValue={setBban} />
          <Show when={!props.account}>
            <GenerateButton label="Generate a BBAN" form={form} generate={() => wb.client.sandbox.generate.bban()} onValue={setBban} />
          </Show>
        </div>
        <TextField label="IBAN" path="iban" hint="Optional: derived from the BBAN" value={iban()} onValue={setIban} />
        <TextField label="Currency" path="currency" value={currency()} onValue={setCurrency} size={4} />
        <TextField label="Product" path="product" value={product()} onValue={setProduct} />
        <SelectField
          label="Cash account type"
          path="cashAccountType"
          value={cashAccountType()}
          onValue={setCashAccountType}
          options={[{ value: "", label: "(default)" }, ...CASH_ACCOUNT_TYPES]}
        />
        <StatusField value={status()} onValue={setStatus} />
        <CreditFields
          label="Credit line"
          path="creditLine"
          amount={creditLine()}
          onAmount={setCreditLine}
          currency={creditLineCurrency()}
          onCurrency={setCreditLineCurrency}
        />
      </div>
      <HoldingFormEnd
        noun="account"
        editing={props.account !== undefined}
        busy={form.busy()}
        balances={balances()}
        onBalances={setBalances}
        currency={currency()}
        onCancel={() => props.onCancel()}
      />
    </Form>
  );
}

// Creates or edits a mock card account (masked PAN, limit, balances, the account it settles against).
import { createSignal } from "solid-js";
import type { AccountStatus, CardAccount, CardAccountBody } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { SelectField, TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { compact, optional, optionalAmount } from "../../lib/body";
import { balancesFromRows, rowsFromBalances } from "./BalancesEditor";
import { CreditFields, HoldingFormEnd, StatusField } from "./HoldingFields";
import type { BalanceRow } from "./BalancesEditor";

export interface CardAccountFormProps {
  customerNumber: string;
  /** The customer's account BBANs, offered for `relatedAccount`. */
  bbans: readonly string[];
  cardAccount?: CardAccount;
  onDone: (card: CardAccount) => void;
  onCancel: () => void;
}

export function CardAccountForm(props: CardAccountFormProps) {
  const wb = useWorkbench();
  const form = createForm();
  /* eslint-disable solid/reactivity -- the initial values only */
  const c = props.cardAccount;
  const [customerNumber, setCustomerNumber] = createSignal(c?.customerNumber ?? props.customerNumber);
  const [maskedPan, setMaskedPan] = createSignal(c?.maskedPan ?? "");
  const [name, setName] = createSignal(c?.name ?? "");
  const [product, setProduct] = createSignal(c?.product ?? "");
  const [currency, setCurrency] = createSignal(c?.currency ?? "NOK");
  const [status, setStatus] = createSignal<AccountStatus | "">(c?.status ?? "");
  const [creditLimit, setCreditLimit] = createSignal(c?.creditLimit?.amount ?? "");
  const [creditLimitCurrency, setCreditLimitCurrency] = createSignal(c?.creditLimit?.currency ?? c?.currency ?? "NOK");
  const [relatedAccount, setRelatedAccount] = createSignal(c?.relatedAccount ?? "");
  const [balances, setBalances] = createSignal<BalanceRow[]>(rowsFromBalances(c?.balances));
  /* eslint-enable solid/reactivity */

  const body = (): CardAccountBody =>
    compact({
      customerNumber: customerNumber().trim(),
      maskedPan: maskedPan().trim(),
      name: optional(name()),
      product: optional(product()),
      currency: optional(currency()),
      status: status() === "" ? undefined : (status() as AccountStatus),
      creditLimit: optionalAmount(creditLimit(), creditLimitCurrency()),
      relatedAccount: optional(relatedAccount()),
      balances: balancesFromRows(balances()),
    });

  const submit = async () => {
    const existing = props.cardAccount;
    const saved = await form.run(() =>
      existing
        ? wb.client.sandbox.updateCardAccount(existing.id, body())
        : wb.client.sandbox.createCardAccount(body()),
    );
    if (saved) {
      wb.notify(`Card account “${saved.name}” (${saved.maskedPan}) ${existing ? "saved" : "created"}`, "success");
      props.onDone(saved);
    }
  };

  return (
    <Form form={form} onSubmit={submit} label={props.cardAccount ? "Edit card account" : "New card account"}>
      <h3>{props.cardAccount ? `Edit card account ${props.cardAccount.maskedPan}` : "New card account"}</h3>
      <div class="grid">
        <TextField label="Owner's customer number" path="customerNumber" value={customerNumber()} onValue={setCustomerNumber} />
        <TextField label="Masked PAN" path="maskedPan" hint="e.g. 5555 55** **** 1234" value={maskedPan()} onValue={setMaskedPan} />
        <TextField label="Card account name" path="name" value={name()} onValue={setName} />
        <TextField label="Product" path="product" value={product()} onValue={setProduct} />
        <TextField label="Currency" path="currency" value={currency()} onValue={setCurrency} size={4} />
        <StatusField value={status()} onValue={setStatus} />
        <CreditFields
          label="Credit limit"
          path="creditLimit"
          amount={creditLimit()}
          onAmount={setCreditLimit}
          currency={creditLimitCurrency()}
          onCurrency={setCreditLimitCurrency}
        />
        <SelectField
          label="Related account"
          path="relatedAccount"
          hint="The customer's account the card settles against"
          value={relatedAccount()}
          onValue={setRelatedAccount}
          options={[{ value: "", label: "(none)" }, ...new Set([...props.bbans, ...(relatedAccount() ? [relatedAccount()] : [])])]}
        />
      </div>
      <HoldingFormEnd
        noun="card account"
        editing={props.cardAccount !== undefined}
        busy={form.busy()}
        balances={balances()}
        onBalances={setBalances}
        currency={currency()}
        onCancel={() => props.onCancel()}
      />
    </Form>
  );
}

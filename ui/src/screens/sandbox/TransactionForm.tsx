// Adds one transaction to a mock account (the body is a one-item array, so the service's `[0].amount`
// lands at the Amount field).
import { createSignal } from "solid-js";
import type { TransactionInput } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { compact, optional } from "../../lib/body";

export interface TransactionFormProps {
  accountId: string;
  currency: string;
  today: string;
  onAdded: () => void;
}

export function TransactionForm(props: TransactionFormProps) {
  const wb = useWorkbench();
  const form = createForm("[0]");
  const [amount, setAmount] = createSignal("");
  // eslint-disable-next-line solid/reactivity -- the initial values only
  const [currency, setCurrency] = createSignal(props.currency);
  // eslint-disable-next-line solid/reactivity
  const [bookingDate, setBookingDate] = createSignal(props.today);
  const [valueDate, setValueDate] = createSignal("");
  const [remittance, setRemittance] = createSignal("");
  const [creditorName, setCreditorName] = createSignal("");
  const [debtorName, setDebtorName] = createSignal("");
  const [bankTransactionCode, setBankTransactionCode] = createSignal("");
  const [purposeCode, setPurposeCode] = createSignal("");

  const item = (): TransactionInput =>
    compact({
      amount: amount().trim(),
      currency: currency().trim(),
      bookingDate: bookingDate(),
      valueDate: optional(valueDate()),
      remittanceInformationUnstructured: optional(remittance()),
      creditorName: optional(creditorName()),
      debtorName: optional(debtorName()),
      bankTransactionCode: optional(bankTransactionCode()),
      purposeCode: optional(purposeCode()),
    });

  const submit = async () => {
    const added = await form.run(() => wb.client.sandbox.addTransactions(props.accountId, [item()]));
    if (added) {
      wb.notify("Transaction added", "success");
      setAmount("");
      setRemittance("");
      props.onAdded();
    }
  };

  return (
    <Form form={form} onSubmit={submit} label="Add a transaction" class="form compact">
      <h4>Add a transaction</h4>
      <div class="grid">
        <TextField
          label="Amount"
          path="amount"
          hint="In whole units, negative for a debit, e.g. -125.50"
          inputmode="decimal"
          value={amount()}
          onValue={setAmount}
        />
        <TextField label="Transaction currency" path="currency" value={currency()} onValue={setCurrency} size={4} />
        <TextField label="Booking date" path="bookingDate" type="date" value={bookingDate()} onValue={setBookingDate} />
        <TextField label="Value date" path="valueDate" type="date" value={valueDate()} onValue={setValueDate} />
        <TextField label="Remittance information" path="remittanceInformationUnstructured" value={remittance()} onValue={setRemittance} />
        <TextField label="Creditor name" path="creditorName" value={creditorName()} onValue={setCreditorName} />
        <TextField label="Debtor name" path="debtorName" value={debtorName()} onValue={setDebtorName} />
        <TextField label="Bank transaction code" path="bankTransactionCode" value={bankTransactionCode()} onValue={setBankTransactionCode} />
        <TextField label="Purpose code" path="purposeCode" value={purposeCode()} onValue={setPurposeCode} />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.busy()}>
          Add transaction
        </Button>
      </div>
    </Form>
  );
}

// Adds one transaction to a mock card account (a one-item array: `[0].transactionAmount.amount` lands at
// the Amount field).
import { createSignal } from "solid-js";
import type { CardTransactionInput, CardTransactionStatus } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { SelectField, TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { compact, optional } from "../../lib/body";

export interface CardTransactionFormProps {
  cardAccountId: string;
  currency: string;
  today: string;
  onAdded: () => void;
}

export function CardTransactionForm(props: CardTransactionFormProps) {
  const wb = useWorkbench();
  const form = createForm("[0]");
  const [amount, setAmount] = createSignal("");
  // eslint-disable-next-line solid/reactivity -- the initial values only
  const [currency, setCurrency] = createSignal(props.currency);
  // eslint-disable-next-line solid/reactivity
  const [transactionDate, setTransactionDate] = createSignal(props.today);
  // A booked card transaction needs its booking date: the same day as the purchase unless changed.
  // eslint-disable-next-line solid/reactivity
  const [bookingDate, setBookingDate] = createSignal(props.today);
  const [status, setStatus] = createSignal<CardTransactionStatus>("booked");
  const [merchantCategoryCode, setMerchantCategoryCode] = createSignal("");
  const [originalAmount, setOriginalAmount] = createSignal("");
  const [originalCurrency, setOriginalCurrency] = createSignal("");
  const [cardTransactionId, setCardTransactionId] = createSignal("");

  const item = (): CardTransactionInput =>
    compact({
      transactionAmount: { amount: amount().trim(), currency: currency().trim() },
      transactionDate: transactionDate(),
      bookingDate: status() === "booked" ? optional(bookingDate()) : undefined,
      status: status(),
      merchantCategoryCode: optional(merchantCategoryCode()),
      originalAmount: optional(originalAmount())
        ? { amount: originalAmount().trim(), currency: originalCurrency().trim() }
        : undefined,
      cardTransactionId: optional(cardTransactionId()),
    });

  const submit = async () => {
    const added = await form.run(() => wb.client.sandbox.addCardTransactions(props.cardAccountId, [item()]));
    if (added !== undefined) {
      wb.notify("Card transaction added", "success");
      setAmount("");
      props.onAdded();
    }
  };

  return (
    <Form form={form} onSubmit={submit} label="Add a card transaction" class="form compact">
      <h4>Add a card transaction</h4>
      <div class="grid">
        <TextField
          label="Amount"
          path="transactionAmount.amount"
          hint="In the card's currency, whole units, e.g. -349.00"
          inputmode="decimal"
          value={amount()}
          onValue={setAmount}
        />
        <TextField label="Transaction currency" path="transactionAmount.currency" value={currency()} onValue={setCurrency} size={4} />
        <TextField label="Transaction date" path="transactionDate" type="date" value={transactionDate()} onValue={setTransactionDate} />
        <TextField label="Booking date" path="bookingDate" type="date" value={bookingDate()} onValue={setBookingDate} />
        <SelectField
          label="Status"
          path="status"
          value={status()}
          onValue={(v) => setStatus(v as CardTransactionStatus)}
          options={["booked", "pending"]}
        />
        <TextField label="Merchant category code" path="merchantCategoryCode" value={merchantCategoryCode()} onValue={setMerchantCategoryCode} />
        <TextField label="Original amount" path="originalAmount.amount" inputmode="decimal" value={originalAmount()} onValue={setOriginalAmount} />
        <TextField label="Original currency" path="originalAmount.currency" value={originalCurrency()} onValue={setOriginalCurrency} size={4} />
        <TextField label="Card transaction id" path="cardTransactionId" value={cardTransactionId()} onValue={setCardTransactionId} />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.busy()}>
          Add card transaction
        </Button>
      </div>
    </Form>
  );
}

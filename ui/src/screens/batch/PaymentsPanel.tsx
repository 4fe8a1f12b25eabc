// The sandbox's payments, newest first, their status following `payment.status` events; a status filter;
// each payment's forced outcome set or cleared (`PUT .../forced-outcome`).
import { createSignal, For, Show } from "solid-js";
import { FORCED_OUTCOMES } from "../../api/types";
import type { ForcedOutcome, ForcedOutcomeAnswer, PaymentStatus, PaymentSummary } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { StatusBadge } from "../../components/StatusBadge";
import { formatInstant } from "../../lib/format";

const STATUSES: readonly PaymentStatus[] = ["RCVD", "PDNG", "ACTC", "ACCP", "ACSP", "ACSC", "RJCT", "CANC", "PART"];

export interface PaymentsPanelProps {
  payments: readonly PaymentSummary[];
  status: PaymentStatus | "";
  onStatus: (status: PaymentStatus | "") => void;
  onForced: (answer: ForcedOutcomeAnswer) => void;
}

export function PaymentsPanel(props: PaymentsPanelProps) {
  const wb = useWorkbench();
  const [saving, setSaving] = createSignal<string | null>(null);
  const [error, setError] = createSignal<unknown>(null);

  const force = async (paymentId: string, value: string) => {
    setSaving(paymentId);
    setError(null);
    try {
      const outcome = value === "" ? null : (value as ForcedOutcome);
      const answer = await wb.client.sandbox.forceOutcome(paymentId, outcome);
      props.onForced(answer);
      wb.notify(outcome ? `Payment ${paymentId} will end ${outcome}` : `Forced outcome of ${paymentId} cleared`, "success");
    } catch (e) {
      setError(e);
    } finally {
      setSaving(null);
    }
  };

  return (
    <section class="panel" aria-label="Payments">
      <h3>Payments</h3>
      <div class="field">
        <label for="payment-status-filter">Show status</label>
        <select
          id="payment-status-filter"
          value={props.status}
          onChange={(e) => props.onStatus(e.currentTarget.value as PaymentStatus | "")}
        >
          <option value="">All</option>
          <For each={STATUSES}>{(s) => <option value={s}>{s}</option>}</For>
        </select>
      </div>
      <ErrorMessages error={error()} />
      <Show
        when={props.payments.length > 0}
        fallback={
          <EmptyState title="No payments yet">
            <p>
              Create a payment in the Composer (Payments group) and approve it through Open SCA; it appears here and
              follows each batch run.
            </p>
          </EmptyState>
        }
      >
        <table class="data">
          <caption>Payments, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Payment</th>
              <th scope="col">Status</th>
              <th scope="col">Amount</th>
              <th scope="col">Debtor → creditor</th>
              <th scope="col">Created</th>
              <th scope="col">Forced outcome</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.payments}>
              {(p) => (
                <tr>
                  <td>
                    <code>{p.paymentId}</code>
                    <br />
                    <span class="hint">
                      {p.service}/{p.product}
                    </span>
                  </td>
                  <td>
                    <StatusBadge value={p.status} />
                    <Show when={p.fundsAvailable === false}>
                      <span class="hint"> funds short</span>
                    </Show>
                  </td>
                  <td class="num">
                    {p.amount} {p.currency}
                  </td>
                  <td>
                    {p.debtor} → {p.creditorName}
                  </td>
                  <td>{formatInstant(p.createdAt)}</td>
                  <td>
                    <select
                      aria-label={`Forced outcome of payment ${p.paymentId}`}
                      value={p.forcedOutcome ?? ""}
                      disabled={saving() === p.paymentId}
                      aria-busy={saving() === p.paymentId}
                      onChange={(e) => void force(p.paymentId, e.currentTarget.value)}
                    >
                      <option value="">(none)</option>
                      <For each={FORCED_OUTCOMES}>
                        {(o) => (
                          <option value={o} selected={o === p.forcedOutcome}>
                            {o}
                          </option>
                        )}
                      </For>
                    </select>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
    </section>
  );
}

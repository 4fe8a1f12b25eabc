// The TPP's next step, from presentation mode: what the TPP sends next (a consent request, a read of the
// accounts, a payment, its status) and one button that sends it, as the composer would, with one persona
// that holds both PSD2 roles, so the TPP keeps one name from the consent to the payment. A consent request
// starts a fresh TPP session without a PSU-ID (the app meeting a new PSU); an answer that sends the PSU to
// the bank's pages opens them beside the diagram (`onScaRedirect`).
import { createMemo, createResource, createSignal, For, Show } from "solid-js";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ErrorMessages } from "../../components/ErrorMessages";
import { valueOf } from "../../lib/resource";
import type { PaymentRef, TppStepId } from "./tppSteps";
import { draftOf, nextStep, scaRedirectOf, storyPersona, TPP_STEPS } from "./tppSteps";

export interface TppNextStepProps {
  /** The TPP of the journey shown, preferred as the story's persona when it holds both roles. */
  journeyTpp: string | null;
  /** The payment of the journey shown, for a status read. */
  payment: PaymentRef | null;
  /** The answer sends the PSU to the bank's page at this URL. */
  onScaRedirect: (url: string) => void;
}

export function TppNextStep(props: TppNextStepProps) {
  const wb = useWorkbench();
  const [personas, { refetch: refetchPersonas }] = createResource(() => wb.client.personas.list());
  const [operations] = createResource(() => wb.client.compose.operations());
  const persona = createMemo(() => storyPersona(valueOf(personas) ?? [], props.journeyTpp));
  const [step, setStep] = createSignal<TppStepId>("consent");
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<unknown>(null);
  const [said, setSaid] = createSignal("");

  const unavailable = (): string | null => {
    if (!persona()) return "No persona holds both PSP_AI and PSP_PI: issue one on the Composer screen.";
    if (step() === "status" && !props.payment) return "Show a payment's journey to read its status.";
    return null;
  };

  const send = async () => {
    const who = persona();
    const op = valueOf(operations)?.find((o) => o.id === TPP_STEPS.find((s) => s.id === step())?.operation);
    if (!who || !op) return;
    const draft = draftOf(op, who.id, props.payment);
    if (!draft) return;
    setBusy(true);
    setError(null);
    try {
      // A consent is asked for by the app meeting the PSU afresh: a new TPP session, no PSU known yet.
      if (step() === "consent") {
        await wb.client.personas.update(who.id, { psuId: null, psuCorporateId: null, tppSessionId: crypto.randomUUID() });
      }
      const sent = await wb.client.compose.send(draft);
      const redirect = scaRedirectOf(sent.response.body);
      setSaid(`${draft.method} ${draft.path}: ${sent.response.status}${redirect ? ", the PSU goes to the bank's page" : ""}`);
      if (redirect) props.onScaRedirect(redirect);
      if (sent.response.status < 400 || redirect) setStep(nextStep(step()));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      void refetchPersonas();
    }
  };

  return (
    <section class="presentation-group" aria-label="The TPP">
      <span class="presentation-group-name">
        TPP <strong>{persona()?.name ?? "–"}</strong>
      </span>
      <label class="field inline">
        <span>Next step</span>
        <select value={step()} onChange={(e) => setStep(e.currentTarget.value as TppStepId)}>
          <For each={TPP_STEPS}>{(s) => <option value={s.id}>{s.label}</option>}</For>
        </select>
      </label>
      <Button variant="primary" busy={busy()} disabled={unavailable() !== null || !valueOf(operations)} title={unavailable() ?? undefined} onClick={() => void send()}>
        Send as the TPP
      </Button>
      <Show when={unavailable()}>{(why) => <span class="hint">{why()}</span>}</Show>
      <span class="visually-hidden" role="status" aria-label="What the TPP sent">
        {said()}
      </span>
      <ErrorMessages error={error()} title="The TPP's request could not be sent." />
    </section>
  );
}

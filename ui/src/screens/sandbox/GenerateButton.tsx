// A button beside an identifier field that asks the service for a valid one (check digits right, not yet
// used by a customer or account) and puts it in the field: a fødselsnummer, a D-number, an organisation
// number, a BBAN.
import { createSignal } from "solid-js";
import type { GeneratedValue } from "../../api/types";
import { Button } from "../../components/Button";
import type { FormState } from "../../components/form";

export function GenerateButton(props: {
  label: string;
  form: FormState;
  generate: () => Promise<GeneratedValue>;
  onValue: (value: string) => void;
}) {
  const [busy, setBusy] = createSignal(false);
  const run = async () => {
    setBusy(true);
    const made = await props.form.run(props.generate);
    setBusy(false);
    if (made) props.onValue(made.value);
  };
  return (
    <Button class="generate" busy={busy()} onClick={() => void run()}>
      {props.label}
    </Button>
  );
}

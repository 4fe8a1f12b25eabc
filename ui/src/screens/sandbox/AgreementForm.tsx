// Creates a corporate agreement: the organisation, a name, and engagements (a person, one of the
// organisation's accounts, roles). Paths such as `engagements[1].account.bban` land at their fields.
import { createSignal, Index } from "solid-js";
import { ENGAGEMENT_ROLES } from "../../api/types";
import type { Agreement, AgreementBody, EngagementRole } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { CheckboxGroup } from "../../components/CheckboxGroup";
import { TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";

interface EngagementRow {
  customer: string;
  bban: string;
  roles: EngagementRole[];
}

export interface AgreementFormProps {
  owner: string;
  /** The owner's account BBANs, as a hint. */
  bbans: readonly string[];
  onDone: (agreement: Agreement) => void;
  onCancel: () => void;
}

export function AgreementForm(props: AgreementFormProps) {
  const wb = useWorkbench();
  const form = createForm();
  // eslint-disable-next-line solid/reactivity -- the initial values only
  const [owner, setOwner] = createSignal(props.owner);
  const [name, setName] = createSignal("");
  const [rows, setRows] = createSignal<EngagementRow[]>([
    // eslint-disable-next-line solid/reactivity
    { customer: "", bban: props.bbans[0] ?? "", roles: ["VIEW", "REGISTER"] },
  ]);
  const update = (i: number, patch: Partial<EngagementRow>) =>
    setRows((list) => list.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const body = (): AgreementBody => ({
    owner: owner().trim(),
    name: name(),
    engagements: rows().map((r) => ({ customer: r.customer.trim(), account: { bban: r.bban.trim() }, roles: r.roles })),
  });

  const submit = async () => {
    const saved = await form.run(() => wb.client.sandbox.createAgreement(body()));
    if (saved) {
      wb.notify(`Agreement ${saved.name} created`, "success");
      props.onDone(saved);
    }
  };

  return (
    <Form form={form} onSubmit={submit} label="New agreement">
      <h3>New corporate agreement</h3>
      <div class="grid">
        <TextField label="Owner's organisation number" path="owner" value={owner()} onValue={setOwner} />
        <TextField label="Agreement name" path="name" value={name()} onValue={setName} />
      </div>
      <fieldset>
        <legend>Engagements</legend>
        <Index each={rows()}>
          {(row, i) => (
            <div class="row-fields" role="group" aria-label={`Engagement ${i + 1}`}>
              <TextField
                label={`Engagement ${i + 1} person (national identity number)`}
                path={`engagements[${i}].customer`}
                value={row().customer}
                onValue={(v) => update(i, { customer: v })}
              />
              <TextField
                label={`Engagement ${i + 1} account BBAN`}
                path={[`engagements[${i}].account`, `engagements[${i}].account.bban`, `engagements[${i}].account.iban`]}
                hint={props.bbans.length ? `The organisation's accounts: ${props.bbans.join(", ")}` : undefined}
                value={row().bban}
                onValue={(v) => update(i, { bban: v })}
              />
              <CheckboxGroup
                legend={`Engagement ${i + 1} roles`}
                path={`engagements[${i}].roles`}
                options={ENGAGEMENT_ROLES}
                values={row().roles}
                onValues={(roles) => update(i, { roles })}
              />
              <Button aria-label={`Remove engagement ${i + 1}`} onClick={() => setRows((l) => l.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </div>
          )}
        </Index>
        <Button onClick={() => setRows((l) => [...l, { customer: "", bban: props.bbans[0] ?? "", roles: ["VIEW"] }])}>
          Add engagement
        </Button>
      </fieldset>
      <div class="actions">
        <Button onClick={() => props.onCancel()}>Cancel</Button>
        <Button type="submit" variant="primary" busy={form.busy()}>
          Create agreement
        </Button>
      </div>
    </Form>
  );
}

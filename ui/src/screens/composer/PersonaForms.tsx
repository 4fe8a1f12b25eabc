// Making personas: issue one from the test CA (roles, validity, organisation, deliberately expired or
// untrusted), or import a certificate and key as PEM (pasted or read from files).
import { createSignal } from "solid-js";
import { PSD2_ROLES } from "../../api/types";
import type { Persona, Psd2Role } from "../../api/types";
import { openFile } from "../../api/native";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { CheckboxGroup } from "../../components/CheckboxGroup";
import { CheckboxField, TextAreaField, TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { compact, optional } from "../../lib/body";

export interface PersonaFormProps {
  onDone: (persona: Persona) => void;
  onCancel: () => void;
}

export function IssuePersonaForm(props: PersonaFormProps) {
  const wb = useWorkbench();
  const form = createForm();
  const [name, setName] = createSignal("");
  const [roles, setRoles] = createSignal<Psd2Role[]>(["PSP_AI", "PSP_PI"]);
  const [days, setDays] = createSignal("");
  const [organisationId, setOrganisationId] = createSignal("");
  const [validFrom, setValidFrom] = createSignal("");
  const [expired, setExpired] = createSignal(false);
  const [untrusted, setUntrusted] = createSignal(false);

  const submit = async () => {
    const persona = await form.run(() =>
      wb.client.personas.issue(
        compact({
          name: name(),
          roles: roles(),
          days: optional(days()) === undefined ? undefined : Number(days()),
          organisationId: optional(organisationId()),
          validFrom: optional(validFrom()),
          expired: expired() || undefined,
          untrusted: untrusted() || undefined,
        }),
      ),
    );
    if (persona) {
      wb.notify(`Persona ${persona.name} issued`, "success");
      props.onDone(persona);
    }
  };

  return (
    <Form form={form} onSubmit={() => void submit()} label="Issue a persona">
      <TextField label="Persona name" path="name" value={name()} onValue={setName} autofocus />
      <CheckboxGroup legend="PSD2 roles" path="roles" options={PSD2_ROLES} values={roles()} onValues={setRoles} />
      <div class="grid">
        <TextField label="Valid for (days)" path="days" inputmode="numeric" hint="Default 730" value={days()} onValue={setDays} />
        <TextField label="Valid from" path="validFrom" type="date" value={validFrom()} onValue={setValidFrom} />
        <TextField
          label="Organisation identifier"
          path="organisationId"
          hint="e.g. PSDNO-FSA-ABC123; derived from the name when empty"
          value={organisationId()}
          onValue={setOrganisationId}
        />
      </div>
      <CheckboxField label="Expired (expired yesterday)" path="expired" checked={expired()} onChecked={setExpired} />
      <CheckboxField
        label="Untrusted (from a CA the sandbox does not trust)"
        path="untrusted"
        checked={untrusted()}
        onChecked={setUntrusted}
      />
      <div class="actions">
        <Button onClick={() => props.onCancel()}>Cancel</Button>
        <Button type="submit" variant="primary" busy={form.busy()}>
          Issue persona
        </Button>
      </div>
    </Form>
  );
}

export function ImportPersonaForm(props: PersonaFormProps) {
  const wb = useWorkbench();
  const form = createForm();
  const [name, setName] = createSignal("");
  const [certificatePem, setCertificatePem] = createSignal("");
  const [privateKeyPem, setPrivateKeyPem] = createSignal("");

  const pick = async (title: string, set: (text: string) => void) => {
    const file = await openFile(title, ["pem", "crt", "cer", "key"]);
    if (file) set(file.contents);
  };

  const submit = async () => {
    const persona = await form.run(() =>
      wb.client.personas.import({ name: name(), certificatePem: certificatePem(), privateKeyPem: privateKeyPem() }),
    );
    if (persona) {
      wb.notify(`Persona ${persona.name} imported (${persona.status})`, persona.status === "valid" ? "success" : "warning");
      props.onDone(persona);
    }
  };

  return (
    <Form form={form} onSubmit={() => void submit()} label="Import a persona">
      <TextField label="Persona name" path="name" value={name()} onValue={setName} autofocus />
      <TextAreaField
        label="Certificate (PEM)"
        path="certificatePem"
        rows={6}
        placeholder="-----BEGIN CERTIFICATE-----"
        value={certificatePem()}
        onValue={setCertificatePem}
      />
      <Button onClick={() => void pick("Choose the certificate", setCertificatePem)}>Read certificate from a file…</Button>
      <TextAreaField
        label="Private key (PEM)"
        path="privateKeyPem"
        rows={6}
        placeholder="-----BEGIN PRIVATE KEY-----"
        value={privateKeyPem()}
        onValue={setPrivateKeyPem}
      />
      <Button onClick={() => void pick("Choose the private key", setPrivateKeyPem)}>Read key from a file…</Button>
      <div class="actions">
        <Button onClick={() => props.onCancel()}>Cancel</Button>
        <Button type="submit" variant="primary" busy={form.busy()}>
          Import persona
        </Button>
      </div>
    </Form>
  );
}

// Creates a customer (number, name, private or corporate) or renames one; the service checks the
// national identity or organisation number and answers at the field.
import { createSignal, Show } from "solid-js";
import type { Customer, CustomerType } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { SelectField, TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { GenerateButton } from "./GenerateButton";

export interface CustomerFormProps {
  /** Renames this customer; creates a new one when absent. */
  customer?: Customer;
  onDone: (customer: Customer) => void;
  onCancel: () => void;
}

export function CustomerForm(props: CustomerFormProps) {
  const wb = useWorkbench();
  const form = createForm();
  const editing = () => props.customer !== undefined;
  // eslint-disable-next-line solid/reactivity -- the initial values only
  const [customerNumber, setCustomerNumber] = createSignal(props.customer?.customerNumber ?? "");
  // eslint-disable-next-line solid/reactivity
  const [name, setName] = createSignal(props.customer?.name ?? "");
  // eslint-disable-next-line solid/reactivity
  const [type, setType] = createSignal<CustomerType>(props.customer?.type ?? "private");

  const submit = async () => {
    const existing = props.customer;
    const saved = await form.run(() =>
      existing
        ? wb.client.sandbox.updateCustomer(existing.id, { customerName: name() })
        : wb.client.sandbox.createCustomer({ customerNumber: customerNumber().trim(), name: name(), type: type() }),
    );
    if (saved) {
      wb.notify(editing() ? `Customer ${saved.name} saved` : `Customer ${saved.name} created`, "success");
      props.onDone(saved);
    }
  };

  return (
    <Form form={form} onSubmit={submit} label={editing() ? "Edit customer" : "New customer"}>
      <h3>{editing() ? "Edit customer" : "New customer"}</h3>
      <Show when={!editing()}>
        <SelectField
          label="Type"
          path="type"
          value={type()}
          onValue={(v) => setType(v as CustomerType)}
          options={[
            { value: "private", label: "Private (a person)" },
            { value: "corporate", label: "Corporate (an organisation)" },
          ]}
        />
        <TextField
          label={type() === "private" ? "National identity number" : "Organisation number"}
          path="customerNumber"
          hint={type() === "private" ? "11 digits: a fødselsnummer, a D-number or a synthetic number" : "9 digits"}
          inputmode="numeric"
          autocomplete="off"
          value={customerNumber()}
          onValue={setCustomerNumber}
        />
        <div class="actions generators">
          <Show
            when={type() === "private"}
            fallback={
              <GenerateButton
                label="Generate an organisation number"
                form={form}
                generate={() => wb.client.sandbox.generate.orgNumber()}
                onValue={setCustomerNumber}
              />
            }
          >
            <GenerateButton
              label="Generate a fødselsnummer"
              form={form}
              generate={() => wb.client.sandbox.generate.nationalId("fodselsnummer")}
              onValue={setCustomerNumber}
            />
            <GenerateButton
              label="Generate a D-number"
              form={form}
              generate={() => wb.client.sandbox.generate.nationalId("d-number")}
              onValue={setCustomerNumber}
            />
          </Show>
        </div>
      </Show>
      <TextField label="Name" path="name" value={name()} onValue={setName} autocomplete="off" />
      <div class="actions">
        <Button onClick={() => props.onCancel()}>Cancel</Button>
        <Button type="submit" variant="primary" busy={form.busy()}>
          {editing() ? "Save customer" : "Create customer"}
        </Button>
      </div>
    </Form>
  );
}

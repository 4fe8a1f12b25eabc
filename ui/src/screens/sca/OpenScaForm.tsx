// Opens a pasted scaRedirect URL in the SCA window (desktop) or a popup (browser).
import { createSignal } from "solid-js";
import { useWorkbench } from "../../app/context";
import { valueOf } from "../../lib/resource";
import { openScaWindow } from "../../api/native";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";

export function OpenScaForm() {
  const wb = useWorkbench();
  const example = () => `${valueOf(wb.session)?.baseUrl ?? wb.config.baseUrl}/sca/…`;
  const form = createForm();
  const [url, setUrl] = createSignal("");
  const open = () =>
    form.run(async () => {
      const target = url().trim();
      try {
        new URL(target);
      } catch {
        form.setMessages([{ category: "ERROR", code: "URL", path: "url", text: `Paste a whole URL, e.g. ${example()}` }]);
        return;
      }
      await openScaWindow(target);
    });
  return (
    <Form form={form} onSubmit={() => void open()} label="Open an SCA link" class="form compact">
      <TextField
        label="scaRedirect URL"
        path="url"
        type="url"
        placeholder={example()}
        value={url()}
        onValue={setUrl}
        spellcheck={false}
      />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.busy()}>
          Open in the SCA window
        </Button>
      </div>
    </Form>
  );
}

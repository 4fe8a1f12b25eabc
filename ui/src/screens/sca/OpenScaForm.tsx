// Opens a pasted scaRedirect URL in the SCA window (desktop) or a popup (browser).
import { createSignal } from "solid-js";
import { openScaWindow } from "../../api/native";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";

export function OpenScaForm() {
  const form = createForm();
  const [url, setUrl] = createSignal("");
  const open = () =>
    form.run(async () => {
      const target = url().trim();
      try {
        new URL(target);
      } catch {
        form.setMessages([{ category: "ERROR", code: "URL", path: "url", text: "Paste a whole URL, e.g. http://127.0.0.1:8080/sca/…" }]);
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
        placeholder="http://127.0.0.1:8080/sca/…"
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

// Copy the request as curl or as a script (from `/compose/export`: a command that re-signs at run time),
// or save the script to a file.
import { createSignal, Show } from "solid-js";
import type { Draft, ExportFormat } from "../../api/types";
import { saveFile } from "../../api/native";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { copyText } from "../../components/CopyButton";
import { ErrorMessages } from "../../components/ErrorMessages";

/** `draft` answers null when the request cannot go as it is (the composer says why at the field). */
export function ExportPanel(props: { draft: () => Draft | null }) {
  const wb = useWorkbench();
  const [busy, setBusy] = createSignal<string | null>(null);
  const [text, setText] = createSignal("");
  const [error, setError] = createSignal<unknown>(null);

  const run = async (format: ExportFormat, then: "copy" | "save") => {
    const draft = props.draft();
    if (!draft) return;
    setBusy(`${format}-${then}`);
    setError(null);
    try {
      const answer = await wb.client.compose.export(draft, format);
      setText(answer.text);
      for (const o of answer.omitted) wb.notify(`${o.header} is left out of the ${format}: ${o.reason}`, "info");
      if (then === "copy") {
        await copyText(answer.text);
        wb.notify(`Copied as ${format}`, "success");
      } else {
        const where = await saveFile(format === "curl" ? "request.sh" : "request-script.sh", answer.text);
        if (where) wb.notify(`Saved ${where}`, "success");
      }
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section class="panel" aria-label="Export">
      <div class="actions">
        <Button busy={busy() === "curl-copy"} onClick={() => void run("curl", "copy")}>
          Copy as curl
        </Button>
        <Button busy={busy() === "script-copy"} onClick={() => void run("script", "copy")}>
          Copy as script
        </Button>
        <Button busy={busy() === "script-save"} onClick={() => void run("script", "save")}>
          Save script…
        </Button>
      </div>
      <ErrorMessages error={error()} />
      <Show when={text()}>
        <pre aria-label="Exported command">{text()}</pre>
      </Show>
    </section>
  );
}

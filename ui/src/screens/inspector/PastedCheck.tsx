// "Paste what your app sent": a curl command or a raw HTTP request, checked by the gate step by step
// (`POST /workbench/api/verify`, the function `xs2a-sandbox verify` runs on the command line), shown as a
// logged exchange's verdict is: the checklist, the likely cause, the signing string the sandbox computed,
// and the headers and body as they would be sent — the body as received, line ends shown. Nothing is sent.
import { createSignal, For, Show } from "solid-js";
import type { PastedVerdict } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ErrorMessages } from "../../components/ErrorMessages";
import { HeadersTable } from "../../components/HeadersTable";
import { formatInstant } from "../../lib/format";
import { BodyView } from "./BodyView";
import { VerdictChecklist } from "./VerdictChecklist";

const EXAMPLE = `curl -X POST 'http://127.0.0.1:8080/v1/payments/…' \\
  -H 'Date: …' -H 'Digest: SHA-256=…' -H 'Signature: keyId="…",…' \\
  --data-binary '{"instructedAmount": …}'

or

POST /v1/payments/… HTTP/1.1
Date: …

{"instructedAmount": …}`;

function verdictTitle(result: PastedVerdict): string {
  return result.accepted ? "accepted" : `refused at “${result.failedStep ?? "?"}”`;
}

export function PastedCheck() {
  const wb = useWorkbench();
  const [text, setText] = createSignal("");
  const [asSigned, setAsSigned] = createSignal(false);
  const [result, setResult] = createSignal<PastedVerdict | null>(null);
  const [error, setError] = createSignal<unknown>(null);
  const [busy, setBusy] = createSignal(false);

  const check = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await wb.client.verify(text(), asSigned() ? "date" : undefined));
    } catch (e) {
      setResult(null);
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel pasted-check" aria-label="Check a pasted request">
      <h3>Check a pasted request</h3>
      <p class="hint">
        Paste what your app sent — a curl command, or the raw HTTP request (request line, headers, a blank line, the
        body) — and see the gate's verdict step by step, as <code>xs2a-sandbox verify</code> gives it. Nothing is sent.
      </p>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          void check();
        }}
      >
        <label class="field">
          <span>curl command or raw HTTP request</span>
          <textarea
            rows={8}
            spellcheck={false}
            class="mono"
            placeholder={EXAMPLE}
            value={text()}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </label>
        <label class="inline">
          <input type="checkbox" checked={asSigned()} onChange={(e) => setAsSigned(e.currentTarget.checked)} />
          Check the Date as of the request's own Date (a request captured a while ago)
        </label>
        <div class="actions">
          <Button type="submit" variant="primary" busy={busy()} disabled={!text().trim()}>
            Check
          </Button>
        </div>
      </form>
      <ErrorMessages error={error()} title="The paste could not be read as a request." />
      <Show when={result()}>
        {(r) => (
          <article class="exchange" aria-label="Verdict on the pasted request">
            <h4>Gate verdict: {verdictTitle(r())}</h4>
            <p class="hint">
              Read as {r().form === "curl" ? "a curl command" : "a raw HTTP request"}:{" "}
              <span class="mono">
                {r().method} {r().target}
              </span>{" "}
              · Date checked against {formatInstant(r().at)}
              {r().tpp ? ` · ${r().tpp?.name} (${r().tpp?.organisationId})` : ""}
            </p>
            <For each={r().notes}>
              {(note) => (
                <p class="likely-cause" role="note">
                  {note}
                </p>
              )}
            </For>
            <Show when={r().verdict.likelyCause}>
              {(cause) => (
                <p class="likely-cause" role="note">
                  <strong>Likely cause: </strong>
                  {cause()}
                </p>
              )}
            </Show>
            <VerdictChecklist verdict={r().verdict} />
            <Show when={r().verdict.signingString}>
              {(signing) => (
                <>
                  <h4>Signing string the sandbox computed</h4>
                  <pre class="signing-string" aria-label="Signing string the sandbox computed" tabIndex={0}>
                    {signing()}
                  </pre>
                </>
              )}
            </Show>
            <HeadersTable headers={r().request.headers} label="Pasted request headers" highlight={r().verdict.signedHeaders} />
            <BodyView message={r().request} label="Pasted request body" asReceived />
          </article>
        )}
      </Show>
    </section>
  );
}

// What the service will send, before it is sent: the URL, every header (the signed ones marked), the headers
// left out because a placeholder has no value yet (and why), the Digest and the exact signing string.
import { createUniqueId, For, Show } from "solid-js";
import type { Preview } from "../../api/types";
import { CopyButton } from "../../components/CopyButton";
import { HeadersTable } from "../../components/HeadersTable";

export function PreviewPanel(props: { preview: Preview }) {
  const headingId = createUniqueId();
  return (
    <section class="panel" aria-label="Preview">
      <h3>Preview</h3>
      <p>
        <code class="wrap">{props.preview.url}</code>
      </p>
      <HeadersTable headers={props.preview.headers} label="Headers to be sent" highlight={props.preview.signedHeaders} />
      <Show when={props.preview.omitted.length > 0}>
        <ul class="omitted" aria-label="Headers left out">
          <For each={props.preview.omitted}>
            {(o) => (
              <li>
                <code>{o.header}</code> left out: {o.reason}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <p class="hint">Signed headers: {props.preview.signedHeaders.join(" ")}</p>
      <Show when={props.preview.digest}>
        <p>
          Digest: <code class="wrap">{props.preview.digest}</code>
        </p>
      </Show>
      <h4 id={headingId}>Signing string</h4>
      <pre aria-labelledby={headingId}>{props.preview.signingString}</pre>
      <CopyButton text={() => props.preview.signingString} label="Copy the signing string" />
    </section>
  );
}

// What the service will send, before it is sent: the URL, every header (the signed ones marked), the
// Digest and the exact signing string.
import { createUniqueId, Show } from "solid-js";
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

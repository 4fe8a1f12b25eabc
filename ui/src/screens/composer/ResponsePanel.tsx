// The answer to a sent request: status, time, headers, the body read-only in CodeMirror, the request as it
// went out; "Open SCA" when the body links to the bank's SCA pages.
import { createMemo, createSignal, Show } from "solid-js";
import type { Sent } from "../../api/types";
import { openScaWindow } from "../../api/native";
import { Button } from "../../components/Button";
import { CodeEditor } from "../../components/CodeEditor";
import { ErrorMessages } from "../../components/ErrorMessages";
import { HeadersTable } from "../../components/HeadersTable";
import { StatusBadge } from "../../components/StatusBadge";
import { duration, formatInstant, prettyJson } from "../../lib/format";
import { scaRedirectOf } from "./draft";

export function ResponsePanel(props: { sent: Sent }) {
  const body = createMemo(() => prettyJson(props.sent.response.body));
  const sca = createMemo(() => scaRedirectOf(props.sent.response.body));
  const [scaError, setScaError] = createSignal<unknown>(null);
  const openSca = async (url: string) => {
    setScaError(null);
    try {
      await openScaWindow(url);
    } catch (e) {
      setScaError(e);
    }
  };
  return (
    <section class="panel" aria-label="Response">
      <h3>Response</h3>
      <p class="response-status" role="status">
        <StatusBadge value={props.sent.response.status} label="HTTP status" />
        <span>
          {props.sent.request.method} <code class="wrap">{props.sent.request.url}</code>
        </span>
        <span>{duration(props.sent.durationMs)}</span>
        <span class="hint">{formatInstant(props.sent.at)}</span>
      </p>
      <Show when={sca()}>
        {(url) => (
          <div class="actions">
            <Button variant="primary" onClick={() => void openSca(url())}>
              Open SCA
            </Button>
            <code class="wrap hint">{url()}</code>
          </div>
        )}
      </Show>
      <ErrorMessages error={scaError()} />
      <CodeEditor label="Response body" value={body()} readOnly minHeight="6rem" />
      <details>
        <summary>Response headers ({props.sent.response.headers.length})</summary>
        <HeadersTable headers={props.sent.response.headers} label="Response headers" />
      </details>
      <details>
        <summary>Request as sent</summary>
        <HeadersTable headers={props.sent.request.headers} label="Request headers as sent" />
        <h4>Signing string</h4>
        <pre>{props.sent.signingString}</pre>
        <Show when={props.sent.request.body}>
          <h4>Request body</h4>
          <pre>{props.sent.request.body}</pre>
        </Show>
      </details>
    </section>
  );
}

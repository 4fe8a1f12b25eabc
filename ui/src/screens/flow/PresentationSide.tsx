// Presentation's column beside the diagram: while the PSU has an SCA to do, the bank's page live, usable
// (LivePage: the trainer does the PSU's SCA there); else, where the PSU acts at the current message, the page
// as the PSU saw it (the recorded page, drawn inert, so nothing is requested again); else the message's body
// with headers and base64 folded away, and what the step changed in the sandbox's state.
import { createMemo, createResource, Show } from "solid-js";
import type { Exchange } from "../../api/traffic";
import type { PageVisit } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { HeadersTable } from "../../components/HeadersTable";
import { valueOf } from "../../lib/resource";
import { StateChanges } from "../inspector/StateChanges";
import { foldBase64, presentBody } from "./fold";
import type { Message, PlacedMessage } from "./layout";
import { LivePage } from "./LivePage";
import { PagePreview } from "./PagePreview";

/** The SCA page message to show beside the diagram at `index`: the PSU's latest page view up to there. */
export function pageAt(messages: readonly Message[], index: number): Message | null {
  const current = messages[index];
  if (!current || (current.from !== "psu" && current.to !== "psu")) return null;
  for (let i = index; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.pageUrl) return m;
  }
  return null;
}

function isHtml(ex: Exchange): boolean {
  return ex.response.headers.some(([n, v]) => n.toLowerCase() === "content-type" && v.includes("html"));
}

export interface PresentationSideProps {
  messages: readonly Message[];
  index: number;
  current: PlacedMessage | null;
  /** The bank's page the PSU is on now, live; null when no SCA is being done here. */
  live: string | null;
  onLiveLeft: (visit: PageVisit) => void;
  /** An SCA of the journey waiting for the PSU (its scaRedirect), offered to open here. */
  waiting: string | null;
  onOpen: (url: string) => void;
}

export function PresentationSide(props: PresentationSideProps) {
  const wb = useWorkbench();
  const [exchange] = createResource(
    () => (props.current?.kind === "event" ? null : props.current?.entryId),
    (id) => wb.client.traffic.entry(id) as Promise<Exchange>,
  );
  const page = createMemo(() => pageAt(props.messages, props.index));
  const [pageExchange] = createResource(
    () => page()?.entryId,
    (id) => wb.client.traffic.entry(id) as Promise<Exchange>,
  );
  const pageHtml = () => {
    const ex = valueOf(pageExchange);
    return ex && isHtml(ex) && ex.response.body && !ex.response.bodyBase64 ? ex.response.body : null;
  };
  const body = () => {
    const ex = valueOf(exchange);
    const m = props.current;
    if (!ex || !m || ex.id !== m.entryId || m.key.endsWith(":back")) return "";
    const message = m.kind === "request" ? ex.request : ex.response;
    if (message.bodyBase64) return `«binary, ${message.bodyBytes} bytes»`;
    if (ex.area === "sca-page" && m.kind === "response") return "";
    return presentBody(message.body ?? null);
  };
  const headers = () => {
    const ex = valueOf(exchange);
    const m = props.current;
    if (!ex || !m || ex.id !== m.entryId || m.key.endsWith(":back")) return [];
    return m.kind === "request" ? ex.request.headers : ex.response.headers;
  };
  // An SCA of the journey the PSU has still to do (started by another app, or left): offered to do here.
  const waiting = () => (
    <Show when={props.waiting}>
      {(url) => (
        <p class="presentation-waiting">
          The PSU has the bank's page to act on.{" "}
          <Button variant="primary" onClick={() => props.onOpen(url())}>
            Open the PSU's page
          </Button>
        </p>
      )}
    </Show>
  );
  // The column is always there (what it shows changes), so the diagram keeps its size while stepping.
  const side = () => (props.live ? "live" : page() ? "page" : "message");

  return (
    <>
      <Show when={side() === "live" && props.live} keyed>
        {(url) => (
          <section class="presentation-side presentation-page" aria-label="The PSU's SCA page, live">
            <h3>The PSU's browser: the bank's page</h3>
            <LivePage url={url} onLeft={(visit) => props.onLiveLeft(visit)} />
          </section>
        )}
      </Show>
      <Show when={side() === "page"}>
        <section class="presentation-side presentation-page" aria-label="The PSU's SCA page">
          {waiting()}
          <h3>What the PSU saw</h3>
          <Show when={pageHtml()} fallback={<p class="hint">The page {page()?.pageUrl} (not recorded as HTML).</p>}>
            {(html) => <PagePreview title="SCA page" html={html()} />}
          </Show>
        </section>
      </Show>
      <Show when={side() === "message"}>
        <section class="presentation-side" aria-label="The message">
          {waiting()}
          <Show when={!body() && headers().length === 0}>
            <p class="hint">
              {props.current?.kind === "event"
                ? "An event on the bank's side: nothing travels."
                : props.current
                  ? "No body."
                  : "No journey yet: send the TPP's first step below."}
            </p>
          </Show>
          <Show when={body()}>
            <pre class="presentation-json" aria-label="Message body">
              {body()}
            </pre>
          </Show>
          <Show when={headers().length > 0}>
            <details class="presentation-headers">
              <summary>Headers ({headers().length})</summary>
              <HeadersTable headers={headers().map(([n, v]) => [n, foldBase64(v)] as [string, string])} label="Headers" />
            </details>
          </Show>
          <Show when={props.current?.entryId} keyed>
            {(id) => (
              <details class="presentation-headers">
                <summary>State changes</summary>
                <StateChanges id={id} noun="step" />
              </details>
            )}
          </Show>
        </section>
      </Show>
    </>
  );
}

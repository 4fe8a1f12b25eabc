// One exchange whole: what it was, the gate's verdict as a checklist, the signing strings compared for a
// signature refusal with the likely cause, headers and bodies, the resources and journeys it touched, and
// the ways out: open in the composer, copy as curl (re-signing) or as a HAR entry.
import { createResource, createSignal, For, Show } from "solid-js";
import type { Entry, Exchange, TrafficResource } from "../../api/traffic";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { copyText } from "../../components/CopyButton";
import { ErrorMessages } from "../../components/ErrorMessages";
import { HeadersTable } from "../../components/HeadersTable";
import { Loading } from "../../components/Loading";
import { StatusBadge } from "../../components/StatusBadge";
import { duration, formatInstant } from "../../lib/format";
import { createActions } from "../../lib/action";
import { valueOf } from "../../lib/resource";
import { BodyView } from "./BodyView";
import { comparable, likelyCause } from "./explain";
import { draftAs, signerFor } from "./signAs";
import type { Client } from "../../api/client";
import type { GateDefinition } from "../../api/types";

/** The gate's definitions, read once per client (they do not change while the service runs). */
const gates = new WeakMap<Client, Promise<GateDefinition | null>>();
function gateOf(client: Client): Promise<GateDefinition | null> {
  let gate = gates.get(client);
  if (!gate) {
    gate = client.gate().catch(() => null);
    gates.set(client, gate);
  }
  return gate;
}
import { SigningCompare } from "./SigningCompare";
import { StateChanges } from "./StateChanges";
import { VerdictChecklist } from "./VerdictChecklist";

export interface ExchangeViewProps {
  id: number;
  onFilterResource: (resource: TrafficResource) => void;
}

/** The verdict in a few words: where the gate refused, or that it let through what the handler then refused. */
export function verdictTitle(ex: Exchange): string {
  if (ex.failedStep) return `refused at “${ex.failedStep}”`;
  if (ex.status >= 400) return `accepted, then refused by the handler (${ex.status}${ex.code ? ` ${ex.code}` : ""})`;
  return "accepted";
}

/** The fault plan's marker on an injected answer (docs/rehearsal.md), so nobody takes it for a bug. */
export function injectedMarker(ex: Exchange): string | undefined {
  return ex.response.headers.find(([name]) => name.toLowerCase() === "sandbox-injected")?.[1];
}

/** An exchange whole has its request and response; the service leaves `kind` out of it (only events carry one). */
function isExchange(entry: Exchange | Entry): entry is Exchange {
  return "request" in entry;
}

function Links(props: { entry: Exchange | Entry; onFilterResource: (r: TrafficResource) => void }) {
  const wb = useWorkbench();
  return (
    <Show when={props.entry.resources.length > 0 || props.entry.journeys.length > 0}>
      <div class="links" aria-label="Touched">
        <For each={props.entry.resources}>
          {(r) => (
            <Button variant="link" title={`Show every exchange of ${r.kind} ${r.id}`} onClick={() => props.onFilterResource(r)}>
              {r.kind} {r.id.length > 12 ? `${r.id.slice(0, 8)}…` : r.id}
            </Button>
          )}
        </For>
        <For each={props.entry.journeys}>
          {(j) => (
            <Button
              variant="link"
              onClick={() => {
                wb.handoff.setFlowJourney(j);
                wb.go("flow");
              }}
            >
              Open journey in Flow
            </Button>
          )}
        </For>
      </div>
    </Show>
  );
}

function ExchangeDetail(props: { exchange: Exchange; onFilterResource: (r: TrafficResource) => void }) {
  const wb = useWorkbench();
  const { busy, error, run: act } = createActions();
  const [pasted, setPasted] = createSignal<string | null>(null);
  const ex = () => props.exchange;
  const [definition] = createResource(() => gateOf(wb.client));
  const client = () => ex().composerSigningString ?? pasted();
  // An answer the fault plan made in place of the bank's (429, 500, 503) was not the handler's: the cause
  // says so instead of blaming the handler.
  const cause = () =>
    /^injected: (429|500|503) /.test(injectedMarker(ex()) ?? "")
      ? "The sandbox's fault plan answered this request (see the marker above); the bank's handler did not run."
      : likelyCause(ex(), client(), valueOf(definition)?.signableHeaders ?? []);
  const showCompare = () => comparable(ex());

  /** The request as a draft signed by a persona that may do the operation; refused, saying why, if none may. */
  const withPersona = async () => {
    const [personas, operations] = await Promise.all([wb.client.personas.list(), wb.client.compose.operations()]);
    const signer = signerFor(ex(), personas, operations);
    if (!signer.persona) throw new Error(signer.note);
    if (signer.note) wb.notify(signer.note, "warning");
    return draftAs(ex(), signer.persona);
  };

  async function toComposer() {
    wb.handoff.setComposerDraft(await withPersona());
    wb.go("composer");
  }
  async function copyCurl() {
    const answer = await wb.client.compose.export(await withPersona(), "curl");
    await copyText(answer.text);
    wb.notify("Copied as curl (it re-signs when run)", "success");
  }
  async function copyHar() {
    const har = await wb.client.traffic.har(ex().id);
    await copyText(JSON.stringify(har, null, 2));
    wb.notify("Copied as HAR entry", "success");
  }

  return (
    <article class="exchange" aria-label={`Exchange ${ex().id}`}>
      <header class="exchange-head">
        <h3>
          <span class="mono">{ex().method}</span> <span class="mono wrap">{ex().path}</span>{" "}
          <StatusBadge value={ex().status} />
        </h3>
        <p class="hint">
          #{ex().id} · {formatInstant(ex().at)} · {duration(ex().durationMs)} · {ex().source}
          {ex().tpp ? ` · ${ex().tpp?.name} (${ex().tpp?.organisationId})` : ""}
          {ex().psuId ? ` · PSU ${ex().psuId}` : ""}
          {ex().code ? ` · ${ex().code}` : ""}
        </p>
        <Show when={injectedMarker(ex())}>
          {(marker) => (
            <p class="injected" role="note">
              {marker()}
            </p>
          )}
        </Show>
        <Links entry={ex()} onFilterResource={props.onFilterResource} />
        <div class="actions">
          <Button
            busy={busy() === "composer"}
            onClick={() => void act("composer", toComposer)}
          >
            Open in composer
          </Button>
          <Button
            busy={busy() === "curl"}
            onClick={() => void act("curl", copyCurl)}
          >
            Copy as curl
          </Button>
          <Button
            busy={busy() === "har"}
            onClick={() => void act("har", copyHar)}
          >
            Copy as HAR entry
          </Button>
        </div>
        <ErrorMessages error={error()} />
      </header>

      <Show when={ex().gate}>
        {(gate) => (
          <section aria-label="Verdict" class="panel">
            <h4>Gate verdict: {verdictTitle(ex())}</h4>
            <Show when={cause()}>
              <p class="likely-cause" role="note">
                <strong>Likely cause: </strong>
                {cause()}
              </p>
            </Show>
            <VerdictChecklist verdict={gate()} />
            <Show when={showCompare() && gate().signingString}>
              {(computed) => (
                <SigningCompare computed={computed()} composer={ex().composerSigningString ?? null} onClientString={setPasted} />
              )}
            </Show>
          </section>
        )}
      </Show>
      <StateChanges id={ex().id} />
      <Show when={ex().tppMessages.length > 0}>
        <ul class="tpp-messages" aria-label="tppMessages">
          <For each={ex().tppMessages}>
            {(m) => (
              <li>
                <code>{m.code}</code> {m.path ? <code>{m.path}</code> : null} {m.text}
              </li>
            )}
          </For>
        </ul>
      </Show>

      <section class="panel" aria-label="Request">
        <h4>Request</h4>
        <HeadersTable headers={ex().request.headers} label="Request headers" highlight={ex().gate?.signedHeaders ?? []} />
        {/* A Digest refusal is about the bytes received: show them as they came, not re-indented. */}
        <BodyView message={ex().request} label="Request body" asReceived={ex().failedStep === "digest"} />
      </section>
      <section class="panel" aria-label="Response">
        <h4>Response</h4>
        <HeadersTable headers={ex().response.headers} label="Response headers" />
        <BodyView message={ex().response} label="Response body" />
      </section>
    </article>
  );
}

export function ExchangeView(props: ExchangeViewProps) {
  const wb = useWorkbench();
  const [entry] = createResource(() => props.id, (id) => wb.client.traffic.entry(id));
  return (
    <div class="exchange-view">
      <ErrorMessages error={entry.error as unknown} title="The exchange could not be read." />
      <Show when={valueOf(entry)} fallback={<Show when={entry.loading}><Loading label="Loading the exchange…" /></Show>}>
        {(e) => (
          <Show
            when={isExchange(e()) ? (e() as Exchange) : null}
            fallback={
              <article class="exchange" aria-label={`Event ${e().id}`}>
                <h3>Event {(e() as Extract<Entry, { kind: "event" }>).event}</h3>
                <p class="hint">{formatInstant(e().at)}</p>
                <Links entry={e()} onFilterResource={props.onFilterResource} />
                <pre class="body" aria-label="Event data" tabIndex={0}>{JSON.stringify((e() as Extract<Entry, { kind: "event" }>).data, null, 2)}</pre>
                <StateChanges id={e().id} noun="event" />
              </article>
            }
          >
            {(ex) => <ExchangeDetail exchange={ex()} onFilterResource={props.onFilterResource} />}
          </Show>
        )}
      </Show>
    </div>
  );
}

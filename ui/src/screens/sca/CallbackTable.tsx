// The captured SCA callbacks, newest first: what the bank's redirect carried (psu-id, psu-corporate-id,
// context, tpp-session-id, or the failure's system/status/code/message) and the persona that got it.
import { For, Show } from "solid-js";
import type { Callback, Persona } from "../../api/types";
import { StatusBadge } from "../../components/StatusBadge";
import { formatInstant } from "../../lib/format";

export function CallbackTable(props: { callbacks: readonly Callback[]; personas: readonly Persona[] }) {
  const personaName = (id: string | null | undefined) =>
    id ? (props.personas.find((p) => p.id === id)?.name ?? id) : "(no persona)";
  return (
    <table class="data">
      <caption>SCA callbacks, newest first</caption>
      <thead>
        <tr>
          <th scope="col">At</th>
          <th scope="col">Outcome</th>
          <th scope="col">Persona</th>
          <th scope="col">Parameters</th>
        </tr>
      </thead>
      <tbody>
        <For each={props.callbacks}>
          {(c) => (
            <tr>
              <td>{formatInstant(c.at)}</td>
              <td>
                <StatusBadge value={c.outcome} />
              </td>
              <td>{personaName(c.personaId)}</td>
              <td>
                <Show
                  when={c.outcome === "success"}
                  fallback={
                    <dl class="params">
                      <dt>system</dt>
                      <dd>{c.system}</dd>
                      <dt>status</dt>
                      <dd>{c.status}</dd>
                      <dt>code</dt>
                      <dd>{c.code}</dd>
                      <dt>message</dt>
                      <dd>{c.message}</dd>
                    </dl>
                  }
                >
                  <dl class="params">
                    <dt>psu-id</dt>
                    <dd>
                      <code>{c.psuId}</code>
                    </dd>
                    <Show when={c.psuCorporateId}>
                      <dt>psu-corporate-id</dt>
                      <dd>
                        <code>{c.psuCorporateId}</code>
                      </dd>
                    </Show>
                    <dt>context</dt>
                    <dd>{c.context}</dd>
                    <dt>tpp-session-id</dt>
                    <dd>
                      <code>{c.tppSessionId}</code>
                    </dd>
                  </dl>
                </Show>
                <details>
                  <summary>All parameters</summary>
                  <pre>{new URLSearchParams(c.query).toString().replace(/&/g, "\n")}</pre>
                </details>
              </td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}

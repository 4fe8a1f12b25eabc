// The authorisations finished lately (`GET /workbench/api/sca/finished`), newest first, and where the bank
// sent each PSU: the TPP's redirect address, the values it carried (psu-id, psu-corporate-id, context,
// tpp-session-id; or a failure's status, code and message) and a link onwards. For an outside app's SCA
// this is where its psu-id is found, whether or not the app was running to receive it.
import { For, Show } from "solid-js";
import type { FinishedAuthorisation } from "../../api/types";
import { StatusBadge } from "../../components/StatusBadge";
import { formatInstant } from "../../lib/format";
import { KIND } from "./PendingList";

const OUTCOME: Record<FinishedAuthorisation["outcome"], string> = {
  SUCCEEDED: "succeeded",
  CANCELLED: "cancelled",
  FAILED: "failed",
};

export function FinishedList(props: { finished: readonly FinishedAuthorisation[] }) {
  return (
    <Show when={props.finished.length > 0} fallback={<p class="hint">No authorisation has finished yet.</p>}>
      <table class="data">
        <caption>Authorisations finished, and where the PSU was sent, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">For</th>
            <th scope="col">TPP</th>
            <th scope="col">Outcome</th>
            <th scope="col">Sent back with</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.finished}>
            {(a) => (
              <tr>
                <td>{formatInstant(a.startedAt)}</td>
                <td>{KIND[a.kind] ?? a.kind}</td>
                <td>{a.tppName}</td>
                <td>
                  <StatusBadge value={OUTCOME[a.outcome] ?? a.outcome} />
                </td>
                <td>
                  {/* The group names the values; a role on the <dl> itself would hide its dt/dd from assistive technology. */}
                  <div role="group" aria-label={`Values sent back to ${a.tppName}`}>
                    <dl class="params">
                      <For each={a.parameters}>
                        {([name, value]) => (
                          <>
                            <dt>{name}</dt>
                            <dd>
                              <code class="wrap">{value}</code>
                            </dd>
                          </>
                        )}
                      </For>
                    </dl>
                  </div>
                  <p class="hint">
                    To <code class="wrap">{a.redirectUri}</code>{" "}
                    <a href={a.redirect} target="_blank" rel="noopener noreferrer">
                      Continue to {a.tppName}
                    </a>
                  </p>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </Show>
  );
}

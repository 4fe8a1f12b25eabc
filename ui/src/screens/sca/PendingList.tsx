// The authorisations still waiting for the PSU (`GET /workbench/api/sca/pending`), newest first: which TPP
// started it, for what, when it expires, and a way into the bank's pages for it (the SCA window).
import { For, Show } from "solid-js";
import type { PendingAuthorisation } from "../../api/types";
import { openScaWindow } from "../../api/native";
import { Button } from "../../components/Button";
import { formatInstant } from "../../lib/format";

export const KIND: Record<PendingAuthorisation["kind"], string> = {
  consent: "Consent",
  payment: "Payment",
  basket: "Signing basket",
  user: "PSU lookup",
};

export function PendingList(props: { pending: readonly PendingAuthorisation[]; onError: (error: unknown) => void }) {
  const open = (url: string) =>
    openScaWindow(url).catch((e: unknown) => {
      props.onError(e);
    });
  return (
    <Show
      when={props.pending.length > 0}
      fallback={<p class="hint">No authorisation is waiting for the PSU.</p>}
    >
      <table class="data">
        <caption>Authorisations waiting for the PSU, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">For</th>
            <th scope="col">TPP</th>
            <th scope="col">Expires</th>
            <th scope="col">Bank's pages</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.pending}>
            {(a) => (
              <tr>
                <td>{formatInstant(a.startedAt)}</td>
                <td>{KIND[a.kind] ?? a.kind}</td>
                <td>{a.tppName}</td>
                <td>{formatInstant(a.expiresAt)}</td>
                <td>
                  <Button aria-label={`Open the SCA of ${a.tppName}'s ${KIND[a.kind]?.toLowerCase() ?? a.kind} started ${formatInstant(a.startedAt)}`} onClick={() => void open(a.scaRedirect)}>
                    Open SCA
                  </Button>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </Show>
  );
}

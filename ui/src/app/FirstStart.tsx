// One line for a first start, on the screen the app opens on (Sandbox data): while the service has seen no
// request yet (its traffic log holds no exchange), where to begin — the Composer, or a TPP app pointed at
// the base URL the header shows. Gone once traffic has arrived (read again when the screen is shown), or
// when dismissed.
import { keyLabel } from "./shortcuts";
import { createEffect, createResource, createSignal, on, Show } from "solid-js";
import { useWorkbench } from "./context";
import { valueOf } from "../lib/resource";

export function FirstStart() {
  const wb = useWorkbench();
  const [dismissed, setDismissed] = createSignal(false);
  const [page, { refetch }] = createResource(() => wb.client.traffic.page({ kind: "exchange" }, null, 1).catch(() => null));
  createEffect(
    on(wb.screen, (screen, before) => {
      if (screen === "sandbox" && before !== undefined && before !== "sandbox") void refetch();
    }),
  );
  const fresh = () => wb.screen() === "sandbox" && valueOf(page)?.entries.length === 0 && !dismissed();
  const baseUrl = () => valueOf(wb.session)?.baseUrl ?? wb.config.baseUrl;
  return (
    <Show when={fresh()}>
      <p class="first-start" role="note">
        <span>
          Where to begin: send a first signed request from the <strong>Composer</strong> ({keyLabel("Alt+2")}), or point your TPP app
          at <code>{baseUrl()}</code>; every request then shows in the Inspector and the Flow.
        </span>
        <button type="button" class="btn link" onClick={() => setDismissed(true)}>
          Dismiss
        </button>
      </p>
    </Show>
  );
}

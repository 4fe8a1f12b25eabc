// Short-lived notices (done, warnings from the service) in a polite live region; errors stay until dismissed.
import { For } from "solid-js";
import { useWorkbench } from "./context";

export function Notices() {
  const wb = useWorkbench();
  return (
    <div class="notices" role="log" aria-live="polite" aria-label="Notices">
      <For each={wb.notices()}>
        {(n) => (
          <div class={`notice ${n.tone}`}>
            <span>{n.text}</span>
            <button type="button" class="btn link" aria-label="Dismiss notice" onClick={() => wb.dismiss(n.id)}>
              ×
            </button>
          </div>
        )}
      </For>
    </div>
  );
}

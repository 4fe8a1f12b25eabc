// Runs a function once after a burst of calls has settled, so a storm of live events (a batch run over
// 100,000 payments, generating transactions for every account) costs one re-read, not one per event.
import { onCleanup } from "solid-js";

export function createDebounced(fn: () => void, ms = 250): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  onCleanup(() => {
    if (timer !== null) clearTimeout(timer);
  });
  return () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, ms);
  };
}

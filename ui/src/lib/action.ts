// One action at a time for a view with several buttons: which one is busy (its key), and the error of the
// last one, shown by the view; the action's own throw is caught here, not left unhandled.
import { createSignal } from "solid-js";
import type { Accessor } from "solid-js";

export interface Actions {
  busy: Accessor<string | null>;
  error: Accessor<unknown>;
  /** Runs `action` as `key` (busy until it ends); a throw becomes `error()`. */
  run: (key: string, action: () => Promise<void>) => Promise<void>;
  clearError: () => void;
}

export function createActions(): Actions {
  const [busy, setBusy] = createSignal<string | null>(null);
  const [error, setError] = createSignal<unknown>(null);
  return {
    busy,
    error,
    run: async (key, action) => {
      setBusy(key);
      setError(null);
      try {
        await action();
      } catch (e) {
        setError(e);
      } finally {
        setBusy(null);
      }
    },
    clearError: () => setError(null),
  };
}

// Fan-out of live events to the views that listen: one subscription per event kind, plus a resync signal
// for views that must read their data afresh after the stream dropped or lagged.
import type { EventKind, WorkbenchEvent } from "../api/types";

export type Listener<K extends EventKind> = (event: WorkbenchEvent<K>) => void;

export interface EventHub {
  on<K extends EventKind>(kind: K, listener: Listener<K>): () => void;
  onResync(listener: () => void): () => void;
  emit(event: WorkbenchEvent): void;
  resync(): void;
}

export function createEventHub(): EventHub {
  const listeners = new Map<EventKind, Set<Listener<EventKind>>>();
  const resyncs = new Set<() => void>();
  return {
    on(kind, listener) {
      let set = listeners.get(kind);
      if (!set) {
        set = new Set();
        listeners.set(kind, set);
      }
      const entry = listener as unknown as Listener<EventKind>;
      set.add(entry);
      return () => set.delete(entry);
    },
    onResync(listener) {
      resyncs.add(listener);
      return () => resyncs.delete(listener);
    },
    emit(event) {
      for (const listener of [...(listeners.get(event.kind) ?? [])]) listener(event);
    },
    resync() {
      for (const listener of [...resyncs]) listener();
    },
  };
}

// The live event stream (`GET /workbench/api/events`) over EventSource with `?token=`: one listener per
// event kind, resumption after the last event seen (the browser sends Last-Event-ID on its own reconnects; a
// stream reopened by eventSource.ts carries it as `?lastEventId=`), views asked to read afresh once it is
// back, and duplicates (an id not above the last one) dropped.
import { openReconnecting, reconnectSettings, withLastEventId } from "./eventSource";
import type { ReconnectSettings } from "./eventSource";
import type { EventKind, WorkbenchEvent } from "./types";

export const EVENT_KINDS: readonly EventKind[] = [
  "payment.status",
  "batch.run",
  "batch.progress",
  "clock",
  "sandbox.changed",
  "sca.step",
  "sca.callback",
  "persona.changed",
  "traffic.cleared",
  "lagged",
];

export interface EventStreamOptions extends ReconnectSettings {
  /** The stream's URL (with `?token=`), before any `lastEventId` is added. */
  url: string;
  onEvent: (event: WorkbenchEvent) => void;
  /** After a reconnection or a `lagged` notice: views should read their data afresh. */
  onResync?: () => void;
}

export interface EventStream {
  close(): void;
  lastEventId(): string | null;
}

function isNewer(id: string, last: string | null): boolean {
  if (last === null) return true;
  const a = Number(id);
  const b = Number(last);
  if (Number.isFinite(a) && Number.isFinite(b)) return a > b;
  return id !== last;
}

export function connectEvents(options: EventStreamOptions): EventStream {
  let lastId: string | null = null;

  const handle = (fallbackKind: string) => (ev: MessageEvent) => {
    const id = ev.lastEventId || null;
    if (id !== null) {
      if (!isNewer(id, lastId)) return;
      lastId = id;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(ev.data));
    } catch {
      return;
    }
    if (typeof parsed !== "object" || parsed === null) return;
    const event = parsed as Partial<WorkbenchEvent>;
    const kind = (typeof event.kind === "string" ? event.kind : fallbackKind) as EventKind;
    const full = { kind, at: event.at ?? "", data: event.data ?? parsed } as WorkbenchEvent;
    if (kind === "lagged") options.onResync?.();
    options.onEvent(full);
  };

  const stream = openReconnecting({
    url: () => withLastEventId(options.url, lastId),
    listen(source) {
      for (const kind of EVENT_KINDS) source.addEventListener(kind, handle(kind));
      source.onmessage = handle("message");
    },
    onReopen: options.onResync,
    ...reconnectSettings(options),
  });

  return { close: () => stream.close(), lastEventId: () => lastId };
}

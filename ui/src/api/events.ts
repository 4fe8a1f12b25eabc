// The live event stream (`GET /workbench/api/events`) over EventSource with `?token=`: one listener per
// event kind, reconnection with backoff, resumption after the last event seen (the browser sends
// Last-Event-ID on its own reconnects; a stream we reopen ourselves carries it as `?lastEventId=`), and
// duplicates (an id not above the last one) dropped.
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
  "lagged",
];

export type ConnectionState = "connecting" | "open" | "reconnecting" | "closed";

/** The part of EventSource this module uses, so tests can hand in a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((this: EventSourceLike, ev: Event) => unknown) | null;
  onerror: ((this: EventSourceLike, ev: Event) => unknown) | null;
  onmessage: ((this: EventSourceLike, ev: MessageEvent) => unknown) | null;
  addEventListener(type: string, listener: (ev: MessageEvent) => void): void;
  close(): void;
}

export type EventSourceFactory = (url: string) => EventSourceLike;

export interface EventStreamOptions {
  /** The stream's URL (with `?token=`), before any `lastEventId` is added. */
  url: string;
  onEvent: (event: WorkbenchEvent) => void;
  onState?: (state: ConnectionState) => void;
  /** After a reconnection or a `lagged` notice: views should read their data afresh. */
  onResync?: () => void;
  create?: EventSourceFactory;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export interface EventStream {
  close(): void;
  lastEventId(): string | null;
}

const CLOSED = 2;

function isNewer(id: string, last: string | null): boolean {
  if (last === null) return true;
  const a = Number(id);
  const b = Number(last);
  if (Number.isFinite(a) && Number.isFinite(b)) return a > b;
  return id !== last;
}

export function withLastEventId(url: string, id: string | null): string {
  if (id === null) return url;
  return `${url}${url.includes("?") ? "&" : "?"}lastEventId=${encodeURIComponent(id)}`;
}

export function connectEvents(options: EventStreamOptions): EventStream {
  const create: EventSourceFactory = options.create ?? ((url) => new EventSource(url) as unknown as EventSourceLike);
  const initialDelay = options.initialDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  let source: EventSourceLike | null = null;
  let lastId: string | null = null;
  let delay = initialDelay;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let opened = false;
  let dropped = false;
  let stopped = false;

  const setState = (state: ConnectionState) => options.onState?.(state);

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

  function open() {
    if (stopped) return;
    timer = null;
    setState(opened ? "reconnecting" : "connecting");
    const es = create(withLastEventId(options.url, lastId));
    source = es;
    for (const kind of EVENT_KINDS) es.addEventListener(kind, handle(kind));
    es.onmessage = handle("message");
    es.onopen = () => {
      delay = initialDelay;
      setState("open");
      if (opened && dropped) options.onResync?.();
      opened = true;
      dropped = false;
    };
    es.onerror = () => {
      if (stopped) return;
      dropped = true;
      setState("reconnecting");
      if (es.readyState === CLOSED) {
        // The browser gave up (an HTTP error, or the stream could not be opened): reopen it ourselves.
        es.close();
        if (source === es) source = null;
        timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, maxDelay);
      }
      // Otherwise the browser reconnects by itself and sends Last-Event-ID.
    };
  }

  open();

  return {
    close() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      source?.close();
      source = null;
      setState("closed");
    },
    lastEventId: () => lastId,
  };
}

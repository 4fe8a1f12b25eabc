// One server-sent-event stream kept open: the reconnect loop both live streams share (the workbench's
// events, events.ts, and the traffic log's entries, traffic.ts). While the browser retries by itself (the
// source still CONNECTING) it is left to do so, as it sends Last-Event-ID on its own; once it gives up (an
// HTTP error, or the stream could not be opened: CLOSED), the stream is reopened here after a delay that
// doubles up to a cap and starts over once a connection opens. Each reopening asks for its URL afresh, so
// the caller can put where to resume in it.

export type ConnectionState = "connecting" | "open" | "reconnecting" | "closed";

/** The part of EventSource the streams use, so tests can hand in a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((this: EventSourceLike, ev: Event) => unknown) | null;
  onerror: ((this: EventSourceLike, ev: Event) => unknown) | null;
  onmessage: ((this: EventSourceLike, ev: MessageEvent) => unknown) | null;
  addEventListener(type: string, listener: (ev: MessageEvent) => void): void;
  close(): void;
}

export type EventSourceFactory = (url: string) => EventSourceLike;

/** The browser's own EventSource. */
export const browserEventSource: EventSourceFactory = (url) => new EventSource(url) as unknown as EventSourceLike;

/** EventSource's readyState once the browser has given up on a stream. */
const CLOSED = 2;

/** How a stream is opened and reopened, and who hears of its state: what every live stream takes. */
export interface ReconnectSettings {
  onState?: (state: ConnectionState) => void;
  /** Opens a source (the browser's EventSource unless given; a fake in tests). */
  create?: EventSourceFactory;
  /** The first delay before reopening (1 s); it doubles on each failure up to `maxDelayMs` (30 s). */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export interface ReconnectingOptions extends ReconnectSettings {
  /** The URL of the next connection, asked at every (re)opening so it can say where to resume. */
  url: () => string;
  /** Adds the stream's listeners to a source just opened. */
  listen: (source: EventSourceLike) => void;
  /** The stream is open again after it dropped (whether the browser or this loop reconnected it). */
  onReopen?: () => void;
}

/** The settings of `options` alone, to hand on to openReconnecting. */
export function reconnectSettings(options: ReconnectSettings): ReconnectSettings {
  const { onState, create, initialDelayMs, maxDelayMs } = options;
  return { onState, create, initialDelayMs, maxDelayMs };
}

export interface ReconnectingStream {
  /** Closes the stream for good: no reconnection follows. */
  close(): void;
}

/** The `?lastEventId=` a stream reopened by hand carries (the browser sends Last-Event-ID only on its own). */
export function withLastEventId(url: string, id: string | null): string {
  if (id === null) return url;
  return `${url}${url.includes("?") ? "&" : "?"}lastEventId=${encodeURIComponent(id)}`;
}

export function openReconnecting(options: ReconnectingOptions): ReconnectingStream {
  const create = options.create ?? browserEventSource;
  const initialDelay = options.initialDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  let source: EventSourceLike | null = null;
  let delay = initialDelay;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let opened = false;
  let dropped = false;
  let stopped = false;

  const setState = (state: ConnectionState) => options.onState?.(state);

  function open() {
    if (stopped) return;
    timer = null;
    setState(opened ? "reconnecting" : "connecting");
    const es = create(options.url());
    source = es;
    options.listen(es);
    es.onopen = () => {
      delay = initialDelay;
      setState("open");
      if (opened && dropped) options.onReopen?.();
      opened = true;
      dropped = false;
    };
    es.onerror = () => {
      if (stopped) return;
      dropped = true;
      setState("reconnecting");
      if (es.readyState === CLOSED) {
        es.close();
        if (source === es) source = null;
        timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, maxDelay);
      }
    };
  }

  open();

  return {
    close() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      source?.close();
      source = null;
      setState("closed");
    },
  };
}

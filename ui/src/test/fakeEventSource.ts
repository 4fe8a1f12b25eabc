// An EventSource stand-in the tests drive by hand: open it, deliver events with ids, make it fail.
import type { EventSourceLike } from "../api/eventSource";

export class FakeEventSource implements EventSourceLike {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onopen: EventSourceLike["onopen"] = null;
  onerror: EventSourceLike["onerror"] = null;
  onmessage: EventSourceLike["onmessage"] = null;
  readonly listeners = new Map<string, ((ev: MessageEvent) => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  static reset(): void {
    FakeEventSource.instances = [];
  }

  static latest(): FakeEventSource {
    const last = FakeEventSource.instances[FakeEventSource.instances.length - 1];
    if (!last) throw new Error("no EventSource was opened");
    return last;
  }

  addEventListener(type: string, listener: (ev: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.readyState = 2;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.call(this, new Event("open"));
  }

  /** Delivers one event as the service writes it: `id`, `event: kind`, `data: {kind, at, data}`. */
  emit(kind: string, data: unknown, id?: number): void {
    const ev = new MessageEvent(kind, {
      data: JSON.stringify({ kind, at: "2026-06-01T12:00:00Z", data }),
      lastEventId: id === undefined ? "" : String(id),
    });
    for (const listener of this.listeners.get(kind) ?? []) listener(ev);
  }

  /** Delivers one event whose data is sent as it is (the traffic stream's entries). */
  emitRaw(type: string, data: unknown, id?: number): void {
    const ev = new MessageEvent(type, { data: JSON.stringify(data), lastEventId: id === undefined ? "" : String(id) });
    for (const listener of this.listeners.get(type) ?? []) listener(ev);
  }

  static find(part: string): FakeEventSource | undefined {
    return [...FakeEventSource.instances].reverse().find((s) => s.url.includes(part));
  }

  /** The connection fails; `closed` when the browser gives up instead of reconnecting itself. */
  fail(closed: boolean): void {
    this.readyState = closed ? 2 : 0;
    this.onerror?.call(this, new Event("error"));
  }
}

// The event stream: events delivered by kind, duplicates dropped, reconnection with backoff resuming
// after the last event id, and a resync after the stream came back.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { connectEvents } from "./events";
import type { WorkbenchEvent } from "./types";
import { FakeEventSource } from "../test/fakeEventSource";

const URL_ = "http://127.0.0.1:8080/workbench/api/events?token=t";

describe("connectEvents", () => {
  beforeEach(() => {
    FakeEventSource.reset();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  function connect() {
    const events: WorkbenchEvent[] = [];
    const states: string[] = [];
    const onResync = vi.fn();
    const stream = connectEvents({
      url: URL_,
      onEvent: (e) => events.push(e),
      onState: (s) => states.push(s),
      onResync,
      create: (url) => new FakeEventSource(url),
    });
    return { stream, events, states, onResync };
  }

  it("opens the stream with the token and delivers events by kind", () => {
    const { events, states } = connect();
    const es = FakeEventSource.latest();
    expect(es.url).toBe(URL_);
    es.open();
    es.emit("payment.status", { paymentId: "p1", before: "ACTC", after: "ACSC" }, 1);
    expect(states).toEqual(["connecting", "open"]);
    expect(events).toEqual([
      { kind: "payment.status", at: "2026-06-01T12:00:00Z", data: { paymentId: "p1", before: "ACTC", after: "ACSC" } },
    ]);
  });

  it("drops an event whose id is not above the last one seen", () => {
    const { events } = connect();
    const es = FakeEventSource.latest();
    es.open();
    es.emit("clock", { now: "a", mode: "real" }, 5);
    es.emit("clock", { now: "a", mode: "real" }, 5);
    es.emit("clock", { now: "b", mode: "real" }, 4);
    es.emit("clock", { now: "c", mode: "real" }, 6);
    expect(events.map((e) => (e.data as { now: string }).now)).toEqual(["a", "c"]);
  });

  it("leaves reconnecting to the browser while it tries (it sends Last-Event-ID itself)", () => {
    const { states } = connect();
    const es = FakeEventSource.latest();
    es.open();
    es.fail(false);
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(states.at(-1)).toBe("reconnecting");
  });

  it("reopens a closed stream with backoff, resuming after the last event id, then asks views to resync", () => {
    const { onResync, states } = connect();
    const first = FakeEventSource.latest();
    first.open();
    first.emit("batch.run", { id: "run-1" }, 41);
    first.emit("batch.run", { id: "run-2" }, 42);
    first.fail(true);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = FakeEventSource.latest();
    expect(second).not.toBe(first);
    expect(second.url).toBe(`${URL_}&lastEventId=42`);

    // A second failure waits twice as long.
    second.fail(true);
    vi.advanceTimersByTime(1999);
    expect(FakeEventSource.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    const third = FakeEventSource.latest();
    expect(third.url).toBe(`${URL_}&lastEventId=42`);
    expect(onResync).not.toHaveBeenCalled();
    third.open();
    expect(onResync).toHaveBeenCalledTimes(1);
    expect(states.at(-1)).toBe("open");
  });

  it("asks views to resync when the service says the stream lagged", () => {
    const { onResync } = connect();
    const es = FakeEventSource.latest();
    es.open();
    es.emit("lagged", { missed: 12 });
    expect(onResync).toHaveBeenCalledTimes(1);
  });

  it("stops for good when closed", () => {
    const { stream, states } = connect();
    const es = FakeEventSource.latest();
    es.open();
    stream.close();
    expect(es.readyState).toBe(2);
    expect(states.at(-1)).toBe("closed");
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});

// The reconnect loop both live streams share: the browser's own retries left alone, a stream the browser
// gave up on reopened with a doubling, capped delay that starts over once open, its URL asked afresh each
// time, the reopening announced, and nothing after close.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeEventSource } from "../test/fakeEventSource";
import { openReconnecting, withLastEventId } from "./eventSource";

describe("openReconnecting", () => {
  beforeEach(() => {
    FakeEventSource.reset();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  function open(initialDelayMs = 100, maxDelayMs = 400) {
    const states: string[] = [];
    const listened: FakeEventSource[] = [];
    const onReopen = vi.fn();
    let resumeAt = 0;
    const stream = openReconnecting({
      url: () => `u?at=${resumeAt}`,
      listen: (source) => listened.push(source as FakeEventSource),
      onState: (s) => states.push(s),
      onReopen,
      create: (url) => new FakeEventSource(url),
      initialDelayMs,
      maxDelayMs,
    });
    return { stream, states, listened, onReopen, resumeFrom: (n: number) => (resumeAt = n) };
  }

  it("leaves reconnecting to the browser while it retries, and says the stream is back", () => {
    const { states, onReopen } = open();
    const es = FakeEventSource.latest();
    es.open();
    expect(onReopen).not.toHaveBeenCalled();
    es.fail(false);
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(states).toEqual(["connecting", "open", "reconnecting"]);
    es.open();
    expect(onReopen).toHaveBeenCalledTimes(1);
    expect(states.at(-1)).toBe("open");
  });

  it("reopens a stream the browser gave up on after a doubling delay up to the cap, asking its URL each time", () => {
    const { listened, resumeFrom, states } = open(100, 400);
    const first = FakeEventSource.latest();
    expect(first.url).toBe("u?at=0");
    expect(listened).toEqual([first]);
    resumeFrom(7);
    const waits: number[] = [];
    let current = first;
    for (let attempt = 0; attempt < 4; attempt++) {
      current.fail(true);
      expect(current.readyState).toBe(2);
      let waited = 0;
      while (FakeEventSource.latest() === current) {
        vi.advanceTimersByTime(50);
        waited += 50;
      }
      waits.push(waited);
      current = FakeEventSource.latest();
      expect(current.url).toBe("u?at=7");
    }
    expect(waits).toEqual([100, 200, 400, 400]);
    expect(listened).toHaveLength(5);
    // Never open yet: still connecting, not reconnecting.
    expect(states.at(-1)).toBe("connecting");
  });

  it("starts the delay over once a connection opens, and asks for a resync after it", () => {
    const { onReopen } = open(100, 1000);
    const first = FakeEventSource.latest();
    first.open();
    first.fail(true);
    vi.advanceTimersByTime(100);
    const second = FakeEventSource.latest();
    second.fail(true);
    vi.advanceTimersByTime(200);
    const third = FakeEventSource.latest();
    expect(third).not.toBe(second);
    third.open();
    expect(onReopen).toHaveBeenCalledTimes(1);
    third.fail(true);
    vi.advanceTimersByTime(99);
    expect(FakeEventSource.latest()).toBe(third);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.latest()).not.toBe(third);
  });

  it("stops for good when closed, a pending reopening included", () => {
    const { stream, states } = open();
    const es = FakeEventSource.latest();
    es.fail(true);
    stream.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(states.at(-1)).toBe("closed");
    es.fail(true);
    expect(states.at(-1)).toBe("closed");
  });
});

describe("withLastEventId", () => {
  it("adds the resume point to the URL's query, or leaves the URL alone without one", () => {
    expect(withLastEventId("http://h/s?token=t", "42")).toBe("http://h/s?token=t&lastEventId=42");
    expect(withLastEventId("http://h/s", "a b")).toBe("http://h/s?lastEventId=a%20b");
    expect(withLastEventId("http://h/s", null)).toBe("http://h/s");
  });
});

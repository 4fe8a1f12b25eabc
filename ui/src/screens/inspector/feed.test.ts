// The inspector's feed: live entries batched per frame, duplicates dropped, pages merged, the cap kept.
import { createRoot } from "solid-js";
import { describe, expect, it } from "vitest";
import type { Entry } from "../../api/traffic";
import { exchangeSummary } from "../../test/fixtures";
import { createFeed } from "./feed";

const entry = (id: number): Entry => exchangeSummary(id, { path: `/v1/accounts/${id}` });

function harness(cap?: number, slack = 0) {
  const frames: (() => void)[] = [];
  const feed = createRoot(() => createFeed({ cap, slack, schedule: (f) => frames.push(f) }));
  const frame = () => frames.splice(0).forEach((f) => f());
  return { feed, frames, frame };
}

describe("feed", () => {
  it("appends a burst of live entries in one update per frame", () => {
    const { feed, frames, frame } = harness();
    const before = feed.version();
    for (let i = 1; i <= 2000; i++) feed.push(entry(i));
    expect(frames).toHaveLength(1);
    expect(feed.items).toHaveLength(0);
    frame();
    expect(feed.items).toHaveLength(2000);
    expect(feed.version()).toBe(before + 1);
    expect(feed.items[0]!.id).toBe(1);
  });

  it("keeps the same array and the same entry objects (rows in view are not rebuilt)", () => {
    const { feed, frame } = harness();
    const array = feed.items;
    const first = entry(1);
    feed.push(first);
    frame();
    feed.push(entry(2));
    frame();
    expect(feed.items).toBe(array);
    expect(feed.items[0]).toBe(first);
  });

  it("drops an entry it already has (a resumed stream repeats the edge)", () => {
    const { feed, frame } = harness();
    feed.push(entry(5));
    feed.push(entry(5));
    frame();
    feed.push(entry(5));
    frame();
    expect(feed.items.map((e) => e.id)).toEqual([5]);
  });

  it("puts an entry that comes late (numbered when its request arrived) in its place", () => {
    const { feed, frame } = harness();
    for (const id of [1, 2, 4, 5]) feed.push(entry(id));
    frame();
    feed.push(entry(3));
    feed.push(entry(6));
    frame();
    expect(feed.items.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("a page resets the list oldest first and keeps queued entries it does not hold", () => {
    const { feed, frame } = harness();
    feed.push(entry(9));
    feed.push(entry(12));
    feed.push(entry(7));
    feed.reset([entry(10), entry(9), entry(8)]);
    expect(feed.items.map((e) => e.id)).toEqual([8, 9, 10]);
    frame();
    expect(feed.items.map((e) => e.id)).toEqual([7, 8, 9, 10, 12]);
    expect(feed.newestId()).toBe(12);
    feed.push(entry(9));
    frame();
    expect(feed.items).toHaveLength(5);
  });

  it("an older page goes before the first entry", () => {
    const { feed } = harness();
    feed.reset([entry(10), entry(9)]);
    feed.prepend([entry(9), entry(8), entry(7)]);
    expect(feed.items.map((e) => e.id)).toEqual([7, 8, 9, 10]);
    expect(feed.prepended()).toBe(2);
  });

  it("keeps at most the cap, dropping the oldest", () => {
    const { feed, frame } = harness(3);
    for (let i = 1; i <= 5; i++) feed.push(entry(i));
    frame();
    expect(feed.items.map((e) => e.id)).toEqual([3, 4, 5]);
    expect(feed.dropped()).toBe(2);
  });

  it("drops in chunks once the slack past the cap is used up", () => {
    const { feed, frame } = harness(4, 2);
    for (let i = 1; i <= 6; i++) feed.push(entry(i));
    frame();
    expect(feed.items).toHaveLength(6);
    expect(feed.dropped()).toBe(0);
    feed.push(entry(7));
    frame();
    expect(feed.items.map((e) => e.id)).toEqual([4, 5, 6, 7]);
    expect(feed.dropped()).toBe(3);
  });
});

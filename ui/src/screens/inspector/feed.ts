// The inspector's list model: entries oldest first in one plain array, mutated in place, with a version
// signal readers track instead of the array. Live entries are queued and appended once per animation frame,
// so 2,000 arriving per second cost one list update per frame, not 2,000; the array is never copied, so
// rows that stay in view keep their DOM (the list is keyed by entry object).
import { createSignal } from "solid-js";
import type { Accessor } from "solid-js";
import type { Entry } from "../../api/traffic";

export interface FeedOptions {
  /** Most entries kept; the oldest go first when more arrive (in chunks of `slack`). */
  cap?: number;
  /**
   * How far past the cap the list may grow before the oldest are dropped. Dropping shifts every index, so
   * doing it once per `slack` entries rather than on every frame keeps the rows in view from being rebuilt.
   */
  slack?: number;
  /** Runs a flush later; requestAnimationFrame in the browser, a hand-driven queue in tests. */
  schedule?: (flush: () => void) => void;
}

export interface Feed {
  /** The entries, oldest first. Read `version()` first to track changes; do not mutate. */
  readonly items: readonly Entry[];
  version: Accessor<number>;
  /** Queues a live entry; it appears, in id order, at the next flush. Entries already held are dropped. */
  push(entry: Entry): void;
  /** Appends the queued entries now (the scheduler calls this). */
  flush(): void;
  /** Replaces everything with a page as the API gives it (newest first). */
  reset(newestFirst: readonly Entry[]): void;
  /** Puts an older page (newest first) before the first entry. */
  prepend(newestFirst: readonly Entry[]): void;
  /** How many entries have been dropped from the front so far (the list keeps the view steady with it). */
  dropped: Accessor<number>;
  /** How many older entries have been put before the first so far (likewise). */
  prepended: Accessor<number>;
  /** The newest id held or queued, or null when empty. */
  newestId(): number | null;
  pending(): number;
}

const defaultSchedule = (flush: () => void) => {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => flush());
  else setTimeout(flush, 16);
};

/** Where `id` goes in `items` (ascending ids): searched back from the end, where late entries land. */
function insertionIndex(items: readonly Entry[], id: number): number {
  let hi = items.length;
  for (let steps = 0; hi > 0 && steps < 64; steps++, hi--) if ((items[hi - 1] as Entry).id < id) return hi;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((items[mid] as Entry).id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createFeed(options: FeedOptions = {}): Feed {
  const cap = options.cap ?? 100_000;
  const slack = options.slack ?? Math.ceil(cap / 10);
  const schedule = options.schedule ?? defaultSchedule;
  const items: Entry[] = [];
  /** The ids held or queued: entries come out of id order (an exchange is numbered when its request
   * arrives, written when it ends), so repeats are told by id, not by "at or below the newest". */
  const held = new Set<number>();
  let queue: Entry[] = [];
  let scheduled = false;
  let newest: number | null = null;
  const [version, setVersion] = createSignal(0);
  const [dropped, setDropped] = createSignal(0);
  const [prepended, setPrepended] = createSignal(0);
  const bump = () => setVersion((v) => v + 1);
  const see = (id: number) => {
    held.add(id);
    if (newest === null || id > newest) newest = id;
  };

  /** Drops the oldest past the cap, live: only once the slack is used up; `force` (a page read): now. */
  const trim = (force = false) => {
    if (items.length > cap + (force ? 0 : slack)) {
      const n = items.length - cap;
      for (const gone of items.splice(0, n)) held.delete(gone.id);
      if (!force) setDropped((d) => d + n);
    }
  };

  const flush = () => {
    scheduled = false;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    for (const entry of batch) {
      const last = items[items.length - 1];
      if (!last || entry.id > last.id) items.push(entry);
      else items.splice(insertionIndex(items, entry.id), 0, entry);
    }
    trim();
    bump();
  };

  return {
    items,
    version,
    dropped,
    prepended,
    push(entry) {
      if (held.has(entry.id)) return;
      see(entry.id);
      queue.push(entry);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
    reset(newestFirst) {
      items.length = 0;
      held.clear();
      newest = null;
      for (let i = newestFirst.length - 1; i >= 0; i--) {
        const entry = newestFirst[i] as Entry;
        if (held.has(entry.id)) continue;
        items.push(entry);
        see(entry.id);
      }
      // Queued live entries the page does not hold stay queued (they are put in place at the next flush).
      queue = queue.filter((e) => !held.has(e.id));
      for (const e of queue) see(e.id);
      trim(true);
      bump();
    },
    prepend(newestFirst) {
      const first = items[0]?.id ?? Infinity;
      const older = newestFirst.filter((e) => e.id < first && !held.has(e.id)).reverse();
      if (older.length === 0) return;
      for (const e of older) see(e.id);
      items.unshift(...older);
      setPrepended((p) => p + older.length);
      bump();
    },
    newestId: () => newest,
    pending: () => queue.length,
  };
}

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
  /** Queues a live entry; it appears at the next flush. Entries at or below the newest id are dropped. */
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

export function createFeed(options: FeedOptions = {}): Feed {
  const cap = options.cap ?? 100_000;
  const slack = options.slack ?? Math.ceil(cap / 10);
  const schedule = options.schedule ?? defaultSchedule;
  const items: Entry[] = [];
  let queue: Entry[] = [];
  let scheduled = false;
  let newest: number | null = null;
  const [version, setVersion] = createSignal(0);
  const [dropped, setDropped] = createSignal(0);
  const [prepended, setPrepended] = createSignal(0);
  const bump = () => setVersion((v) => v + 1);

  /** Drops the oldest past the cap, live: only once the slack is used up; `force` (a page read): now. */
  const trim = (force = false) => {
    if (items.length > cap + (force ? 0 : slack)) {
      const n = items.length - cap;
      items.splice(0, n);
      if (!force) setDropped((d) => d + n);
    }
  };

  const flush = () => {
    scheduled = false;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    for (const entry of batch) items.push(entry);
    trim();
    bump();
  };

  return {
    items,
    version,
    dropped,
    prepended,
    push(entry) {
      if (newest !== null && entry.id <= newest) return;
      newest = entry.id;
      queue.push(entry);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
    reset(newestFirst) {
      items.length = 0;
      // Queued live entries newer than the page stay queued; older ones the page already holds.
      const top = newestFirst[0]?.id ?? null;
      queue = top === null ? queue : queue.filter((e) => e.id > top);
      for (let i = newestFirst.length - 1; i >= 0; i--) items.push(newestFirst[i] as Entry);
      const queued = queue[queue.length - 1]?.id ?? null;
      newest = queued ?? top ?? newest;
      trim(true);
      bump();
    },
    prepend(newestFirst) {
      const first = items[0]?.id ?? Infinity;
      const older = newestFirst.filter((e) => e.id < first).reverse();
      if (older.length === 0) return;
      items.unshift(...older);
      setPrepended((p) => p + older.length);
      bump();
    },
    newestId: () => newest,
    pending: () => queue.length,
  };
}

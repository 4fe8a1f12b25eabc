// A virtualised list of fixed-height rows: only the rows in view (plus a few either side) are in the DOM, so
// 100,000 rows scroll smoothly, and rows appended live keep the view pinned to the end when it was there.
// Keyboard: the list is a listbox that keeps the focus itself; arrows, Page Up/Down, Home and End move the
// active row, named to assistive technology through aria-activedescendant (the row is always rendered, as
// moving scrolls it into view), so arrowing announces the row. Written by hand rather than over
// @tanstack/solid-virtual: with rows of one height the range is arithmetic, while the package rebuilds its
// measurement of every row on each append (100,000 objects per frame on a live tail) and cost the inspector
// 1.3-1.8x the main thread's script time in scripts/frame-time.mjs (ui/README.md, Frame time).
import { createEffect, createMemo, createSignal, createUniqueId, For, Index, on, onCleanup, onMount, Show, untrack } from "solid-js";
import type { JSX } from "solid-js";

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  /** The viewport's height in pixels, used until (or instead of) the element's measured height. */
  height: number;
  label: string;
  renderRow: (item: T, index: number) => JSX.Element;
  overscan?: number;
  /** Keep the last row in view when rows are appended while the view is at the end (a live log). */
  follow?: boolean;
  onActivate?: (item: T, index: number) => void;
  /**
   * Key rows by item identity instead of by slot: a row whose item stays in view keeps its DOM and is only
   * moved. For a live tail (every slot's item changes on each append) where items are stable objects.
   */
  keyed?: boolean;
  /**
   * How many rows have been removed from the front so far (a capped log drops its oldest). When it grows,
   * the view moves up by as many rows, so the rows being read stay put instead of sliding away.
   */
  dropped?: number;
  /** How many rows have been put before the first so far (older pages): the view moves down by as many. */
  prepended?: number;
  /** Called when the view comes near the first row (to read an older page). */
  onNearStart?: () => void;
}

/** The rows to render for a scroll position: [start, end) clamped to the list. */
export function visibleRange(
  scrollTop: number,
  viewport: number,
  rowHeight: number,
  count: number,
  overscan: number,
): [number, number] {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const inView = Math.ceil(viewport / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + inView + overscan);
  return [start, Math.max(start, end)];
}

export function VirtualList<T>(props: VirtualListProps<T>) {
  let viewportEl!: HTMLDivElement;
  const listId = createUniqueId();
  const rowId = (index: number) => `${listId}-row-${index}`;
  const [scrollTop, setScrollTop] = createSignal(0);
  const [measured, setMeasured] = createSignal(0);
  const [active, setActive] = createSignal(-1);
  const viewport = () => measured() || props.height;
  const count = () => props.items.length;

  // The scroll position as far as the rows reach: when the list shrinks under a view scrolled far down (a
  // filter such as "Failed only" replacing 500 rows by 6), the element's own scrollTop is clamped by the
  // browser, but no scroll event need follow, and a stale position would render no row at all while the
  // list holds six.
  const reachableTop = () => Math.min(scrollTop(), Math.max(0, count() * props.rowHeight - viewport()));
  const range = createMemo(() => visibleRange(reachableTop(), viewport(), props.rowHeight, count(), props.overscan ?? 8));
  // The rows in view. <Index> keeps one DOM row per slot and only updates the slots whose item changed,
  // so appending rows out of view, or scrolling, re-renders nothing more than the slots that show new rows.
  const slice = createMemo(() => {
    const [start, end] = range();
    return props.items.slice(start, end);
  });
  const start = () => range()[0];

  /** Whether a view at `top` shows the last rows (or near them). */
  const atEnd = (top: number, rows = count()) => top + viewport() >= rows * props.rowHeight - props.rowHeight * 2;

  // While the list has no box (its screen is hidden), an effect's scrollTop goes nowhere and no scroll
  // event comes, so the position read from the element and the element's own part: the list came back
  // showing empty space where rows were expected. When the box is back (measured again), they are made
  // one: a following list that was at its end is put at its (new) end, any other takes the element's.
  const resync = () => {
    if (props.follow && atEnd(scrollTop())) viewportEl.scrollTop = Math.max(0, count() * props.rowHeight - viewport());
    setScrollTop(viewportEl.scrollTop);
  };

  onMount(() => {
    const measure = () => {
      const height = viewportEl.clientHeight;
      setMeasured(height);
      if (height > 0) resync();
    };
    measure();
    if (typeof ResizeObserver !== "undefined") {
      const observer = new ResizeObserver(measure);
      observer.observe(viewportEl);
      onCleanup(() => observer.disconnect());
    }
  });

  // Follow the end of a live list: it opens at its newest row, and when rows arrive while the view is at
  // (or near) the end, it stays there.
  createEffect(
    on(count, (now, before) => {
      // Shrunk: keep the element and the position read from it in step with what is reachable.
      if (before !== undefined && now < before && scrollTop() > reachableTop()) {
        const top = reachableTop();
        viewportEl.scrollTop = top;
        setScrollTop(top);
      }
      if (!props.follow || now <= (before ?? 0)) return;
      if (before === undefined || atEnd(scrollTop(), before)) {
        const top = Math.max(0, now * props.rowHeight - viewport());
        viewportEl.scrollTop = top;
        setScrollTop(top);
      }
    }),
  );

  createEffect(
    on(
      () => props.dropped ?? 0,
      (now, before) => {
        if (before === undefined || now <= before) return;
        const top = Math.max(0, viewportEl.scrollTop - (now - before) * props.rowHeight);
        viewportEl.scrollTop = top;
        setScrollTop(top);
        setActive((a) => (a < 0 ? a : Math.max(-1, a - (now - before))));
      },
    ),
  );

  createEffect(
    on(
      () => props.prepended ?? 0,
      (now, before) => {
        if (before === undefined || now <= before) return;
        const top = viewportEl.scrollTop + (now - before) * props.rowHeight;
        viewportEl.scrollTop = top;
        setScrollTop(top);
        setActive((a) => (a < 0 ? a : a + (now - before)));
      },
    ),
  );

  const onScroll = (top: number) => {
    setScrollTop(top);
    if (props.onNearStart && top < props.rowHeight * 5 && count() > 0) props.onNearStart();
  };

  const scrollIntoView = (index: number) => {
    const top = index * props.rowHeight;
    const bottom = top + props.rowHeight;
    if (top < viewportEl.scrollTop) viewportEl.scrollTop = top;
    else if (bottom > viewportEl.scrollTop + viewport()) viewportEl.scrollTop = bottom - viewport();
    setScrollTop(viewportEl.scrollTop);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const n = count();
    if (n === 0) return;
    const page = Math.max(1, Math.floor(viewport() / props.rowHeight) - 1);
    const current = active() < 0 ? range()[0] : active();
    // The first arrow press into a list with no active row takes the first row in view.
    const step = active() < 0 ? 0 : 1;
    let next = current;
    if (e.key === "ArrowDown") next = current + step;
    else if (e.key === "ArrowUp") next = current - step;
    else if (e.key === "PageDown") next = current + page;
    else if (e.key === "PageUp") next = current - page;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = n - 1;
    else if (e.key === "Enter" && active() >= 0) {
      props.onActivate?.(props.items[active()] as T, active());
      return;
    } else return;
    e.preventDefault();
    next = Math.max(0, Math.min(n - 1, next));
    setActive(next);
    scrollIntoView(next);
  };

  const row = (item: () => T, slot: () => number) => {
    const index = () => start() + slot();
    return (
      <div
        role="option"
        id={rowId(index())}
        class="virtual-row"
        classList={{ active: active() === index() }}
        aria-setsize={count()}
        aria-posinset={index() + 1}
        aria-selected={active() === index()}
        style={{ transform: `translateY(${index() * props.rowHeight}px)`, height: `${props.rowHeight}px` }}
        onClick={() => {
          setActive(index());
          props.onActivate?.(item(), index());
        }}
      >
        {/* Keyed rows are built once per item: their content must not rebuild as the row's index moves. */}
        {props.keyed ? untrack(() => props.renderRow(item(), index())) : props.renderRow(item(), index())}
      </div>
    );
  };

  // <Index> hands a changing item to a fixed slot; <For> a fixed item to a moving position.
  const slotRow = (item: () => T, slot: number) => row(item, () => slot);
  const keyedRow = (item: T, position: () => number) => row(() => item, position);

  return (
    <div
      ref={viewportEl}
      class="virtual-list"
      role="listbox"
      aria-label={props.label}
      aria-activedescendant={active() >= 0 && active() >= range()[0] && active() < range()[1] ? rowId(active()) : undefined}
      tabIndex={0}
      style={{ height: `${props.height}px` }}
      onScroll={(e) => onScroll(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
    >
      <div class="virtual-spacer" style={{ height: `${count() * props.rowHeight}px` }}>
        <Show when={props.keyed} fallback={<Index each={slice()}>{slotRow}</Index>}>
          <For each={slice()}>{keyedRow}</For>
        </Show>
      </div>
    </div>
  );
}

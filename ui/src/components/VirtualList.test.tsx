// The virtual list renders only the rows in view out of 100,000, follows scrolling, and stays at the end
// while rows are appended live.
import { fireEvent, render, screen, within } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it } from "vitest";
import { VirtualList, visibleRange } from "./VirtualList";

const ROWS = Array.from({ length: 100_000 }, (_, i) => `row ${i}`);

/** jsdom has no layout: give the viewport a scroll position that sticks. */
function scrollTo(element: HTMLElement, top: number) {
  Object.defineProperty(element, "scrollTop", { configurable: true, writable: true, value: top });
  fireEvent.scroll(element);
}

describe("visibleRange", () => {
  it("covers the viewport plus the overscan, clamped to the list", () => {
    expect(visibleRange(0, 400, 20, 100_000, 5)).toEqual([0, 26]);
    expect(visibleRange(1_000_000, 400, 20, 100_000, 5)).toEqual([49_995, 50_026]);
    expect(visibleRange(2_000_000, 400, 20, 100_000, 5)).toEqual([99_995, 100_000]);
    expect(visibleRange(0, 400, 20, 3, 5)).toEqual([0, 3]);
  });
});

describe("VirtualList", () => {
  it("renders only the visible rows of 100,000 and says how many there are", () => {
    render(() => <VirtualList items={ROWS} rowHeight={20} height={400} overscan={5} label="Log" renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Log" });
    const items = within(list).getAllByRole("option");
    expect(items.length).toBeLessThanOrEqual(30);
    expect(items[0]).toHaveTextContent("row 0");
    expect(items[0]).toHaveAttribute("aria-setsize", "100000");
    expect(items[0]).toHaveAttribute("aria-posinset", "1");
    // The spacer gives the scrollbar the whole list's height.
    expect((list.firstElementChild as HTMLElement).style.height).toBe("2000000px");
  });

  it("renders the rows around the scroll position", () => {
    render(() => <VirtualList items={ROWS} rowHeight={20} height={400} overscan={5} label="Log" renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Log" });
    scrollTo(list, 50_000 * 20);
    const items = within(list).getAllByRole("option");
    // 20 rows in view, one partly, and 5 either side.
    expect(items.length).toBeLessThanOrEqual(31);
    expect(within(list).getByText("row 50000")).toBeInTheDocument();
    expect(within(list).queryByText("row 0")).not.toBeInTheDocument();
    expect(within(list).getByText("row 50000").closest("[role=option]")).toHaveAttribute("aria-posinset", "50001");
  });

  it("keeps the last row in view while rows are appended, when following", () => {
    const [rows, setRows] = createSignal(ROWS.slice(0, 1000));
    render(() => <VirtualList items={rows()} rowHeight={20} height={400} label="Live" follow renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Live" });
    scrollTo(list, 1000 * 20 - 400);
    expect(within(list).getByText("row 999")).toBeInTheDocument();
    for (let batch = 0; batch < 20; batch++) setRows((r) => [...r, ...ROWS.slice(r.length, r.length + 100)]);
    expect(list.scrollTop).toBe(3000 * 20 - 400);
    expect(within(list).getByText("row 2999")).toBeInTheDocument();
    expect(within(list).getAllByRole("option").length).toBeLessThanOrEqual(40);
  });

  it("opens a live list at its newest row and follows from there", () => {
    const [rows, setRows] = createSignal(ROWS.slice(0, 1000));
    render(() => <VirtualList items={rows()} rowHeight={20} height={400} label="Live" follow renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Live" });
    expect(list.scrollTop).toBe(1000 * 20 - 400);
    expect(within(list).getByText("row 999")).toBeInTheDocument();
    setRows(ROWS.slice(0, 1100));
    expect(list.scrollTop).toBe(1100 * 20 - 400);
  });

  // The inspector's "Failed only" once showed an empty list while its status said "6 entries": the list
  // had followed 500 rows to their end, the filter replaced them by 6, and the position read from the last
  // scroll still pointed 500 rows down. No scroll event is needed for the rows left to show.
  it("shows the rows left when the list shrinks under a view scrolled far down, without a scroll event", () => {
    const [rows, setRows] = createSignal(ROWS.slice(0, 500));
    render(() => <VirtualList items={rows()} rowHeight={28} height={560} label="Live" follow keyed renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Live" });
    expect(within(list).getByText("row 499")).toBeInTheDocument();
    setRows(ROWS.slice(0, 6));
    expect(within(list).getAllByRole("option").map((o) => o.textContent)).toEqual(ROWS.slice(0, 6));
    expect(list.scrollTop).toBe(0);
  });

  // The same race seen in a browser: the list follows live rows while its screen is hidden (no box: the
  // element cannot scroll, no scroll event comes), and came back showing empty space. When its box is
  // measured again it is put at its end.
  it("comes back at its end after following rows while it had no box", () => {
    let measureAgain: () => void = () => undefined;
    const Observer = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(callback: () => void) {
        measureAgain = callback;
      }
      observe() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    try {
      const [rows, setRows] = createSignal(ROWS.slice(0, 60));
      render(() => <VirtualList items={rows()} rowHeight={28} height={560} label="Live" follow keyed renderRow={(r) => <span>{r}</span>} />);
      const list = screen.getByRole("listbox", { name: "Live" });
      // Hidden: the element keeps its position (its scrollTop cannot move), the rows go on arriving.
      Object.defineProperty(list, "scrollTop", { configurable: true, get: () => 60 * 28 - 560, set: () => undefined });
      setRows(ROWS.slice(0, 100));
      // Shown again: the browser measures it, and it is put at its end, where the newest rows are drawn.
      Object.defineProperty(list, "clientHeight", { configurable: true, value: 560 });
      let top = 0;
      Object.defineProperty(list, "scrollTop", { configurable: true, get: () => top, set: (v: number) => (top = v) });
      measureAgain();
      expect(top).toBe(100 * 28 - 560);
      expect(within(list).getByText("row 99")).toBeInTheDocument();
    } finally {
      globalThis.ResizeObserver = Observer;
    }
  });

  it("opens a list that does not follow at its first row", () => {
    render(() => <VirtualList items={ROWS.slice(0, 1000)} rowHeight={20} height={400} label="Log" renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Log" });
    expect(list.scrollTop).toBe(0);
    expect(within(list).getByText("row 0")).toBeInTheDocument();
  });

  it("does not jump to the end while the reader is looking further up", () => {
    const [rows, setRows] = createSignal(ROWS.slice(0, 1000));
    render(() => <VirtualList items={rows()} rowHeight={20} height={400} label="Live" follow renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Live" });
    scrollTo(list, 100 * 20);
    setRows(ROWS.slice(0, 2000));
    expect(list.scrollTop).toBe(2000);
    expect(within(list).getByText("row 100")).toBeInTheDocument();
  });

  it("moves the active row with the keyboard", () => {
    render(() => <VirtualList items={ROWS} rowHeight={20} height={400} label="Log" renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Log" });
    Object.defineProperty(list, "scrollTop", { configurable: true, writable: true, value: 0 });
    list.focus();
    fireEvent.keyDown(list, { key: "End" });
    expect(within(list).getByText("row 99999").closest("[role=option]")).toHaveAttribute("aria-selected", "true");
    fireEvent.keyDown(list, { key: "Home" });
    fireEvent.keyDown(list, { key: "ArrowDown" });
    expect(within(list).getByText("row 1").closest("[role=option]")).toHaveAttribute("aria-selected", "true");
  });

  it("names the active row to assistive technology while the list keeps the focus (aria-activedescendant)", () => {
    render(() => <VirtualList items={ROWS} rowHeight={20} height={400} label="Log" renderRow={(r) => <span>{r}</span>} />);
    const list = screen.getByRole("listbox", { name: "Log" });
    expect(list).not.toHaveAttribute("aria-activedescendant");
    list.focus();
    fireEvent.keyDown(list, { key: "ArrowDown" });
    const first = within(list).getByText("row 0").closest("[role=option]");
    expect(list.getAttribute("aria-activedescendant")).toBe(first?.id);
    fireEvent.keyDown(list, { key: "ArrowDown" });
    const second = within(list).getByText("row 1").closest("[role=option]");
    expect(list.getAttribute("aria-activedescendant")).toBe(second?.id);
    expect(second).toHaveAttribute("aria-selected", "true");
    expect(first).toHaveAttribute("aria-selected", "false");
    expect(list).toHaveFocus();
  });
});

describe("VirtualList keyed (a live tail)", () => {
  it("keeps the DOM of rows still in view when rows are appended, and builds only the new ones", () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ name: `entry ${i}` }));
    const [version, setVersion] = createSignal(0);
    let built = 0;
    render(() => (
      <VirtualList
        items={(version(), items)}
        rowHeight={20}
        height={400}
        overscan={0}
        label="Tail"
        follow
        keyed
        renderRow={(item) => {
          built++;
          return <span>{item.name}</span>;
        }}
      />
    ));
    const list = screen.getByRole("listbox", { name: "Tail" });
    scrollTo(list, 100 * 20 - 400);
    const before = within(list).getByText("entry 99").parentElement;
    built = 0;
    // The same array, appended in place and announced by a version bump (the inspector's feed).
    items.push({ name: "entry 100" }, { name: "entry 101" });
    setVersion(1);
    expect(within(list).getByText("entry 101")).toBeInTheDocument();
    expect(within(list).getByText("entry 99").parentElement).toBe(before);
    expect(built).toBe(2);
  });
});

describe("VirtualList dropped rows", () => {
  it("moves the view up by the rows dropped from the front, so the rows being read stay put", () => {
    const [dropped, setDropped] = createSignal(0);
    render(() => (
      <VirtualList items={ROWS} rowHeight={20} height={400} label="Capped" dropped={dropped()} renderRow={(r) => <span>{r}</span>} />
    ));
    const list = screen.getByRole("listbox", { name: "Capped" });
    scrollTo(list, 20_000);
    setDropped(100);
    expect(list.scrollTop).toBe(20_000 - 100 * 20);
  });
});

describe("VirtualList older rows", () => {
  it("moves the view down by the rows put before the first, and asks for more near the start", () => {
    const [prepended, setPrepended] = createSignal(0);
    let asked = 0;
    render(() => (
      <VirtualList
        items={ROWS}
        rowHeight={20}
        height={400}
        label="Older"
        prepended={prepended()}
        onNearStart={() => asked++}
        renderRow={(r) => <span>{r}</span>}
      />
    ));
    const list = screen.getByRole("listbox", { name: "Older" });
    scrollTo(list, 2_000);
    expect(asked).toBe(0);
    scrollTo(list, 40);
    expect(asked).toBe(1);
    setPrepended(1000);
    expect(list.scrollTop).toBe(40 + 1000 * 20);
  });
});

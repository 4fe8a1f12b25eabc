// The room an element has to offer, followed as it changes (a window resized, a side panel opening), for
// drawings laid out to fit their room instead of scrolling sideways.
import { createSignal, onCleanup } from "solid-js";
import type { Accessor } from "solid-js";

export interface Size {
  width: number;
  height: number;
}

/**
 * The element's content box in pixels (inside its padding and any scrollbar); `fallback` until it is
 * measured (or where nothing measures, as in jsdom).
 */
export function createSize(fallback: Size): [Accessor<Size>, (el: HTMLElement) => void] {
  const [size, setSize] = createSignal(fallback, { equals: (a, b) => a.width === b.width && a.height === b.height });
  let observer: ResizeObserver | null = null;
  onCleanup(() => observer?.disconnect());
  const track = (el: HTMLElement) => {
    const measure = () => {
      const style = getComputedStyle(el);
      const px = (v: string) => parseFloat(v || "0") || 0;
      const width = el.clientWidth - px(style.paddingLeft) - px(style.paddingRight);
      const height = el.clientHeight - px(style.paddingTop) - px(style.paddingBottom);
      if (width > 0) setSize({ width: Math.floor(width), height: height > 0 ? Math.floor(height) : fallback.height });
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    observer?.disconnect();
    observer = new ResizeObserver(measure);
    observer.observe(el);
  };
  return [size, track];
}

/** The element's content width in pixels; `fallback` until it is measured (or where nothing measures). */
export function createWidth(fallback: number): [Accessor<number>, (el: HTMLElement) => void] {
  const [size, track] = createSize({ width: fallback, height: 0 });
  return [() => size().width, track];
}

/**
 * The type scale the header's Large type sets (`--type-scale` on <html>: 1, or larger for a projector),
 * followed as it changes, so drawings sized in pixels (the flow view's diagram) grow with the rest of the text.
 */
export function createTypeScale(): Accessor<number> {
  const read = () => {
    if (typeof document === "undefined") return 1;
    const value = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--type-scale"));
    return Number.isFinite(value) && value > 0 ? value : 1;
  };
  const [scale, setScale] = createSignal(read());
  if (typeof MutationObserver !== "undefined" && typeof document !== "undefined") {
    const observer = new MutationObserver(() => setScale(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["style", "data-theme"] });
    onCleanup(() => observer.disconnect());
  }
  return scale;
}

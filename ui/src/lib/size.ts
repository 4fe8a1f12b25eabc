// The width an element has to offer, followed as it changes (a window resized, a side panel opening), for
// drawings laid out to fit their room instead of scrolling sideways.
import { createSignal, onCleanup } from "solid-js";
import type { Accessor } from "solid-js";

/** The element's content width in pixels; `fallback` until it is measured (or where nothing measures). */
export function createWidth(fallback: number): [Accessor<number>, (el: HTMLElement) => void] {
  const [width, setWidth] = createSignal(fallback);
  let observer: ResizeObserver | null = null;
  onCleanup(() => observer?.disconnect());
  const track = (el: HTMLElement) => {
    const measure = () => {
      const style = getComputedStyle(el);
      const inner = el.clientWidth - parseFloat(style.paddingLeft || "0") - parseFloat(style.paddingRight || "0");
      if (inner > 0) setWidth(Math.floor(inner));
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    observer?.disconnect();
    observer = new ResizeObserver(measure);
    observer.observe(el);
  };
  return [width, track];
}

// A label's width as the browser will draw it, for the diagram's layout: measured with a canvas in the
// diagram's own face and weight (bold, as the current message is drawn, so nothing moves while stepping).
// The estimate of layout.ts (half an em and a bit per character) is too narrow for capitals and bold type:
// "401 Unauthorized → SCA — CONSENT_INVALID" was cut at the diagram's left edge on the projector.
import type { Measure } from "./layout";
import { textWidth } from "./layout";

let context: OffscreenCanvasRenderingContext2D | null | undefined;

function canvas(): OffscreenCanvasRenderingContext2D | null {
  if (context === undefined) {
    // Where there is no canvas to measure with (jsdom), the estimate stands in.
    context = typeof OffscreenCanvas === "undefined" ? null : new OffscreenCanvas(1, 1).getContext("2d");
  }
  return context;
}

/** The width of `text` in the diagram's bold face at `fontSize` pixels; the estimate where nothing measures. */
export const measureLabel: Measure = (text, fontSize) => {
  const ctx = canvas();
  if (!ctx) return textWidth(text, fontSize);
  ctx.font = `700 ${fontSize}px system-ui, sans-serif`;
  return Math.ceil(ctx.measureText(text).width);
};

// Presentation mode's diagram made for the screen it is on: the largest type from 16 to 28 px at which every
// label and lane title fits the column's width and the journey's rows fit its height; the rows then spread
// over what height is left, so a short journey does not leave the bottom of the screen empty. A journey too
// long for the height at 16 px keeps 16 px and scrolls down (the current message kept in view).
import type { Size } from "../../lib/size";
import type { Layout, Measure, Message } from "./layout";
import { geometryFor, LANES, labelRoom, layout, textWidth } from "./layout";

export const MIN_FONT = 16;
export const MAX_FONT = 28;

/** The rows' spacing spreads to at most this many times the type's size. */
const MAX_ROW_GAP = 5;

/**
 * Whether every lane title and label fits `width` at `fontSize`. A label too wide even at 16 px is cut
 * (layout.ts, fittedLabel) at whatever size: it does not hold the others' type down.
 */
function fitsWidth(messages: readonly Message[], width: number, fontSize: number, measure: Measure): boolean {
  const g = geometryFor(width, fontSize);
  const total = g.margin * 2 + g.laneWidth * LANES.length;
  if (total > width) return false;
  // A lane's title is drawn above its lifeline, in the lane's width less a little air either side.
  if (LANES.some((lane) => measure(lane.title, fontSize) > g.laneWidth - 8)) return false;
  const least = geometryFor(width, MIN_FONT);
  const leastTotal = least.margin * 2 + least.laneWidth * LANES.length;
  return messages.every((m) => labelRoom(m, MIN_FONT, measure) > leastTotal - 4 || labelRoom(m, fontSize, measure) <= total - 4);
}

/** The diagram's height without headers (presentation draws the lane titles above it). */
function heightAt(count: number, width: number, fontSize: number): number {
  const g = geometryFor(width, fontSize);
  return g.rowGap * (count + 1) + g.margin;
}

/** The layout of `messages` for a diagram area of `room` (the lane titles drawn apart, above it). */
export function fitLayout(messages: readonly Message[], room: Size, measure: Measure = textWidth): Layout {
  let fontSize = MIN_FONT;
  for (let size = MAX_FONT; size > MIN_FONT; size--) {
    if (fitsWidth(messages, room.width, size, measure) && heightAt(messages.length, room.width, size) <= room.height) {
      fontSize = size;
      break;
    }
  }
  const g = { ...geometryFor(room.width, fontSize), header: 0 };
  const spare = room.height - heightAt(messages.length, room.width, fontSize);
  if (spare > 0) {
    const spread = Math.floor((room.height - g.margin) / (messages.length + 1));
    g.rowGap = Math.max(g.rowGap, Math.min(Math.round(fontSize * MAX_ROW_GAP), spread));
  }
  return layout(messages, g, measure);
}

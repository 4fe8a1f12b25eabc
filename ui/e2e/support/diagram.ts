// Presentation mode's sequence diagram as the browser drew it: the size its text has on the screen (the
// SVG's scale counted: font size × the screen transform's scale) and whether each label's box lies inside
// the diagram's visible area and the window. The answer is a list of problems, empty when it reads well.
import type { Locator } from "@playwright/test";

export interface Drawn {
  /** The smallest text on the screen, in CSS pixels (diagram and lane titles). */
  smallest: number;
  /** How many texts were measured (so a check over nothing cannot pass). */
  texts: number;
  problems: string[];
}

/** Measures the diagram of the presentation dialog `dialog` as drawn now; the current message must show whole. */
export async function drawnDiagram(dialog: Locator): Promise<Drawn> {
  return dialog.evaluate((root) => {
    const problems: string[] = [];
    const sizes: number[] = [];
    const svg = root.querySelector<SVGSVGElement>('svg[aria-label="Sequence diagram"]');
    const area = svg?.parentElement;
    if (!svg || !area) return { smallest: 0, texts: 0, problems: ["no diagram"] };
    const view = area.getBoundingClientRect();
    // The visible diagram, inside the window; one pixel of rounding allowed.
    const left = Math.max(view.left, 0) - 1;
    const right = Math.min(view.left + area.clientWidth, window.innerWidth) + 1;
    const top = Math.max(view.top, 0) - 1;
    const bottom = Math.min(view.top + area.clientHeight, window.innerHeight) + 1;
    const scale = svg.getScreenCTM()?.a ?? 1;
    for (const text of svg.querySelectorAll("text")) {
      const words = text.textContent ?? "";
      const onScreen = parseFloat(getComputedStyle(text).fontSize) * scale;
      const box = text.getBoundingClientRect();
      sizes.push(onScreen);
      // The glyphs' box is as tall as the type at least (ascent and descent): the scale as drawn, checked.
      if (box.height + 0.5 < onScreen) problems.push(`"${words}": its box is ${box.height.toFixed(1)} px tall for ${onScreen.toFixed(1)} px type`);
      if (box.left < left || box.right > right) {
        problems.push(`"${words}" cut at the ${box.left < left ? "left" : "right"}: ${box.left.toFixed(0)}–${box.right.toFixed(0)} outside ${left.toFixed(0)}–${right.toFixed(0)}`);
      }
      if (text.closest("g.message[data-current]") && (box.top < top || box.bottom > bottom)) problems.push(`the current message "${words}" is not in view`);
    }
    for (const title of root.querySelectorAll<HTMLElement>('[aria-label="Lanes"] span')) {
      const box = title.getBoundingClientRect();
      sizes.push(parseFloat(getComputedStyle(title).fontSize));
      if (title.scrollWidth > title.clientWidth) problems.push(`lane title "${title.textContent}" is cut short`);
      if (box.left < left || box.right > right) problems.push(`lane title "${title.textContent}" is outside the diagram`);
    }
    return { smallest: Math.min(...sizes), texts: sizes.length, problems };
  });
}

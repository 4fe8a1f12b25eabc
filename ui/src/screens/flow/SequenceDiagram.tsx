// The journey drawn as SVG from the layout model: lane headers and lifelines, one arrow per message with
// what travels above it and its status, refusals red, the bank's own status changes as notes on its lane.
// Drawn at the layout's size (the layout is made for the room there is, so nothing scrolls sideways), its
// colours the theme's (WCAG AA on either theme); the exported file gets fixed light colours and a <title>.
// `current` (presentation mode) shows the journey up to that message: the later ones are not drawn yet.
import { For, Show } from "solid-js";
import type { Layout, PlacedMessage, Tone } from "./layout";

/** Tones as the theme's colours, which meet 4.5:1 on the surface in the light and the dark theme. */
const TONE_COLOURS: Record<Tone, string> = { ok: "var(--ok)", warn: "var(--warn)", bad: "var(--bad)", neutral: "currentColor" };

/** The same in the exported file, which has a white background wherever it is opened. */
const EXPORT_COLOURS: Record<string, string> = {
  "var(--ok)": "#1d7a3a",
  "var(--warn)": "#8a5a00",
  "var(--bad)": "#b3261e",
  "var(--accent)": "#0b5cad",
};

let instances = 0;

export interface SequenceDiagramProps {
  layout: Layout;
  /** The journey's title: the SVG's <title>, so an exported file says what it shows. */
  title: string;
  /** The message shown in presentation mode; later ones are not drawn yet. */
  current?: number | null;
  onSelect?: (index: number) => void;
  /** Leave out the lane headers (presentation mode keeps its own in view above the scrolling diagram). */
  headless?: boolean;
  ref?: (el: SVGSVGElement) => void;
}

export function SequenceDiagram(props: SequenceDiagramProps) {
  const id = `seq${++instances}`;
  const marker = (tone: Tone) => `url(#${id}-${tone})`;
  const later = (m: PlacedMessage) => props.current !== null && props.current !== undefined && m.index > props.current;
  const fs = () => props.layout.fontSize;
  return (
    <svg
      ref={(el) => props.ref?.(el)}
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${props.layout.width} ${props.layout.height}`}
      width={props.layout.width}
      height={props.layout.height}
      role="img"
      aria-label="Sequence diagram"
      font-family="system-ui, sans-serif"
      font-size={String(fs())}
    >
      <title>{props.title}</title>
      <defs>
        <For each={["ok", "warn", "bad", "neutral"] as Tone[]}>
          {(tone) => (
            <marker
              id={`${id}-${tone}`}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerUnits="userSpaceOnUse"
              markerWidth={String(Math.round(fs() * 0.8))}
              markerHeight={String(Math.round(fs() * 0.8))}
              orient="auto-start-reverse"
            >
              <path d="M0,0 L10,5 L0,10 z" style={{ fill: TONE_COLOURS[tone] }} />
            </marker>
          )}
        </For>
      </defs>
      <For each={props.layout.lanes}>
        {(lane) => (
          <g class="lane" data-lane={lane.id}>
            <Show when={!props.headless}>
              <rect
                x={lane.x - props.layout.laneWidth / 2 + 6}
                y={8}
                width={props.layout.laneWidth - 12}
                height={fs() * 2.4}
                rx={6}
                fill="none"
                stroke="currentColor"
              />
              <text x={lane.x} y={8 + fs() * 1.6} text-anchor="middle" font-weight="600" fill="currentColor">
                {lane.title}
              </text>
            </Show>
            <line
              x1={lane.x}
              x2={lane.x}
              y1={props.headless ? 0 : 8 + fs() * 2.4}
              y2={props.layout.height - 8}
              stroke="currentColor"
              stroke-opacity="0.45"
              stroke-dasharray="4 4"
            />
          </g>
        )}
      </For>
      <For each={props.layout.messages}>
        {(m) => (
          <g
            class="message"
            data-key={m.key}
            data-kind={m.kind}
            data-current={props.current === m.index ? "" : undefined}
            visibility={later(m) ? "hidden" : undefined}
            style={{ cursor: props.onSelect ? "pointer" : "default" }}
            onClick={() => props.onSelect?.(m.index)}
          >
            <title>{`${m.label}${m.status && m.kind === "event" ? `: ${m.status}` : ""} (${m.at})`}</title>
            <Show
              when={!m.self}
              fallback={
                <>
                  <rect
                    x={m.labelX - m.labelWidth / 2}
                    y={m.y - fs() * 1.3}
                    width={m.labelWidth}
                    height={fs() * 1.9}
                    rx={4}
                    style={{ fill: "var(--surface)", stroke: TONE_COLOURS[m.tone] }}
                  />
                  <text x={m.labelX} y={m.y} text-anchor="middle" fill="currentColor">
                    {m.drawn}
                    <Show when={m.status}>
                      {": "}
                      <tspan font-weight="700" style={{ fill: TONE_COLOURS[m.tone] }}>
                        {m.status}
                      </tspan>
                    </Show>
                  </text>
                </>
              }
            >
              <line
                x1={m.x1}
                x2={m.x2 + (m.x2 > m.x1 ? -2 : 2)}
                y1={m.y}
                y2={m.y}
                style={{ stroke: TONE_COLOURS[m.tone] }}
                stroke-width={props.current === m.index ? 3 : 1.5}
                stroke-dasharray={m.kind === "response" ? "6 4" : undefined}
                marker-end={marker(m.tone)}
              />
              <text
                x={m.labelX}
                y={m.y - fs() * 0.45}
                text-anchor="middle"
                {...HALO}
                style={{ fill: m.kind === "response" ? TONE_COLOURS[m.tone] : "currentColor", stroke: "var(--surface)" }}
                font-weight={props.current === m.index ? "700" : "400"}
              >
                {m.drawn}
              </text>
              <Show when={m.kind === "event" && m.status}>
                <text x={m.labelX} y={m.y + fs() * 1.15} text-anchor="middle" {...HALO} style={{ fill: TONE_COLOURS[m.tone], stroke: "var(--surface)" }} font-weight="600">
                  {m.status}
                </text>
              </Show>
            </Show>
            <Show when={m.psuActs}>
              <circle cx={m.x1} cy={m.y} r={5} style={{ fill: "var(--accent)" }} />
            </Show>
          </g>
        )}
      </For>
    </svg>
  );
}

/**
 * A label wider than its arrow crosses other lanes (a long status, the fault plan's marker): drawn over a
 * halo of the background, so no lifeline runs through its words.
 */
const HALO = { class: "flow-label", "paint-order": "stroke", "stroke-width": 4, "stroke-linejoin": "round" } as const;

/** A standalone SVG file of a drawn diagram: light colours fixed, so it reads anywhere; its <title> kept. */
export function svgFile(el: SVGSVGElement): string {
  const copy = el.cloneNode(true) as SVGSVGElement;
  copy.setAttribute("style", "background:#ffffff;color:#1b1f24");
  copy.querySelectorAll("g.message").forEach((g) => g.removeAttribute("visibility"));
  let text = new XMLSerializer().serializeToString(copy);
  text = text.replace(/var\(--surface\)/g, "#ffffff");
  for (const [variable, colour] of Object.entries(EXPORT_COLOURS)) text = text.split(variable).join(colour);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}

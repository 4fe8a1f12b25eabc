// The journey drawn as SVG from the layout model: lane headers and lifelines, one arrow per message with
// what travels above it and its status, refusals red. Presentation attributes only (no CSS classes for
// looks), so the exported file looks the same outside the app. `current` dims the messages after it.
import { For, Show } from "solid-js";
import type { Layout, PlacedMessage, Tone } from "./layout";

export const TONE_COLOURS: Record<Tone, string> = { ok: "#1d7a3a", warn: "#b06f00", bad: "#b3261e", neutral: "currentColor" };

let instances = 0;

export interface SequenceDiagramProps {
  layout: Layout;
  /** The message shown in presentation mode; later ones are dimmed. */
  current?: number | null;
  onSelect?: (index: number) => void;
  /** Scales the type (presentation mode). */
  scale?: number;
  ref?: (el: SVGSVGElement) => void;
}

export function SequenceDiagram(props: SequenceDiagramProps) {
  const id = `seq${++instances}`;
  const marker = (tone: Tone) => `url(#${id}-${tone})`;
  const opacity = (m: PlacedMessage) => (props.current === null || props.current === undefined || m.index <= props.current ? 1 : 0.18);
  return (
    <svg
      ref={(el) => props.ref?.(el)}
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${props.layout.width} ${props.layout.height}`}
      width={props.layout.width * (props.scale ?? 1)}
      height={props.layout.height * (props.scale ?? 1)}
      role="img"
      aria-label="Sequence diagram"
      font-family="system-ui, sans-serif"
      font-size="13"
    >
      <defs>
        <For each={["ok", "warn", "bad", "neutral"] as Tone[]}>
          {(tone) => (
            <marker id={`${id}-${tone}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" fill={TONE_COLOURS[tone]} />
            </marker>
          )}
        </For>
      </defs>
      <For each={props.layout.lanes}>
        {(lane) => (
          <g class="lane" data-lane={lane.id}>
            <rect x={lane.x - 95} y={8} width={190} height={32} rx={6} fill="none" stroke="currentColor" />
            <text x={lane.x} y={29} text-anchor="middle" font-weight="600" fill="currentColor">
              {lane.title}
            </text>
            <line x1={lane.x} x2={lane.x} y1={40} y2={props.layout.height - 8} stroke="currentColor" stroke-opacity="0.35" stroke-dasharray="4 4" />
          </g>
        )}
      </For>
      <For each={props.layout.messages}>
        {(m) => (
          <g
            class="message"
            data-key={m.key}
            data-kind={m.kind}
            opacity={opacity(m)}
            style={{ cursor: props.onSelect ? "pointer" : "default" }}
            onClick={() => props.onSelect?.(m.index)}
          >
            <title>{`${m.label}${m.status && m.kind === "event" ? `: ${m.status}` : ""} (${m.at})`}</title>
            <Show
              when={!m.self}
              fallback={
                <>
                  <rect x={m.x1 - 100} y={m.y - 16} width={200} height={24} rx={4} fill="none" stroke="currentColor" stroke-opacity="0.5" />
                  <text x={m.x1} y={m.y} text-anchor="middle" fill="currentColor" font-size="12">
                    {m.label}
                  </text>
                </>
              }
            >
              <line
                x1={m.x1}
                x2={m.x2 + (m.x2 > m.x1 ? -2 : 2)}
                y1={m.y}
                y2={m.y}
                stroke={TONE_COLOURS[m.tone]}
                stroke-width={props.current === m.index ? 3 : 1.5}
                stroke-dasharray={m.kind === "response" ? "6 4" : undefined}
                marker-end={marker(m.tone)}
              />
              <text
                x={(m.x1 + m.x2) / 2}
                y={m.y - 6}
                text-anchor="middle"
                fill={m.kind === "response" ? TONE_COLOURS[m.tone] : "currentColor"}
                font-weight={props.current === m.index ? "700" : "400"}
              >
                {m.label}
              </text>
              <Show when={m.kind === "event" && m.status}>
                <text x={(m.x1 + m.x2) / 2} y={m.y + 15} text-anchor="middle" fill={TONE_COLOURS[m.tone]} font-weight="600">
                  {m.status}
                </text>
              </Show>
            </Show>
            <Show when={m.psuActs}>
              <circle cx={m.x1} cy={m.y} r={5} fill="#0b5cad" />
            </Show>
          </g>
        )}
      </For>
    </svg>
  );
}

/** A standalone SVG file of a drawn diagram: light colours fixed, so it reads anywhere. */
export function svgFile(el: SVGSVGElement): string {
  const copy = el.cloneNode(true) as SVGSVGElement;
  copy.setAttribute("style", "background:#ffffff;color:#1b1f24");
  copy.querySelectorAll("g.message").forEach((g) => g.setAttribute("opacity", "1"));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

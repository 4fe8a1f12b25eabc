// The journey as Mermaid sequence-diagram text (a pure function of the messages), for pasting into docs.
import type { Message } from "./layout";
import { LANES } from "./layout";

/** A label safe inside a Mermaid message: no line breaks; `#` and `;` as Mermaid's entity codes. */
export function mermaidText(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/[#;]/g, (c) => (c === "#" ? "#35;" : "#59;")).trim();
}

const ID = Object.fromEntries(LANES.map((l) => [l.id, l.mermaid])) as Record<Message["from"], string>;

export function toMermaid(messages: readonly Message[], title?: string): string {
  const lines = ["sequenceDiagram"];
  if (title) lines.push(`  title ${mermaidText(title)}`);
  for (const lane of LANES) lines.push(`  participant ${lane.mermaid} as ${lane.title}`);
  for (const m of messages) {
    const text = mermaidText(m.kind === "event" && m.status ? `${m.label}: ${m.status}` : m.label);
    if (m.from === m.to) lines.push(`  Note over ${ID[m.from]}: ${text}`);
    else lines.push(`  ${ID[m.from]}${m.kind === "response" ? "-->>" : "->>"}${ID[m.to]}: ${text}`);
  }
  return `${lines.join("\n")}\n`;
}

// The inspector's list: one fixed-height line per exchange over the virtual list, so 100,000 lines scroll
// smoothly and lines appended live keep the view at the end. Fed by the traffic log (next issue).
import { VirtualList } from "../../components/VirtualList";
import { StatusBadge } from "../../components/StatusBadge";

/** What one line shows; filled from the traffic log's records when they exist. */
export interface TrafficLine {
  id: string;
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  tppId?: string;
}

export const ROW_HEIGHT = 28;

export function TrafficList(props: { lines: readonly TrafficLine[]; height: number; onOpen?: (line: TrafficLine) => void }) {
  return (
    <VirtualList
      items={props.lines}
      rowHeight={ROW_HEIGHT}
      height={props.height}
      label="Exchanges"
      follow
      onActivate={(line) => props.onOpen?.(line)}
      renderRow={(line) => (
        <>
          <span class="hint">{line.at.slice(11, 23)}</span>
          <StatusBadge value={line.status} />
          <strong>{line.method}</strong>
          <span>{line.path}</span>
          <span class="hint">{line.durationMs} ms</span>
          {line.tppId ? <span class="hint">{line.tppId}</span> : null}
        </>
      )}
    />
  );
}

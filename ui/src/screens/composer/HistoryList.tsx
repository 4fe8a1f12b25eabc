// Past requests, newest first; any can be reopened for editing (its draft loaded back into the composer).
import { For, Show } from "solid-js";
import type { HistoryEntry, Persona } from "../../api/types";
import { Button } from "../../components/Button";
import { StatusBadge } from "../../components/StatusBadge";
import { duration, formatInstant } from "../../lib/format";

export interface HistoryListProps {
  entries: readonly HistoryEntry[];
  personas: readonly Persona[];
  opening: string | null;
  onOpen: (id: string) => void;
}

export function HistoryList(props: HistoryListProps) {
  const personaName = (id: string) => props.personas.find((p) => p.id === id)?.name ?? id;
  return (
    <section class="panel history" aria-label="History">
      <h3>History</h3>
      <Show when={props.entries.length > 0} fallback={<p class="hint">Requests you send appear here.</p>}>
        <ul class="rows" aria-label="Sent requests">
          <For each={props.entries}>
            {(e) => (
              <li>
                <span>
                  <StatusBadge value={e.status} /> {e.method} <code>{e.path}</code>
                  <br />
                  <span class="hint">
                    {formatInstant(e.at)} · {personaName(e.personaId)} · {duration(e.durationMs)}
                  </span>
                </span>
                <Button
                  busy={props.opening === e.id}
                  aria-label={`Reopen ${e.method} ${e.path} sent ${formatInstant(e.at)}`}
                  onClick={() => props.onOpen(e.id)}
                >
                  Reopen
                </Button>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </section>
  );
}

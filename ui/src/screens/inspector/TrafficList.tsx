// The inspector's list: one fixed-height line per timeline entry (time, method, path, status, TPP, PSU) over
// the virtual list, keyed by entry so a live tail moves rows instead of rebuilding them. It reads the feed's
// plain array through its version signal; 100,000 lines scroll because only the lines in view exist.
import type { JSX } from "solid-js";
import type { Entry } from "../../api/traffic";
import { VirtualList } from "../../components/VirtualList";
import { toneOf } from "../../components/StatusBadge";
import type { Feed } from "./feed";

export const ROW_HEIGHT = 28;

/** `12:00:01.234` from an RFC 3339 instant (the sandbox clock is UTC). */
export function clockTime(at: string): string {
  return at.length >= 19 ? at.slice(11, at[19] === "." ? 23 : 19) : at;
}

function text(v: unknown): string {
  return typeof v === "string" || typeof v === "number" ? String(v) : "";
}

/** A short line for an event entry. A payment's status comes as the workbench's `{before, after}` or as the
 * bank's `{transactionStatus}` notice. */
export function eventLine(entry: Extract<Entry, { kind: "event" }>): string {
  const d = entry.data;
  if (entry.event === "payment.status") {
    const after = text(d.after) || text(d.transactionStatus);
    return d.before ? `payment ${text(d.before)} → ${after}` : `payment ${after}`;
  }
  if (entry.event === "batch.run") return `batch run ${text(d.id)} (${text(d.processed ?? 0)} processed)`;
  if (entry.event === "sca.step") return `SCA step ${text(d.step)}`;
  if (entry.event === "clock") return `clock ${text(d.now)}`;
  return entry.event;
}

/** A UUID shortened to its first eight digits, which tell resources apart in a list (the title has it whole). */
function shortIds(text: string): string {
  return text.replace(/\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "$1…");
}

/**
 * A path split where it is cut when the column is narrow: the start may shrink to an ellipsis, the end —
 * the last segments, which tell one resource's requests from another's (`…/3f2a1b4c…/status`) — stays.
 */
export function splitPath(path: string): [string, string] {
  const parts = path.split("/");
  if (parts.length <= 3) return [path, ""];
  const two = `/${shortIds(parts.slice(-2).join("/"))}`;
  const end = two.length <= 32 ? two : `/${shortIds(parts[parts.length - 1] ?? "")}`;
  const kept = end === two ? 2 : 1;
  return [parts.slice(0, parts.length - kept).join("/"), end];
}

function PathCell(props: { path: string; query: string | null }) {
  const parts = () => splitPath(props.path);
  return (
    <span class="t-path" title={props.query ? `${props.path}?${props.query}` : props.path}>
      <span class="t-path-start">{parts()[0]}</span>
      <span class="t-path-end">{parts()[1]}</span>
    </span>
  );
}

/** A row's cells. Entries never change once logged, so a row is built once and not tracked. */
function rowCells(e: Entry): JSX.Element {
  if (e.kind === "event") {
    return (
      <>
        <span class="t-time">{clockTime(e.at)}</span>
        <span class="t-method hint">event</span>
        <span class="t-path">{eventLine(e)}</span>
        <span class="t-status" />
        <span class="t-tpp" />
        <span class="t-psu" />
      </>
    );
  }
  return (
    <>
      <span class="t-time">{clockTime(e.at)}</span>
      <span class="t-method">{e.method}</span>
      <PathCell path={e.path} query={e.query ?? null} />
      <span class={`t-status badge ${toneOf(e.status)}`} title={e.failedStep ? `refused at ${e.failedStep}` : undefined}>
        {e.status}
        {e.failedStep ? " ✕" : ""}
      </span>
      <span class="t-tpp" title={e.tpp?.subject}>
        {e.tpp?.name ?? ""}
      </span>
      <span class="t-psu">{e.psuId ?? ""}</span>
    </>
  );
}

export function TrafficList(props: { feed: Feed; height: number; onOpen?: (entry: Entry) => void; onNearStart?: () => void }) {
  const items = () => {
    props.feed.version();
    return props.feed.items;
  };
  return (
    <div class="traffic-list">
      <div class="traffic-head" aria-hidden="true">
        <span>Time</span>
        <span>Method</span>
        <span>Path</span>
        <span>Status</span>
        <span>TPP</span>
        <span>PSU</span>
      </div>
      <VirtualList
        items={items()}
        rowHeight={ROW_HEIGHT}
        height={props.height}
        label="Exchanges"
        follow
        keyed
        dropped={props.feed.dropped()}
        prepended={props.feed.prepended()}
        onNearStart={() => props.onNearStart?.()}
        onActivate={(entry) => props.onOpen?.(entry)}
        renderRow={rowCells}
      />
    </div>
  );
}

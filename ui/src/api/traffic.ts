// The traffic log's wire types (docs/traffic-api.md) and its live stream: `GET /workbench/api/traffic/stream`
// sends `event: entry` with one timeline Entry per message. Kept apart from events.ts because its messages
// are entries, not `{kind, at, data}` envelopes, and because the inspector batches them itself.
import { openReconnecting, reconnectSettings, withLastEventId } from "./eventSource";
import type { ReconnectSettings } from "./eventSource";
import type { components } from "./generated/schema";

type S = components["schemas"];

// The traffic log's wire types are the document's schemas. NARROWED (as in ./types.ts): an event entry's
// data, which the document gives as one of the timeline events' shapes, is read here field by field as its
// `event` says (the bank's payment notice and the workbench's carry different fields).

export type TrafficResource = S["Resource"];
export type ResourceKind = TrafficResource["kind"];
export type TppRef = S["TppRef"];

/** A summary as the list has it (the document's Entry with kind "exchange"). */
export type ExchangeSummary = Extract<S["Entry"], { kind: "exchange" }>;

export type TimelineEventKind = S["EventEntry"]["event"];

export type EventEntry = Omit<Extract<S["Entry"], { kind: "event" }>, "data"> & { data: Record<string, unknown> };

export type Entry = ExchangeSummary | EventEntry;

export type TrafficPage = Omit<S["Page"], "entries"> & { entries: Entry[] };

export type RecordedMessage = S["Message"];

export type GateStep = S["GateStep"];
export type StepOutcome = GateStep["outcome"];
export type GateVerdict = S["GateVerdict"];

/** An exchange whole (`GET /traffic/{id}`), with its summary's kind. */
export type Exchange = ExchangeSummary & Omit<S["Exchange"], keyof S["ExchangeSummary"]>;

export type Journey = S["Journey"];

export type JourneyEntries = Omit<S["JourneyEntries"], "entries"> & { entries: Entry[] };

export type TrafficSettings = S["TrafficSettings"];

/** What `DELETE /traffic` removed (also the `traffic.cleared` event's data). */
export type TrafficCleared = S["TrafficCleared"];

/** The list's filters, as the query of `GET /traffic` names them. */
export interface TrafficFilter {
  tpp?: string;
  psu?: string;
  status?: "" | "2xx" | "3xx" | "4xx" | "5xx";
  failed?: boolean;
  resource?: string;
  journey?: string;
  q?: string;
  kind?: "" | "exchange" | "event";
}

export interface TrafficStreamOptions extends ReconnectSettings {
  url: string;
  /** Entries in the order they came; called once per message (the caller batches). */
  onEntry: (entry: Entry) => void;
  /** Resume after this id on the first connection (the newest entry the page read showed). */
  after?: number | null;
  /**
   * How far before the newest id seen to resume. An exchange's id is taken when its request arrives and
   * the entry is written when it completes, so the stream is not in id order: a slow request's entry can
   * come after entries with higher ids. Resuming a little earlier and dropping what was already seen
   * catches those. The caller must also drop entries it already has (e.g. from the page it read).
   */
  resumeMargin?: number;
}

export interface TrafficStream {
  close(): void;
  /** The highest id seen. */
  lastId(): number | null;
}

/** The parts many summaries repeat (a TPP, a method, a path polled again and again), one copy each. */
const SHARED_LIMIT = 4096;
const sharedStrings = new Map<string, string>();
const sharedTpps = new Map<string, TppRef>();
const NO_RESOURCES: TrafficResource[] = Object.freeze([]) as unknown as TrafficResource[];
const NO_JOURNEYS: string[] = Object.freeze([]) as unknown as string[];

function shared<T>(map: Map<string, T>, key: string, value: T): T {
  const known = map.get(key);
  if (known !== undefined) return known;
  // Bounded: a stream of unique paths must not make the table itself grow without end.
  if (map.size >= SHARED_LIMIT) map.clear();
  map.set(key, value);
  return value;
}

/**
 * A live entry made smaller for a list that holds up to 100,000 of them: repeated strings and TPPs become
 * one shared copy, empty lists one shared frozen list. The entry reads the same; it is not to be mutated.
 */
export function compactEntry(entry: Entry): Entry {
  if (entry.kind === "exchange") {
    entry.method = shared(sharedStrings, entry.method, entry.method);
    entry.path = shared(sharedStrings, entry.path, entry.path);
    entry.area = shared(sharedStrings, entry.area, entry.area) as ExchangeSummary["area"];
    entry.source = shared(sharedStrings, entry.source, entry.source) as ExchangeSummary["source"];
    if (entry.psuId) entry.psuId = shared(sharedStrings, entry.psuId, entry.psuId);
    if (entry.tpp) {
      const tpp = entry.tpp;
      entry.tpp = shared(sharedTpps, `${tpp.organisationId}\n${tpp.name}\n${tpp.subject}`, tpp);
    }
  }
  if (Array.isArray(entry.resources) && entry.resources.length === 0) entry.resources = NO_RESOURCES;
  if (Array.isArray(entry.journeys) && entry.journeys.length === 0) entry.journeys = NO_JOURNEYS;
  return entry;
}

/** How many ids the stream remembers to drop repeats (resumption re-sends up to the margin). */
const SEEN_LIMIT = 20_000;

/**
 * Follows the traffic stream. The browser's own reconnects send Last-Event-ID; a stream reopened after the
 * browser gave up (eventSource.ts) carries `?lastEventId=` a margin before the highest id seen, so nothing
 * between is lost. Entries seen already (by id) are dropped, whatever their order.
 */
export function connectTraffic(options: TrafficStreamOptions): TrafficStream {
  const margin = options.resumeMargin ?? 256;
  let maxId: number | null = options.after ?? null;
  const seen = new Set<number>();
  const order: number[] = [];

  const onMessage = (ev: MessageEvent) => {
    let entry: Entry;
    try {
      entry = JSON.parse(String(ev.data)) as Entry;
    } catch {
      return;
    }
    if (typeof entry !== "object" || entry === null || typeof entry.id !== "number") return;
    if (seen.has(entry.id)) return;
    seen.add(entry.id);
    order.push(entry.id);
    if (order.length > SEEN_LIMIT) seen.delete(order.shift() as number);
    if (maxId === null || entry.id > maxId) maxId = entry.id;
    options.onEntry(compactEntry(entry));
  };

  const stream = openReconnecting({
    url: () => withLastEventId(options.url, maxId === null ? null : String(Math.max(0, maxId - margin))),
    listen(source) {
      source.addEventListener("entry", onMessage);
      source.onmessage = onMessage;
    },
    ...reconnectSettings(options),
  });
  return { close: () => stream.close(), lastId: () => maxId };
}

/** The `GET /traffic` query of a filter plus paging. */
export function trafficQuery(filter: TrafficFilter, before?: number | null, limit?: number) {
  return {
    tpp: filter.tpp?.trim(),
    psu: filter.psu?.trim(),
    status: filter.status || undefined,
    failed: filter.failed ? true : undefined,
    resource: filter.resource?.trim(),
    journey: filter.journey?.trim(),
    q: filter.q?.trim(),
    kind: filter.kind || undefined,
    before: before ?? undefined,
    limit,
  };
}

/**
 * Whether a live entry passes the filter, as the service would judge it for the fields a summary carries.
 * `q` is searched in method, path, code and TPP name only (the service also searches bodies, which a live
 * summary does not carry): a live entry matching only by its body shows after the next reload.
 */
/** A 401 that asks for SCA (its answer named an authorisation; no gate step failed) starts a journey. */
export function asksForSca(entry: ExchangeSummary): boolean {
  return entry.status === 401 && !entry.failedStep && entry.resources.some((r) => r.kind === "authorisation");
}

/** Refused, as the service's `failed` filter means it: an error status other than an SCA start, or a failed gate step. */
export function isRefused(entry: ExchangeSummary): boolean {
  return !!entry.failedStep || (entry.status >= 400 && !asksForSca(entry));
}

export function matchesFilter(entry: Entry, filter: TrafficFilter): boolean {
  if (filter.kind && entry.kind !== filter.kind) return false;
  const resource = filter.resource?.trim();
  if (resource && !entry.resources.some((r) => `${r.kind}:${r.id}` === resource)) return false;
  const journey = filter.journey?.trim();
  if (journey && !entry.journeys.includes(journey)) return false;
  const tpp = filter.tpp?.trim();
  const psu = filter.psu?.trim();
  const q = filter.q?.trim().toLowerCase();
  if (entry.kind === "event") {
    return !tpp && !psu && !filter.status && !filter.failed && (!q || entry.event.toLowerCase().includes(q));
  }
  if (tpp && entry.tpp?.organisationId !== tpp) return false;
  if (psu && entry.psuId !== psu) return false;
  if (filter.status && `${Math.floor(entry.status / 100)}xx` !== filter.status) return false;
  if (filter.failed && !isRefused(entry)) return false;
  if (q) {
    // What the service searches in a summary (a live entry has no headers or bodies to look in).
    const hay = [
      entry.method,
      entry.path,
      entry.query ?? "",
      entry.code ?? "",
      entry.tpp?.name ?? "",
      entry.psuId ?? "",
      entry.tppSessionId ?? "",
      ...entry.resources.map((r) => r.id),
    ]
      .join(" ")
      .toLowerCase();
    if (!hay.includes(q)) return false;
  }
  return true;
}

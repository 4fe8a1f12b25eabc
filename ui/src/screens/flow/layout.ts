// The flow view's model, pure and unit-tested: timeline entries of one journey → messages between four lanes
// (TPP app, bank interface, PSU on the SCA pages, batch simulator) → a layout with coordinates. The SVG
// component, the SVG export and the Mermaid export all draw from this one model.
import type { Entry, EventEntry, ExchangeSummary } from "../../api/traffic";

export type LaneId = "tpp" | "bank" | "psu" | "batch";
export type Tone = "ok" | "warn" | "bad" | "neutral";

export const LANES: readonly { id: LaneId; title: string; mermaid: string }[] = [
  { id: "tpp", title: "TPP app", mermaid: "TPP" },
  { id: "bank", title: "Bank interface", mermaid: "Bank" },
  { id: "psu", title: "PSU (SCA pages)", mermaid: "PSU" },
  { id: "batch", title: "Batch simulator", mermaid: "Batch" },
];

export interface Message {
  /** Unique within a journey: `<entry id>:req`, `:res` or `:ev`. */
  key: string;
  entryId: number;
  from: LaneId;
  to: LaneId;
  /** What travels: `POST /v1/payments/…`, `batch run`, … */
  label: string;
  /** The status on the arrow: `201 Created`, `ACTC → ACSC`, … (empty for a request). */
  status: string;
  tone: Tone;
  kind: "request" | "response" | "event";
  /** The PSU acts here (an SCA page): presentation mode shows the page beside the diagram. */
  psuActs: boolean;
  /** The SCA page's path and query, for that view. */
  pageUrl: string | null;
  at: string;
  /** On an answer the fault plan injected: its marker (`injected: 503 maintenance until 02:30 (rule …)`). */
  injected?: string;
}

const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  302: "Found",
  303: "See Other",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

const STATUS_TONES: Record<string, Tone> = { ACSC: "ok", ACTC: "ok", ACCP: "warn", RCVD: "neutral", PDNG: "warn", RJCT: "bad", CANC: "bad" };

export function httpTone(status: number): Tone {
  return status >= 400 ? "bad" : status >= 300 ? "warn" : "ok";
}

/** `/v1/payments/…-straks/3f2a…` → ids and long products shortened (keeping the end, where `straks` is) so a label fits. */
export function shortPath(path: string): string {
  return path
    .split("/")
    .map((part) => (/^[0-9a-f-]{20,}$/i.test(part) ? `${part.slice(0, 6)}…` : part.length > 36 ? `…${part.slice(-24)}` : part))
    .join("/");
}

/** The status on a response arrow: code, reason, and why the gate refused it when it did. */
export function responseLabel(e: ExchangeSummary): string {
  const reason = REASONS[e.status] ?? "";
  let text = `${e.status}${reason ? ` ${reason}` : ""}`;
  if (e.status === 401 && !e.failedStep) text += " → SCA";
  if (e.area === "sca-page" && e.status >= 300 && e.status < 400) text += " (redirect)";
  if (e.failedStep) text += ` — refused at ${e.failedStep}`;
  else if (e.code) text += ` — ${e.code}`;
  return text;
}

/** What the PSU does with a form on the bank's pages, by the form's last path segment. */
const PSU_ACTS: Record<string, string> = {
  identify: "PSU identifies",
  method: "PSU picks a method",
  context: "PSU picks a context",
  confirm: "PSU approves",
  approve: "PSU approves",
  consent: "PSU consents",
  cancel: "PSU cancels",
  reject: "PSU rejects",
};

/** `PSU approves: POST /sca/…/confirm` for a form the PSU sends, else `METHOD path`. */
export function requestLabel(e: ExchangeSummary): string {
  const plain = `${e.method} ${shortPath(e.path)}`;
  if (e.area !== "sca-page" || e.method !== "POST") return plain;
  const act = PSU_ACTS[e.path.split("/").pop() ?? ""];
  return act ? `${act}: ${plain}` : plain;
}

function exchangeMessages(e: ExchangeSummary, injected: string | undefined): Message[] {
  const psu = e.area === "sca-page";
  const client: LaneId = psu ? "psu" : "tpp";
  const url = `${e.path}${e.query ? `?${e.query.replace(/^\?/, "")}` : ""}`;
  return [
    {
      key: `${e.id}:req`,
      entryId: e.id,
      from: client,
      to: "bank",
      label: requestLabel(e),
      status: "",
      tone: "neutral",
      kind: "request",
      psuActs: psu,
      pageUrl: psu && e.method === "GET" ? url : null,
      at: e.at,
    },
    {
      key: `${e.id}:res`,
      entryId: e.id,
      from: "bank",
      to: client,
      // Marked where it happened, so nobody takes an injected failure for a bug of the app or the bank.
      label: injected ? `${responseLabel(e)} · ${injected}` : responseLabel(e),
      status: String(e.status),
      tone: httpTone(e.status),
      kind: "response",
      psuActs: false,
      pageUrl: null,
      at: e.at,
      ...(injected ? { injected } : {}),
    },
  ];
}

function str(v: unknown): string {
  return typeof v === "string" || typeof v === "number" ? String(v) : "";
}

/**
 * A status change has two notices on the timeline: the workbench's `{paymentId, before, after}` and the
 * bank's own `{paymentId, transactionStatus}` (the /v1 stream's). The bank's is drawn only when no
 * workbench notice of the same payment reached that status: a payment's creation (RCVD) has only the
 * bank's; `ACTC → ACSC` is not followed by a second `ACSC`.
 */
function statusesExplained(entries: readonly Entry[]): Set<string> {
  const seen = new Set<string>();
  for (const e of entries) {
    if (e.kind === "event" && e.event === "payment.status" && e.data.before) seen.add(`${str(e.data.paymentId)} ${str(e.data.after)}`);
  }
  return seen;
}

function eventMessage(e: EventEntry, explained: ReadonlySet<string>): Message | null {
  const d = e.data;
  const base = { key: `${e.id}:ev`, entryId: e.id, kind: "event" as const, psuActs: false, pageUrl: null, at: e.at };
  switch (e.event) {
    case "payment.status": {
      const after = str(d.after) || str(d.transactionStatus);
      if (!d.before && explained.has(`${str(d.paymentId)} ${after}`)) return null;
      const change = d.before ? `${str(d.before)} → ${after}` : after;
      const byBatch = d.batchRunId !== undefined && d.batchRunId !== null;
      // The bank changes a payment's status itself (a note on its lane: nothing travels to the TPP, which
      // reads the status when it asks); the batch simulator's runs are the other cause.
      return {
        ...base,
        from: byBatch ? "batch" : "bank",
        to: "bank",
        label: byBatch ? "payment status at the batch run" : "payment status",
        status: change,
        tone: STATUS_TONES[after] ?? "neutral",
      };
    }
    case "batch.run": {
      const statuses = (d.statuses ?? {}) as Record<string, unknown>;
      const summary = Object.entries(statuses)
        .map(([k, v]) => `${k} ${str(v)}`)
        .join(", ");
      return { ...base, from: "batch", to: "bank", label: `batch run${d.lastOfDay ? " (last of day)" : ""}`, status: summary, tone: "neutral" };
    }
    case "sca.step":
      return { ...base, from: "psu", to: "bank", label: `SCA step: ${str(d.step)}`, status: "", tone: "neutral", psuActs: false };
    case "clock":
      return { ...base, from: "batch", to: "batch", label: `clock → ${str(d.now)}`, status: "", tone: "neutral" };
    default:
      return null;
  }
}

/**
 * What the PSU's browser carries back to the TPP, in the story's words: the TPP's own address (the workbench's
 * callback with its persona, an app's redirect URI) and the ids themselves are no part of the story.
 */
export function backLabel(location: string): string {
  let params: URLSearchParams;
  try {
    params = new URL(location, "http://sandbox.invalid").searchParams;
  } catch {
    return "back to the TPP";
  }
  if (params.get("psu-id")) {
    return params.get("psu-corporate-id") ? "back to the TPP with the PSU's and the company's ids" : "back to the TPP with the PSU's id";
  }
  const failure = params.get("code") ?? params.get("status");
  return failure ? `back to the TPP: the SCA did not succeed (${failure})` : "back to the TPP";
}

/**
 * The messages of a journey in time (id) order: a request and its answer per exchange, one per event, and
 * the PSU's browser going back to the TPP where the bank's pages redirected there (`leaving`: the Location
 * of an SCA page's redirect, by exchange id, read from the whole exchange). `injected`: the fault plan's
 * marker (the answer's Sandbox-Injected header), by exchange id, shown on the answer's arrow.
 */
export function messagesOf(
  entries: readonly Entry[],
  leaving: ReadonlyMap<number, string> = new Map(),
  injected: ReadonlyMap<number, string> = new Map(),
): Message[] {
  const sorted = [...entries].sort((a, b) => a.id - b.id);
  const explained = statusesExplained(sorted);
  const out: Message[] = [];
  for (const entry of sorted) {
    if (entry.kind === "exchange") {
      out.push(...exchangeMessages(entry, injected.get(entry.id)));
      const location = leaving.get(entry.id);
      if (entry.area === "sca-page" && location && !/^(https?:\/\/[^/]+)?\/sca\//.test(location)) {
        out.push({
          key: `${entry.id}:back`,
          entryId: entry.id,
          from: "psu",
          to: "tpp",
          label: backLabel(location),
          status: "",
          tone: "neutral",
          kind: "request",
          psuActs: false,
          pageUrl: null,
          at: entry.at,
        });
      }
    } else {
      const m = eventMessage(entry, explained);
      if (m) out.push(m);
    }
  }
  return out;
}

/** The exchanges whose redirect may leave the bank's pages: the SCA pages' 3xx answers. */
export function redirectsOf(entries: readonly Entry[]): number[] {
  return entries.filter((e) => e.kind === "exchange" && e.area === "sca-page" && e.status >= 300 && e.status < 400).map((e) => e.id);
}

export interface Geometry {
  laneWidth: number;
  margin: number;
  header: number;
  rowGap: number;
  /** The text's size in the diagram's own units (pixels when drawn at its natural width). */
  fontSize: number;
}

export const DEFAULT_GEOMETRY: Geometry = { laneWidth: 260, margin: 24, header: 56, rowGap: 46, fontSize: 13 };

/**
 * A geometry that fills `width` pixels with the four lanes and writes at `fontSize` pixels: rows and
 * headers grow with the type, so a projector's larger text keeps its spacing.
 */
export function geometryFor(width: number, fontSize: number): Geometry {
  const margin = Math.max(12, Math.round(fontSize));
  return {
    margin,
    laneWidth: Math.max(120, (width - margin * 2) / LANES.length),
    header: Math.round(fontSize * 4.2),
    rowGap: Math.round(fontSize * 3.4),
    fontSize,
  };
}

export interface PlacedLane {
  id: LaneId;
  title: string;
  x: number;
}

export interface PlacedMessage extends Message {
  index: number;
  x1: number;
  x2: number;
  y: number;
  /** From a lane to itself: drawn as a note on that lane. */
  self: boolean;
  /** Where the label is centred: over the arrow, moved in so that it is not cut off at either edge. */
  labelX: number;
  /** The label's width as estimated or measured (a note's box is this wide). */
  labelWidth: number;
  /** The label as drawn: cut at its end with an ellipsis where the whole would be wider than the diagram. */
  drawn: string;
}

export interface Layout {
  lanes: PlacedLane[];
  messages: PlacedMessage[];
  width: number;
  height: number;
  fontSize: number;
  laneWidth: number;
}

/** A label's width at `fontSize`: the system UI faces average a little over half an em per character. */
export function textWidth(text: string, fontSize: number): number {
  return Math.ceil(text.length * fontSize * 0.58);
}

/** How wide `text` is drawn at `fontSize` pixels: the estimate above, or the browser's measure (measure.ts). */
export type Measure = (text: string, fontSize: number) => number;

/** The words on a message's row: a note on one lane carries its status after a colon. */
export function labelText(m: Message): string {
  return m.from === m.to && m.status ? `${m.label}: ${m.status}` : m.label;
}

/** The room a message's label takes at `fontSize`: a note's box has padding; an event's status is drawn below. */
export function labelRoom(m: Message, fontSize: number, measure: Measure = textWidth): number {
  if (m.from === m.to) return measure(labelText(m), fontSize) + fontSize;
  const status = m.kind === "event" && m.status ? measure(m.status, fontSize) : 0;
  // The halo drawn around an arrow's label (4 units of stroke) is part of what must not be cut.
  return Math.max(measure(m.label, fontSize), status) + 4;
}

/**
 * The label of `m` as it fits `room` at `fontSize`: whole when it does, else cut at its end with an ellipsis
 * (a redirect's long query, an injected fault's marker); the whole label stays in the row's tooltip.
 */
export function fittedLabel(m: Message, room: number, fontSize: number, measure: Measure = textWidth): string {
  if (labelRoom(m, fontSize, measure) <= room) return m.label;
  const cut = (n: number) => `${m.label.slice(0, n).trimEnd()}…`;
  let lo = 0;
  let hi = m.label.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (labelRoom({ ...m, label: cut(mid) }, fontSize, measure) <= room) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}

/** Coordinates for every lane and message; each message has its own row, top to bottom. */
export function layout(messages: readonly Message[], g: Geometry = DEFAULT_GEOMETRY, measure: Measure = textWidth): Layout {
  const width = g.margin * 2 + g.laneWidth * LANES.length;
  const laneX = new Map<LaneId, number>();
  const lanes = LANES.map((lane, i) => {
    const x = g.margin + g.laneWidth * (i + 0.5);
    laneX.set(lane.id, x);
    return { id: lane.id, title: lane.title, x };
  });
  const placed = messages.map((m, index) => {
    const x1 = laneX.get(m.from) as number;
    const x2 = laneX.get(m.to) as number;
    const drawn = fittedLabel(m, width - 4, g.fontSize, measure);
    const labelWidth = Math.min(width - 4, labelRoom({ ...m, label: drawn }, g.fontSize, measure));
    const half = labelWidth / 2;
    const labelX = Math.max(half + 2, Math.min(width - half - 2, (x1 + x2) / 2));
    return { ...m, index, x1, x2, y: g.header + g.rowGap * (index + 1), self: m.from === m.to, labelX, labelWidth, drawn };
  });
  return {
    lanes,
    messages: placed,
    width,
    height: g.header + g.rowGap * (messages.length + 1) + g.margin,
    fontSize: g.fontSize,
    laneWidth: g.laneWidth,
  };
}

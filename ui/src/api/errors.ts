// The service's refusals as values: an ApiError carries the HTTP status and the tppMessages, and
// `fieldErrors` sorts those messages by the JSON path they name so that a form can show each at its field.
import type { TppMessage } from "./types";

export class ApiError extends Error {
  readonly status: number;
  readonly messages: TppMessage[];

  constructor(status: number, messages: TppMessage[]) {
    super(messages.map((m) => m.text ?? m.code).join("\n") || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.messages = messages;
  }
}

function isMessage(value: unknown): value is TppMessage {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  return typeof m.code === "string" || typeof m.text === "string";
}

/** The tppMessages of a parsed body, or none. */
export function messagesOf(body: unknown): TppMessage[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return [];
  const list = (body as Record<string, unknown>).tppMessages;
  if (!Array.isArray(list)) return [];
  return list.filter(isMessage).map((m) => ({
    category: m.category === "WARNING" ? "WARNING" : "ERROR",
    code: m.code ?? "",
    path: m.path ?? null,
    text: m.text ?? null,
  }));
}

/** An error from a non-2xx answer: its tppMessages, or one message saying what came back instead. */
export function errorFromAnswer(status: number, statusText: string, text: string): ApiError {
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const messages = messagesOf(parsed);
  if (messages.length > 0) return new ApiError(status, messages);
  const snippet = text.trim().slice(0, 300);
  return new ApiError(status, [
    {
      category: "ERROR",
      code: statusText || `HTTP_${status}`,
      path: null,
      text: `The service answered ${status}${statusText ? ` ${statusText}` : ""}${snippet ? `: ${snippet}` : ""}`,
    },
  ]);
}

/** An error for a request that got no answer at all. */
export function networkError(cause: unknown): ApiError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ApiError(0, [
    { category: "ERROR", code: "NETWORK", path: null, text: `The service did not answer (${detail}). Is it running?` },
  ]);
}

/** Any thrown value as messages to show. */
export function messagesFromError(error: unknown): TppMessage[] {
  if (error instanceof ApiError) return error.messages;
  const text = error instanceof Error ? error.message : String(error);
  return [{ category: "ERROR", code: "CLIENT", path: null, text }];
}

/**
 * Normalises a path so that `balances[0].balanceAmount.amount`, `$.balances[0]…` and `/balances/0/…` agree.
 * `prefix` is dropped from the front (e.g. `[0]` for a one-item array body).
 */
export function normalisePath(path: string, prefix = ""): string {
  let p = path.trim();
  if (p.startsWith("$")) p = p.slice(1);
  if (p.startsWith("/")) p = p.slice(1).replace(/\/(\d+)(?=\/|$)/g, "[$1]").replace(/\//g, ".");
  if (p.startsWith(".")) p = p.slice(1);
  if (prefix && p.startsWith(prefix)) {
    p = p.slice(prefix.length);
    if (p.startsWith(".")) p = p.slice(1);
  }
  return p;
}

export interface FieldErrors {
  /** Messages by the (normalised) path of the field they name. */
  byPath: Map<string, TppMessage[]>;
  /** Messages naming no path. */
  general: TppMessage[];
}

/** Sorts ERROR messages by path. WARNINGs are left out: they accompany answers that succeeded. */
export function fieldErrors(messages: readonly TppMessage[], prefix = ""): FieldErrors {
  const byPath = new Map<string, TppMessage[]>();
  const general: TppMessage[] = [];
  for (const m of messages) {
    if (m.category === "WARNING") continue;
    if (!m.path) {
      general.push(m);
      continue;
    }
    const key = normalisePath(m.path, prefix);
    const list = byPath.get(key);
    if (list) list.push(m);
    else byPath.set(key, [m]);
  }
  return { byPath, general };
}

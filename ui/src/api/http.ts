// The one HTTP transport: JSON requests to `<baseUrl>/workbench/api/...` with the operator token, answers
// parsed, refusals turned into ApiError, WARNINGs of successful answers handed to a listener, and a count
// of requests in flight for the progress indicator.
import type { ClientConfig } from "./config";
import { ApiError, errorFromAnswer, messagesOf, networkError } from "./errors";
import type { TppMessage } from "./types";

export const API_PREFIX = "/workbench/api";

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** The answer is text (e.g. a PEM, a state file to save as it came), not parsed. */
  text?: boolean;
  /** The body is JSON text already (a file the user chose): sent as it is, for the service to judge. */
  raw?: boolean;
}

export interface Transport {
  readonly config: ClientConfig;
  request<T>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  /** The absolute URL of an API path, with `?token=` for places that cannot send a header. */
  url(path: string, withToken?: boolean): string;
}

export interface TransportHooks {
  onWarnings?: (messages: TppMessage[]) => void;
  onPending?: (inFlight: number) => void;
}

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function createTransport(
  config: ClientConfig,
  hooks: TransportHooks = {},
  fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
): Transport {
  let inFlight = 0;
  const pending = (delta: number) => {
    inFlight += delta;
    hooks.onPending?.(inFlight);
  };

  const url = (path: string, withToken = false): string => {
    const full = `${config.baseUrl}${API_PREFIX}${path}`;
    if (!withToken || !config.token) return full;
    return `${full}${full.includes("?") ? "&" : "?"}token=${encodeURIComponent(config.token)}`;
  };

  async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: options.text ? "*/*" : "application/json" };
    if (config.token) headers.Authorization = `Bearer ${config.token}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = options.raw && typeof body === "string" ? body : JSON.stringify(body);
    }
    if (options.signal) init.signal = options.signal;
    pending(1);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url(path) + buildQuery(options.query), init);
      text = await response.text();
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
      throw networkError(cause);
    } finally {
      pending(-1);
    }
    if (!response.ok) throw errorFromAnswer(response.status, response.statusText, text);
    if (options.text) return text as T;
    if (response.status === 204 || text.trim() === "") return undefined as T;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError(response.status, [
        { category: "ERROR", code: "FORMAT", path: null, text: `The service's answer is not JSON: ${text.slice(0, 200)}` },
      ]);
    }
    const warnings = messagesOf(parsed).filter((m) => m.category === "WARNING");
    if (warnings.length > 0) hooks.onWarnings?.(warnings);
    return parsed as T;
  }

  return { config, request, url };
}

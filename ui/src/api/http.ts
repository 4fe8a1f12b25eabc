// The one HTTP transport: an openapi-fetch client typed by the `paths` of the service's OpenAPI document
// (./generated/schema.ts), so that every call's path, parameters and body are checked by the compiler,
// sending the operator token, over a fetch that reads each answer once: refusals turned into ApiError, WARNINGs
// of successful answers handed to a listener, and a count of requests in flight for the progress indicator.
import createFetchClient from "openapi-fetch";
import type { Client } from "openapi-fetch";
import type { ClientConfig } from "./config";
import { ApiError, errorFromAnswer, messagesOf, networkError } from "./errors";
import type { paths } from "./generated/schema";
import type { TppMessage } from "./types";

/** The client over the document's paths: `api.GET("/workbench/api/session")`, each path as the document has it. */
export type Api = Client<paths>;

/** A path of the document. */
export type ApiPath = keyof paths;

const JSON_TYPE = "application/json";

/** Per call: the answer is text (e.g. a PEM, a state file to save as it came), not parsed. */
export const AS_TEXT = { parseAs: "text", headers: { Accept: "*/*" } } as const;

/** Per call: the body is JSON text already (a file the user chose), sent as it is for the service to judge. */
export const AS_IS = { bodySerializer: (body: unknown) => body };

export interface Transport {
  readonly config: ClientConfig;
  readonly api: Api;
  /** The absolute URL of a path of the document, with `?token=` for places that cannot send a header. */
  url(path: ApiPath, withToken?: boolean): string;
}

export interface TransportHooks {
  onWarnings?: (messages: TppMessage[]) => void;
  onPending?: (inFlight: number) => void;
}

/**
 * A query's text without the `?`; empty values are left out (a form's blank field means "any"). The workbench's
 * query parameters are single values; anything else is a mistake of the caller, said at once.
 */
export function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new TypeError(`the query parameter ${name} is not a single value`);
    }
    params.set(name, String(value));
  }
  return params.toString();
}

/**
 * The data of an answer. Refusals never get here (the transport's fetch throws them as ApiError); the check
 * stays in case a call ever gets an error answer past it.
 */
export async function answer<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const text = error === undefined ? "" : typeof error === "string" ? error : JSON.stringify(error);
    throw errorFromAnswer(response.status, response.statusText, text);
  }
  return data as D;
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

  const url = (path: ApiPath, withToken = false): string => {
    const full = `${config.baseUrl}${path}`;
    if (!withToken || !config.token) return full;
    return `${full}${full.includes("?") ? "&" : "?"}token=${encodeURIComponent(config.token)}`;
  };

  /** Sends a request openapi-fetch built and reads the whole answer, so that it is counted until it is in. */
  async function send(request: Request): Promise<Response> {
    pending(1);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(request);
      text = await response.text();
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
      throw networkError(cause);
    } finally {
      pending(-1);
    }
    if (!response.ok) throw errorFromAnswer(response.status, response.statusText, text);
    const empty = text.trim() === "";
    if (!empty && request.headers.get("Accept") === JSON_TYPE) {
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
    }
    // The body was read above; openapi-fetch reads this copy (no body: its data is undefined, as for a 204).
    const type = response.headers.get("Content-Type");
    return new Response(empty ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: type ? { "Content-Type": type } : {},
    });
  }

  const api = createFetchClient<paths>({
    baseUrl: config.baseUrl,
    fetch: send,
    headers: { Accept: JSON_TYPE, Authorization: config.token ? `Bearer ${config.token}` : undefined },
    querySerializer: (query) => queryString(query),
  });

  return { config, api, url };
}

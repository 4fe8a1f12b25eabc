// A fetch stand-in for tests: routes by "METHOD /path" under /workbench/api, records every call, answers
// JSON (or a thrown network error); an unknown route answers 404 in the service's error shape.
import { vi } from "vitest";

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Reply {
  status?: number;
  body?: unknown;
  /** A raw body instead of JSON. */
  text?: string;
}

export type Route = Reply | ((call: Call) => Reply | Promise<Reply>);

export const json = (body: unknown, status = 200): Reply => ({ status, body });

export const refusal = (status: number, ...messages: { code: string; path?: string; text: string }[]): Reply => ({
  status,
  body: { tppMessages: messages.map((m) => ({ category: "ERROR", ...m })) },
});

export function mockFetch(routes: Record<string, Route>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const method = (init?.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/^\/workbench\/api/, "");
    const text = typeof init?.body === "string" ? init.body : undefined;
    const call: Call = {
      method,
      path,
      query: url.searchParams,
      url: url.toString(),
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: text !== undefined ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const route = routes[`${method} ${path}`];
    if (route === undefined) {
      return new Response(JSON.stringify({ tppMessages: [{ category: "ERROR", code: "NOT_FOUND", text: `no route ${method} ${path}` }] }), {
        status: 404,
        headers: { "Content-Type": "application/json" },
      });
    }
    const reply = typeof route === "function" ? await route(call) : route;
    const status = reply.status ?? 200;
    const body = reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
    return new Response(status === 204 ? null : body, { status, headers: { "Content-Type": "application/json" } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

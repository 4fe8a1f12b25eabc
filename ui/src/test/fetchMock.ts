// A fetch stand-in for tests that serves only the service's contract: routes by "METHOD /path" under
// /workbench/api, and each route, each request and each answer is checked against the service's OpenAPI
// document (./contract.ts): a route that is no operation of the document is refused when the mock is made;
// an answer the document does not allow, and a request it does not take answered with success, are recorded
// as violations, which fail the test (src/test/setup.ts). Records every call; an operation with no route
// answers 404.
import { vi } from "vitest";
import { operationOf, replyProblem, requestProblem, violation } from "./contract";

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  url: string;
  /** By lower-case name, as the Fetch API's Headers give them. */
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

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Checks the routes a test offers against the document: each must be one of its operations. */
function checkRoutes(routes: Record<string, Route>): void {
  const unknown = Object.keys(routes).filter((key) => {
    const [method = "", path = ""] = key.split(" ");
    return operationOf(method, path) === null;
  });
  if (unknown.length > 0) {
    throw new Error(`the service's OpenAPI document has no operation for the route(s) ${unknown.join(", ")}`);
  }
}

export function mockFetch(routes: Record<string, Route>) {
  checkRoutes(routes);
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // The client's openapi-fetch hands in a Request; a bare URL and init are taken too.
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const path = url.pathname.replace(/^\/workbench\/api/, "");
    const text = request.body === null ? "" : await request.text();
    const call: Call = {
      method,
      path,
      query: url.searchParams,
      url: url.toString(),
      headers: Object.fromEntries(request.headers),
      body: text !== "" ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const op = operationOf(method, path);
    if (!op) violation(`the UI called ${method} ${path}, which is no operation of the service's OpenAPI document`);
    const route = routes[`${method} ${path}`];
    if (route === undefined) {
      return new Response(
        JSON.stringify({ tppMessages: [{ category: "ERROR", code: "RESOURCE_UNKNOWN", text: `no route ${method} ${path}` }] }),
        { status: 404, headers: { "Content-Type": "application/json" } },
      );
    }
    const reply = typeof route === "function" ? await route(call) : route;
    const status = reply.status ?? 200;
    const body = reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
    if (op) {
      const answer = reply.text !== undefined ? parse(reply.text) : reply.body;
      const problem = replyProblem(op, status, answer);
      if (problem) violation(`the test answered what the service never answers: ${problem}`);
      // A request the document does not take may be what a user typed (the service then refuses it at the
      // field, as a test's 4xx answer says); taken as if it were fine, it is a fake the service would not be.
      const request = status < 400 ? requestProblem(op, call.body) : null;
      if (request) violation(`the test accepted a request the service does not take: ${request}`);
    }
    return new Response(status === 204 ? null : body, { status, headers: { "Content-Type": "application/json" } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

// Every call the UI's client makes — method and path — is an operation of the service's OpenAPI document:
// the client's functions are enumerated (all of them, over a fetch that records instead of sending) and each
// request they make is looked up in the document (src/test/contract.ts). The compiler already holds the
// client to the document's paths; this checks the requests as they leave, after openapi-fetch built them.
import { describe, expect, it } from "vitest";
import { createClient } from "./client";
import { createTransport } from "./http";
import { operationOf } from "../test/contract";

interface Recorded {
  name: string;
  method: string;
  path: string;
}

const BASE = "http://127.0.0.1:8080";

function recordingClient() {
  const recorded: Recorded[] = [];
  let current = "";
  const record = (method: string, url: string) => {
    const path = new URL(url).pathname;
    recorded.push({ name: current, method, path: path.replace(/^\/workbench\/api/, "") });
  };
  const fetch = (request: Request) => {
    record(request.method, request.url);
    return Promise.resolve(new Response("{}", { status: 200 }));
  };
  const transport = createTransport({ baseUrl: BASE, token: "t", desktop: false }, {}, fetch as typeof globalThis.fetch);
  const url = transport.url;
  // A URL handed to EventSource: a GET of that path.
  const recordingTransport = {
    ...transport,
    url: (...args: Parameters<typeof url>) => {
      const full = url(...args);
      record("GET", full);
      return full;
    },
  };
  return { client: createClient(recordingTransport), recorded, name: (n: string) => (current = n) };
}

/** Every function of the client, by its dotted name. */
function functionsOf(value: object, prefix = ""): [string, (...args: unknown[]) => unknown][] {
  return Object.entries(value).flatMap(([key, member]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof member === "function") return [[name, member as (...args: unknown[]) => unknown]];
    if (member && typeof member === "object") return functionsOf(member as object, name);
    return [];
  });
}

describe("the client against the service's OpenAPI document", () => {
  it("makes only requests the document has, one per function", async () => {
    const { client, recorded, name } = recordingClient();
    const functions = functionsOf(client);
    for (const [fn, call] of functions) {
      name(fn);
      // Ids as path segments, and single values (a query parameter takes nothing else): all the recording
      // fetch needs, whatever the body or query a function takes.
      await call("id-1", "x", 1);
    }
    const made = new Set(recorded.map((r) => r.name));
    expect(functions.map(([fn]) => fn).filter((fn) => !made.has(fn)), "functions that made no request").toEqual([]);
    const missing = recorded
      .filter((r) => operationOf(r.method, r.path.split("?")[0]!) === null)
      .map((r) => `${r.name}: ${r.method} /workbench/api${r.path}`);
    expect(missing, "client calls the service's OpenAPI document does not have").toEqual([]);
    // The enumeration saw the whole client (a guard against a walk that silently finds nothing).
    expect(functions.length).toBeGreaterThan(40);
  });
});

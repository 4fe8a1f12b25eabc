// Every call the UI's client makes — method and path template — is an operation of the service's OpenAPI
// document: the client's functions are enumerated (all of them, over a transport that records instead of
// sending) and each request they make is looked up in the document (src/test/contract.ts).
import { describe, expect, it } from "vitest";
import { createClient } from "./client";
import type { RequestOptions, Transport } from "./http";
import { operationOf } from "../test/contract";

interface Recorded {
  name: string;
  method: string;
  path: string;
}

function recordingClient() {
  const recorded: Recorded[] = [];
  let current = "";
  const transport: Transport = {
    config: { baseUrl: "http://127.0.0.1:8080", token: "t", desktop: false },
    request<T>(method: string, path: string, _body?: unknown, _options?: RequestOptions): Promise<T> {
      recorded.push({ name: current, method, path });
      return Promise.resolve(undefined as T);
    },
    url(path: string) {
      // A URL handed to EventSource: a GET of that path.
      recorded.push({ name: current, method: "GET", path });
      return `http://127.0.0.1:8080/workbench/api${path}`;
    },
  };
  return { client: createClient(transport), recorded, name: (n: string) => (current = n) };
}

/** Every function of the client, by its dotted name. */
function functionsOf(value: object, prefix = ""): [string, (...args: unknown[]) => unknown][] {
  return Object.entries(value).flatMap(([key, member]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof member === "function") return [[name, member as (...args: unknown[]) => unknown]];
    if (member && typeof member === "object" && key !== "transport") return functionsOf(member as object, name);
    return [];
  });
}

describe("the client against the service's OpenAPI document", () => {
  it("makes only requests the document has, one per function", async () => {
    const { client, recorded, name } = recordingClient();
    const functions = functionsOf(client);
    for (const [fn, call] of functions) {
      name(fn);
      // Ids as path segments; objects and strings are all the recording transport needs.
      await call("id-1", {}, 1);
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

/// <reference types="node" />
// The service's contract for the unit tests: the committed copy of its OpenAPI document
// (src/api/generated/openapi.json, kept current by `npm run check:types`). A request the UI makes must be an
// operation of the document, its JSON body must match the operation's request schema, and every answer a
// test hands back must be one the document allows for that status — so a test cannot pass against a service
// that does not exist. JSON Schema 2020-12 (OpenAPI 3.1) through Ajv.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

type Json = Record<string, unknown>;

interface Document {
  paths: Record<string, Record<string, Json>>;
  components: Json & { responses?: Record<string, Json> };
}

// Vitest runs from ui/ (its config's root); jsdom gives modules an http: import.meta.url.
const DOCUMENT_FILE = join(process.cwd(), "src/api/generated/openapi.json");
const doc = JSON.parse(readFileSync(DOCUMENT_FILE, "utf8")) as Document;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(doc, "doc");

const METHODS = ["get", "put", "post", "delete", "patch"];

/** The workbench API's prefix, as the UI's transport sends it. */
export const API_PREFIX = "/workbench/api";

export interface Operation {
  method: string;
  /** The document's path template, e.g. `/workbench/api/personas/{id}`. */
  template: string;
  /** JSON pointer of the operation object in the document. */
  pointer: string;
  operation: Json;
}

const escape = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`),
}));

/**
 * The operation of the document a request to `path` (under /workbench/api, without query) is. The
 * workbench's `/sandbox/...` routes are the bank's `/v1/sandbox/...` operations served under the operator
 * credential (docs/workbench-api.md, "Sandbox data"), so they are looked up there when the document has no
 * workbench path of their own.
 */
export function operationOf(method: string, path: string): Operation | null {
  const m = method.toLowerCase();
  const candidates = [`${API_PREFIX}${path}`, ...(path.startsWith("/sandbox/") ? [`/v1${path}`] : [])];
  for (const concrete of candidates) {
    // Only templates of the same area: a workbench path is one of the workbench's, a mock-data path one of
    // `/v1/sandbox`'s (not the bank's `/v1/{paymentService}/{paymentProduct}/{paymentId}`, which would fit
    // `/v1/sandbox/generate/bban` too). A literal path (`/personas/import`) wins over a template
    // (`/personas/{id}`), as the router's does.
    const area = concrete.startsWith("/v1/sandbox/") ? "/v1/sandbox/" : API_PREFIX;
    const found = templates
      .filter((t) => t.template.startsWith(area) && t.pattern.test(concrete) && doc.paths[t.template]?.[m] !== undefined)
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0))[0];
    if (found) {
      return {
        method: m.toUpperCase(),
        template: found.template,
        pointer: `/paths/${escape(found.template)}/${m}`,
        operation: doc.paths[found.template]![m]!,
      };
    }
  }
  return null;
}

/** Every operation of the document under the workbench API or the mock-data API, as `METHOD template`. */
export function documentedOperations(): string[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => `${m.toUpperCase()} ${template}`),
  );
}

function resolve(object: Json): Json {
  const ref = object.$ref;
  if (typeof ref !== "string") return object;
  const name = ref.replace("#/components/responses/", "");
  return resolve((doc.components.responses?.[name] ?? {}));
}

const compiled = new Map<string, ValidateFunction>();

function validator(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `doc#${pointer}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || "(body)"} ${e.message ?? ""}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`)
    .join("; ");
}

/** Why a JSON request body does not fit the operation's request schema, or null when it does. */
export function requestProblem(op: Operation, body: unknown): string | null {
  const requestBody = op.operation.requestBody as Json | undefined;
  const content = requestBody?.content as Record<string, Json> | undefined;
  if (!content) return body === undefined ? null : `${op.method} ${op.template} takes no body`;
  if (body === undefined) return requestBody?.required ? `${op.method} ${op.template} needs a body` : null;
  if (!content["application/json"]) return null;
  const validate = validator(`${op.pointer}/requestBody/content/application~1json/schema`);
  return validate(body) ? null : `${op.method} ${op.template} request body: ${describe(validate.errors)}`;
}

/** Why an answer is not one the document allows for the operation and status, or null when it is. */
export function replyProblem(op: Operation, status: number, body: unknown): string | null {
  const responses = (op.operation.responses ?? {}) as Record<string, Json>;
  const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => responses[k] !== undefined);
  if (key === undefined) {
    return `${op.method} ${op.template} never answers ${status} (the document lists ${Object.keys(responses).join(", ")})`;
  }
  const declared = responses[key]!;
  const response = resolve(declared);
  const content = response.content as Record<string, Json> | undefined;
  if (!content || status === 204) {
    return body === undefined || body === "" ? null : `${op.method} ${op.template} ${status} has no body in the document`;
  }
  if (!content["application/json"]) return null;
  const base =
    typeof declared.$ref === "string"
      ? `/components/responses/${escape(declared.$ref.replace("#/components/responses/", ""))}`
      : `${op.pointer}/responses/${key}`;
  const validate = validator(`${base}/content/application~1json/schema`);
  return validate(body) ? null : `${op.method} ${op.template} ${status} answer: ${describe(validate.errors)}`;
}

/** Whether the operation's answer for `status` is JSON in the document. */
export function answersJson(op: Operation, status: number): boolean {
  const responses = (op.operation.responses ?? {}) as Record<string, Json>;
  const declared = responses[String(status)];
  const content = declared ? (resolve(declared).content as Record<string, Json> | undefined) : undefined;
  return content?.["application/json"] !== undefined;
}

/** Contract breaches seen since the last `takeViolations()`; the test setup fails a test that had any. */
const violations: string[] = [];

export function violation(text: string): void {
  violations.push(text);
}

export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}

/// <reference types="node" />
// No path is written by hand in client.ts: every path there is the first argument of a call of the typed
// openapi-fetch client (`api.GET(...)` and its siblings), of `t.url(...)` or of `QueryOf<...>`, where the
// compiler holds it to the keys of the generated `paths`, and is a path of the service's OpenAPI document. A path put together in a
// template or a string anywhere else (`/sandbox/accounts/${id}`, `base + "/v1/..."`) fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Vitest runs from ui/ (its config's root).
const CLIENT = join(process.cwd(), "src/api/client.ts");
const DOCUMENT = join(process.cwd(), "src/api/generated/openapi.json");
const documented = new Set(Object.keys((JSON.parse(readFileSync(DOCUMENT, "utf8")) as { paths: object }).paths));

/** The calls whose first argument the compiler checks against the document's paths. */
const TYPED = new Set(["GET", "PUT", "POST", "PATCH", "DELETE", "url"]);

/** A string that names a place on the service: a path, a URL, or a piece of one. */
function pathLike(text: string): boolean {
  return text.startsWith("/") || text.includes("://") || /\/(v1|workbench|api|sandbox|sca)\b/.test(text);
}

/** The generic types whose path argument the compiler checks (`P extends ApiPath`). */
const TYPED_TYPES = new Set(["QueryOf"]);

function typedPosition(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isLiteralTypeNode(parent)) {
    const reference = parent.parent;
    return (
      ts.isTypeReferenceNode(reference) &&
      reference.typeArguments?.[0] === parent &&
      ts.isIdentifier(reference.typeName) &&
      TYPED_TYPES.has(reference.typeName.text)
    );
  }
  return (
    ts.isCallExpression(parent) &&
    parent.arguments[0] === node &&
    ts.isPropertyAccessExpression(parent.expression) &&
    TYPED.has(parent.expression.name.text)
  );
}

interface Found {
  /** The typed paths, each as written. */
  typed: string[];
  /** What is written by hand, with its line. */
  handWritten: string[];
}

function findPaths(source: string, file = "client.ts"): Found {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: Found = { typed: [], handWritten: [] };
  const at = (node: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (pathLike(node.text)) {
        if (typedPosition(node) && ts.isStringLiteral(node) && documented.has(node.text)) found.typed.push(node.text);
        else found.handWritten.push(`${at(node)} ${node.getText()}`);
      }
    } else if (ts.isTemplateExpression(node)) {
      const pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
      if (pieces.some((p) => p.includes("/"))) found.handWritten.push(`${at(node)} ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe("client.ts's paths", () => {
  it("are all the document's, in calls the compiler checks", () => {
    const { typed, handWritten } = findPaths(readFileSync(CLIENT, "utf8"));
    expect(handWritten, "paths written by hand in src/api/client.ts").toEqual([]);
    // The walk saw the client (a guard against one that silently finds nothing).
    expect(typed.length).toBeGreaterThan(60);
  });

  it("would catch a path written by hand", () => {
    const source = [
      'const a = t.request("GET", "/sandbox/customers");',
      "const b = api.GET(`/workbench/api/personas/${id}`);",
      'const c = base + "/v1/accounts";',
      'const d = api.GET("/workbench/api/no-such-path");',
      'const e = t.url("/workbench/api/events", true);',
      'const f = fetch("http://127.0.0.1:8080/workbench/api/session");',
      'type G = QueryOf<"/workbench/api/traffic">;',
      'type H = "/workbench/api/traffic";',
    ].join("\n");
    const { typed, handWritten } = findPaths(source, "sample.ts");
    expect(typed).toEqual(["/workbench/api/events", "/workbench/api/traffic"]);
    expect(handWritten).toEqual([
      'sample.ts:1 "/sandbox/customers"',
      "sample.ts:2 `/workbench/api/personas/${id}`",
      'sample.ts:3 "/v1/accounts"',
      'sample.ts:4 "/workbench/api/no-such-path"',
      'sample.ts:6 "http://127.0.0.1:8080/workbench/api/session"',
      'sample.ts:8 "/workbench/api/traffic"',
    ]);
  });
});

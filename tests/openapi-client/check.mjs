// Checks the sandbox's OpenAPI document from outside the Rust code:
//   node check.mjs OPENAPI.json
// 1. validates it as OpenAPI 3.1 (swagger-parser: the structure and every $ref),
// 2. generates TypeScript types from it with openapi-typescript (a standard generator, offline),
// 3. compiles client.ts, a typed client (openapi-fetch) that calls operations of every area, with tsc.
// Exit code non-zero on any failure.
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2];
if (!file) {
  console.error("usage: node check.mjs OPENAPI.json");
  process.exit(2);
}
const document = JSON.parse(readFileSync(resolve(file), "utf8"));

// swagger-parser dereferences in place: give it a copy.
await SwaggerParser.validate(structuredClone(document));
const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
console.log(`valid OpenAPI ${document.openapi}: ${Object.keys(document.paths).length} paths, ${operations} operations, ${Object.keys(document.components.schemas).length} schemas`);

const ast = await openapiTS(document);
mkdirSync(join(here, "generated"), { recursive: true });
writeFileSync(join(here, "generated", "sandbox.d.ts"), astToString(ast));
console.log("generated generated/sandbox.d.ts with openapi-typescript");

execFileSync(process.execPath, [join(here, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", join(here, "tsconfig.json")], {
  stdio: "inherit",
});
console.log("client.ts compiles against the generated types");

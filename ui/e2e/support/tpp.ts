// An external TPP app for the traffic test: requests signed by the service's own `xs2a-sandbox sign` CLI
// with a bundled test certificate, sent over HTTP by Playwright (not through the workbench), optionally
// spoiled after signing (a wrong Digest, an extra unsigned header) the way a buggy client would.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { APIRequestContext, APIResponse } from "@playwright/test";

export const SANDBOX_BIN = process.env.XS2A_SANDBOX_BIN ?? "xs2a-sandbox";
export const CERT_DIR = process.env.XS2A_TPP_CERT_DIR ?? fileURLToPath(new URL("../../../fixtures/certs/aisp-pisp", import.meta.url));

export interface Signed {
  headers: Record<string, string>;
  /** The signing string the client signed (the CLI prints it). */
  signingString: string;
}

/** Signs a request with the CLI: the headers to send and the signing string. */
export function sign(method: string, url: string, extra: Record<string, string>, body?: string): Signed {
  const args = ["sign", "--cert-dir", CERT_DIR, "-X", method, "--url", url, "--show-signing-string"];
  for (const [name, value] of Object.entries(extra)) args.push("-H", `${name}: ${value}`);
  if (body !== undefined) args.push("-d", body);
  const run = spawnSync(SANDBOX_BIN, args, { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${SANDBOX_BIN} sign failed: ${run.stderr}`);
  const headers: Record<string, string> = {};
  for (const line of run.stdout.split("\n")) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  const signingString = run.stderr.split(/signing string:\r?\n/)[1]?.trimEnd() ?? "";
  return { headers, signingString };
}

export function sha256Digest(body: string): string {
  return `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
}

export async function send(
  request: APIRequestContext,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<APIResponse> {
  return request.fetch(url, { method, headers, ...(body !== undefined ? { data: body } : {}), failOnStatusCode: false, maxRedirects: 0 });
}

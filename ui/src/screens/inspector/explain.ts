// What the inspector says about an exchange, from the recorded data and the gate's own definitions
// (`GET /workbench/api/gate`: its steps and the headers it signs, served by the service, not restated here):
// whether the signing strings are worth comparing, the likely cause of a refusal said plainly, and the
// request again as a composer draft.
import type { Exchange } from "../../api/traffic";
import type { Draft, Header } from "../../api/types";
import { diffLines, sameText } from "../../lib/diff";

/**
 * Whether the sandbox's and the client's signing strings are worth comparing: the gate got as far as
 * computing the string and then refused (a step about what was signed), or the composer signed it.
 */
export function comparable(exchange: Exchange): boolean {
  return !!exchange.gate?.signingString && (!!exchange.failedStep || !!exchange.composerSigningString);
}

export function headerValue(headers: readonly Header[], name: string): string | null {
  const found = headers.find(([n]) => n.toLowerCase() === name.toLowerCase());
  return found ? found[1] : null;
}

/**
 * Headers the request carried that the gate signs when present (`signable`, as the gate serves them) but that
 * are missing from the Signature's list.
 */
export function unsignedHeaders(exchange: Exchange, signable: readonly string[]): string[] {
  const signed = new Set((exchange.gate?.signedHeaders ?? []).map((h) => h.toLowerCase()));
  const listed = /headers="([^"]*)"/i.exec(headerValue(exchange.request.headers, "Signature") ?? "")?.[1];
  for (const name of listed?.split(/\s+/) ?? []) if (name) signed.add(name.toLowerCase());
  return signable
    .map((name) => name.toLowerCase())
    .filter((name) => headerValue(exchange.request.headers, name) !== null && !signed.has(name));
}

/** The header names of the signing-string lines that differ between the sandbox's and the client's. */
export function differingHeaders(computed: string, client: string): string[] {
  const names = new Set<string>();
  for (const row of diffLines(computed, client)) {
    if (row.kind === "same") continue;
    for (const side of [row.left, row.right]) {
      const line = (side ?? []).map((s) => s.text).join("");
      const name = line.split(":")[0]?.trim().toLowerCase();
      if (name) names.add(name);
    }
  }
  return [...names];
}

/**
 * The likely cause, said plainly. The service's own words come first; with the client's signing string in
 * hand it can be narrowed: identical strings mean the key is wrong, differing lines name the header.
 */
export function likelyCause(exchange: Exchange, client: string | null, signable: readonly string[] = []): string | null {
  const gate = exchange.gate;
  const step = exchange.failedStep;
  if (!gate) return null;
  const base = gate.likelyCause;
  if (!step) {
    // Accepted by the gate and still refused: the handler's reason (the service says it; else its first
    // tppMessage). A 2xx has no cause to give.
    if (exchange.status < 400) return null;
    const first = exchange.tppMessages.find((m) => m.category !== "WARNING");
    return base ?? (first ? `The gate accepted the request; the handler refused it: ${first.text ?? first.code}` : null);
  }
  if (step === "signed headers") {
    const missing = unsignedHeaders(exchange, signable);
    if (missing.length > 0) {
      return `Header missing from the signed list: the request carries ${missing.join(", ")} but the Signature's headers="…" does not list ${missing.length > 1 ? "them" : "it"}.`;
    }
  }
  if (step === "digest") {
    const body = exchange.request.body ?? "";
    if (!exchange.request.bodyBase64 && body.length > 0 && !body.includes("\n")) {
      return `${base ?? "Digest over a different body."} The body arrived as ${exchange.request.bodyBytes} bytes with no line ends. Sent from a file with “curl -d @file”? curl drops the file's line ends before sending, so a Digest computed over the file as saved does not match: send it with “--data-binary @file”.`;
    }
  }
  if (step === "signature" && client && gate.signingString) {
    if (sameText(gate.signingString, client)) {
      return "Wrong key: the client signed the same signing string the sandbox computed, so the signature was made with another key than the certificate's.";
    }
    const lines = differingHeaders(gate.signingString, client);
    if (lines.includes("date")) return "Date: the client signed another Date than the one it sent (or re-formatted it).";
    if (lines.includes("digest")) return "Digest over a different body: the client signed a Digest other than the one sent.";
    if (lines.length > 0) return `The client signed a different signing string: the ${lines.join(", ")} line${lines.length > 1 ? "s" : ""} differ.`;
  }
  return base ?? null;
}

/** Headers the composer adds itself when it signs (docs/workbench-api.md) or that the transport sets. */
const DROPPED = new Set([
  "date",
  "digest",
  "signature",
  "tpp-signature-certificate",
  "x-request-id",
  "host",
  "content-length",
  "connection",
  "accept-encoding",
  "user-agent",
]);

/** The exchange's request as a composer draft: signing headers left for the composer to make afresh. */
export function draftFromExchange(exchange: Exchange, personaId: string): Draft {
  const draft: Draft = {
    personaId,
    method: exchange.method,
    path: exchange.path,
    headers: exchange.request.headers.filter(([n]) => !DROPPED.has(n.toLowerCase())).map(([n, v]) => [n, v] as Header),
  };
  if (exchange.query) draft.query = exchange.query.replace(/^\?/, "");
  if (exchange.request.body !== null && !exchange.request.bodyBase64 && exchange.request.body !== "") {
    draft.body = exchange.request.body;
  }
  return draft;
}

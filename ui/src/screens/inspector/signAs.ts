// Whom the inspector signs a logged request again with ("Copy as curl", "Open in composer"): the persona
// that sent it when the workbench has it and it may do the operation, else a valid persona that holds the
// PSD2 role the operation needs (from the composer's operations, which name it), or a plain "cannot" that
// says which role is missing. Another app's PSU-ID means nothing to another TPP (psu-ids differ per TPP),
// so signing as another TPP puts the persona's own in its place.
import type { Exchange } from "../../api/traffic";
import type { Draft, Header, Operation, Persona } from "../../api/types";
import { draftFromExchange } from "./explain";

/** How many `{name}` segments a template has: the most literal template that matches wins. */
function placeholders(template: string): number {
  return (template.match(/\{[^}]+\}/g) ?? []).length;
}

/** The composer's operation a logged request is an instance of, if any. */
export function operationOf(exchange: Pick<Exchange, "method" | "path">, operations: readonly Operation[]): Operation | null {
  const candidates = operations.filter((op) => {
    if (op.method !== exchange.method) return false;
    const pattern = op.path
      .split(/(\{[^}]+\})/)
      .map((part) => (/^\{[^}]+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    return new RegExp(`^${pattern}$`).test(exchange.path);
  });
  candidates.sort((a, b) => placeholders(a.path) - placeholders(b.path));
  return candidates[0] ?? null;
}

export type Signer =
  | { persona: Persona; role: string | null; note: string | null }
  | { persona: null; role: string | null; note: string };

function holds(persona: Persona, role: string | null): boolean {
  return role === null || (persona.roles as string[]).includes(role);
}

/** The persona to sign the exchange's request with again, and what to tell the user about the choice. */
export function signerFor(exchange: Exchange, personas: readonly Persona[], operations: readonly Operation[]): Signer {
  const role = operationOf(exchange, operations)?.role ?? null;
  const org = exchange.tpp?.organisationId ?? null;
  const own = personas.filter((p) => org !== null && p.organisationId === org);
  const ownValid = own.find((p) => p.status === "valid" && holds(p, role));
  if (ownValid) return { persona: ownValid, role, note: null };
  const other = personas.find((p) => p.status === "valid" && holds(p, role));
  if (!other) {
    const what = role ? `holds ${role}, which ${exchange.method} ${exchange.path} needs` : "is valid now";
    return {
      persona: null,
      role,
      note: `No persona ${what}: issue one with ${role ?? "a role"} in the Composer (Personas) and try again.`,
    };
  }
  const who = exchange.tpp ? `${exchange.tpp.name} (${exchange.tpp.organisationId})` : "the sender";
  const why = own.length > 0 ? `the workbench's persona of ${who} cannot do it now` : `the workbench has no persona of ${who}`;
  const needs = role ? `, holds ${role}, which this operation needs` : "";
  return {
    persona: other,
    role,
    note: `Signed as ${other.name}${needs} (${why}). The PSU-ID, if any, is ${other.name}'s own: psu-ids differ per TPP.`,
  };
}

/** A persona's placeholders for the headers that name the PSU to one TPP only. */
const PER_TPP: Record<string, string> = {
  "psu-id": "{{persona.psuId}}",
  "psu-corporate-id": "{{persona.psuCorporateId}}",
};

/**
 * The exchange's request as a draft signed by `persona`. Signed as another TPP than the one that sent it,
 * the PSU-ID and PSU-Corporate-ID become the persona's own (left out, and said so, when it has none yet).
 */
export function draftAs(exchange: Exchange, persona: Persona): Draft {
  const draft = draftFromExchange(exchange, persona.id);
  if (exchange.tpp && persona.organisationId === exchange.tpp.organisationId) return draft;
  draft.headers = (draft.headers ?? []).map(([name, value]): Header => [name, PER_TPP[name.toLowerCase()] ?? value]);
  return draft;
}

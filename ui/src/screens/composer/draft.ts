// The composer's editable request and its conversions: from an Operation (a form the service offers),
// from a past request (history), and to the Draft the service previews, sends and exports.
import type { Draft, Header, Operation } from "../../api/types";

export interface EditorState {
  personaId: string;
  method: string;
  /** The path as sent; with a template, the template with the path parameters put in. */
  path: string;
  /** The operation's path with `{name}` placeholders, while the path follows the parameter fields. */
  template: string | null;
  params: Record<string, string>;
  query: Header[];
  headers: Header[];
  body: string;
}

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export const EMPTY_EDITOR: EditorState = {
  personaId: "",
  method: "GET",
  path: "/v1/",
  template: null,
  params: {},
  query: [],
  headers: [],
  body: "",
};

/** `/v1/payments/{product}/{paymentId}` with the given values; an empty value keeps its placeholder. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = params[name]?.trim();
    return value ? encodeURIComponent(value) : whole;
  });
}

/** The editor for an operation; path parameters come from ids seen in earlier answers when known. */
export function fromOperation(op: Operation, personaId: string, knownIds: Record<string, string> = {}): EditorState {
  const params: Record<string, string> = {};
  for (const p of op.pathParams) params[p.name] = (p.source ? knownIds[p.source] : undefined) ?? knownIds[p.name] ?? "";
  return {
    personaId,
    method: op.method.toUpperCase(),
    template: op.path,
    path: fillPath(op.path, params),
    params,
    query: op.query.map((q) => [q.name, q.value] as Header),
    headers: op.headers.map(([n, v]) => [n, v] as Header),
    body: op.body ?? "",
  };
}

/** The editor for a draft sent before (history): everything as it was, no template. */
export function fromDraft(draft: Draft): EditorState {
  const query: Header[] = [];
  if (draft.query) {
    for (const [name, value] of new URLSearchParams(draft.query.replace(/^\?/, ""))) query.push([name, value]);
  }
  return {
    personaId: draft.personaId,
    method: draft.method.toUpperCase(),
    path: draft.path,
    template: null,
    params: {},
    query,
    headers: (draft.headers ?? []).map(([n, v]) => [n, v] as Header),
    body: draft.body ?? "",
  };
}

/** The Draft for the service: query rows joined (no `?`), header rows without a name left out. */
export function toDraft(editor: EditorState): Draft {
  const params = new URLSearchParams();
  for (const [name, value] of editor.query) if (name.trim()) params.append(name.trim(), value);
  const query = params.toString();
  const draft: Draft = {
    personaId: editor.personaId,
    method: editor.method,
    path: editor.path.trim(),
    headers: editor.headers.filter(([n]) => n.trim() !== "").map(([n, v]) => [n.trim(), v] as Header),
  };
  if (query) draft.query = query;
  if (editor.body.trim() !== "") draft.body = editor.body;
  return draft;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The `_links.scaRedirect` of a response body (`{href}` or a plain string), if it has one. */
export function scaRedirectOf(body: string): string | null {
  const parsed = parse(body);
  if (typeof parsed !== "object" || parsed === null) return null;
  const links = (parsed as { _links?: Record<string, unknown> })._links;
  const link = links?.scaRedirect;
  if (typeof link === "string") return link;
  if (typeof link === "object" && link !== null && typeof (link as { href?: unknown }).href === "string") {
    return (link as { href: string }).href;
  }
  return null;
}

const ID_FIELDS = ["paymentId", "consentId", "basketId", "authorisationId", "resourceId", "accountId"] as const;

/** Ids an answer carries that later requests' path parameters usually take. */
export function idsFrom(body: string): Record<string, string> {
  const parsed = parse(body);
  if (typeof parsed !== "object" || parsed === null) return {};
  const record = parsed as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const field of ID_FIELDS) if (typeof record[field] === "string") out[field] = record[field];
  const accounts = record.accounts ?? record.cardAccounts;
  if (Array.isArray(accounts) && accounts.length > 0) {
    const first = accounts[0] as Record<string, unknown>;
    if (typeof first.resourceId === "string") out.accountId = first.resourceId;
  }
  if (out.resourceId && !out.accountId) out.accountId = out.resourceId;
  return out;
}

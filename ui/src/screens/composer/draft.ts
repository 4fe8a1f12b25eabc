// The composer's editable request and its conversions: from an Operation (a form the service offers),
// from a past request (history), and to the Draft the service previews, sends and exports.
import type { Draft, Header, Operation, PathParam } from "../../api/types";

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

/**
 * What the composer has seen of each resource, for the path parameters that follow it: by resource kind
 * (an operation's `follows`: payment, consent, basket, authorisation, account, cardAccount, transaction),
 * the parameters that named it (`paymentService`, `paymentProduct`, `paymentId`) and its `id`.
 */
export type Known = Partial<Record<string, Record<string, string>>>;

/** The value a path parameter starts with: the last resource it follows, else the first of its values. */
export function paramValue(p: PathParam, known: Known): string {
  const seen = p.follows ? (known[p.follows]?.[p.name] ?? (p.values ? undefined : known[p.follows]?.id)) : undefined;
  return seen ?? p.values?.[0] ?? "";
}

/** The editor for an operation; path parameters come from the resources seen earlier when known. */
export function fromOperation(op: Operation, personaId: string, known: Known = {}): EditorState {
  const params: Record<string, string> = {};
  for (const p of op.pathParams) params[p.name] = paramValue(p, known);
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

/** The path parameters of `template` as `path` fills them, or null when the path is not of that template. */
export function matchTemplate(template: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{([^}]+)\\?\}/g, (_, name: string) => {
    names.push(name);
    return "([^/?]+)";
  });
  const found = new RegExp(`^${pattern}$`).exec(path.split("?")[0] ?? "");
  if (!found) return null;
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return Object.fromEntries(names.map((name, i) => [name, decode(found[i + 1] ?? "")]));
}

/** The id fields of answers and the kind of resource each names. */
const CREATED: readonly [string, string][] = [
  ["paymentId", "payment"],
  ["consentId", "consent"],
  ["basketId", "basket"],
  ["authorisationId", "authorisation"],
];

/**
 * What a sent request and its answer add to the resources seen: the path parameters of the operation it
 * was (under the kinds they follow), the resource its answer created (with the request's path parameters,
 * e.g. a payment's service and product), and the first account or card account of an account list.
 */
export function learn(known: Known, operations: readonly Operation[], request: { method: string; path: string }, status: number, body: string): Known {
  const next: Known = { ...known };
  const put = (kind: string, values: Record<string, string>) => (next[kind] = { ...next[kind], ...values });
  // The most literal operation a path fits, as the service's router chooses (`…/signing-baskets/{basketId}`
  // before `…/{paymentService}/{paymentProduct}`), and what its parameters follow.
  const placeholders = (o: Operation) => (o.path.match(/\{/g) ?? []).length;
  const operationOf = (path: string, method?: string) =>
    operations
      .filter((o) => (!method || o.method.toUpperCase() === method.toUpperCase()) && matchTemplate(o.path, path))
      .sort((a, b) => placeholders(a) - placeholders(b))[0];
  const follow = (op: Operation | undefined, path: string) => {
    const values = op ? (matchTemplate(op.path, path) ?? {}) : {};
    for (const p of op?.pathParams ?? []) {
      const value = values[p.name];
      if (p.follows && value) put(p.follows, { [p.name]: value, ...(p.values ? {} : { id: value }) });
    }
    return values;
  };
  if (status >= 400) return next;
  const params = follow(operationOf(request.path, request.method), request.path);
  const parsed = parse(body);
  if (typeof parsed !== "object" || parsed === null) return next;
  const record = parsed as Record<string, unknown>;
  for (const [field, kind] of CREATED) {
    const id = record[field];
    if (typeof id === "string") put(kind, { ...(field === "authorisationId" ? {} : params), [field]: id, id });
  }
  // The answer's links name the resource as later operations do (a payment's self link holds its service,
  // product and id), whatever form created it.
  const links = record._links;
  if (typeof links === "object" && links !== null) {
    for (const link of Object.values(links as Record<string, unknown>)) {
      const href = typeof link === "string" ? link : (link as { href?: unknown } | null)?.href;
      if (typeof href !== "string") continue;
      const path = href.replace(/^https?:\/\/[^/]+/, "");
      follow(operationOf(path), path);
    }
  }
  for (const [list, kind] of [["accounts", "account"], ["cardAccounts", "cardAccount"]] as const) {
    const items = record[list];
    const first = Array.isArray(items) ? (items[0] as Record<string, unknown> | undefined) : undefined;
    if (typeof first?.resourceId === "string") put(kind, { accountId: first.resourceId, id: first.resourceId });
  }
  return next;
}

/** The parameters still without a value: the request cannot go until they have one. */
export function unfilled(editor: EditorState): string[] {
  if (editor.template) return [...editor.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? "").filter((n) => !editor.params[n]?.trim());
  return [...editor.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? "");
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

/**
 * The Draft for the service: query rows joined (no `?`), rows without a name or a value left out (an
 * operation offers its optional query parameters empty: `?allowLogicalDuplicate=` would be a wrong value, not
 * an absent one), header rows without a name left out.
 */
export function toDraft(editor: EditorState): Draft {
  const params = new URLSearchParams();
  for (const [name, value] of editor.query) if (name.trim() && value.trim()) params.append(name.trim(), value);
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

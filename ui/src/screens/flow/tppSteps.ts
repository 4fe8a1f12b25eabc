// The TPP's next step in presentation mode, pure and unit-tested: which persona tells the story (one that holds
// both PSD2 roles, so the TPP keeps one name from the consent to the payment), the steps a trainer sends and
// the order they usually follow, and each step's request made from the composer's own form of it (the
// service's operations: headers, placeholders and body as the composer would send them).
import type { Draft, Operation, Persona } from "../../api/types";

export type TppStepId = "consent" | "accounts" | "straks" | "domestic" | "status";

export interface TppStep {
  id: TppStepId;
  /** What the trainer picks: what the TPP sends. */
  label: string;
  /** The composer's form (an operation's id). */
  operation: string;
}

/** In the order a demo usually takes them: consent and SCA, the accounts, a payment and SCA, its status. */
export const TPP_STEPS: readonly TppStep[] = [
  { id: "consent", label: "A consent request", operation: "bank-offered-consent" },
  { id: "accounts", label: "A read of the accounts", operation: "accounts" },
  { id: "domestic", label: "A domestic payment", operation: "domestic" },
  { id: "straks", label: "A straks (instant) payment", operation: "straks" },
  { id: "status", label: "A read of the payment's status", operation: "payment-status" },
];

/** The step that usually follows `id`: after a payment, its status; after the status, another payment. */
export function nextStep(id: TppStepId): TppStepId {
  switch (id) {
    case "consent":
      return "accounts";
    case "accounts":
      return "domestic";
    case "domestic":
    case "straks":
      return "status";
    case "status":
      return "domestic";
  }
}

/**
 * The persona that tells the story: a usable one holding both PSP_AI and PSP_PI, the journey's own TPP when
 * it is one of those, else a bundled one (the same every time), else any.
 */
export function storyPersona(personas: readonly Persona[], journeyTpp?: string | null): Persona | null {
  const both = personas.filter((p) => p.status === "valid" && p.roles.includes("PSP_AI") && p.roles.includes("PSP_PI"));
  return (
    both.find((p) => journeyTpp && p.name === journeyTpp) ??
    both.find((p) => p.source === "bundled") ??
    both[0] ??
    null
  );
}

/** The payment a status read is about: the journey's. */
export interface PaymentRef {
  service: string;
  product: string;
  paymentId: string;
}

/** The payment of a journey from the path of the request that created it and the journey's id (`payment:<id>`). */
export function paymentOf(journeyId: string | null | undefined, creationPath: string | undefined): PaymentRef | null {
  const id = journeyId?.startsWith("payment:") ? journeyId.slice("payment:".length) : null;
  const found = /^\/v1\/(payments|periodic-payments|bulk-payments)\/([^/?]+)$/.exec(creationPath ?? "");
  return id && found ? { service: found[1] as string, product: found[2] as string, paymentId: id } : null;
}

/**
 * The request of step `op` as the composer sends it for `personaId`; a status read needs the payment. Path
 * parameters are filled by name (`service`, `product`, `paymentId` and the document's longer names).
 */
export function draftOf(op: Operation, personaId: string, payment: PaymentRef | null): Draft | null {
  const values: Record<string, string> = payment
    ? { service: payment.service, paymentService: payment.service, product: payment.product, paymentProduct: payment.product, paymentId: payment.paymentId }
    : {};
  let missing = false;
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (!value) missing = true;
    return encodeURIComponent(value ?? "");
  });
  if (missing) return null;
  const query = op.query
    .filter((q) => q.value)
    .map((q) => `${encodeURIComponent(q.name)}=${encodeURIComponent(q.value)}`)
    .join("&");
  return {
    personaId,
    method: op.method.toUpperCase(),
    path,
    ...(query ? { query } : {}),
    headers: op.headers.map(([n, v]) => [n, v] as [string, string]),
    ...(op.body ? { body: op.body } : {}),
  };
}

/** The scaRedirect an answer links to, if any (a link object or a plain string). */
export function scaRedirectOf(body: string): string | null {
  try {
    const link = (JSON.parse(body) as { _links?: { scaRedirect?: { href?: string } | string } })._links?.scaRedirect;
    const href = typeof link === "string" ? link : link?.href;
    return typeof href === "string" && href ? href : null;
  } catch {
    return null;
  }
}

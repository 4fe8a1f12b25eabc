// Builds request bodies from form values: optional fields left empty are left out rather than sent as "".

/** `value` trimmed, or undefined when empty. */
export function optional(value: string | undefined | null): string | undefined {
  const v = (value ?? "").trim();
  return v === "" ? undefined : v;
}

/** An `{amount, currency}` object, or undefined when no amount was typed. */
export function optionalAmount(amount: string, currency: string): { amount: string; currency: string } | undefined {
  const a = optional(amount);
  if (a === undefined) return undefined;
  return { amount: a, currency: currency.trim() };
}

/** Removes undefined members so the JSON body carries only what the user gave. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}
